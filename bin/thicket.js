#!/usr/bin/env node
// The `thicket` command. Runs the built CLI (out/main/cli.js) when it is at least as new as the
// sources; otherwise runs the TypeScript sources through tsx, so a fresh clone or an edited tree
// works without a build step.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'out/main/cli.js');
const source = join(root, 'src-main/cli/main.ts');

// Thicket needs Node 22 (better-sqlite3's prebuilt binary crashes older Nodes). Run directly
// from a shell whose `node` is older, re-run this same command with the pinned Node 22 that
// `npm install` provides (the devDependency `node`), as a child that lives and dies with this
// process (docs/design.md, "Robustness").
if (Number(process.versions.node.split('.')[0]) < 22) {
  const pinned = join(root, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(pinned)) {
    process.stderr.write(`thicket: Node ${process.versions.node} is too old; Thicket needs Node 22 (run npm install, which provides it).\n`);
    process.exit(1);
  }
  relaunch(pinned);
} else {
  await main();
}

/** Runs the command under `node`, passes signals on to it and exits as it exits. */
function relaunch(node) {
  const child = spawn(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, THICKET_WRAPPER_PID: String(process.pid) },
  });
  const pass = (signal) => {
    // Ctrl+C at a terminal reaches the child too (one process group): passing it on would be a
    // second press, which ends a command instead of cancelling its job.
    if (signal === 'SIGINT' && process.stdin.isTTY) return;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, pass);
  child.on('error', (e) => {
    process.stderr.write(`thicket: cannot start ${node}: ${e.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const s of signals) process.off(s, pass);
    if (signal) process.kill(process.pid, signal); // end the same way, so the caller sees the signal
    process.exit(code ?? 1);
  });
}

/**
 * When this process is the child of a wrapper (above) and the wrapper is killed outright
 * (SIGKILL, which it cannot pass on), it is re-parented: end then, as the wrapper did.
 */
function exitWithWrapper() {
  const wrapper = Number(process.env.THICKET_WRAPPER_PID);
  delete process.env.THICKET_WRAPPER_PID;
  if (!wrapper || process.ppid !== wrapper) return;
  setInterval(() => process.ppid !== wrapper && process.kill(process.pid, 'SIGTERM'), 500).unref();
}

async function main() {
  exitWithWrapper();
  if (useBuild()) {
    await import(pathToFileURL(built).href);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import(pathToFileURL(source).href);
  }
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function useBuild() {
  if (!existsSync(built)) return false;
  if (!existsSync(source)) return true; // installed without sources
  const srcNewest = Math.max(newestMtime(join(root, 'src-main')), newestMtime(join(root, 'src-worker')));
  return statSync(built).mtimeMs >= srcNewest;
}

#!/usr/bin/env node
// The `thicket` command. Runs the built CLI (out/main/cli.js) when it is at least as new as the
// sources; otherwise runs the TypeScript sources through tsx, so a fresh clone or an edited tree
// works without a build step.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// Thicket needs Node 22 (better-sqlite3's prebuilt binary crashes older Nodes). Run directly
// from a shell whose `node` is older, re-run this same command with the pinned Node 22 that
// `npm install` provides (the devDependency `node`).
if (Number(process.versions.node.split('.')[0]) < 22) {
  const pinned = join(root, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!existsSync(pinned)) {
    process.stderr.write(`thicket: Node ${process.versions.node} is too old; Thicket needs Node 22 (run npm install, which provides it).\n`);
    process.exit(1);
  }
  const r = spawnSync(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
const built = join(root, 'out/main/cli.js');
const source = join(root, 'src-main/cli/main.ts');

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

if (useBuild()) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(source).href);
}

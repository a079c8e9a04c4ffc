// `npm run web [-- --port N --project FILE --home DIR]`: build if the output is missing or
// older than the sources, then run the browser-mode host (out/main/web.js).
// Also imported by scripts/start.js for its fallback, so running is guarded by isMain.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const SOURCES = ['src-main', 'src-worker', 'src-renderer', 'resources', 'electron.vite.config.ts', 'package.json'];

function newestMtime(path) {
  let st;
  try {
    st = statSync(path);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs; // a deleted file shows only as a newer directory
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** Why a build is needed ('missing …' / 'sources changed'), or null when the output is current. */
export function buildReason(outputs) {
  const missing = outputs.filter((o) => !existsSync(join(ROOT, o)));
  if (missing.length) return `missing ${missing.join(', ')}`;
  const oldest = Math.min(...outputs.map((o) => statSync(join(ROOT, o)).mtimeMs));
  const newest = Math.max(...SOURCES.map((s) => newestMtime(join(ROOT, s))));
  return newest > oldest ? 'the sources changed since the last build' : null;
}

/** Build with electron-vite if needed; exits the process when the build fails. */
export function ensureBuilt(outputs) {
  const reason = buildReason(outputs);
  if (!reason) return;
  console.error(`thicket: building first (${reason})…`);
  // The local bin under the pinned Node: `npx` would run whatever `node` is first on PATH.
  const bin = join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const result = existsSync(bin)
    ? spawnSync(nodeBinary(), [bin, 'build'], { cwd: ROOT, stdio: 'inherit' })
    : spawnSync('npx', ['electron-vite', 'build'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error('thicket: the build failed; see the messages above.');
    process.exit(result.status || 1);
  }
}

/** Run a child with inherited stdio, pass our signals on, and exit with its status. */
export function runForwarding(command, args, options = {}) {
  const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const forward = (sig) => child.kill(sig);
  for (const sig of signals) process.on(sig, forward);
  child.on('error', (e) => {
    console.error(`thicket: cannot start ${command}: ${e.message}`);
    process.exit(1);
  });
  // `npm run` does not pass SIGTERM on to its script: killing npm would orphan us and leave the
  // server holding its port and the project file. Under npm, a new parent means npm is gone.
  const parent = process.ppid;
  const watchdog = process.env.npm_lifecycle_event
    ? setInterval(() => process.ppid !== parent && child.kill('SIGTERM'), 1000).unref()
    : null;
  child.on('exit', (code, signal) => {
    if (watchdog) clearInterval(watchdog);
    for (const sig of signals) process.off(sig, forward);
    process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
  });
  return child;
}

/**
 * The Node that runs the host and the build: better-sqlite3 is compiled for the pinned Node 22
 * (npm's `node` package) and crashes under another ABI, so `node scripts/web.js` under an
 * older system Node switches to the pinned binary instead.
 */
export function nodeBinary() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const pinned = join(ROOT, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (existsSync(pinned)) return pinned;
  console.error(`thicket: Node ${process.versions.node} is too old; Thicket needs Node 22 (npm install provides it: use npm run web).`);
  process.exit(1);
}

export const WEB_OUTPUTS = ['out/main/web.js', 'out/renderer/index.html'];

export function runWeb(args) {
  ensureBuilt(WEB_OUTPUTS);
  return runForwarding(nodeBinary(), [join(ROOT, 'out', 'main', 'web.js'), ...args]);
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) runWeb(process.argv.slice(2));

// `npm start`: the Electron desktop app, or browser mode where the Electron runtime is absent.
//
// We must not `require('electron')`: its index.js downloads the binary when it is missing,
// which fails (slowly) offline. So we repeat its lookup without the download:
// node_modules/electron/path.txt names the binary under dist/, and ELECTRON_OVERRIDE_DIST_PATH
// replaces dist/.
//
// THICKET_START_DRY_RUN=1 prints the decision as one JSON object on stdout and exits (tests).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, buildReason, ensureBuilt, runForwarding, runWeb, WEB_OUTPUTS } from './web.js';

export const FALLBACK_MESSAGE =
  'The Electron runtime is not installed (it is downloaded on first run and this machine is offline); starting browser mode instead.';

const ELECTRON_OUTPUTS = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'];

/** { path, reason }: path is the Electron binary, or null with the reason it is unusable. */
function findElectron(env) {
  const pkg = join(ROOT, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  const named = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  let binary;
  if (env.ELECTRON_OVERRIDE_DIST_PATH) binary = join(env.ELECTRON_OVERRIDE_DIST_PATH, named || 'electron');
  else if (!existsSync(pkg)) return { path: null, reason: 'node_modules/electron is not installed' };
  else if (!named) return { path: null, reason: 'node_modules/electron/path.txt is missing (the binary was never downloaded)' };
  else binary = join(pkg, 'dist', named);
  return existsSync(binary) ? { path: binary, reason: null } : { path: null, reason: `${binary} does not exist` };
}

const args = process.argv.slice(2);
const electron = findElectron(process.env);
const mode = electron.path ? 'electron' : 'web';

if (process.env.THICKET_START_DRY_RUN === '1') {
  const outputs = mode === 'electron' ? ELECTRON_OUTPUTS : WEB_OUTPUTS;
  if (mode === 'web') console.error(FALLBACK_MESSAGE);
  console.log(JSON.stringify({ mode, electron: electron.path, reason: electron.reason, message: mode === 'web' ? FALLBACK_MESSAGE : null, build: buildReason(outputs), args }));
  process.exit(0);
}

if (mode === 'electron') {
  ensureBuilt(ELECTRON_OUTPUTS);
  // ELECTRON_RUN_AS_NODE left over in the environment would make the binary a plain Node.
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  runForwarding(electron.path, [ROOT, ...args], { env });
} else {
  console.error(`${FALLBACK_MESSAGE}\n  (${electron.reason})`);
  runWeb(args);
}

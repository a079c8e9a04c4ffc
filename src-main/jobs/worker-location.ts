import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Where the worker entry is. In the built app (out/main/*.js) it is the sibling bundle
 * `worker.js`. Under vitest or the source CLI there is no bundle (electron-vite's
 * `?modulePath` imports do not resolve under vitest), so the worker runs
 * src-worker/tasks/entry.ts through the tsx loader.
 */
export interface WorkerLocation {
  filename: string;
  execArgv: string[];
}

/**
 * The tsx loader by its absolute URL: a bare `--import tsx` resolves from the working folder, so
 * the source CLI run from any other folder had workers that could not start.
 */
function tsxLoader(): string[] {
  return ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href];
}

export function locateWorker(): WorkerLocation {
  const override = process.env.THICKET_WORKER_ENTRY;
  if (override) return { filename: override, execArgv: override.endsWith('.ts') ? tsxLoader() : [] };
  // This module may be bundled into out/main/ or into a shared chunk under out/main/chunks/.
  const bundled = ['./worker.js', '../worker.js'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  const found = bundled.find((p) => existsSync(p));
  if (found) return { filename: found, execArgv: [] };
  const source = fileURLToPath(new URL('../../src-worker/tasks/entry.ts', import.meta.url));
  if (existsSync(source)) return { filename: source, execArgv: tsxLoader() };
  throw new Error(`Thicket's worker entry is missing: looked for ${bundled.join(', ')} and ${source}. Run \`npm run build\`.`);
}

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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

export function locateWorker(): WorkerLocation {
  const override = process.env.THICKET_WORKER_ENTRY;
  if (override) return { filename: override, execArgv: override.endsWith('.ts') ? ['--import', 'tsx'] : [] };
  // This module may be bundled into out/main/ or into a shared chunk under out/main/chunks/.
  const bundled = ['./worker.js', '../worker.js'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  const found = bundled.find((p) => existsSync(p));
  if (found) return { filename: found, execArgv: [] };
  const source = fileURLToPath(new URL('../../src-worker/tasks/entry.ts', import.meta.url));
  if (existsSync(source)) return { filename: source, execArgv: ['--import', 'tsx'] };
  throw new Error(`Thicket's worker entry is missing: looked for ${bundled.join(', ')} and ${source}. Run \`npm run build\`.`);
}

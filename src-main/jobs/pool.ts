import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { locateWorker } from './worker-location';

/** Default pool size: every core but one for the main thread, at least one. */
export function defaultWorkerCount(): number {
  return Math.max(1, availableParallelism() - 1);
}

export function createPool(workers = defaultWorkerCount()): Piscina {
  const { filename, execArgv } = locateWorker();
  return new Piscina({
    filename,
    execArgv,
    minThreads: 1,
    maxThreads: Math.max(1, workers),
    // Workers are reused across tasks; an idle one lingers briefly so bursts don't pay start-up.
    idleTimeout: 30_000,
  });
}

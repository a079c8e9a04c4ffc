import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { locateWorker } from './worker-location';

/** Default pool size: every core but one for the main thread, at least one. */
export function defaultWorkerCount(): number {
  return Math.max(1, availableParallelism() - 1);
}

/**
 * The job pool: every core but one, for the work that jobs submit (imports, fits, simulation
 * batches, studies), which can hold every thread for minutes.
 */
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

/**
 * The interactive lane: one more thread for what a person waits on — a log's cloud and timeline,
 * a scene's preview, a profile's beams, an import's first checks — so that a pool full of long
 * jobs never holds a page up. Started on first use and let go when idle.
 */
export function createInteractivePool(): Piscina {
  const { filename, execArgv } = locateWorker();
  return new Piscina({ filename, execArgv, minThreads: 0, maxThreads: 1, idleTimeout: 30_000 });
}

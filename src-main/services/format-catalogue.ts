/**
 * The formats Thicket reads and writes, as the worker's format registry describes them
 * (labels, extensions, what an import needs). The host does not load the decoders: it asks a
 * worker once per pool and keeps the answer, since the registry cannot change while it runs.
 */
import type { Piscina } from 'piscina';
import { poolFor, type WorkerPools } from '../jobs/lanes';
import type { FormatCatalogue } from '../../src-common/format-info';
import { runTransient } from '../jobs/job-runner';

const cache = new WeakMap<Piscina, Promise<FormatCatalogue>>();

export function formatCatalogue(pools: WorkerPools): Promise<FormatCatalogue> {
  const pool = poolFor(pools, 'format-catalogue');
  let p = cache.get(pool);
  if (!p) {
    p = runTransient(pool, 'format-catalogue', {}).then((r) => r.result as FormatCatalogue);
    // A failed call (a pool being destroyed) is not kept: the next caller asks again.
    p.catch(() => cache.delete(pool));
    cache.set(pool, p);
  }
  return p;
}

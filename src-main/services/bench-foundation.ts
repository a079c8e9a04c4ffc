/**
 * Foundation benchmarks, printed by `thicket bench` (and `npm run bench`): the figures the
 * rest of Thicket stands on. Each runs on a throw-away project in a temporary folder.
 *  - pool: round trips of tiny tasks through piscina (the per-task overhead of the job system)
 *  - store: chunked typed-array BLOB write and read throughput (fsync'd WAL commits)
 *  - import: a synthetic KITTI scan through the whole import job (read, decode, transfer, store)
 *  - display: a 5-million-point log decimated to the default 2-million-point budget for the
 *    viewport (what a user waits for when opening a big log)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppServices } from './app-services';

export interface FoundationBench {
  workers: number;
  pool: { tasks: number; tasksPerSecond: number };
  store: { megabytes: number; writeMBps: number; readMBps: number };
  import: { points: number; seconds: number; pointsPerSecond: number; mbPerSecond: number };
  display: { points: number; budget: number; seconds: number; shown: number };
}

export async function benchFoundation(services: AppServices, progress: (msg: string) => void): Promise<FoundationBench> {
  const dir = mkdtempSync(join(tmpdir(), 'thicket-bench-'));
  try {
    await services.call('project.create', { path: join(dir, 'bench.thicket') });
    const session = services.requireSession();

    progress('pool: 200 tiny tasks');
    const tasks = 200;
    await session.runner.runTransient('sum-array', { values: new Float64Array(8) }); // warm a worker
    let t0 = performance.now();
    await Promise.all(Array.from({ length: tasks }, () => session.runner.runTransient('sum-array', { values: new Float64Array(8) })));
    const poolSeconds = (performance.now() - t0) / 1000;

    progress('store: 256 MB of chunked BLOBs');
    const megabytes = 256;
    const values = new Float32Array((megabytes * 1024 * 1024) / 4);
    for (let i = 0; i < values.length; i++) values[i] = i * 0.5;
    const owner = session.store.logs.beginImport({ name: 'bench', format: 'kitti-bin', sourcePath: null, profileId: null, jobId: null });
    const arrays = session.store.arrays('log_arrays');
    t0 = performance.now();
    arrays.writeArray(owner, 'bench', values);
    const writeSeconds = (performance.now() - t0) / 1000;
    t0 = performance.now();
    const back = arrays.readArray(owner, 'bench');
    const readSeconds = (performance.now() - t0) / 1000;
    if (!back || back.length !== values.length) throw new Error('bench: the stored array did not read back whole');
    session.store.logs.discard(owner);

    progress('import: 2,000,000-point KITTI scan');
    const points = 2_000_000;
    const file = join(dir, 'scan.bin');
    writeFileSync(file, syntheticScan(points));
    t0 = performance.now();
    const imported = await importAndWait(services, file);
    const importSeconds = (performance.now() - t0) / 1000;

    progress('display: 5,000,000-point log at a 2,000,000-point budget');
    const bigPoints = 5_000_000;
    const bigFile = join(dir, 'big.bin');
    writeFileSync(bigFile, syntheticScan(bigPoints));
    const bigLog = await importAndWait(services, bigFile);
    t0 = performance.now();
    const cloud = await services.call('logs.cloud', { id: bigLog, budget: 2_000_000 });
    const displaySeconds = (performance.now() - t0) / 1000;
    void imported;

    return {
      workers: services.options.workers,
      pool: { tasks, tasksPerSecond: round(tasks / poolSeconds) },
      store: { megabytes, writeMBps: round(megabytes / writeSeconds), readMBps: round(megabytes / readSeconds) },
      import: {
        points,
        seconds: round(importSeconds, 3),
        pointsPerSecond: round(points / importSeconds),
        mbPerSecond: round((points * 16) / 1048576 / importSeconds),
      },
      display: { points: bigPoints, budget: 2_000_000, seconds: round(displaySeconds, 3), shown: cloud.positions.length / 3 },
    };
  } finally {
    await services.call('project.close', {});
    rmSync(dir, { recursive: true, force: true });
  }
}

async function importAndWait(services: AppServices, file: string): Promise<number> {
  const { job } = await services.call('logs.importFile', { path: file });
  const final = await services.whenJobSettled(job.id);
  if (final.state !== 'done') throw new Error(`bench: import ${final.state}: ${final.error}`);
  return final.result!.log as number;
}

/** A KITTI .bin of n points spiralling around the sensor, deterministic. */
function syntheticScan(points: number): Uint8Array {
  const f = new Float32Array(4 * points);
  for (let i = 0; i < points; i++) {
    const a = (i / points) * Math.PI * 128;
    f[4 * i] = 10 * Math.cos(a);
    f[4 * i + 1] = 10 * Math.sin(a);
    f[4 * i + 2] = (i % 64) * 0.05 - 1.5;
    f[4 * i + 3] = (i % 100) / 100;
  }
  return new Uint8Array(f.buffer);
}

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

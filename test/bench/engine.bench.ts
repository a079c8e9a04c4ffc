/**
 * The engine benchmark on its own (what `thicket bench` runs as its ray-casting part):
 *
 *   npx tsx test/bench/engine.bench.ts [--workers N] [--triangles FILE --rays FILE]
 *                                      [--stride N] [--target TRIANGLES] [--write DIR] [--json]
 *
 * --write DIR also writes the default scene and rays as bench files (bench-triangles.bin,
 * bench-rays.bin) so other ray casters can be run on exactly the same input.
 */
import { MessageChannel } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPool } from '../../src-main/jobs/pool';
import { benchEngine } from '../../src-main/services/bench-engine';
import type { BenchEngineTaskInput } from '../../src-worker/tasks/bench-engine';
import { buildOffroadBenchScene } from '../../src-worker/site/offroad';
import { revolutionRays } from '../../src-worker/site/bench-rays';
import { flattenSceneTriangles } from '../../src-worker/scene/scene-data';
import { encodeRaysFile, encodeTrianglesFile } from '../../src-worker/formats/bench-files';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const workers = Number(flag('workers') ?? Math.max(1, availableParallelism() - 1));

const writeDir = flag('write');
if (writeDir) {
  mkdirSync(writeDir, { recursive: true });
  const s = buildOffroadBenchScene({ seed: 1, targetTriangles: Number(flag('target') ?? 1_500_000) });
  writeFileSync(join(writeDir, 'bench-triangles.bin'), encodeTrianglesFile(flattenSceneTriangles(s.data).positions));
  writeFileSync(join(writeDir, 'bench-rays.bin'), encodeRaysFile(revolutionRays(s.poses), 120));
  console.error(`wrote ${join(writeDir, 'bench-triangles.bin')} and ${join(writeDir, 'bench-rays.bin')}`);
}

const pool = createPool(workers);
const runTask = async (input: BenchEngineTaskInput): Promise<unknown> => {
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (m: { type: string; message?: string }) => {
    if (m.type === 'progress' && m.message && m.message !== 'started') console.error(`  worker: ${m.message}`);
  });
  const cancel = new Int32Array(new SharedArrayBuffer(4));
  try {
    return await pool.run({ task: 'bench-engine', input, port: port2, cancel }, { transferList: [port2] as never });
  } finally {
    port1.close();
  }
};

const t0 = performance.now();
const tri = flag('triangles'), rays = flag('rays'), target = flag('target');
const result = await benchEngine(
  {
    workers, runTask,
    ...(tri ? { trianglesFile: tri } : {}),
    ...(rays ? { raysFile: rays } : {}),
    threeStride: Number(flag('stride') ?? 1),
    ...(target ? { targetTriangles: Number(target) } : {}),
  },
  (m) => console.error(`bench: ${m}`),
);
await pool.destroy();
if (args.includes('--json')) {
  console.log(JSON.stringify(result));
} else {
  const e = result.engine, t = result.threeMeshBvh, d = result.details;
  console.log([
    `input:   ${d.source}: ${d.triangles} triangles, ${d.rays} rays (max range ${d.maxRange} m)`,
    `engine:  ${e.raysPerSecond.toLocaleString('en')} rays/s on one thread, ${e.raysPerSecondPool.toLocaleString('en')} rays/s on ${d.workers} workers`,
    `         BVH build ${e.buildMs} ms, ${(e.memoryBytes / 1048576).toFixed(1)} MiB, ${e.hits} hits`,
    `three-mesh-bvh: ${t.raysPerSecond.toLocaleString('en')} rays/s on one thread (${d.threeRays} rays), build ${d.threeBuildMs} ms, ${t.hits} hits`,
    `speed-up ${d.speedup}×, hit difference ${(100 * d.hitDifference).toFixed(4)} % (engine ${d.engineHitsOnSubsample} on the same rays)`,
    `total ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  ].join('\n'));
}

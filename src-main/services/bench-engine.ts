/**
 * The ray-casting benchmark of `thicket bench`: the engine's closest-hit
 * throughput on one thread and on the worker pool, its BVH build time and memory, and — on the
 * same triangles and rays — three-mesh-bvh's (SAH build, raycastFirst, DoubleSide).
 *
 * Every heavy step runs in the worker task 'bench-engine' (src-worker/tasks/bench-engine.ts);
 * `runTask(input)` must run that task on the piscina pool and resolve to its return value,
 * e.g. `(input) => session.runner.runTransient('bench-engine', input).then((r) => r.result)`.
 * The scene, triangles and rays live in SharedArrayBuffers, so the pool's tasks share them.
 *
 * Default input: the 1.5 M-triangle off-road scene (src-worker/site/offroad.ts) flattened to
 * world triangles, and an HDL-64E revolution (64 lasers, −24.8°…+2°, 0.09° steps) from 10
 * poses along its trail: 2.56 M rays, max range 120 m. With files: decodeTrianglesFile /
 * decodeRaysFile (src-worker/formats/bench-files.ts).
 */
import type {
  BenchEngineRun, BenchEngineTaskInput, BenchPrepared, BenchThreeRun,
} from '../../src-worker/tasks/bench-engine';

export interface BenchEngineOptions {
  trianglesFile?: string;
  raysFile?: string;
  /** Tasks the rays are split over for the pool figure. */
  workers: number;
  runTask: (input: BenchEngineTaskInput) => Promise<unknown>;
  /** three-mesh-bvh casts every `threeStride`-th ray (default 1: all of them). */
  threeStride?: number;
  /** Default scene: seed and triangle budget. */
  seed?: number;
  targetTriangles?: number;
}

export interface BenchEngineResult {
  engine: { raysPerSecond: number; raysPerSecondPool: number; buildMs: number; memoryBytes: number; hits: number };
  threeMeshBvh: { raysPerSecond: number; hits: number };
  details: {
    source: string;
    triangles: number;
    rays: number;
    skippedRays: number;
    skippedTriangles: number;
    maxRange: number;
    workers: number;
    /** three-mesh-bvh cast every stride-th ray; its hits compare with engine.hitsOnSubsample. */
    threeStride: number;
    threeRays: number;
    threeBuildMs: number;
    engineHitsOnSubsample: number;
    /** |engine − three| / three on the same rays. */
    hitDifference: number;
    speedup: number;
    /** Which traversal cast: 'wasm' (the SIMD kernel) or 'js' (runtime without WebAssembly SIMD). */
    kernel: 'wasm' | 'js';
    /** The kernel's layout of the scene (triangles, instances, 4-wide trees), shared by the threads, and its set-up time. */
    kernelMemoryBytes: number;
    kernelBuildMs: number | null;
    /** What each casting thread adds to the kernel memory (thread-local block and stack). */
    kernelThreadBytes: number;
    sceneInfo?: BenchPrepared['sceneInfo'];
  };
}

const round = (x: number, digits = 0) => Math.round(x * 10 ** digits) / 10 ** digits;

export async function benchEngine(opts: BenchEngineOptions, progress: (msg: string) => void): Promise<BenchEngineResult> {
  const workers = Math.max(1, Math.floor(opts.workers));
  const stride = Math.max(1, Math.floor(opts.threeStride ?? 1));
  progress(opts.trianglesFile ? `loading ${opts.trianglesFile} and ${opts.raysFile}` : 'building the 1.5 M-triangle off-road scene and HDL-64E rays');
  const prep = (await opts.runTask({
    op: 'prepare',
    ...(opts.trianglesFile ? { trianglesFile: opts.trianglesFile } : {}),
    ...(opts.raysFile ? { raysFile: opts.raysFile } : {}),
    seed: opts.seed ?? 1,
    targetTriangles: opts.targetTriangles ?? 1_500_000,
  })) as BenchPrepared;
  const n = prep.rayCount;
  progress(`${prep.triangleCount} triangles, ${n} rays (${prep.skippedRays} skipped), engine BVH built in ${round(prep.buildMs)} ms`);

  const base = { scene: prep.scene, rays: prep.rays, maxRange: prep.maxRange, stride };
  progress('engine: one thread');
  const single = (await opts.runTask({ op: 'engine', ...base, start: 0, end: n, warmup: Math.min(n, 200_000) })) as BenchEngineRun;

  progress(`engine: pool of ${workers}`);
  const slices = (fn: (start: number, end: number) => BenchEngineTaskInput) =>
    Array.from({ length: workers }, (_, k) => fn(Math.floor((k * n) / workers), Math.floor(((k + 1) * n) / workers)));
  // Warm every worker (JIT and query set-up), then time a full pass over the rays.
  await Promise.all(slices((s, e) => ({ op: 'engine', ...base, start: s, end: Math.min(e, s + 50_000) })).map((i) => opts.runTask(i)));
  const t0 = performance.now();
  const parts = (await Promise.all(slices((s, e) => ({ op: 'engine', ...base, start: s, end: e })).map((i) => opts.runTask(i)))) as BenchEngineRun[];
  const poolSeconds = (performance.now() - t0) / 1000;
  const poolHits = parts.reduce((s, p) => s + p.hits, 0);
  if (poolHits !== single.hits) throw new Error(`bench: the pool found ${poolHits} hits but one thread found ${single.hits}`);

  progress(`three-mesh-bvh: SAH build and raycastFirst${stride > 1 ? ` on every ${stride}th ray` : ''}`);
  const three = (await opts.runTask({ op: 'three', triangles: prep.triangles, rays: prep.rays, maxRange: prep.maxRange, stride, warmup: Math.min(n, 50_000) })) as BenchThreeRun;

  const engineRps = single.rays / single.seconds;
  const threeRps = three.rays / three.seconds;
  const hitDifference = three.hits > 0 ? Math.abs(single.hitsOnStride - three.hits) / three.hits : single.hitsOnStride === 0 ? 0 : 1;
  return {
    engine: {
      raysPerSecond: round(engineRps),
      raysPerSecondPool: round(n / poolSeconds),
      buildMs: round(prep.buildMs, 1),
      memoryBytes: prep.memoryBytes,
      hits: single.hits,
    },
    threeMeshBvh: { raysPerSecond: round(threeRps), hits: three.hits },
    details: {
      source: prep.source,
      triangles: prep.triangleCount,
      rays: n,
      skippedRays: prep.skippedRays,
      skippedTriangles: prep.skippedTriangles,
      maxRange: prep.maxRange,
      workers,
      threeStride: stride,
      threeRays: three.rays,
      threeBuildMs: round(three.buildMs, 1),
      engineHitsOnSubsample: single.hitsOnStride,
      hitDifference,
      speedup: round(engineRps / threeRps, 2),
      kernel: single.kernelBuildMs === null ? 'js' : 'wasm',
      kernelMemoryBytes: single.kernelMemoryBytes,
      kernelThreadBytes: single.kernelThreadBytes,
      kernelBuildMs: single.kernelBuildMs === null ? null : round(single.kernelBuildMs, 1),
      ...(prep.sceneInfo ? { sceneInfo: prep.sceneInfo } : {}),
    },
  };
}

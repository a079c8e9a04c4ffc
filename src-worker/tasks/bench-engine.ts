/**
 * Worker task 'bench-engine': the pieces of the ray-casting benchmark (docs/benchmarks.md), run by
 * src-main/services/bench-engine.ts. One task name, several operations (`op`):
 *
 *  - prepare: load the triangles/rays files (or build the default 1.5 M-triangle off-road scene
 *    and an HDL-64E revolution from 10 poses), flatten to world triangles, build the engine's
 *    BVH over them (one mesh primitive, one identity instance) into SharedArrayBuffers.
 *    Returns the SAB-backed triangles, rays and SceneData (shared with later tasks, not copied).
 *  - engine: closestSurface for rays [start, end) on the shared scene (max range from the
 *    file): hits, seconds (timed inside the worker after a warm-up), and the hits on the
 *    three-mesh-bvh subsample (every `stride`-th ray) for the agreement check.
 *  - three: three-mesh-bvh on the same triangles (non-indexed BufferGeometry, SAH build,
 *    raycastFirst with DoubleSide and far = maxRange) over every `stride`-th ray.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { decodeRaysFile, decodeTrianglesFile } from '../formats/bench-files';
import { revolutionRays } from '../site/bench-rays';
import { buildOffroadBenchScene } from '../site/offroad';
import { createSceneQuery } from '../scene/scene-bvh';
import { layoutKernelScene } from '../scene/kernel/kernel-scene';
import { SceneBuilder } from '../scene/scene-builder';
import { flattenSceneTriangles, sceneMemoryBytes, sceneStats } from '../scene/scene-data';
import { type SceneData } from '../../src-common/scene-data';
import { newSurfaceHit } from '../scene/scene-query';
import type { TaskContext } from './task-context';

export interface BenchPrepareInput {
  op: 'prepare';
  trianglesFile?: string;
  raysFile?: string;
  /** Default scene parameters. */
  seed?: number;
  sizeM?: number;
  targetTriangles?: number;
  /** Max range for the generated rays (m); default 120 (HDL-64E). */
  maxRange?: number;
}

export interface BenchPrepared {
  triangles: Float32Array;
  rays: Float32Array;
  rayCount: number;
  triangleCount: number;
  maxRange: number;
  skippedRays: number;
  skippedTriangles: number;
  scene: SceneData;
  buildMs: number;
  memoryBytes: number;
  source: string;
  /** Default scene only: unique and placed triangles of the instanced scene. */
  sceneInfo?: { uniqueTriangles: number; instancedTriangles: number; instances: number; instancedMemoryBytes: number; instancedBuildMs: number };
}

export interface BenchEngineInput {
  op: 'engine';
  scene: SceneData;
  rays: Float32Array;
  start: number;
  end: number;
  maxRange: number;
  /** Rays to cast (and discard) first, to warm the JIT. */
  warmup?: number;
  /** Count hits also over rays with index % stride === 0 (the three-mesh-bvh subsample). */
  stride?: number;
}

export interface BenchThreeInput {
  op: 'three';
  triangles: Float32Array;
  rays: Float32Array;
  maxRange: number;
  stride: number;
  warmup?: number;
}

export type BenchEngineTaskInput = BenchPrepareInput | BenchEngineInput | BenchThreeInput;

export interface BenchEngineRun {
  rays: number;
  hits: number;
  seconds: number;
  hitsOnStride: number;
  raysOnStride: number;
  /** The WebAssembly kernel's layout of the scene, shared by the threads (0 / null: the JS traversal cast). */
  kernelMemoryBytes: number;
  kernelBuildMs: number | null;
  /** What this thread added to the kernel memory (its thread-local block and stack). */
  kernelThreadBytes: number;
}

export interface BenchThreeRun {
  rays: number;
  hits: number;
  seconds: number;
  buildMs: number;
}

function shared(src: Float32Array): Float32Array {
  const out = new Float32Array(new SharedArrayBuffer(src.byteLength));
  out.set(src);
  return out;
}

async function prepare(input: BenchPrepareInput, ctx: TaskContext): Promise<BenchPrepared> {
  let triangles: Float32Array, rays: Float32Array, maxRange: number;
  let skippedRays = 0, skippedTriangles = 0, source: string;
  let sceneInfo: BenchPrepared['sceneInfo'];
  if (input.trianglesFile && !input.raysFile) throw new Error('bench: --triangles needs --rays too (the rays to cast into those triangles)');
  if (input.trianglesFile) {
    ctx.progress(0.05, `reading ${basename(input.trianglesFile)}`, true);
    const t = decodeTrianglesFile(await readFile(input.trianglesFile), basename(input.trianglesFile));
    triangles = shared(t.positions);
    skippedTriangles = t.skipped;
    source = basename(input.trianglesFile);
  } else {
    ctx.progress(0.05, 'building the off-road scene', true);
    const s = buildOffroadBenchScene({ seed: input.seed ?? 1, sizeM: input.sizeM ?? 200, targetTriangles: input.targetTriangles ?? 1_500_000 });
    const st = sceneStats(s.data);
    sceneInfo = { uniqueTriangles: st.uniqueTriangles, instancedTriangles: st.instancedTriangles, instances: st.instances, instancedMemoryBytes: st.memoryBytes, instancedBuildMs: s.data.buildMs };
    triangles = shared(flattenSceneTriangles(s.data).positions);
    source = `off-road scene (seed ${input.seed ?? 1}, ${st.instancedTriangles} triangles)`;
    if (!input.raysFile) {
      ctx.progress(0.3, 'generating an HDL-64E revolution from 10 poses', true);
      rays = shared(revolutionRays(s.poses));
    }
  }
  if (input.raysFile) {
    ctx.progress(0.3, `reading ${basename(input.raysFile)}`, true);
    const r = decodeRaysFile(await readFile(input.raysFile), basename(input.raysFile));
    rays = shared(r.rays);
    maxRange = r.maxRange;
    skippedRays = r.skipped;
  } else {
    maxRange = input.maxRange ?? 120;
  }
  ctx.progress(0.4, 'building the engine BVH', true);
  const b = new SceneBuilder();
  b.addInstance(b.addMesh(triangles, 0.5));
  const scene = b.build({ shared: true });
  // The kernel's layout, made once here and shared by every engine task (as shareScene does for runs).
  const kernel = layoutKernelScene(scene);
  if (kernel) scene.kernel = kernel;
  return {
    triangles, rays: rays!, rayCount: rays!.length / 6, triangleCount: triangles.length / 9, maxRange, skippedRays, skippedTriangles,
    scene, buildMs: scene.buildMs, memoryBytes: sceneMemoryBytes(scene), source, ...(sceneInfo ? { sceneInfo } : {}),
  };
}

function castRange(q: ReturnType<typeof createSceneQuery>, rays: Float32Array, start: number, end: number, maxRange: number, stride: number): [number, number] {
  const h = newSurfaceHit();
  let hits = 0, hitsOnStride = 0;
  for (let i = start; i < end; i++) {
    const o = 6 * i;
    if (q.closestSurface(rays[o]!, rays[o + 1]!, rays[o + 2]!, rays[o + 3]!, rays[o + 4]!, rays[o + 5]!, 0, maxRange, h)) {
      hits++;
      if (i % stride === 0) hitsOnStride++;
    }
  }
  return [hits, hitsOnStride];
}

function engine(input: BenchEngineInput, ctx: TaskContext): BenchEngineRun {
  const q = createSceneQuery(input.scene);
  const stride = Math.max(1, input.stride ?? 1);
  const warm = Math.min(input.warmup ?? 0, input.end - input.start);
  if (warm > 0) castRange(q, input.rays, input.start, input.start + warm, input.maxRange, stride);
  ctx.checkCancelled();
  const t0 = performance.now();
  const [hits, hitsOnStride] = castRange(q, input.rays, input.start, input.end, input.maxRange, stride);
  const seconds = (performance.now() - t0) / 1000;
  const first = Math.ceil(input.start / stride) * stride;
  const raysOnStride = input.end > first ? Math.floor((input.end - 1 - first) / stride) + 1 : 0;
  const k = q.rayKernel();
  return { rays: input.end - input.start, hits, seconds, hitsOnStride, raysOnStride, kernelMemoryBytes: k?.scene.bytes ?? 0, kernelBuildMs: k ? k.scene.buildMs : null, kernelThreadBytes: k?.threadBytes ?? 0 };
}

async function three(input: BenchThreeInput, ctx: TaskContext): Promise<BenchThreeRun> {
  // Dynamic import on purpose: when this module is loaded through require() (piscina + tsx in
  // development), a static import resolves three and three-mesh-bvh to their CommonJS/UMD
  // builds, which cast rays ~1.5× slower than the ES modules a bundled app uses. Comparing
  // against the slow build would flatter the engine.
  const { BufferAttribute, BufferGeometry, DoubleSide, Ray, Vector3 } = await import('three');
  const { MeshBVH, SAH } = await import('three-mesh-bvh');
  const geometry = new BufferGeometry();
  // three-mesh-bvh reorders the index, not the positions; give it its own copy of the triangles.
  geometry.setAttribute('position', new BufferAttribute(new Float32Array(input.triangles), 3));
  let t0 = performance.now();
  const bvh = new MeshBVH(geometry, { strategy: SAH, verbose: false }); // library defaults otherwise (leaf target 10, depth 40)
  const buildMs = performance.now() - t0;
  ctx.checkCancelled();
  const ray = new Ray(new Vector3(), new Vector3());
  const rays = input.rays, n = rays.length / 6, stride = Math.max(1, input.stride);
  const cast = (from: number, to: number) => {
    let hits = 0;
    for (let i = from; i < to; i += stride) {
      const o = 6 * i;
      ray.origin.set(rays[o]!, rays[o + 1]!, rays[o + 2]!);
      ray.direction.set(rays[o + 3]!, rays[o + 4]!, rays[o + 5]!);
      const hit = bvh.raycastFirst(ray, DoubleSide, 0, input.maxRange);
      if (hit && hit.distance <= input.maxRange) hits++;
    }
    return hits;
  };
  const warm = Math.min(input.warmup ?? 0, n);
  if (warm > 0) cast(0, warm);
  t0 = performance.now();
  const hits = cast(0, n);
  const seconds = (performance.now() - t0) / 1000;
  return { rays: Math.ceil(n / stride), hits, seconds, buildMs };
}

export async function benchEngineTask(input: BenchEngineTaskInput, ctx: TaskContext): Promise<BenchPrepared | BenchEngineRun | BenchThreeRun> {
  switch (input.op) {
    case 'prepare':
      return prepare(input, ctx);
    case 'engine':
      return engine(input, ctx);
    case 'three':
      return three(input, ctx);
    default:
      throw new Error(`bench-engine: unknown op ${JSON.stringify((input as { op: unknown }).op)}`);
  }
}

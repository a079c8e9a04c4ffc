/**
 * The decimated cloud the renderer shows: world points of every hit, evenly strided so at most
 * `budget` points cross to the renderer (a 5-million-point log stays interactive). Optionally
 * only a packet range (the timeline's current sweep) and, for that range, the misses as world
 * segments from the sensor along the ray, so the viewer can draw them as faint rays.
 */
import type { TaskContext } from './task-context';
import { POSE_STRIDE, type PacketChunk } from '../../src-common/packets';
import { BoundsAccumulator } from '../geometry/bounds';
import { transformPoint } from '../geometry/pose';
import { withRays } from '../formats/packed-rays';

export interface DisplayCloudInput {
  chunks: PacketChunk[];
  budget: number;
  /** Only packets from ≤ index < to (log-wide indices); every packet when absent. */
  packets?: { from: number; to: number } | null;
  /** Also the misses of those packets: at most `budget` of them, each `lengthM` long. */
  misses?: { budget: number; lengthM: number } | null;
}

export interface MissSegments {
  /** Misses in the range before decimation. */
  total: number;
  lengthM: number;
  /** Per kept miss: sensor position then the point `lengthM` along the ray (world x, y, z each). */
  segments: Float32Array<ArrayBuffer>;
}

export interface DisplayCloud {
  totalPoints: number;
  positions: Float32Array<ArrayBuffer>;
  intensity: Float32Array<ArrayBuffer>;
  time: Float32Array<ArrayBuffer>;
  classId: Uint8Array<ArrayBuffer>;
  ring: Uint16Array<ArrayBuffer>;
  bounds: { min: [number, number, number]; max: [number, number, number] } | null;
  packets: { from: number; to: number } | null;
  misses: MissSegments | null;
}

/** This chunk's packets within the range, as chunk-local [p0, p1). */
function localRange(c: PacketChunk, range: { from: number; to: number } | null | undefined): [number, number] {
  if (!range) return [0, c.packetCount];
  const p0 = Math.min(c.packetCount, Math.max(0, range.from - c.packetStart));
  const p1 = Math.max(p0, Math.min(c.packetCount, range.to - c.packetStart));
  return [p0, p1];
}

function countRays(chunks: PacketChunk[], range: DisplayCloudInput['packets']): { hits: number; misses: number } {
  let hits = 0;
  let misses = 0;
  for (const c of chunks) {
    const [p0, p1] = localRange(c, range);
    for (let r = c.rayStart[p0]!; r < c.rayStart[p1]!; r++) {
      if (Number.isNaN(c.rayRange[r]!)) misses++;
      else hits++;
    }
  }
  return { hits, misses };
}

/** Keep item i of `total` when (i·n) mod total < n: exactly n, evenly spread, the first always kept. */
const keep = (i: number, n: number, total: number) => (i * n) % total < n;

export function buildDisplayCloud(stored: DisplayCloudInput, ctx?: TaskContext): DisplayCloud {
  const input = { ...stored, chunks: stored.chunks.map(withRays) };
  const range = input.packets ?? null;
  const counts = countRays(input.chunks, range);
  const total = counts.hits;
  // i·n stays below 2^53 for any log that fits in memory.
  const n = Math.min(total, input.budget);
  const positions = new Float32Array(3 * n);
  const intensity = new Float32Array(n);
  const time = new Float32Array(n);
  const classId = new Uint8Array(n);
  const ring = new Uint16Array(n);
  const bounds = new BoundsAccumulator();
  const m = input.misses ? Math.min(counts.misses, input.misses.budget) : 0;
  const lengthM = input.misses?.lengthM ?? 0;
  const segments = new Float32Array(6 * m);
  const p3 = new Float64Array(3);
  let seenHits = 0;
  let k = 0;
  let seenMisses = 0;
  let j = 0;
  input.chunks.forEach((c, ci) => {
    ctx?.checkCancelled();
    ctx?.progress(ci / input.chunks.length, 'decimating');
    const [p0, p1] = localRange(c, range);
    for (let p = p0; p < p1; p++) {
      const o = p * POSE_STRIDE;
      for (let r = c.rayStart[p]!; r < c.rayStart[p + 1]!; r++) {
        const dist = c.rayRange[r]!;
        const dx = c.rayDir[3 * r]!, dy = c.rayDir[3 * r + 1]!, dz = c.rayDir[3 * r + 2]!;
        if (Number.isNaN(dist)) {
          if (m === 0 || !keep(seenMisses++, m, counts.misses) || j >= m) continue;
          segments[6 * j] = c.packetPose[o]!;
          segments[6 * j + 1] = c.packetPose[o + 1]!;
          segments[6 * j + 2] = c.packetPose[o + 2]!;
          transformPoint(c.packetPose, o, dx * lengthM, dy * lengthM, dz * lengthM, p3, 0);
          segments.set(p3, 6 * j + 3);
          j++;
          continue;
        }
        transformPoint(c.packetPose, o, dx * dist, dy * dist, dz * dist, p3, 0);
        bounds.add(p3[0]!, p3[1]!, p3[2]!);
        if (!keep(seenHits++, n, total) || k >= n) continue;
        positions.set(p3, 3 * k);
        intensity[k] = c.rayIntensity[r]!;
        time[k] = c.packetTime[p]! + c.rayTime[r]!;
        classId[k] = c.rayClass[r]!;
        ring[k] = c.rayRing[r]!;
        k++;
      }
    }
  });
  return {
    totalPoints: total,
    positions,
    intensity,
    time,
    classId,
    ring,
    bounds: bounds.result(),
    packets: range ? { from: range.from, to: range.to } : null,
    misses: input.misses ? { total: counts.misses, lengthM, segments } : null,
  };
}

export function displayCloudTask(input: DisplayCloudInput, ctx: TaskContext): { totalPoints: number } {
  const cloud = buildDisplayCloud(input, ctx);
  const transfer: ArrayBuffer[] = [cloud.positions.buffer, cloud.intensity.buffer, cloud.time.buffer, cloud.classId.buffer, cloud.ring.buffer];
  if (cloud.misses) transfer.push(cloud.misses.segments.buffer);
  ctx.post({ type: 'output', name: 'cloud', value: cloud }, transfer);
  return { totalPoints: cloud.totalPoints };
}

/**
 * The decimated cloud the renderer shows: world points of every hit, evenly strided so at most
 * `budget` points cross to the renderer (a 5-million-point log stays interactive).
 */
import type { TaskContext } from './task-context';
import type { PacketChunk } from '../formats/packets';
import { forEachHit, countHits } from '../formats/chunk-points';
import { BoundsAccumulator } from '../geometry/bounds';

export interface DisplayCloudInput {
  chunks: PacketChunk[];
  budget: number;
}

export interface DisplayCloud {
  totalPoints: number;
  positions: Float32Array<ArrayBuffer>;
  intensity: Float32Array<ArrayBuffer>;
  time: Float32Array<ArrayBuffer>;
  classId: Uint8Array<ArrayBuffer>;
  bounds: { min: [number, number, number]; max: [number, number, number] } | null;
}

export function buildDisplayCloud(input: DisplayCloudInput, ctx?: TaskContext): DisplayCloud {
  let total = 0;
  for (const c of input.chunks) total += countHits(c);
  // Keep hit i when (i·n) mod total < n: exactly n = min(budget, total) points, evenly spread,
  // the first always kept (i·n stays below 2^53 for any log that fits in memory).
  const n = Math.min(total, input.budget);
  const positions = new Float32Array(3 * n);
  const intensity = new Float32Array(n);
  const time = new Float32Array(n);
  const classId = new Uint8Array(n);
  const bounds = new BoundsAccumulator();
  let seen = 0;
  let k = 0;
  input.chunks.forEach((c, ci) => {
    ctx?.checkCancelled();
    ctx?.progress(ci / input.chunks.length, 'decimating');
    forEachHit(c, (r, x, y, z, p) => {
      bounds.add(x, y, z);
      const i = seen++;
      if ((i * n) % total >= n || k >= n) return;
      positions[3 * k] = x;
      positions[3 * k + 1] = y;
      positions[3 * k + 2] = z;
      intensity[k] = c.rayIntensity[r]!;
      time[k] = c.packetTime[p]! + c.rayTime[r]!;
      classId[k] = c.rayClass[r]!;
      k++;
    });
  });
  return { totalPoints: total, positions, intensity, time, classId, bounds: bounds.result() };
}

export function displayCloudTask(input: DisplayCloudInput, ctx: TaskContext): { totalPoints: number } {
  const cloud = buildDisplayCloud(input, ctx);
  ctx.post({ type: 'output', name: 'cloud', value: cloud }, [
    cloud.positions.buffer,
    cloud.intensity.buffer,
    cloud.time.buffer,
    cloud.classId.buffer,
  ]);
  return { totalPoints: cloud.totalPoints };
}

/**
 * Every return of a drive log in the world frame, for labelling (docs/labeling.md): unlike the
 * display cloud nothing is decimated — the Label page draws a subset but selects on every point.
 * Per point its ray's index in the log (misses included), its packet, the labels, and a height
 * above the local ground for the "above ground by ≥ h" filter.
 *
 * The local ground: the lowest return of each 1 m x-y cell, then per point the median of those
 * minima over the 3 × 3 cells around it (one low outlier — multipath under the ground — does not
 * pull a cell's ground down). A crude ground, but monotone and cheap; points with no returns
 * around them lower than themselves get 0.
 */
import type { TaskContext } from './task-context';
import { POSE_STRIDE, type PacketChunk } from '../../src-common/packets';
import { transformPoint } from '../geometry/pose';
import { withRays } from '../formats/packed-rays';
import { buildTimeline } from '../formats/timeline';

export interface LabelCloudInput {
  chunks: PacketChunk[];
  /** Labels per ray of the log (a saved version other than the chunks' own); absent: the chunks'. */
  rays?: { rayClass: Uint8Array; rayObject: Uint32Array; confidence: Float32Array | null } | null;
}

export interface LabelCloudOutput {
  points: number;
  rays: number;
  origin: [number, number, number];
  positions: Float32Array<ArrayBuffer>;
  rayIndex: Uint32Array<ArrayBuffer>;
  packet: Uint32Array<ArrayBuffer>;
  classes: Uint8Array<ArrayBuffer>;
  instances: Uint32Array<ArrayBuffer>;
  confidence: Float32Array<ArrayBuffer>;
  heightAboveGround: Float32Array<ArrayBuffer>;
  sweepStart: Uint32Array<ArrayBuffer>;
}

const GROUND_CELL = 1;

export function buildLabelCloud(input: LabelCloudInput, ctx?: TaskContext): LabelCloudOutput {
  const chunks = input.chunks.map(withRays);
  let points = 0, rays = 0;
  for (const c of chunks) {
    rays += c.rayCount;
    for (let r = 0; r < c.rayCount; r++) if (!Number.isNaN(c.rayRange[r]!)) points++;
  }
  const given = input.rays ?? null;
  if (given && (given.rayClass.length !== rays || given.rayObject.length !== rays)) {
    throw new Error(`labels for ${given.rayClass.length} rays, the log has ${rays}`);
  }
  const world = new Float64Array(3 * points);
  const rayIndex = new Uint32Array(points), packet = new Uint32Array(points);
  const classes = new Uint8Array(points), instances = new Uint32Array(points);
  const confidence = new Float32Array(points).fill(1);
  const p3 = new Float64Array(3);
  let k = 0, ray = 0;
  chunks.forEach((c, ci) => {
    ctx?.checkCancelled();
    ctx?.progress((0.8 * ci) / chunks.length, 'placing returns');
    for (let p = 0; p < c.packetCount; p++) {
      const o = p * POSE_STRIDE;
      for (let r = c.rayStart[p]!; r < c.rayStart[p + 1]!; r++, ray++) {
        const dist = c.rayRange[r]!;
        if (Number.isNaN(dist)) continue;
        transformPoint(c.packetPose, o, c.rayDir[3 * r]! * dist, c.rayDir[3 * r + 1]! * dist, c.rayDir[3 * r + 2]! * dist, p3, 0);
        world.set(p3, 3 * k);
        rayIndex[k] = ray;
        packet[k] = c.packetStart + p;
        classes[k] = given ? given.rayClass[ray]! : c.rayClass[r]!;
        instances[k] = given ? given.rayObject[ray]! : c.rayObject[r]!;
        if (given?.confidence) confidence[k] = given.confidence[ray]!;
        k++;
      }
    }
  });
  // Positions relative to a whole-metre origin: float32 keeps millimetres only near zero.
  const origin: [number, number, number] = points > 0 ? [Math.round(world[0]!), Math.round(world[1]!), Math.round(world[2]!)] : [0, 0, 0];
  const positions = new Float32Array(3 * points);
  for (let i = 0; i < points; i++) for (let a = 0; a < 3; a++) positions[3 * i + a] = world[3 * i + a]! - origin[a]!;
  ctx?.progress(0.85, 'local ground');
  const heightAboveGround = localGroundHeights(world, points);
  // Sweeps as points: the timeline's first packet of each sweep → its first point.
  const timeline = buildTimeline(chunks, 0);
  const sweepStart = new Uint32Array(timeline.sweepStart.length);
  let q = 0;
  timeline.sweepStart.forEach((firstPacket, s) => {
    while (q < points && packet[q]! < firstPacket) q++;
    sweepStart[s] = q;
  });
  return { points, rays, origin, positions, rayIndex, packet, classes, instances, confidence, heightAboveGround, sweepStart };
}

/** Height of each point above the median of the 3 × 3 cells' lowest returns around it. */
export function localGroundHeights(world: Float64Array, points: number): Float32Array<ArrayBuffer> {
  const out = new Float32Array(points);
  if (points === 0) return out;
  const low = new Map<number, number>();
  const key = (i: number, j: number) => (i + 0x8000) * 0x10000 + (j + 0x8000);
  const cellOf = (v: number) => Math.max(-0x7fff, Math.min(0x7fff, Math.floor(v / GROUND_CELL)));
  for (let k = 0; k < points; k++) {
    const id = key(cellOf(world[3 * k]!), cellOf(world[3 * k + 1]!));
    const z = world[3 * k + 2]!;
    const m = low.get(id);
    if (m === undefined || z < m) low.set(id, z);
  }
  const around: number[] = [];
  const ground = new Map<number, number>();
  for (let k = 0; k < points; k++) {
    const ci = cellOf(world[3 * k]!), cj = cellOf(world[3 * k + 1]!);
    const id = key(ci, cj);
    let g = ground.get(id);
    if (g === undefined) {
      around.length = 0;
      for (let di = -1; di <= 1; di++) for (let dj = -1; dj <= 1; dj++) {
        const m = low.get(key(ci + di, cj + dj));
        if (m !== undefined) around.push(m);
      }
      around.sort((a, b) => a - b);
      g = around[(around.length - 1) >> 1]!;
      ground.set(id, g);
    }
    out[k] = Math.max(0, world[3 * k + 2]! - g);
  }
  return out;
}

export function labelCloudTask(input: LabelCloudInput, ctx: TaskContext): { points: number } {
  const cloud = buildLabelCloud(input, ctx);
  const transfer: ArrayBuffer[] = [cloud.positions, cloud.rayIndex, cloud.packet, cloud.classes, cloud.instances, cloud.confidence, cloud.heightAboveGround, cloud.sweepStart].map((a) => a.buffer);
  ctx.post({ type: 'output', name: 'cloud', value: cloud }, transfer);
  return { points: cloud.points };
}

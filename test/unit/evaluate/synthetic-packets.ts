/**
 * Hand-built logs for the evaluation tests: packet k at time k·dt, sensor at (k·speed·dt, 0, 0)
 * (plus `shift`), rays in a fan of `rays` directions 10° apart in azimuth at elevation 0, range
 * `range(k, i)` (NaN = a miss). Points are then ≥ 1.7 m apart at 10 m, far more than any shift
 * the tests apply, so nearest neighbours are the shifted counterparts.
 */
import { ChunkBuilder } from '../../../src-worker/formats/chunk-builder';
import type { PacketChunk } from '../../../src-common/packets';

export interface SyntheticLog {
  packets: number;
  rays?: number;
  dt?: number;
  speed?: number;
  /** Added to every pose's translation. */
  shift?: [number, number, number];
  range?: (packet: number, ray: number) => number;
  time?: (packet: number) => number;
  /** Ray order within packet k (a permutation of 0..rays-1), and which rays to leave out. */
  order?: (packet: number) => number[];
  chunkPackets?: number;
  /** Yaw of the sensor (rad). */
  yaw?: number;
}

export function rayDirection(i: number): [number, number, number] {
  const az = ((i * 10 - 60) * Math.PI) / 180;
  return [Math.cos(az), Math.sin(az), 0];
}

export function syntheticLog(o: SyntheticLog): PacketChunk[] {
  const rays = o.rays ?? 12, dt = o.dt ?? 0.01, speed = o.speed ?? 2;
  const shift = o.shift ?? [0, 0, 0];
  const range = o.range ?? (() => 10);
  const chunkPackets = o.chunkPackets ?? 8;
  const yaw = o.yaw ?? 0;
  const q = [0, 0, Math.sin(yaw / 2), Math.cos(yaw / 2)];
  const chunks: PacketChunk[] = [];
  let b: ChunkBuilder | null = null;
  for (let k = 0; k < o.packets; k++) {
    if (!b || b.packetCount === chunkPackets) {
      if (b) chunks.push(b.finish());
      b = new ChunkBuilder(k);
    }
    const t = o.time ? o.time(k) : k * dt;
    b.beginPacket(t, [k * speed * dt + shift[0], shift[1], shift[2], ...q]);
    const order = o.order ? o.order(k) : [...Array(rays).keys()];
    for (const i of order) {
      const [dx, dy, dz] = rayDirection(i);
      b.pushRay(dx, dy, dz, range(k, i), 0, 0, i, 0, 0, 0);
    }
  }
  if (b) chunks.push(b.finish());
  return chunks;
}

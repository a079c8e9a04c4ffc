/**
 * A synthetic spinning-lidar log with known sweeps, for the timeline and playback tests: packet p
 * fires at t = p·dt from a sensor driving along +x, its rays share the azimuth
 * startAz + spin·2π·p/packetsPerSweep (one column of `rings` lasers), every `missEvery`-th ray
 * is a miss, class = ring % 3 + 1. Chunks hold `chunkPackets` packets each.
 */
import { ChunkBuilder } from '../../src-worker/formats/chunk-builder';
import type { PacketChunk } from '../../src-common/packets';

export interface SpinningLogOptions {
  packets: number;
  packetsPerSweep: number;
  rings?: number;
  chunkPackets?: number;
  /** +1: counter-clockwise seen from above (azimuth grows), −1: clockwise (Velodyne). */
  spin?: 1 | -1;
  startAz?: number;
  dt?: number;
  speed?: number;
  missEvery?: number;
  range?: number;
}

export function spinningLog(o: SpinningLogOptions): PacketChunk[] {
  const rings = o.rings ?? 4;
  const chunkPackets = o.chunkPackets ?? 16;
  const spin = o.spin ?? 1;
  const startAz = o.startAz ?? 0;
  const dt = o.dt ?? 0.001;
  const speed = o.speed ?? 2;
  const missEvery = o.missEvery ?? 5;
  const range = o.range ?? 10;
  const chunks: PacketChunk[] = [];
  let b: ChunkBuilder | null = null;
  let ray = 0;
  for (let p = 0; p < o.packets; p++) {
    if (!b || b.packetCount === chunkPackets) {
      if (b) chunks.push(b.finish());
      b = new ChunkBuilder(p);
    }
    const t = p * dt;
    b.beginPacket(t, [speed * t, 0, 1.5, 0, 0, 0, 1]);
    const az = startAz + (spin * 2 * Math.PI * p) / o.packetsPerSweep;
    for (let r = 0; r < rings; r++) {
      const el = ((r - (rings - 1) / 2) * 2 * Math.PI) / 180;
      const dir = [Math.cos(el) * Math.cos(az), Math.cos(el) * Math.sin(az), Math.sin(el)] as const;
      const miss = ray++ % missEvery === missEvery - 1;
      b.pushRay(dir[0], dir[1], dir[2], miss ? NaN : range, r / rings, r * 1e-6, r, 0, 0, miss ? 0 : (r % 3) + 1);
    }
  }
  if (b) chunks.push(b.finish());
  return chunks;
}

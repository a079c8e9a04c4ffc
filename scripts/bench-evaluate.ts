/**
 * Times the evaluator's pairing (src-worker/evaluate/) on synthetic HDL-32E-like logs, in this
 * thread: `npx tsx scripts/bench-evaluate.ts [revolutions]` (default 50) prints one line per case
 * with the seconds and the rays paired. Cases: a run with the log's own packet layout (the index
 * fast path), the same rays cut into half-packets at other times (pairing across packet
 * boundaries), and one revolution as a single scan without firing times against the revolution
 * in its 180 packets. Figures: docs/benchmarks.md, *Evaluation pairing*.
 */
import { ChunkBuilder } from '../src-worker/formats/chunk-builder';
import { evaluatePacketChunks } from '../src-worker/evaluate/observation-metrics';
import type { PacketChunk } from '../src-common/packets';

const RINGS = 32, BLOCKS = 12, PER_REV = 180, DT = 0.1 / PER_REV, BLOCK_DT = DT / BLOCKS;
const elev = (r: number) => ((-30.67 + (r * 41.34) / 31) * Math.PI) / 180;

/** Rays of packet p: block b at azimuth step (p·12 + b) of 2160, ring r; fired b·BLOCK_DT after the packet. */
function* rays(p: number) {
  for (let b = 0; b < BLOCKS; b++) {
    const az = (2 * Math.PI * ((p * BLOCKS + b) % (PER_REV * BLOCKS))) / (PER_REV * BLOCKS);
    for (let r = 0; r < RINGS; r++) yield { az, el: elev(r), r, b, range: 5 + 20 * Math.abs(Math.sin(az * 3 + r)) };
  }
}

function log(packets: number, opts: { extra?: number; split?: boolean; scan?: boolean } = {}): PacketChunk[] {
  const chunks: PacketChunk[] = [];
  let b = new ChunkBuilder(0);
  const flush = () => {
    // (a scan's one packet is still open: finish() closes it)
    if (b.packetCount > 0 || opts.scan) chunks.push(b.finish());
    b = new ChunkBuilder(0);
  };
  if (opts.scan) b.beginPacket(0, [0, 0, 0, 0, 0, 0, 1]);
  for (let p = 0; p < packets; p++) {
    const t = p * DT;
    if (!opts.scan && !opts.split) b.beginPacket(t, [p * 0.01, 0, 0, 0, 0, 0, 1]);
    for (const ray of rays(p)) {
      if (opts.split && ray.r === 0 && ray.b % 6 === 0) b.beginPacket(t + ray.b * BLOCK_DT, [p * 0.01, 0, 0, 0, 0, 0, 1]);
      const c = Math.cos(ray.el);
      const time = opts.scan ? 0 : opts.split ? (ray.b % 6) * BLOCK_DT : ray.b * BLOCK_DT;
      b.pushRay(Math.cos(ray.az) * c, Math.sin(ray.az) * c, Math.sin(ray.el), ray.range + (opts.extra ?? 0), 0, time, ray.r, 0, 0, 0);
    }
    if (!opts.scan && b.packetCount >= 64) flush();
  }
  flush();
  return chunks;
}

function time(name: string, real: PacketChunk[], sim: PacketChunk[]): void {
  const t0 = performance.now();
  const m = evaluatePacketChunks(real, sim, { perPacket: false, pointCloud: false });
  const s = (performance.now() - t0) / 1000;
  const rays = real.reduce((n, c) => n + c.rayCount, 0);
  console.log(`${name}: ${s.toFixed(2)} s, ${rays} real rays, ${m.pairedRays} paired (${((rays / s) / 1e6).toFixed(2)} M rays/s)`);
}

const revs = Number(process.argv[2] ?? 50);
const only = process.argv[3];
const n = revs * PER_REV;
if (!only || only === 'same') time('same layout', log(n), log(n, { extra: 0.05 }));
if (!only || only === 'half') time('half-packets', log(n), log(n, { extra: 0.05, split: true }));
if (!only || only === 'scan') time('scan vs revolution', log(PER_REV, { scan: true }), log(PER_REV, { extra: 0.05 }));

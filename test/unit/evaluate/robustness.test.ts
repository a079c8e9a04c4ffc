/**
 * Mismatched and malformed logs (different ray counts, packets missing, times without overlap,
 * NaN poses and directions, broken chunks): every case ends in figures whose counts add up, or
 * in an EvaluationError that says why — never a crash or a hang. 2,000 seeded cases.
 */
import { describe, expect, it } from 'vitest';
import { evaluatePacketChunks, EvaluationError } from '../../../src-worker/evaluate/observation-metrics';
import type { PacketChunk } from '../../../src-common/packets';
import { RandomStream } from '../../../src-worker/random/stream';
import { syntheticLog } from './synthetic-packets';

const CASES = 2_000;

function pick<T>(rng: RandomStream, xs: readonly T[]): T {
  return xs[Math.floor(rng.next() * xs.length)]!;
}

function randomLog(rng: RandomStream): PacketChunk[] {
  const rays = 1 + Math.floor(rng.next() * 14);
  const packets = Math.floor(rng.next() * 20);
  const dropEvery = rng.next() < 0.3 ? 2 + Math.floor(rng.next() * 4) : 0;
  const offset = pick(rng, [0, 0, 0.004, 100, -3]);
  return syntheticLog({
    packets,
    rays: Math.min(rays, 12),
    dt: pick(rng, [0.01, 0.005, 0.02]),
    chunkPackets: 1 + Math.floor(rng.next() * 6),
    speed: pick(rng, [0, 2]),
    time: (k) => offset + k * 0.01 + (rng.next() < 0.05 ? pick(rng, [NaN, -1, 1e9]) : 0),
    range: () => (rng.next() < 0.3 ? NaN : pick(rng, [10, 0, 1e6, -5, Infinity])),
    order: (k) => [...Array(Math.min(rays, 12)).keys()].filter((i) => !(dropEvery && (i + k) % dropEvery === 0)),
  });
}

/** Damage a few fields in place: NaN poses and directions, broken offsets, short arrays. */
function damage(chunks: PacketChunk[], rng: RandomStream): PacketChunk[] {
  return chunks.map((c) => {
    if (rng.next() > 0.2) return c;
    const d = { ...c, packetPose: c.packetPose.slice(), rayDir: c.rayDir.slice(), rayStart: c.rayStart.slice() };
    switch (Math.floor(rng.next() * 5)) {
      case 0: if (d.packetPose.length) d.packetPose[Math.floor(rng.next() * d.packetPose.length)] = NaN; break;
      case 1: if (d.rayDir.length) d.rayDir[Math.floor(rng.next() * d.rayDir.length)] = pick(rng, [NaN, 5, -1e30]); break;
      case 2: if (d.rayStart.length > 1) d.rayStart[1 + Math.floor(rng.next() * (d.rayStart.length - 1))] = 1e6; break;
      case 3: return { ...d, packetTime: d.packetTime.subarray(0, Math.max(0, d.packetCount - 1)) };
      default: return { ...d, packetCount: d.packetCount + 1 };
    }
    return d;
  });
}

function rayTotal(chunks: PacketChunk[]): number {
  return chunks.reduce((s, c) => s + c.rayStart[c.packetCount]! - c.rayStart[0]!, 0);
}

describe('evaluation robustness', () => {
  it(`${CASES} mismatched or malformed log pairs: figures that add up, or an EvaluationError`, () => {
    const rng = new RandomStream(2024);
    let evaluated = 0, refused = 0;
    for (let n = 0; n < CASES; n++) {
      const broken = rng.next() < 0.3;
      const real = broken ? damage(randomLog(rng), rng) : randomLog(rng);
      const sim = broken ? damage(randomLog(rng), rng) : randomLog(rng);
      const opts = pick(rng, [{}, { packetPairing: 'index' as const }, { timeOffsetS: 0 }, { directionToleranceDeg: 5 }, { targetCap: 20, queryCap: 10 }]);
      let m;
      try {
        m = evaluatePacketChunks(real, sim, opts);
      } catch (e) {
        if (!(e instanceof EvaluationError)) throw new Error(`case ${n}: ${(e as Error).message}`, { cause: e });
        expect((e as Error).message.length).toBeGreaterThan(20);
        refused++;
        continue;
      }
      evaluated++;
      for (const v of [m.packetError, m.precision, m.recall, m.f1, m.pointCloudError]) expect(v === null || Number.isFinite(v)).toBe(true);
      for (const v of [m.precision, m.recall, m.f1]) if (v !== null) expect(v >= 0 && v <= 1).toBe(true);
      if (!broken) {
        // every ray is paired, unpaired within a paired packet, or in an unpaired packet
        expect(m.pairedRays + m.unpairedRays.real + m.unpairedPackets.realRays).toBe(rayTotal(real));
        expect(m.pairedRays + m.unpairedRays.sim + m.unpairedPackets.simRays).toBe(rayTotal(sim));
        expect(m.packets + m.unpairedPackets.real).toBe(m.realPackets);
      }
    }
    // both outcomes occur, and most pairs are evaluated
    expect(refused).toBeGreaterThan(20);
    expect(evaluated).toBeGreaterThan(CASES / 2);
  });
});

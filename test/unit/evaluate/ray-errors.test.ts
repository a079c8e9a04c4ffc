/**
 * The per-ray range error behind the Evaluation page's difference colouring: each scored pair
 * with a hit gives its two world points and r̂ − r (NaN for a false hit or false miss, which keep
 * their one point); the sample is decimated evenly to the budget, and a region leaves out what
 * the evaluation does not score.
 */
import { describe, expect, it } from 'vitest';
import { evaluatePacketChunks } from '../../../src-worker/evaluate/observation-metrics';
import { RayErrorSampler } from '../../../src-worker/evaluate/ray-errors';
import { syntheticLog } from './synthetic-packets';

// Real hits when ray i < 8, simulated hits on even rays at a range 0.05·(i − 4) m off the real one:
// per packet TH 4 (i = 0, 2, 4, 6), FH 2 (8, 10), FM 4 (1, 3, 5, 7).
const real = () => syntheticLog({ packets: 10, range: (_k, i) => (i < 8 ? 10 : NaN) });
const sim = () => syntheticLog({ packets: 10, range: (_k, i) => (i % 2 === 0 ? 10 + 0.05 * (i - 4) : NaN) });

function sample(budget: number, opts = {}) {
  const m0 = evaluatePacketChunks(real(), sim(), { perPacket: false, ...opts });
  const sampler = new RayErrorSampler(budget, m0.trueHits + m0.falseHits + m0.falseMisses);
  const m = evaluatePacketChunks(real(), sim(), { perPacket: false, pointCloud: false, ...opts }, { pair: sampler.add });
  return { m, s: sampler.finish() };
}

describe('per-ray range errors', () => {
  it('every pair with a hit: both points where both hit, the signed range error, the misses as NaN', () => {
    const { m, s } = sample(1_000_000);
    expect(s.seen).toBe(m.trueHits + m.falseHits + m.falseMisses);
    expect(s.error.length).toBe(100);
    const th = [...s.error].filter(Number.isFinite);
    expect(th.length).toBe(m.trueHits);
    // r̂ − r ∈ {−0.2, −0.1, 0, 0.1} m (rays 0, 2, 4, 6), ten packets each.
    const counts = new Map<string, number>();
    for (const e of th) counts.set(e.toFixed(3), (counts.get(e.toFixed(3)) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({ '-0.200': 10, '-0.100': 10, '0.000': 10, '0.100': 10 });
    for (let k = 0; k < s.error.length; k++) {
      const realHit = Number.isFinite(s.real[3 * k]!), simHit = Number.isFinite(s.sim[3 * k]!);
      expect(realHit || simHit).toBe(true);
      expect(Number.isFinite(s.error[k]!)).toBe(realHit && simHit);
      if (realHit && simHit) {
        // Same direction, from the same pose: the points are |e| apart along the ray.
        const d = Math.hypot(s.sim[3 * k]! - s.real[3 * k]!, s.sim[3 * k + 1]! - s.real[3 * k + 1]!, s.sim[3 * k + 2]! - s.real[3 * k + 2]!);
        expect(d).toBeCloseTo(Math.abs(s.error[k]!), 5);
      }
    }
    expect([...s.error].filter((e, k) => Number.isNaN(e) && Number.isFinite(s.real[3 * k]!)).length).toBe(m.falseMisses);
    expect([...s.error].filter((e, k) => Number.isNaN(e) && Number.isFinite(s.sim[3 * k]!)).length).toBe(m.falseHits);
  });

  it('decimates evenly to the budget: exactly the budget, spread over the drive', () => {
    const { s } = sample(25);
    expect(s.seen).toBe(100);
    expect(s.error.length).toBe(25);
    // Every fourth pair is kept: the real points' x (the sensor moves along x) span the drive.
    const xs = [...s.real].filter((_, i) => i % 3 === 0).map((x, k) => (Number.isFinite(x) ? x : s.sim[3 * k]!));
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(0.1);
  });

  it('only the pairs the evaluation scores: a range region leaves out the rest', () => {
    // Nothing is out of a 0–100 m window.
    const inside = sample(1_000, { region: { rangeM: [0, 100] } });
    expect(inside.s.seen).toBe(100);
    const shorter = sample(1_000, { region: { azimuthDeg: [-65, -25] } });
    // Azimuths −60°, −50°, −40°, −30° are rays 0–3: TH rays 0, 2 and FM rays 1, 3 per packet.
    expect(shorter.s.seen).toBe(40);
    expect([...shorter.s.error].filter(Number.isFinite).length).toBe(20);
  });
});

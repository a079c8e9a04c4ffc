import { describe, expect, it } from 'vitest';
import { evaluatePacketChunks, EvaluationError, ObservationEvaluator } from '../../../src-worker/evaluate/observation-metrics';
import { syntheticLog } from './synthetic-packets';

const TOL = 1e-6;

describe('observation metrics on hand-built logs', () => {
  it('a log against itself: packet error 0, P = R = F1 = 1, point-cloud error 0', () => {
    const log = () => syntheticLog({ packets: 40, range: (k, i) => ((k + i) % 5 === 0 ? NaN : 10 + 0.1 * i) });
    const m = evaluatePacketChunks(log(), log());
    expect(m.packets).toBe(40);
    expect(m.packetError).toBeCloseTo(0, 9);
    expect(m.precision).toBe(1);
    expect(m.recall).toBe(1);
    expect(m.f1).toBe(1);
    expect(m.pointCloudError).toBeCloseTo(0, 9);
    expect(m.falseHits + m.falseMisses).toBe(0);
    // 40 packets × 12 rays, one in five a miss on both sides
    expect(m.trueHits + m.trueMisses).toBe(480);
    expect(m.trueMisses).toBe(96);
    expect(m.packetsPairedByIndex).toBe(40);
    expect(m.unpairedRays).toEqual({ real: 0, sim: 0 });
    expect(m.unpairedPackets).toEqual({ real: 0, sim: 0, realRays: 0, simRays: 0 });
    expect(m.perPacket.error.length).toBe(40);
    // packets move 2 cm each: the last one has travelled 39 × 0.02 m
    expect(m.perPacket.distance[39]).toBeCloseTo(0.78, 9);
  });

  it('a run shifted by 0.1 m: packet error 0.1, point-cloud error 0.1 (± 1e-6)', () => {
    const real = syntheticLog({ packets: 30 });
    const sim = syntheticLog({ packets: 30, shift: [0, 0, 0.1] });
    const m = evaluatePacketChunks(real, sim);
    expect(Math.abs(m.packetError! - 0.1)).toBeLessThan(TOL);
    expect(Math.abs(m.rayError! - 0.1)).toBeLessThan(TOL);
    expect(Math.abs(m.pointCloudError! - 0.1)).toBeLessThan(TOL);
    expect(m.f1).toBe(1);
    for (const e of m.perPacket.error) expect(Math.abs(e - 0.1)).toBeLessThan(TOL);
    // a horizontal shift of 0.1 m: the same packet error
    const side = evaluatePacketChunks(syntheticLog({ packets: 30 }), syntheticLog({ packets: 30, shift: [0.06, 0.08, 0] }));
    expect(Math.abs(side.packetError! - 0.1)).toBeLessThan(TOL);
  });

  it('counts true hits, false hits and false misses as built', () => {
    // ray i of every packet: real hits when i < 8; sim hits when i is even → per packet
    // TH: even i < 8 (0,2,4,6) = 4; FH: even i ≥ 8 (8,10) = 2; FM: odd i < 8 (1,3,5,7) = 4; TM: 9, 11 = 2
    const real = syntheticLog({ packets: 10, range: (_k, i) => (i < 8 ? 10 : NaN) });
    const sim = syntheticLog({ packets: 10, range: (_k, i) => (i % 2 === 0 ? 10.5 : NaN) });
    const m = evaluatePacketChunks(real, sim);
    expect([m.trueHits, m.falseHits, m.falseMisses, m.trueMisses]).toEqual([40, 20, 40, 20]);
    expect(m.precision).toBeCloseTo(40 / 60, 12);
    expect(m.recall).toBeCloseTo(40 / 80, 12);
    expect(m.f1).toBeCloseTo((2 * (2 / 3) * 0.5) / (2 / 3 + 0.5), 12);
    // true hits differ by 0.5 m along the ray
    expect(Math.abs(m.packetError! - 0.5)).toBeLessThan(TOL);
    expect(Array.from(m.perPacket.trueHits)).toEqual(Array(10).fill(4));
    expect(Array.from(m.perPacket.falseHits)).toEqual(Array(10).fill(2));
    expect(Array.from(m.perPacket.falseMisses)).toEqual(Array(10).fill(4));
  });

  it('the log figure is the mean over packets with a true hit, not over all packets', () => {
    // packets 0–4: every ray a true hit 0.2 m off; packets 5–9: the run never hits (no true hit)
    const real = syntheticLog({ packets: 10 });
    const sim = syntheticLog({ packets: 10, range: (k) => (k < 5 ? 10.2 : NaN) });
    const m = evaluatePacketChunks(real, sim);
    expect(m.packetsWithTrueHits).toBe(5);
    expect(Math.abs(m.packetError! - 0.2)).toBeLessThan(TOL);
    expect(Number.isNaN(m.perPacket.error[7]!)).toBe(true);
    expect(m.recall).toBe(0.5);
    expect(m.precision).toBe(1);
  });

  it('a run that never hits: precision undefined (null), recall 0, F1 0; no point-cloud error', () => {
    const m = evaluatePacketChunks(syntheticLog({ packets: 5 }), syntheticLog({ packets: 5, range: () => NaN }));
    expect(m.precision).toBeNull();
    expect(m.recall).toBe(0);
    expect(m.f1).toBe(0);
    expect(m.packetError).toBeNull();
    expect(m.pointCloudError).toBeNull();
  });

  it('pairs rays by direction when the run shuffles them, and counts rays left out', () => {
    const rev = (n: number) => [...Array(n).keys()].reverse();
    const real = syntheticLog({ packets: 12, range: (k, i) => 10 + 0.01 * i + k });
    const shuffled = syntheticLog({ packets: 12, range: (k, i) => 10 + 0.01 * i + k, order: (k) => (k % 2 ? rev(12) : [5, 0, 11, 3, 1, 2, 4, 10, 6, 7, 9, 8]) });
    const m = evaluatePacketChunks(real, shuffled);
    expect(m.packetsPairedByIndex).toBe(0);
    expect(m.packetError).toBeCloseTo(0, 9);
    expect(m.f1).toBe(1);
    // the run lacks rays 3 and 7 of every packet; the log lacks ray 11 of the odd packets
    const gappy = syntheticLog({ packets: 12, order: () => [0, 1, 2, 4, 5, 6, 8, 9, 10, 11] });
    const partial = syntheticLog({ packets: 12, order: (k) => (k % 2 ? [...Array(11).keys()] : [...Array(12).keys()]) });
    const g = evaluatePacketChunks(partial, gappy);
    expect(g.unpairedRays).toEqual({ real: 12 * 2, sim: 6 });
    expect(g.pairedRays).toBe(6 * 10 + 6 * 9);
    expect(g.packetError).toBeCloseTo(0, 9);
  });

  it('pairs packets by nearest time: a run at twice the rate, a run missing packets, a run offset in time', () => {
    const real = () => syntheticLog({ packets: 20, dt: 0.01, speed: 0.5 });
    // twice the rate: every other simulated packet pairs, the rest are counted
    const fast = syntheticLog({ packets: 40, dt: 0.005, speed: 0.5 });
    const f = evaluatePacketChunks(real(), fast, { timeToleranceS: 0.001 });
    expect(f.packets).toBe(20);
    expect(f.unpairedPackets).toEqual({ real: 0, sim: 20, realRays: 0, simRays: 240 });
    expect(f.packetError).toBeCloseTo(0, 9);
    expect(Array.from(f.perPacket.simPacket.slice(0, 4))).toEqual([0, 2, 4, 6]);
    // every third simulated packet missing (times kept): those real packets are unpaired
    const kept = [...Array(20).keys()].filter((k) => k % 3 !== 1);
    const sparse = syntheticLog({ packets: kept.length, time: (k) => kept[k]! * 0.01, speed: 0.5, dt: 0.01 });
    const s = evaluatePacketChunks(real(), sparse, { timeToleranceS: 0.001 });
    expect(s.packets).toBe(kept.length);
    expect(s.unpairedPackets.real).toBe(20 - kept.length);
    // a run whose clock starts 5 s later pairs after aligning the starts; a given offset of 0 pairs nothing
    const late = syntheticLog({ packets: 20, dt: 0.01, speed: 0.5, time: (k) => 5 + k * 0.01 });
    const a = evaluatePacketChunks(real(), late);
    expect(a.packets).toBe(20);
    expect(a.timeOffsetS).toBeCloseTo(-5, 12);
    expect(() => evaluatePacketChunks(real(), syntheticLog({ packets: 20, dt: 0.01, time: (k) => 5 + k * 0.01 }), { timeOffsetS: 0 })).toThrow(
      /no packet of the simulated run pairs.*20 real and 20 simulated packets/,
    );
    // index pairing ignores the times
    expect(evaluatePacketChunks(real(), late, { packetPairing: 'index', timeOffsetS: 0 }).packets).toBe(20);
  });

  it('packets sharing one time pair index by index', () => {
    const same = () => syntheticLog({ packets: 6, time: () => 0, range: (k) => 10 + k });
    const m = evaluatePacketChunks(same(), same());
    expect(m.packets).toBe(6);
    expect(m.packetError).toBeCloseTo(0, 9);
  });

  it('gives the same figures whatever the chunking', () => {
    const a = evaluatePacketChunks(syntheticLog({ packets: 50, chunkPackets: 1 }), syntheticLog({ packets: 50, shift: [0, 0.05, 0], chunkPackets: 7 }));
    const b = evaluatePacketChunks(syntheticLog({ packets: 50, chunkPackets: 50 }), syntheticLog({ packets: 50, shift: [0, 0.05, 0], chunkPackets: 3 }));
    expect(a.packetError).toBe(b.packetError);
    expect(a.pointCloudError).toBe(b.pointCloudError);
    expect(Array.from(a.perPacket.error)).toEqual(Array.from(b.perPacket.error));
  });

  it('reports static-scan distances only when both logs stand still', () => {
    const still = (r: (k: number, i: number) => number) => syntheticLog({ packets: 20, speed: 0, range: r });
    const same = evaluatePacketChunks(still(() => 10), still(() => 10));
    expect(same.staticScan).not.toBeNull();
    expect(same.staticScan!.bhattacharyya).toBeCloseTo(0, 12);
    expect(same.staticScan!.histogramMatch).toBeCloseTo(0, 12);
    expect(same.staticScan!.bearings).toBe(12);
    // half the real returns one range bin (5 cm) farther: per bearing p = (½, ½), q = (1, 0)
    const split = evaluatePacketChunks(still((k) => (k % 2 ? 10.075 : 10.025)), still(() => 10.025));
    expect(split.staticScan!.bhattacharyya).toBeCloseTo(-Math.log(Math.sqrt(0.5)), 12);
    // cumulative (½, 1, …) against (1, 1, …): |½ − 1| in one bin
    expect(split.staticScan!.histogramMatch).toBeCloseTo(0.5, 12);
    // every simulated ray a miss: the no-return bin against range bins → disjoint
    const through = evaluatePacketChunks(still(() => 10), still(() => NaN));
    expect(through.staticScan!.bhattacharyya).toBeNull();
    expect(through.staticScan!.histogramMatch).toBeGreaterThan(1);
    // a moving sensor: no static distances
    expect(evaluatePacketChunks(syntheticLog({ packets: 20 }), syntheticLog({ packets: 20 })).staticScan).toBeNull();
  });

  it('throws a clear error on malformed chunks, and when one side is empty', () => {
    const bad = syntheticLog({ packets: 3 });
    bad[0] = { ...bad[0]!, rayStart: new Uint32Array([0, 5, 999, 1000]) };
    expect(() => evaluatePacketChunks(bad, syntheticLog({ packets: 3 }))).toThrow(EvaluationError);
    expect(() => evaluatePacketChunks(bad, syntheticLog({ packets: 3 }))).toThrow(/real log chunk 0: packet 1's rays \[5, 999\) are outside/);
    expect(() => evaluatePacketChunks([], syntheticLog({ packets: 3 }))).toThrow(/one side has no packets/);
  });

  it('the stepwise evaluator asks for one side at a time and holds at most two chunks a side', () => {
    const ev = new ObservationEvaluator();
    const real = syntheticLog({ packets: 30, chunkPackets: 4 });
    const sim = syntheticLog({ packets: 30, chunkPackets: 5 });
    let fedReal = 0, fedSim = 0, maxAheadReal = 0, maxAheadSim = 0;
    for (let need = ev.step(); need !== 'done'; need = ev.step()) {
      if (need === 'real') ev.feed('real', real[fedReal++] ?? null);
      else ev.feed('sim', sim[fedSim++] ?? null);
      maxAheadReal = Math.max(maxAheadReal, fedReal * 4 - ev.real.consumed);
      maxAheadSim = Math.max(maxAheadSim, fedSim * 5 - ev.sim.consumed);
    }
    expect(maxAheadReal).toBeLessThanOrEqual(2 * 4);
    expect(maxAheadSim).toBeLessThanOrEqual(2 * 5);
    expect(ev.finish().packets).toBe(30);
  });
});

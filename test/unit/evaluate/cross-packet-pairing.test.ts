/**
 * Pairing by (firing time, direction) across packet boundaries (src-worker/evaluate/
 * window-pairing.ts, sim-window.ts; docs/methods.md §6, *Pairing*): exact pairs on hand-built
 * packets, and the evaluator's counts when one real scan meets a revolution cut into packets.
 */
import { describe, expect, it } from 'vitest';
import { ChunkBuilder } from '../../../src-worker/formats/chunk-builder';
import type { PacketChunk } from '../../../src-common/packets';
import { SimWindow } from '../../../src-worker/evaluate/sim-window';
import { WindowPairer } from '../../../src-worker/evaluate/window-pairing';
import { OPEN_WINDOW, evaluatePacketChunks } from '../../../src-worker/evaluate/observation-metrics';
import { rayDirection } from './synthetic-packets';

const POSE = [0, 0, 0, 0, 0, 0, 1];
const TOL = (0.2 * Math.PI) / 180;

interface Ray { dir: number; range?: number; time?: number; ret?: number; cls?: number }

/** Packets of rays: each packet [time, rays]; direction i = rayDirection(i) (10° apart). */
function log(packets: [number, Ray[]][]): PacketChunk {
  const b = new ChunkBuilder(0);
  for (const [t, rays] of packets) {
    b.beginPacket(t, POSE);
    for (const r of rays) {
      const [dx, dy, dz] = rayDirection(r.dir);
      b.pushRay(dx, dy, dz, r.range ?? 10, 0, r.time ?? 0, 0, r.ret ?? 0, 0, r.cls ?? 0);
    }
  }
  return b.finish();
}

const range = (n: number, f: (i: number) => Ray) => [...Array(n).keys()].map(f);

function pairs(wp: WindowPairer, window: SimWindow): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let k = 0; k < wp.count; k++) out.push([wp.real[k]!, window.packets[wp.slot[k]!]!.index, wp.sim[k]! - window.packets[wp.slot[k]!]!.r0]);
  return out.sort((a, b) => a[0] - b[0]);
}

describe('pairing across packet boundaries', () => {
  it('a scan without firing times pairs ray i with the simulated ray of its direction in whichever packet holds it', () => {
    const real = log([[0, range(12, (i) => ({ dir: i }))]]);
    // The same 12 directions cut into 3 packets of 4, fired 1 ms apart, in reverse order within each.
    const sim = log([0, 1, 2].map((k) => [k * 0.001, range(4, (j) => ({ dir: 4 * k + 3 - j, time: j * 1e-4 }))] as [number, Ray[]]));
    const window = new SimWindow();
    for (let k = 0; k < 3; k++) window.push(sim, k, k, 0);
    const wp = new WindowPairer(TOL);
    const taken = new Uint8Array(12);
    expect(wp.pair(real, 0, 0, false, 2.5e-4, -2.5e-4, Infinity, taken, window.packets)).toBe(12);
    // real ray i → packet ⌊i/4⌋, ray 3 − i mod 4 of that packet
    expect(pairs(wp, window)).toEqual(range(12, (i) => ({ dir: i })).map((_, i) => [i, Math.floor(i / 4), 3 - (i % 4)]));
    expect(Array.from(taken)).toEqual(Array(12).fill(1));
    expect(window.packets.map((w) => w.pairs)).toEqual([4, 4, 4]);
  });

  it('a timed ray pairs with the nearest firing time within the tolerance, same return number only', () => {
    // Real: direction 0 fired at 1.0 ms, direction 1 at 1.5 ms (second return), direction 2 at 5 ms.
    const real = log([[0.001, [{ dir: 0 }, { dir: 1, time: 0.0005, ret: 1 }, { dir: 2, time: 0.004 }]]]);
    // Simulated: direction 0 at 0.9 ms and 1.05 ms (packets 0 and 1); direction 1 at 1.5 ms as a
    // first return and as a second; direction 2 at 4.5 ms (outside 0.25 ms of 5 ms).
    const sim = log([
      [0.0009, [{ dir: 0 }, { dir: 1, time: 0.0006 }]],
      [0.00105, [{ dir: 0 }, { dir: 1, time: 0.00045, ret: 1 }, { dir: 2, time: 0.00345 }]],
    ]);
    const window = new SimWindow();
    window.push(sim, 0, 0, 0);
    window.push(sim, 1, 1, 0);
    const wp = new WindowPairer(TOL);
    const n = wp.pair(real, 0, 0.001, true, 2.5e-4, 0.001 - 2.5e-4, 0.005 + 2.5e-4, new Uint8Array(3), window.packets);
    expect(n).toBe(2);
    // ray 0 → packet 1 ray 0 (|1.05 − 1.0| ms < |0.9 − 1.0| ms); ray 1 → packet 1 ray 1 (the second return); ray 2 unpaired
    expect(pairs(wp, window)).toEqual([[0, 1, 0], [1, 1, 1]]);
  });

  it('a taken simulated ray is not given twice; the next real ray takes the next nearest', () => {
    const real = log([[0, [{ dir: 3 }, { dir: 3, time: 1e-5 }]]]);
    const sim = log([[0, [{ dir: 3 }, { dir: 3, time: 1e-4 }, { dir: 3, time: 9e-4 }]]]);
    const window = new SimWindow();
    window.push(sim, 0, 0, 0);
    const wp = new WindowPairer(TOL);
    wp.pair(real, 0, 0, true, 2.5e-4, -2.5e-4, 1e-5 + 2.5e-4, new Uint8Array(2), window.packets);
    expect(pairs(wp, window)).toEqual([[0, 0, 0], [1, 0, 1]]);
  });

  it('one real scan against a revolution cut into 180 packets: every ray pairs, one real packet, no simulated packet left over', () => {
    const rays = 36 * 5; // 5 elevations × 36 azimuths, as (azimuth i, elevation e) → distinct directions
    const dir = (i: number) => i; // rayDirection(i) for i < 36 gives 36 azimuths 10° apart
    const b = new ChunkBuilder(0);
    b.beginPacket(0, POSE);
    const elev = (e: number) => ((e - 2) * 2 * Math.PI) / 180;
    const ray = (i: number, e: number) => {
      const [dx, dy] = rayDirection(dir(i));
      const c = Math.cos(elev(e));
      return [dx * c, dy * c, Math.sin(elev(e))] as const;
    };
    for (let i = 0; i < 36; i++) for (let e = 0; e < 5; e++) b.pushRay(...ray(i, e), 10 + i * 0.1, 0, 0, e, 0, 0, 0);
    const scan = b.finish();
    // The revolution: 180 packets of one ray each, 0.1 s / 180 apart, each ray 5 cm longer.
    const s = new ChunkBuilder(0);
    for (let k = 0; k < rays; k++) {
      const i = Math.floor(k / 5), e = k % 5;
      s.beginPacket((k * 0.1) / rays, POSE);
      s.pushRay(...ray(i, e), 10 + i * 0.1 + 0.05, 0, 0, e, 0, 0, 0);
    }
    const rev = s.finish();
    const m = evaluatePacketChunks([scan], [rev]);
    expect(m.packets).toBe(1);
    expect(m.pairedRays).toBe(rays);
    expect(m.unpairedPackets).toEqual({ real: 0, sim: 0, realRays: 0, simRays: 0 });
    expect(m.unpairedRays).toEqual({ real: 0, sim: 0 });
    expect(m.pairedFraction).toEqual({ real: 1, sim: 1 });
    expect(m.trueHits).toBe(rays);
    expect(m.packetError).toBeCloseTo(0.05, 5);
    expect(m.warnings).toEqual([]);
    // Packet by packet in time (the old rule) would have paired the scan with the first packet only.
    const byIndex = evaluatePacketChunks([scan], [rev], { packetPairing: 'index' });
    expect(byIndex.pairedRays).toBe(1);
    expect(byIndex.warnings!.join(' ')).toMatch(/only 0\.6 % of the real log's rays paired \(1 of 180\)/);
  });

  it('a lone scan against a long run pairs in rounds when the window fills, with the same pairs', () => {
    const scan = log([[0, range(12, (i) => ({ dir: i }))]]);
    // 30 one-ray packets cycling through the 12 directions, each 1 cm longer than the last: ray i's
    // partner is packet i (the earliest of its direction), 1 cm·i away.
    const run = log([...Array(30).keys()].map((k) => [k * 0.001, [{ dir: k % 12, range: 10 + 0.01 * k }]] as [number, Ray[]]));
    const whole = evaluatePacketChunks([scan], [run], { pointCloud: false });
    const cap = OPEN_WINDOW.rayCap;
    OPEN_WINDOW.rayCap = 5; // a round every 5 packets: rays 5… find their partners in later rounds
    try {
      const rounds = evaluatePacketChunks([scan], [run], { pointCloud: false });
      for (const m of [whole, rounds]) {
        expect(m.pairedRays).toBe(12);
        expect(m.packetError).toBeCloseTo(0.055, 6); // mean of 0.01·i, i < 12 (float32 ranges: ±1e-6)
        expect(m.unpairedPackets).toEqual({ real: 0, sim: 18, realRays: 0, simRays: 18 });
      }
    } finally {
      OPEN_WINDOW.rayCap = cap;
    }
  });

  it('ray for ray: first returns in order, checked', () => {
    const real = log([[0, [{ dir: 0 }, { dir: 0, ret: 1, range: 12 }, { dir: 1 }]], [0.01, [{ dir: 2 }, { dir: 3 }]]]);
    const sim = log([[0, [{ dir: 0 }, { dir: 1 }]], [0.01, [{ dir: 2 }, { dir: 3 }]]]);
    const m = evaluatePacketChunks([real], [sim], { packetPairing: 'rays' });
    expect(m.pairedRays).toBe(4);
    expect(m.unpairedRays).toEqual({ real: 1, sim: 0 }); // the second return has no simulated pulse
    expect(m.packetsPairedByIndex).toBe(2);
    const wrong = log([[0, [{ dir: 0 }, { dir: 2 }]], [0.01, [{ dir: 2 }, { dir: 3 }]]]);
    expect(() => evaluatePacketChunks([real], [wrong], { packetPairing: 'rays' })).toThrow(/ray-for-ray pairing, real packet 0 .*: ray 2 points 10\.000° away from simulated ray 1.*not simulated from this log's rays/);
    const short = log([[0, [{ dir: 0 }]], [0.01, [{ dir: 2 }, { dir: 3 }]]]);
    expect(() => evaluatePacketChunks([real], [short], { packetPairing: 'rays' })).toThrow(/real packet 0 .*: 2 pulses but simulated packet 0 has 1 rays/);
  });

  it('warns when a run and a log barely overlap', () => {
    const timed = (t0: number, n: number, dirs: (k: number) => [number, number]) =>
      log([...Array(n).keys()].map((k) => [t0 + k * 0.01, [{ dir: dirs(k)[0], time: 1e-5 }, { dir: dirs(k)[1], time: 2e-5 }]] as [number, Ray[]]));
    const real = timed(0, 10, () => [0, 1]);
    // Two packets near the log's end, one ray of them in a real direction: 1 pair.
    const few = log([[0.085, [{ dir: 0, time: 1e-5 }, { dir: 5, time: 2e-5 }]], [0.09, [{ dir: 0, time: 1e-5 }, { dir: 7, time: 2e-5 }]]]);
    const m = evaluatePacketChunks([real], [few], { timeOffsetS: 0 });
    expect(m.pairedRays).toBe(1);
    expect(m.warnings).toEqual([
      "only 5.0 % of the real log's rays paired (1 of 20): the figures describe that part only",
      "only 25.0 % of the simulated run's rays paired (1 of 4): the figures describe that part only",
    ]);
    // The run's span (0.085…0.090 s) lies inside the log's: no time warning.
    expect(m.timeOverlap!.fraction).toBeCloseTo(1, 9);
    // The same directions from 0.08 s to 0.27 s: they share 0.08001…0.09002 s, 11.1 % of the log's 0.09001 s.
    const late = evaluatePacketChunks([real], [timed(0.08, 20, () => [0, 1])], { timeOffsetS: 0 });
    expect(late.pairedRays).toBe(4);
    expect(late.timeOverlap!.fraction).toBeCloseTo(0.01001 / 0.09001, 6);
    expect(late.warnings!.at(-1)).toBe("the run's and the log's times overlap for 11.1 % of the shorter (log 0.000…0.090 s, run 0.080…0.270 s after the offset)");
    // Nothing when both overlap well.
    expect(evaluatePacketChunks([real], [timed(0, 10, () => [0, 1])]).warnings).toEqual([]);
  });
});

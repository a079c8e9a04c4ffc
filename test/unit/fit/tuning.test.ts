import { describe, expect, it } from 'vitest';
import { SceneBuilder } from '../../../src-worker/scene/scene-builder';
import { createSceneQuery } from '../../../src-worker/scene/scene-bvh';
import { MeshWriter } from '../../../src-worker/site/mesh-writer';
import { builtinProfile } from '../../../src-common/builtin-profiles';
import { revolutionPattern, packetRays } from '../../../src-worker/sensors/scan-pattern';
import { Simulator } from '../../../src-worker/simulate/simulate';
import { logRays } from '../../../src-worker/simulate/log-rays';
import { constantVelocityTrajectory } from '../../../src-worker/geometry/trajectory';
import { slicePacketsByTime } from '../../../src-worker/formats/chunk-slice';
import type { PacketChunk } from '../../../src-common/packets';
import { RandomStream } from '../../../src-worker/random/stream';
import { resolveFitParams } from '../../../src-common/fit-params';
import { tuneFit, tuningBoxes, type SliceScore } from '../../../src-worker/fit/tuning';
import { NO_HOOKS } from './synthetic';

/** Flat ground with six bushes of small random triangles (rays pass some and return from others). */
function bushScene() {
  const b = new SceneBuilder();
  const g = new MeshWriter();
  for (let x = -20; x < 40; x += 2) for (let y = -20; y < 20; y += 2) g.quad([x, y, 0], [x + 2, y, 0], [x + 2, y + 2, 0], [x, y + 2, 0], 0.3);
  const ground = g.finish();
  b.addInstance(b.addMesh(ground.positions, ground.values), undefined, 1, 1);
  const r = new RandomStream(5, 1);
  for (let k = 0; k < 6; k++) {
    const cx = 4 * k, cy = k % 2 ? 5 : -5;
    const tris: number[] = [];
    for (let t = 0; t < 500; t++) {
      const px = cx + 1.6 * (r.next() - 0.5), py = cy + 1.6 * (r.next() - 0.5), pz = 0.2 + 1.4 * r.next();
      for (let q = 0; q < 3; q++) tris.push(px + 0.05 * r.normal(), py + 0.05 * r.normal(), pz + 0.05 * r.normal());
    }
    b.addInstance(b.addMesh(Float32Array.from(tris)), undefined, 10 + k, 3);
  }
  return createSceneQuery(b.build());
}

/** 0.6 s of a VLP-16 driving along +x at 2 m/s, 2 m up, in mesh mode (the "real" log). */
function drive(): PacketChunk[] {
  const profile = builtinProfile('vlp16')!;
  const pattern = revolutionPattern(profile);
  const sim = new Simulator({
    scene: bushScene(),
    profile,
    rays: (p) => packetRays(pattern, p),
    trajectory: constantVelocityTrajectory([-5, 0, 0, 0, 0, 0, 1], [2, 0, 0], 0, 10),
    seed: 3,
    mode: 'mesh',
  });
  const out: PacketChunk[] = [];
  for (let first = 0; first < 1_000; first += 250) out.push(sim.simulatePackets(first, 250));
  return out;
}

/** Index pairing (the log and its re-simulation fire the same pulses in the same order). */
function indexScore(real: readonly PacketChunk[], sim: readonly PacketChunk[]): SliceScore {
  let th = 0, fh = 0, fm = 0, errSum = 0, errPackets = 0;
  const firstReturns = (c: PacketChunk, p: number) => {
    const rs: number[] = [];
    for (let r = c.rayStart[p]!; r < c.rayStart[p + 1]!; r++) if (c.rayReturn[r] === 0) rs.push(r);
    return rs;
  };
  real.forEach((rc, i) => {
    const sc = sim[i]!;
    for (let p = 0; p < rc.packetCount; p++) {
      const a = firstReturns(rc, p), b = firstReturns(sc, p);
      expect(b.length).toBe(a.length);
      let e = 0, n = 0;
      a.forEach((r, k) => {
        const s = b[k]!;
        const hr = Number.isFinite(rc.rayRange[r]), hs = Number.isFinite(sc.rayRange[s]);
        if (hr && hs) { th++; e += Math.abs(rc.rayRange[r]! - sc.rayRange[s]!); n++; } else if (hs) fh++; else if (hr) fm++;
      });
      if (n) { errSum += e / n; errPackets++; }
    }
  });
  const p = th / (th + fh), r = th / (th + fm);
  return { packetError: errPackets ? errSum / errPackets : 0, f1: (2 * p * r) / (p + r) };
}

describe('log rays and slices', () => {
  const log = drive();

  it('a slice renumbers packets from 0 and keeps the rays of packets in [from, to)', () => {
    const s = slicePacketsByTime(log, 0.1, 0.3);
    const total = s.reduce((a, c) => a + c.packetCount, 0);
    expect(s[0]!.packetStart).toBe(0);
    for (const c of s) for (const t of c.packetTime) expect(t >= 0.1 && t < 0.3).toBe(true);
    const expected = log.reduce((a, c) => a + c.packetTime.filter((t) => t >= 0.1 && t < 0.3).length, 0);
    expect(total).toBe(expected);
    expect(s.reduce((a, c) => a + c.rayCount, 0)).toBe(s.reduce((a, c) => a + c.rayStart[c.packetCount]!, 0));
  });

  it('re-simulating a log from its own rays and poses in the same scene gives its directions and ranges back', () => {
    const slice = slicePacketsByTime(log, 0, 0.2);
    const src = logRays(slice);
    const sim = new Simulator({
      scene: bushScene(),
      profile: builtinProfile('vlp16')!,
      rays: src.rays,
      trajectory: src.trajectory,
      mount: [0, 0, 0, 0, 0, 0, 1],
      seed: 9,
      mode: 'mesh',
      options: { noiseSigma: 0 },
    });
    const out = sim.simulatePackets(0, src.packets);
    const real = slice.length === 1 ? slice[0]! : null;
    expect(real).not.toBeNull();
    expect(out.rayCount).toBe(real!.rayCount);
    let mismatched = 0, far = 0, closeSum = 0, close = 0;
    for (let i = 0; i < out.rayCount; i++) {
      expect(Math.abs(out.rayDir[3 * i]! - real!.rayDir[3 * i]!)).toBeLessThan(1e-6); // the logged direction
      const a = real!.rayRange[i]!, b = out.rayRange[i]!;
      if (Number.isFinite(a) !== Number.isFinite(b)) mismatched++;
      else if (Number.isFinite(a)) {
        if (Math.abs(a - b) > 0.2) far++;
        else { closeSum += Math.abs(a - b); close++; }
      }
    }
    // The logged rays left from the pose at their own firing time (≤ 2.5 mm away at 2 m/s); a
    // few grazing rays then slip between a bush's triangles in one casting and not the other.
    expect(mismatched).toBeLessThan(0.002 * out.rayCount);
    expect(far).toBeLessThan(0.001 * out.rayCount);
    // Otherwise only the logged ranges' noise differs (VLP-16 profile σ, a few cm).
    expect(closeSum / close).toBeLessThan(0.05);
  });
});

describe('tuning θ on a slice', () => {
  const log = drive();
  const profile = builtinProfile('vlp16')!;
  const run = () => tuneFit(
    { chunks: slicePacketsByTime(log, 0, 0.3), params: resolveFitParams({}), boxes: tuningBoxes(['mahalanobisThreshold', 'clustersPerPoint']), seed: 1, profile, maxEvaluations: 8 },
    indexScore,
    NO_HOOKS,
  );

  it('keeps to the budget, records the trace, and never ends worse than where it started', () => {
    const r = run();
    expect(r.trace.length).toBeLessThanOrEqual(8);
    expect(r.trace.length).toBeGreaterThanOrEqual(3);
    expect(r.startObjective).toBe(r.trace[0]!.objective);
    expect(r.objective).toBeLessThanOrEqual(r.startObjective);
    for (const t of r.trace) {
      expect(t.objective).toBeCloseTo(t.packetError! + 2 * (1 - t.f1!), 10);
      expect(t.f1).toBeGreaterThan(0.3);
      expect(t.f1).toBeLessThanOrEqual(1);
    }
    expect(r.params.mahalanobisThreshold).toBe(r.best.mahalanobisThreshold);
    expect(r.params.phiThreshold).toBe(resolveFitParams({}).phiThreshold);
    // Same slice, seed and budget: same θ and trace.
    expect(run().trace.map((t) => t.objective)).toEqual(r.trace.map((t) => t.objective));
  });

  it('names the parameter that has no search box', () => {
    expect(() => tuningBoxes(['blockSize'])).toThrow(/blockSize.*cannot be tuned/);
  });
});

/**
 * `neighbour` mode through the Simulator: a return along the query ray at the matched hit's
 * along-ray distance, with its intensity and ground truth; the sensor's range limits; a miss
 * where nothing lies within d⊥; no scene needed, and the scene modes still need one.
 */
import { describe, expect, it } from 'vitest';
import { Simulator } from '../../../src-worker/simulate';
import { buildNeighbourIndex, neighbourCellFor } from '../../../src-worker/simulate/neighbour-build';
import { staticTrajectory } from '../../../src-worker/geometry/trajectory';
import { fixedRays, makeProfile } from './helpers';

/** One packet of hits from the origin: a wall of points at x = 10 (1 cm grid, y, z ∈ [−0.5, 0.5]) and one point at x = 0.3. */
function wallLog() {
  const pts: number[] = [];
  for (let i = -50; i <= 50; i++) for (let j = -50; j <= 50; j++) pts.push(10, i * 0.01, j * 0.01);
  pts.push(0.3, 0, 0);
  const n = pts.length / 3;
  const rayDir = new Float32Array(3 * n), rayRange = new Float32Array(n);
  for (let k = 0; k < n; k++) {
    const r = Math.hypot(pts[3 * k]!, pts[3 * k + 1]!, pts[3 * k + 2]!);
    rayRange[k] = r;
    rayDir.set([pts[3 * k]! / r, pts[3 * k + 1]! / r, pts[3 * k + 2]! / r], 3 * k);
  }
  return {
    packetCount: 1,
    packetTime: Float64Array.of(0),
    packetPose: Float64Array.of(0, 0, 0, 0, 0, 0, 1),
    rayStart: Uint32Array.of(0, n),
    rayDir,
    rayRange,
    rayIntensity: Float32Array.from({ length: n }, (_, k) => (k === n - 1 ? 99 : 7)),
    rayObject: Uint32Array.from({ length: n }, (_, k) => (k === n - 1 ? 2 : 1)),
    rayClass: Uint8Array.from({ length: n }, (_, k) => (k === n - 1 ? 10 : 13)),
  };
}

describe('neighbour mode', () => {
  const index = buildNeighbourIndex([wallLog()], { cell: neighbourCellFor(0.05) });
  const dirs = [[1, 0.02, 0.01], [1, 0, 0], [1, 0.2, 0], [0, 1, 0]];

  it('returns the nearest training hit along each ray, with its intensity, object and class', () => {
    // min range 0.5 m hides the point at 0.3 m; the third ray passes the wall's edge (y = 2 m at x = 10); the fourth meets nothing.
    const sim = new Simulator({
      scene: null, neighbour: { index, radius: 0.05 }, profile: makeProfile({ range: { min: 0.5, max: 100 } }),
      rays: fixedRays(dirs), trajectory: staticTrajectory(), seed: 1, mode: 'neighbour',
    });
    const c = sim.simulatePackets(0, 1);
    expect(c.rayCount).toBe(4);
    const r = Array.from(c.rayRange);
    // Along the ray at the projection of the nearest wall point within 5 cm: ≈ 10 m · cos(angle).
    expect(r[0]).toBeGreaterThan(9.99);
    expect(r[0]).toBeLessThan(10.01);
    expect(r[1]).toBeCloseTo(10, 4);
    expect(Number.isNaN(r[2]!)).toBe(true);
    expect(Number.isNaN(r[3]!)).toBe(true);
    expect(Array.from(c.rayIntensity.subarray(0, 2))).toEqual([7, 7]);
    expect(Array.from(c.rayObject)).toEqual([1, 1, 0, 0]);
    expect(Array.from(c.rayClass)).toEqual([13, 13, 0, 0]);
    // Directions are the query rays' own (returns lie on the beam axis).
    const n = Math.hypot(1, 0.02, 0.01);
    expect(c.rayDir[0]).toBeCloseTo(1 / n, 6);
    expect(c.rayDir[1]).toBeCloseTo(0.02 / n, 6);
  });

  it('sees the near point when the range limit allows it', () => {
    const sim = new Simulator({
      scene: null, neighbour: { index, radius: 0.05 }, profile: makeProfile({ range: { min: 0.1, max: 100 } }),
      rays: fixedRays([[1, 0, 0]]), trajectory: staticTrajectory(), seed: 1, mode: 'neighbour',
    });
    const c = sim.simulatePackets(0, 1);
    expect(c.rayRange[0]).toBeCloseTo(0.3, 5);
    expect([c.rayIntensity[0], c.rayObject[0], c.rayClass[0]]).toEqual([99, 2, 10]);
  });

  it('needs its index, and the scene modes need a scene', () => {
    const base = { scene: null, profile: makeProfile(), rays: fixedRays([[1, 0, 0]]), trajectory: staticTrajectory(), seed: 1 };
    expect(() => new Simulator({ ...base, mode: 'neighbour' })).toThrow(/neighbour mode needs/);
    expect(() => new Simulator({ ...base, mode: 'mesh' })).toThrow(/mesh mode needs a scene/);
    expect(() => new Simulator({ ...base, mode: 'neighbour', neighbour: { index, radius: 0.2 } })).toThrow(/below the index's cell/);
  });
});

/**
 * The modes on the real scene index (SceneBuilder + BVH) and the real scan pattern, cross-checked
 * against the analytic expectations the test doubles encode.
 */
import { describe, expect, it } from 'vitest';
import { SceneBuilder } from '../../../src-worker/scene/scene-builder';
import { createSceneQuery } from '../../../src-worker/scene/scene-bvh';
import { lms291Profile } from '../../../src-worker/sensors/devices';
import { packetRays, revolutionPattern } from '../../../src-worker/sensors/scan-pattern';
import { simulatePackets } from '../../../src-worker/simulate/simulate';
import { newSimulationStats, type PacketRaySource, type SimulationContext } from '../../../src-worker/simulate/types';
import { staticTrajectory } from '../../../src-worker/geometry/trajectory';

/** A wall x = 10, |y| ≤ 20, |z| ≤ 5 as two triangles. */
function wallScene() {
  const b = new SceneBuilder();
  const x = 10;
  const wall = b.addMesh(Float32Array.from([x, -20, -5, x, 20, -5, x, 20, 5, x, -20, -5, x, 20, 5, x, -20, 5]), 0.5);
  b.addInstance(wall, [0, 0, 0, 0, 0, 0, 1], 42, 3);
  return createSceneQuery(b.build());
}

describe('modes on the BVH scene with the LMS-291 scan pattern', () => {
  const profile = lms291Profile(100, 1);
  const pattern = revolutionPattern(profile);
  const rays: PacketRaySource = (p) => packetRays(pattern, p);
  const base = { profile, rays, trajectory: staticTrajectory(), mount: [0, 0, 0, 0, 0, 0, 1], seed: 3 };

  for (const mode of ['mesh', 'physics', 'hybrid'] as const) {
    it(`${mode}: every beam of a ±50° scan hits the wall at 10 / cos(azimuth) (±4σ + resolution)`, () => {
      const ctx: SimulationContext = { ...base, scene: wallScene(), mode };
      const stats = newSimulationStats();
      const c = simulatePackets(ctx, 0, 2, stats);
      expect(stats.rays).toBe(2 * 101);
      expect(stats.hits).toBe(2 * 101);
      for (let i = 0; i < c.rayCount; i++) {
        const cos = c.rayDir[3 * i]!;
        expect(Math.abs(c.rayRange[i]! - 10 / cos)).toBeLessThan(4 * profile.range.noiseSigma + profile.range.resolution);
        expect(c.rayObject[i]).toBe(42);
        expect(c.rayClass[i]).toBe(3);
      }
    });
  }

  it('hybrid: an ellipsoid in front of the wall passes rays with 1 − p_hit', () => {
    const b = new SceneBuilder();
    const wall = b.addMesh(Float32Array.from([10, -20, -5, 10, 20, -5, 10, 20, 5, 10, -20, -5, 10, 20, 5, 10, -20, 5]), 0.5);
    b.addInstance(wall, [0, 0, 0, 0, 0, 0, 1], 1, 1);
    const e = b.addEllipsoids([5, 0, 0], [0.01, 0, 0, 1, 0, 1], 0.25); // 10 cm deep, 1 m wide
    b.addInstance(e, [0, 0, 0, 0, 0, 0, 1], 2, 2);
    const ctx: SimulationContext = { ...base, profile: { ...profile, azimuthStart: -0.05, azimuthEnd: 0.05 }, scene: createSceneQuery(b.build()), mode: 'hybrid' };
    const p = revolutionPattern(ctx.profile);
    ctx.rays = (k) => packetRays(p, k);
    const c = simulatePackets(ctx, 0, 2000);
    let onEllipsoid = 0;
    for (let i = 0; i < c.rayCount; i++) if (c.rayObject[i] === 2) onEllipsoid++;
    const n = c.rayCount;
    expect(n).toBeGreaterThan(5000);
    expect(Math.abs(onEllipsoid - 0.25 * n)).toBeLessThan(4 * Math.sqrt(n * 0.25 * 0.75));
  });
});

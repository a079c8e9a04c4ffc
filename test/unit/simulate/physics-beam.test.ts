import { describe, expect, it } from 'vitest';
import { simulatePackets } from '../../../src-worker/simulate/simulate';
import { createSceneQuery } from '../../../src-worker/scene/scene-bvh';
import type { SceneQuery } from '../../../src-worker/scene/scene-query';
import { SceneBuilder } from '../../../src-worker/scene/scene-builder';
import { RandomStream } from '../../../src-worker/random/stream';
import { staticTrajectory } from '../../../src-worker/geometry/trajectory';
import { randomTriangles } from '../scene/random-scene';
import { dirAt, fixedRays, makeProfile } from './helpers';

describe('physics mode with the beam query', () => {
  it('writes exactly what nine closestSurface calls per pulse write', () => {
    const r = new RandomStream(5, 1);
    const b = new SceneBuilder();
    const mesh = b.addMesh(randomTriangles(r, 3000, 30, 1.5), Float32Array.from({ length: 3000 }, () => r.next()));
    b.addInstance(mesh, [0, 0, 0, 0, 0, 0, 1], 1, 1);
    b.addInstance(mesh, [3, 1, 0, 0, 0, Math.sin(0.3), Math.cos(0.3)], 2, 2);
    const q = createSceneQuery(b.build());
    // The same query without the optional beam method: the per-sub-ray fallback.
    const plain: SceneQuery = { closestSurface: q.closestSurface.bind(q), traverse: q.traverse.bind(q) };
    const dirs: number[][] = [];
    for (let i = 0; i < 600; i++) dirs.push(dirAt((2 * Math.PI * i) / 600, ((i % 13) - 6) * 0.05));
    for (const mode of ['strongest', 'last', 'first', 'strongest+last'] as const) {
      const profile = makeProfile({ beam: { shape: 'circular', divergenceH: 0.003, divergenceV: 0.003 }, returns: { mode, signalCutoff: 0.5 } });
      const run = (scene: SceneQuery) => simulatePackets({ scene, profile, rays: fixedRays(dirs), trajectory: staticTrajectory(), seed: 7, mode: 'physics' }, 0, 2);
      const a = run(q), c = run(plain);
      expect(a.rayCount).toBe(c.rayCount);
      expect(Array.from(a.rayRange)).toEqual(Array.from(c.rayRange));
      expect(Array.from(a.rayIntensity)).toEqual(Array.from(c.rayIntensity));
      expect(Array.from(a.rayObject)).toEqual(Array.from(c.rayObject));
      expect(Array.from(a.rayDir)).toEqual(Array.from(c.rayDir));
      expect(a.rayRange.filter((x) => x === x).length).toBeGreaterThan(100);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { buildTerrain } from '../../../src-worker/site/terrain';
import { buildComposedHybridScene, buildOffroadBenchScene } from '../../../src-worker/site/offroad';
import { buildCylinderStand, buildRodBench, polygonRadiusForMeanWidth, THICK_ROD_INDEX } from '../../../src-worker/site/fixtures';
import { revolutionRays } from '../../../src-worker/site/bench-rays';
import { treeEllipsoids, treeSpec } from '../../../src-worker/site/vegetation';
import { SiteClass } from '../../../src-common/classes';
import { createSceneQuery } from '../../../src-worker/scene/scene-bvh';
import { ElementKind, newSurfaceHit } from '../../../src-worker/scene/scene-query';
import { GAUSS_STRIDE, INST_INTS } from '../../../src-worker/scene/scene-data';
import { RandomStream } from '../../../src-worker/random/stream';

describe('terrain', () => {
  it('is a grid of triangles on the height field, deterministic in the seed', () => {
    const a = buildTerrain({ seed: 4, x0: 0, y0: 0, sizeX: 20, sizeY: 10, cell: 0.5 });
    expect(a.triangles).toBe(2 * 40 * 20);
    expect(a.positions.length).toBe(9 * a.triangles);
    for (let v = 0; v < 30; v++) {
      const x = a.positions[3 * v]!, y = a.positions[3 * v + 1]!, z = a.positions[3 * v + 2]!;
      expect(z).toBeCloseTo(a.heightAt(x, y), 4);
    }
    const b = buildTerrain({ seed: 4, x0: 0, y0: 0, sizeX: 20, sizeY: 10, cell: 0.5 });
    expect(b.positions).toEqual(a.positions);
    const c = buildTerrain({ seed: 5, x0: 0, y0: 0, sizeX: 20, sizeY: 10, cell: 0.5 });
    expect(c.positions).not.toEqual(a.positions);
    // on the trail the ground is flagged
    expect(a.onTrail(10, a.trailY(10))).toBe(1);
  });
});

describe('off-road bench scene', () => {
  it('reaches its triangle budget with instancing and counts placed triangles honestly', () => {
    const s = buildOffroadBenchScene({ seed: 2, sizeM: 80, targetTriangles: 250_000 });
    expect(s.stats.instancedTriangles).toBeGreaterThan(0.9 * 250_000);
    expect(s.stats.instancedTriangles).toBeLessThan(1.1 * 250_000);
    expect(s.stats.uniqueTriangles).toBeLessThan(s.stats.instancedTriangles);
    expect(s.counts.trees).toBeGreaterThan(3);
    expect(s.counts.grassClumps).toBeGreaterThan(50);
    expect(s.poses).toHaveLength(10);
    // sensors are above the ground and rays from them mostly hit something
    const q = createSceneQuery(s.data);
    const h = newSurfaceHit();
    const rays = revolutionRays([s.poses[3]!], { azimuthStepDeg: 2 });
    let hits = 0;
    for (let i = 0; i < rays.length / 6; i++) {
      const o = 6 * i;
      if (q.closestSurface(rays[o]!, rays[o + 1]!, rays[o + 2]!, rays[o + 3]!, rays[o + 4]!, rays[o + 5]!, 0, 120, h)) hits++;
    }
    expect(hits / (rays.length / 6)).toBeGreaterThan(0.5);
    const down = q.closestSurface(s.poses[0]![0], s.poses[0]![1], s.poses[0]![2], 0, 0, -1, 0, 10, h);
    expect(down).toBe(true);
    expect(h.t).toBeGreaterThan(1.5);
    const again = buildOffroadBenchScene({ seed: 2, sizeM: 80, targetTriangles: 250_000 });
    expect(again.data.triVerts).toEqual(s.data.triVerts);
    expect(again.data.instXform).toEqual(s.data.instXform);
  });
});

describe('composed hybrid scene', () => {
  it('has ground with p_hit, ellipsoid trees of about 300 elements, and a matching mesh version', () => {
    const s = buildComposedHybridScene({ seed: 3, lengthM: 60 });
    expect(s.hybridStats.instances).toBe(s.meshStats.instances);
    expect(s.hybridStats.uniqueEllipsoids).toBeGreaterThan(1000);
    expect(s.meshStats.uniqueEllipsoids).toBe(0);
    expect(s.counts.trees).toBeGreaterThan(2);
    // same object ids and classes at the same index
    expect(s.hybrid.instInts.filter((_, i) => i % INST_INTS !== 0)).toEqual(s.mesh.instInts.filter((_, i) => i % INST_INTS !== 0));
    expect(s.trail).toHaveLength(61);
    const q = createSceneQuery(s.hybrid);
    const p = s.trail[30]!;
    const kinds: number[] = [];
    q.traverse(p[0], p[1], p[2], 0, 0, -1, 0, 10, (h) => (kinds.push(h.kind), h.kind === ElementKind.Ground));
    expect(kinds.at(-1)).toBe(ElementKind.Ground);
    const mq = createSceneQuery(s.mesh);
    const h = newSurfaceHit();
    expect(mq.closestSurface(p[0], p[1], p[2], 0, 0, -1, 0, 10, h)).toBe(true);
    expect(h.classId).toBe(SiteClass.ground);
  });

  it('a medium tree is about 300 ellipsoids (thesis Table 4.2)', () => {
    const g = treeEllipsoids(treeSpec(new RandomStream(1, 0), 'medium'));
    expect(g.values.length).toBeGreaterThan(250);
    expect(g.values.length).toBeLessThan(350);
    expect(g.means.length).toBe(3 * g.values.length);
    void GAUSS_STRIDE;
  });
});

describe('validation fixtures', () => {
  it('cylinder stand: count λ·area, silhouette width d within 1 %, mean penetration ≈ 1/(λd)', () => {
    const lambda = 50, d = 0.02, D = 20;
    const s = buildCylinderStand({ lambda, diameter: d, distance: D, seed: 1 });
    expect(s.count).toBe(lambda * 50);
    expect(s.vertexRadius).toBeCloseTo(polygonRadiusForMeanWidth(d, 32), 12);
    const q = createSceneQuery(s.data);
    const h = newSurfaceHit();
    // Silhouette: scan a beam across one stem from far away, measure the hit width.
    const cx = s.centres[0]!, cy = s.centres[1]!;
    let hitsAcross = 0;
    const step = d / 2000;
    for (let y = cy - d; y <= cy + d; y += step) {
      if (q.closestSurface(cx - 0.2, y, 0, 1, 0, 0, 0, 0.2, h) && h.objectId === 1) hitsAcross++;
    }
    expect(Math.abs(hitsAcross * step - d) / d).toBeLessThan(0.01);
    // Mean penetration of thin beams at z = 0.
    const r = new RandomStream(7, 0);
    let sum = 0, n = 0;
    for (let k = 0; k < 4000; k++) {
      const y = (r.next() - 0.5) * 6;
      if (q.closestSurface(0, y, 0, 1, 0, 0, 0, 100, h)) {
        sum += h.t - D;
        n++;
        expect(h.classId).toBe(SiteClass.stem);
      }
    }
    expect(n).toBeGreaterThan(3900);
    expect(sum / n).toBeGreaterThan(0.9 / (lambda * d));
    expect(sum / n).toBeLessThan(1.1 / (lambda * d));
  });

  it('rod bench: 9 rods 12.7 cm apart at 0.8 m, the middle one 75 mm, a wall behind', () => {
    for (const offset of [0.6, 2]) {
      const b = buildRodBench({ backgroundOffset: offset });
      expect(b.rodCentres.length).toBe(18);
      expect(b.rodCentres[2 * 4 + 1]).toBe(0);
      expect(b.rodCentres[2 * 5 + 1]! - b.rodCentres[2 * 4 + 1]!).toBeCloseTo(0.127, 12);
      expect(b.rodDiameters[THICK_ROD_INDEX]).toBe(0.075);
      expect(b.wallX).toBeCloseTo(0.8 + offset, 12);
      const q = createSceneQuery(b.data);
      const h = newSurfaceHit();
      expect(q.closestSurface(0, 0, 0, 1, 0, 0, 0, 80, h)).toBe(true);
      expect(h.t).toBeCloseTo(0.8 - 0.0375, 3);
      expect(h.objectId).toBe(5);
      expect(h.classId).toBe(SiteClass.rod);
      // between rods 4 and 5 (y = 0.0635): the wall
      const dir = [0.8, 0.0635], l = Math.hypot(dir[0]!, dir[1]!);
      expect(q.closestSurface(0, 0, 0, dir[0]! / l, dir[1]! / l, 0, 0, 80, h)).toBe(true);
      expect(h.objectId).toBe(b.wallObjectId);
      expect(h.t * dir[0]! / l).toBeCloseTo(b.wallX, 5);
      expect(h.nx).toBeCloseTo(-1, 9);
      // the ±50° field of view sees the wall everywhere
      for (const deg of [-50, 50]) {
        const a = (deg * Math.PI) / 180;
        expect(q.closestSurface(0, 0, 0, Math.cos(a), Math.sin(a), 0, 0, 80, h)).toBe(true);
      }
    }
  });
});

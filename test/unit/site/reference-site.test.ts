import { describe, expect, it } from 'vitest';
import { buildReferenceSite, DRIVE_SPEED, type ReferenceSite } from '../../../src-worker/site/reference-site';
import { ReferenceClass, THESIS_HEIGHT_M, referenceClassName } from '../../../src-common/classes';
import { boxDistance, objectsInRange, orientedBox, placedTriangleLabels, yawPitchPose } from '../../../src-worker/site/reference-annotations';
import { flattenSceneTriangles, INST_FLOATS, INST_INTS, PRIM_INTS, PrimInt } from '../../../src-worker/scene/scene-data';
import { type SceneData } from '../../../src-common/scene-data';
import { createSceneQuery } from '../../../src-worker/scene/scene-bvh';
import { newSurfaceHit } from '../../../src-worker/scene/scene-query';

const ARRAYS = ['primInts', 'primFloats', 'triVerts', 'triValues', 'triSource', 'nodeBounds', 'nodeLinks', 'instInts', 'instXform', 'tlasRefs', 'bounds'] as const;

/** Largest distance of any placed vertex from its object's annotated box, and per-instance class agreement. */
function checkTrianglesInBoxes(site: ReferenceSite): { worst: number; classMismatches: number; unknownIds: number } {
  const d: SceneData = site.data;
  const byId = new Map(site.annotations.map((a) => [a.id, a]));
  let worst = 0, classMismatches = 0, unknownIds = 0;
  for (let i = 0; i < d.instanceCount; i++) {
    const p = d.instInts[i * INST_INTS]!, id = d.instInts[i * INST_INTS + 1]!, cls = d.instInts[i * INST_INTS + 2]!;
    const a = byId.get(id);
    if (!a) {
      unknownIds++;
      continue;
    }
    if (a.class !== cls) classMismatches++;
    if (id === 1) continue; // the terrain: checked against the height field below
    const x = d.instXform, o = i * INST_FLOATS;
    const first = d.primInts[p * PRIM_INTS + PrimInt.first]!, count = d.primInts[p * PRIM_INTS + PrimInt.count]!;
    for (let v = 3 * first; v < 3 * (first + count); v++) {
      const lx = d.triVerts[3 * v]!, ly = d.triVerts[3 * v + 1]!, lz = d.triVerts[3 * v + 2]!;
      const wx = x[o]! * lx + x[o + 1]! * ly + x[o + 2]! * lz + x[o + 9]!;
      const wy = x[o + 3]! * lx + x[o + 4]! * ly + x[o + 5]! * lz + x[o + 10]!;
      const wz = x[o + 6]! * lx + x[o + 7]! * ly + x[o + 8]! * lz + x[o + 11]!;
      worst = Math.max(worst, boxDistance(a.box, wx, wy, wz));
    }
  }
  return { worst, classMismatches, unknownIds };
}

const small = buildReferenceSite({ seed: 7, small: true });
const full = buildReferenceSite({ seed: 3 });

describe('reference site: determinism', () => {
  it('gives identical arrays, annotations and drives for the same seed, and a different site for another', () => {
    const again = buildReferenceSite({ seed: 7, small: true });
    for (const k of ARRAYS) expect(again.data[k], k).toEqual(small.data[k]);
    expect(again.annotations).toEqual(small.annotations);
    expect(again.drives).toEqual(small.drives);
    expect(again.trail).toEqual(small.trail);
    const other = buildReferenceSite({ seed: 8, small: true });
    expect(other.data.triVerts).not.toEqual(small.data.triVerts);
    expect(other.data.instXform).not.toEqual(small.data.instXform);
    expect(other.annotations.map((a) => a.box.center)).not.toEqual(small.annotations.map((a) => a.box.center));
  });
});

describe('reference site: content', () => {
  it('full size: a 400 m trail, thesis-sized counts per class, millions of placed triangles', () => {
    expect(full.lengthM).toBe(400);
    // Targets (recipe): trees 36 / 28 / 16, shrubs 16 / 24 / 28 / 16, patches 4 / 16 / 16 / 8,
    // 80 grass stands, 24 rocks, 12 logs; the layout may fail to seat a few (≥ 90 % placed).
    const expected: Record<string, number> = {
      'small tree': 36, 'medium tree': 28, 'large tree': 16,
      'low shrub': 16, 'small shrub': 24, 'medium shrub': 28, 'large shrub': 16,
      'low shrub patch': 4, 'small shrub patch': 16, 'medium shrub patch': 16, 'large shrub patch': 8,
      grass: 80, rock: 24, 'fallen log': 12,
    };
    for (const [k, n] of Object.entries(expected)) {
      expect(full.counts[k] ?? 0, k).toBeGreaterThanOrEqual(Math.floor(0.9 * n));
      expect(full.counts[k] ?? 0, k).toBeLessThanOrEqual(n);
    }
    const trees = (full.counts['small tree'] ?? 0) + (full.counts['medium tree'] ?? 0) + (full.counts['large tree'] ?? 0);
    expect(trees).toBeGreaterThanOrEqual(72); // "tens of trees"
    expect(full.annotations).toHaveLength(1 + Object.values(full.counts).reduce((a, b) => a + b, 0));
    expect(full.stats.instancedTriangles).toBeGreaterThan(2_000_000);
    expect(full.stats.instancedTriangles).toBeLessThan(5_000_000);
    expect(full.stats.uniqueTriangles).toBeLessThan(1_000_000);
  });

  it('small: one of every class at least, a 40 m stretch', () => {
    expect(small.lengthM).toBe(40);
    for (const c of [ReferenceClass.smallTree, ReferenceClass.mediumTree, ReferenceClass.largeTree, ReferenceClass.lowShrub, ReferenceClass.smallShrub, ReferenceClass.mediumShrub, ReferenceClass.largeShrub, ReferenceClass.grass, ReferenceClass.rock, ReferenceClass.log]) {
      expect(small.annotations.some((a) => a.class === c), referenceClassName(c)).toBe(true);
    }
    expect(small.annotations.filter((a) => a.patch)).toHaveLength(4);
    expect(small.stats.instancedTriangles).toBeLessThan(400_000);
  });

  it('annotations: ids 1..N, terrain first, names match classes, heights follow thesis Table 4.2', () => {
    for (const site of [small, full]) {
      site.annotations.forEach((a, i) => expect(a.id).toBe(i + 1));
      expect(site.annotations[0]).toMatchObject({ class: ReferenceClass.ground, label: 'ground' });
      for (const a of site.annotations) expect(a.label).toBe(referenceClassName(a.class));
    }
    // Single (non-patch) plants: box height within ±30 % of the thesis mean (variants draw ±15–20 %,
    // plus the part of the mesh below the foot and leaves beyond the nominal height).
    for (const a of full.annotations) {
      const h = THESIS_HEIGHT_M[a.class];
      if (h === undefined || a.patch) continue;
      expect(a.box.size[2], `${a.label} ${a.id}`).toBeGreaterThan(0.7 * h);
      expect(a.box.size[2], `${a.label} ${a.id}`).toBeLessThan(1.3 * h);
    }
  });

  it('every triangle carries an object id with an annotation of its class whose box contains it (1 mm)', () => {
    for (const site of [small, full]) {
      const r = checkTrianglesInBoxes(site);
      expect(r.unknownIds).toBe(0);
      expect(r.classMismatches).toBe(0);
      expect(r.worst).toBeLessThan(1e-3);
    }
    // Per triangle, as an exporter sees them: labels line up with flattenSceneTriangles.
    const { positions } = flattenSceneTriangles(small.data);
    const labels = placedTriangleLabels(small.data);
    expect(labels.objectId.length).toBe(positions.length / 9);
    const byId = new Map(small.annotations.map((a) => [a.id, a]));
    let worstTerrain = 0;
    for (let t = 0; t < labels.objectId.length; t++) {
      const a = byId.get(labels.objectId[t]!)!;
      expect(a.class).toBe(labels.classId[t]);
      for (let v = 0; v < 3; v++) {
        const x = positions[9 * t + 3 * v]!, y = positions[9 * t + 3 * v + 1]!, z = positions[9 * t + 3 * v + 2]!;
        if (a.id === 1) worstTerrain = Math.max(worstTerrain, Math.abs(z - small.terrain.heightAt(x, y)));
        else if (boxDistance(a.box, x, y, z) > 1e-3) throw new Error(`triangle ${t} of object ${a.id} outside its box`);
      }
    }
    expect(worstTerrain).toBeLessThan(1e-4); // terrain vertices sit on the height field (float32)
  });

  it('objects stand on the ground and keep off the trail; rocks and logs are beside it', () => {
    for (const a of full.annotations.slice(1)) {
      const [x, y] = a.box.center;
      const bottom = a.box.center[2] - a.box.size[2] / 2;
      expect(bottom, `${a.label} ${a.id}`).toBeLessThan(full.terrain.heightAt(x, y) + 0.3);
      // the pose's origin (trunk, stem base, log centre) is off the trail
      const edge = Math.abs(a.pose[1] - full.terrain.trailY(a.pose[0])) - full.terrain.trailHalfWidth;
      expect(edge, `${a.label} ${a.id}`).toBeGreaterThan(0);
      if (a.class === ReferenceClass.rock || a.class === ReferenceClass.log) expect(edge).toBeLessThan(12);
    }
  });
});

describe('reference site: drives and boxes', () => {
  it('drives follow the trail at 2.4 m/s with poses at 100 Hz, over different stretches', () => {
    for (const site of [small, full]) {
      const [train, test] = site.drives;
      expect(train!.name).toBe('training');
      expect(test!.name).toBe('test');
      for (const d of site.drives) {
        const n = d.times.length;
        expect(n).toBe(Math.round(d.seconds * 100) + 1);
        expect(d.times[1]! - d.times[0]!).toBeCloseTo(0.01, 12);
        let length = 0;
        for (let i = 0; i < n; i++) {
          const x = d.poses[7 * i]!, y = d.poses[7 * i + 1]!, z = d.poses[7 * i + 2]!;
          expect(Math.abs(y - site.terrain.trailY(x))).toBeLessThan(1e-9);
          expect(Math.abs(z - site.terrain.heightAt(x, y))).toBeLessThan(1e-9);
          expect(Math.hypot(d.poses[7 * i + 3]!, d.poses[7 * i + 4]!, d.poses[7 * i + 5]!, d.poses[7 * i + 6]!)).toBeCloseTo(1, 12);
          if (i > 0) length += Math.hypot(x - d.poses[7 * i - 7]!, y - d.poses[7 * i - 6]!);
        }
        // speed along the ground (xy): the path is sampled every 0.25 m, so within 0.5 %
        expect(length / d.seconds).toBeGreaterThan(DRIVE_SPEED * 0.995);
        expect(length / d.seconds).toBeLessThan(DRIVE_SPEED * 1.005);
      }
      const trainEnd = train!.poses[7 * (train!.times.length - 1)]!;
      expect(test!.poses[0]!).toBeGreaterThan(trainEnd);
    }
    expect(full.drives[1]!.seconds).toBeGreaterThan(full.drives[0]!.seconds); // thesis: the test drive is longer
  });

  it('objectsInRange: what a 70 m sensor can reach along a drive', () => {
    const ids = objectsInRange(full.annotations, full.drives[0]!.poses, 70, 2);
    expect(ids[0]).toBe(1);
    expect(ids.length).toBeGreaterThan(40);
    expect(ids.length).toBeLessThan(full.annotations.length);
    const far = full.annotations.filter((a) => !ids.includes(a.id));
    for (const a of far) expect(a.box.center[0]).toBeGreaterThan(full.drives[0]!.startX + 24 + 60);
  });

  it('orientedBox is exact for a yawed pose and bounds a tilted one', () => {
    const yaw = 0.7;
    const box = orientedBox([-1, -0.5, 0], [3, 0.5, 2], yawPitchPose(10, 20, 1, yaw), yaw);
    expect(box.size[0]).toBeCloseTo(4, 12);
    expect(box.size[1]).toBeCloseTo(1, 12);
    expect(box.size[2]).toBeCloseTo(2, 12);
    expect(box.center[0]).toBeCloseTo(10 + Math.cos(yaw), 12);
    expect(box.center[1]).toBeCloseTo(20 + Math.sin(yaw), 12);
    expect(box.center[2]).toBeCloseTo(2, 12);
    const tilted = orientedBox([-2, -0.2, 0], [2, 0.2, 0.4], yawPitchPose(0, 0, 0, 0, -0.2), 0);
    // the far end rises by 2 sin 0.2
    expect(tilted.center[2] + tilted.size[2] / 2).toBeCloseTo(2 * Math.sin(0.2) + 0.4 * Math.cos(0.2), 9);
  });

  it('rays cast into the built scene report the object ids and classes of the annotations', () => {
    const q = createSceneQuery(small.data);
    const hit = newSurfaceHit();
    const byId = new Map(small.annotations.map((a) => [a.id, a]));
    let hits = 0;
    for (const a of small.annotations.slice(1)) {
      // straight down onto the object from above its box
      const [cx, cy] = a.box.center, top = a.box.center[2] + a.box.size[2] / 2 + 1;
      if (!q.closestSurface(cx, cy, top, 0, 0, -1, 0, 100, hit)) continue;
      hits++;
      const owner = byId.get(hit.objectId)!;
      expect(owner.class).toBe(hit.classId);
      expect(boxDistance(owner.box, cx, cy, top - hit.t)).toBeLessThan(1e-3);
    }
    expect(hits).toBe(small.annotations.length - 1);
  });
});

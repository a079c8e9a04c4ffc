import { describe, expect, it } from 'vitest';
import { euclideanClusters } from '../../../src-worker/primitives/cluster';
import { classFamily, familyFallbacks, proposeClass, SHRUB_WIDTH_M } from '../../../src-worker/primitives/classify';
import { objectPose, yawNearestTravel } from '../../../src-worker/primitives/object-pose';
import { cloudFromPoints, SegmentCloudBuilder, type SegmentLogChunk } from '../../../src-worker/primitives/segment-cloud';
import { labelFromAnnotation, segmentsFromAnnotation, segmentsFromClusters, nonGroundMask } from '../../../src-worker/primitives/segments';
import { GroundIndex, heightFunctionGrid, heightGridTriangles } from '../../../src-worker/primitives/ground-index';
import { boxContains, type AnnotationBox } from '../../../src-worker/site/reference-annotations';
import { ReferenceClass as C, SHRUB_CLASSES, THESIS_HEIGHT_M, TREE_CLASSES } from '../../../src-common/classes';
import { RandomStream } from '../../../src-worker/random/stream';

/** n points uniform in a ball of radius r around c. */
function ball(r: RandomStream, c: [number, number, number], radius: number, n: number): number[] {
  const out: number[] = [];
  while (out.length < 3 * n) {
    const u = 2 * r.next() - 1, v = 2 * r.next() - 1, w = 2 * r.next() - 1;
    if (u * u + v * v + w * w <= 1) out.push(c[0] + radius * u, c[1] + radius * v, c[2] + radius * w);
  }
  return out;
}

/** Connected components with links ≤ tol, by brute force (the reference). */
function bruteComponents(p: number[], tol: number): number[] {
  const n = p.length / 3, comp = new Array<number>(n).fill(-1);
  let c = 0;
  for (let s = 0; s < n; s++) {
    if (comp[s] !== -1) continue;
    comp[s] = c;
    const stack = [s];
    while (stack.length) {
      const i = stack.pop()!;
      for (let j = 0; j < n; j++) {
        if (comp[j] !== -1) continue;
        if (Math.hypot(p[3 * i]! - p[3 * j]!, p[3 * i + 1]! - p[3 * j + 1]!, p[3 * i + 2]! - p[3 * j + 2]!) <= tol) {
          comp[j] = c;
          stack.push(j);
        }
      }
    }
    c++;
  }
  return comp;
}

describe('Euclidean clustering', () => {
  it('separates two blobs 2 m apart and merges two that touch', () => {
    const r = new RandomStream(1, 1);
    const apart = [...ball(r, [0, 0, 1], 0.5, 300), ...ball(r, [3, 0, 1], 0.5, 300)]; // surfaces 2 m apart
    const a = euclideanClusters(apart, undefined, { tolerance: 0.5, minPoints: 10 });
    expect(a.clusters.length).toBe(2);
    expect(a.clusters.map((c) => c.length)).toEqual([300, 300]);
    expect(Array.from(a.clusters[0]!.subarray(0, 3))).toEqual([0, 1, 2]);
    const touching = [...ball(r, [0, 0, 1], 0.5, 300), ...ball(r, [1.05, 0, 1], 0.5, 300)];
    expect(euclideanClusters(touching, undefined, { tolerance: 0.5 }).clusters.length).toBe(1);
  });

  it('equals brute-force connected components on random clouds (tolerance 0.3–0.7 m), ordered by first index', () => {
    for (let seed = 0; seed < 6; seed++) {
      const r = new RandomStream(seed, 2);
      const p: number[] = [];
      for (let k = 0; k < 8; k++) p.push(...ball(r, [10 * r.next(), 10 * r.next(), 2 * r.next()], 0.2 + 0.8 * r.next(), 20 + Math.floor(60 * r.next())));
      for (let k = 0; k < 40; k++) p.push(10 * r.next(), 10 * r.next(), 2 * r.next());
      const tol = 0.3 + 0.4 * r.next();
      const comp = bruteComponents(p, tol);
      const { clusters, smallPoints } = euclideanClusters(p, undefined, { tolerance: tol, minPoints: 1 });
      expect(smallPoints).toBe(0);
      const got = new Array<number>(p.length / 3).fill(-1);
      clusters.forEach((c, k) => c.forEach((i) => { got[i] = k; }));
      // Same partition: the brute force's numbering is also by first index.
      expect(got).toEqual(comp);
    }
  });

  it('drops clusters below minPoints and clusters a subset only', () => {
    const r = new RandomStream(3, 1);
    const p = [...ball(r, [0, 0, 0], 0.4, 50), ...ball(r, [5, 0, 0], 0.1, 5)];
    const c = euclideanClusters(p, undefined, { minPoints: 10 });
    expect(c.clusters.length).toBe(1);
    expect(c.smallPoints).toBe(5);
    const sub = euclideanClusters(p, [50, 51, 52, 53, 54], { minPoints: 1 });
    expect(Array.from(sub.clusters[0]!)).toEqual([50, 51, 52, 53, 54]);
  });
});

describe('size-based class proposal', () => {
  it('gives each Table 4.2 class for a box of its mean height, shrubs wide and trees narrow', () => {
    for (const c of TREE_CLASSES) {
      const h = THESIS_HEIGHT_M[c]!;
      expect(proposeClass([0.55 * h, 0.5 * h, h])).toEqual({ class: c, patch: false });
    }
    for (const c of SHRUB_CLASSES) {
      const h = THESIS_HEIGHT_M[c]!, w = SHRUB_WIDTH_M[c]!;
      expect(proposeClass([w, 0.9 * w, h])).toEqual({ class: c, patch: false });
      expect(proposeClass([2.5 * w, w, h])).toEqual({ class: c, patch: true });
    }
    // 5.4 m (large shrub) and 5.9 m (small tree) are told apart by shape, not height.
    expect(proposeClass([6, 6, 5.6])!.class).toBe(C.largeShrub);
    expect(proposeClass([3, 3, 5.6])!.class).toBe(C.smallTree);
    expect(proposeClass([1, 1, 0.3])).toBeNull();
  });

  it('families and fallbacks: nearest class of the same family by height', () => {
    expect(classFamily(C.mediumTree)).toBe('tree');
    expect(classFamily(C.lowShrub)).toBe('shrub');
    expect(classFamily(C.rock)).toBeNull();
    expect(familyFallbacks(C.largeTree)).toEqual([C.mediumTree, C.smallTree]);
    // log-height: 2.1 m is nearer 3.8 m (×1.81) than 1.1 m (×1.91).
    expect(familyFallbacks(C.smallShrub)).toEqual([C.mediumShrub, C.lowShrub, C.largeShrub]);
    expect(familyFallbacks(C.rock)).toEqual([]);
  });
});

describe('object pose and box', () => {
  /** Points of an elongated blob (3 m × 1 m × 2 m) turned by `yaw`, centred at (10, 20). */
  function blob(yaw: number, seed = 4): number[] {
    const r = new RandomStream(seed, 3), c = Math.cos(yaw), s = Math.sin(yaw);
    const p: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const u = 3 * (r.next() - 0.5), v = 1 * (r.next() - 0.5), z = 2 * r.next();
      p.push(10 + c * u - s * v, 20 + s * u + c * v, z);
    }
    return p;
  }
  const idx = (n: number) => Uint32Array.from({ length: n }, (_, i) => i);
  const deg = (a: number) => (a * 180) / Math.PI;
  const angleDiff = (a: number, b: number) => Math.abs(Math.atan2(Math.sin(a - b), Math.cos(a - b)));

  it('picks the principal axis nearest the travel direction (±1°), pointing along it', () => {
    const yaw = (35 * Math.PI) / 180;
    const p = blob(yaw);
    // Travel 20° off the long axis: the long axis.
    const a = objectPose(p, idx(2000), [Math.cos(yaw + 0.35), Math.sin(yaw + 0.35)]);
    expect(deg(angleDiff(a.yaw, yaw))).toBeLessThan(1);
    // Travel 20° off the short axis: the short axis.
    const b = objectPose(p, idx(2000), [Math.cos(yaw + Math.PI / 2 - 0.35), Math.sin(yaw + Math.PI / 2 - 0.35)]);
    expect(deg(angleDiff(b.yaw, yaw + Math.PI / 2))).toBeLessThan(1);
    // Travel backwards along the long axis: the long axis, turned to point along travel.
    const c = objectPose(p, idx(2000), [-Math.cos(yaw), -Math.sin(yaw)]);
    expect(deg(angleDiff(c.yaw, yaw + Math.PI))).toBeLessThan(1);
    expect(yawNearestTravel(4, 0, 1, 0, 0)).toBe(0); // no travel: the major axis
  });

  it('the box contains every point, is tight, and its extents follow the chosen axis', () => {
    const yaw = (35 * Math.PI) / 180;
    const p = blob(yaw);
    const a = objectPose(p, idx(2000), [Math.cos(yaw), Math.sin(yaw)]);
    for (let i = 0; i < 2000; i++) expect(boxContains(a.box, p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!, 1e-9)).toBe(true);
    expect(a.box.size[0]).toBeCloseTo(3, 1);
    expect(a.box.size[1]).toBeCloseTo(1, 1);
    expect(a.box.size[2]).toBeCloseTo(2, 1);
    expect(a.centroid[0]).toBeCloseTo(10, 1);
    expect(a.pose.slice(0, 3)).toEqual(a.centroid);
    const b = objectPose(p, idx(2000), [-Math.sin(yaw), Math.cos(yaw)]);
    expect(b.box.size[0]).toBeCloseTo(1, 1);
    expect(b.box.size[1]).toBeCloseTo(3, 1);
  });
});

describe('segment cloud, ground and labels', () => {
  /** A chunk of `n` packets moving along +y at 1 m per packet, each with one hit straight down-forward. */
  function chunk(n: number, hitsPer: [number, number, number][], obj: number[]): SegmentLogChunk {
    const pose = new Float64Array(7 * n), start = new Uint32Array(n + 1);
    const dir: number[] = [], range: number[] = [], object: number[] = [], cls: number[] = [];
    for (let p = 0; p < n; p++) {
      pose.set([0, p, 2, 0, 0, 0, 1], 7 * p);
      hitsPer.forEach((d, k) => {
        const len = Math.hypot(...d);
        dir.push(d[0] / len, d[1] / len, d[2] / len);
        range.push(len);
        object.push(obj[k]!);
        cls.push(obj[k] ? C.smallShrub : 0);
      });
      start[p + 1] = dir.length / 3;
    }
    return { packetCount: n, packetPose: pose, rayStart: start, rayDir: Float32Array.from(dir), rayRange: Float32Array.from(range), rayObject: Uint32Array.from(object), rayClass: Uint8Array.from(cls) };
  }

  it('thins hits to one per cell (first kept) and records the travel direction from the poses', () => {
    const b = new SegmentCloudBuilder({ cellSize: 0.1 });
    b.addChunk(chunk(5, [[3, 0, -1], [3, 0.01, -1]], [7, 8]));
    const cloud = b.finish();
    expect(cloud.hits).toBe(10);
    expect(cloud.count).toBe(5); // the second ray of each packet lands in the first's cell
    expect(Array.from(cloud.objectId)).toEqual([7, 7, 7, 7, 7]);
    expect(cloud.hasObjectIds).toBe(true);
    // First packet: the sensor's heading (+x); afterwards travel along +y.
    expect(Array.from(cloud.travel.subarray(0, 2))).toEqual([1, 0]);
    expect(cloud.travel[2 * 3]).toBeCloseTo(0, 6);
    expect(cloud.travel[2 * 3 + 1]).toBeCloseTo(1, 6);
    expect(cloud.positions[0]).toBeCloseTo(3, 5);
    expect(cloud.positions[2]).toBeCloseTo(1, 5);
  });

  it('ground index heights, non-ground mask, and labels from ids or from boxes', () => {
    const grid = heightFunctionGrid((x, y) => 0.1 * x + 0.05 * y, { x0: -10, y0: -10, x1: 10, y1: 10 }, 1);
    const g = new GroundIndex(heightGridTriangles(grid));
    expect(g.heightAt(3.3, -2.7)).toBeCloseTo(0.33 - 0.135, 6);
    expect(g.heightAt(30, 0)).toBeNaN();
    // Two shrubs' points (ids 5, 6), and ground points under them.
    const r = new RandomStream(8, 1);
    const pts: number[] = [], ids: number[] = [];
    for (const [cx, id] of [[-3, 5], [3, 6]] as const) {
      for (const q of ball(r, [cx, 0, 1 + 0.1 * cx], 0.6, 100)) pts.push(q);
      for (let i = 0; i < 100; i++) ids.push(id);
      for (let i = 0; i < 30; i++) {
        const x = cx + r.next() - 0.5, y = r.next() - 0.5;
        pts.push(x, y, 0.1 * x + 0.05 * y);
        ids.push(1);
      }
    }
    const box = (cx: number): AnnotationBox => ({ center: [cx, 0, 0.1 * cx + 0.9], size: [1.4, 1.4, 1.8], yaw: 0 });
    const entries = [{ id: 1, class: C.ground, box: { center: [0, 0, 0] as [number, number, number], size: [20, 20, 1] as [number, number, number], yaw: 0 } }, { id: 5, class: C.smallShrub, box: box(-3) }, { id: 6, class: C.smallShrub, box: box(3) }];
    const withIds = cloudFromPoints(pts, [1, 0], ids);
    const byId = segmentsFromAnnotation(withIds, entries);
    expect(byId.segments.map((s) => [s.id, s.indices.length])).toEqual([[5, 100], [6, 100]]);
    const mask = nonGroundMask(withIds, g, { minHeight: 0.2 });
    expect(mask.reduce((a, v) => a + v, 0)).toBeGreaterThan(180);
    const noIds = cloudFromPoints(pts);
    const labels = labelFromAnnotation(noIds, entries, { nonGround: mask });
    let agree = 0, labelled = 0;
    for (let i = 0; i < noIds.count; i++) {
      if (labels[i]! < 0) continue;
      labelled++;
      if (entries[labels[i]!]!.id === ids[i]) agree++;
    }
    expect(agree).toBe(labelled);
    expect(labelled).toBeGreaterThan(180);
    // Automatic segmentation finds the two shrubs (non-ground points only).
    const auto = segmentsFromClusters(noIds, mask, { tolerance: 0.5, minPoints: 10, minHeight: 0.4 });
    expect(auto.segments.length).toBe(2);
    expect(auto.segments.map((s) => s.id)).toEqual([1, 2]);
    for (const s of auto.segments) expect(classFamily(s.class)).toBe('shrub');
  });
});

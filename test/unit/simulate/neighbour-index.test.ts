/**
 * The neighbour index (004 §4.3.2's neighbour simulator): ray queries equal a brute-force scan
 * exactly, hits are placed in the world through each packet's pose, and the build is
 * deterministic.
 */
import { describe, expect, it } from 'vitest';
import { RandomStream } from '../../../src-worker/random/stream';
import { buildNeighbourIndex, neighbourCellFor, type NeighbourLogChunk } from '../../../src-worker/simulate/neighbour-build';
import { NeighbourQuery, hitCount, hitPoint, nearestAlongRayBrute, type NeighbourIndexData } from '../../../src-worker/simulate/neighbour-index';
import { applyPoseInverse } from '../../../src-worker/geometry/trajectory';

/** World points → one chunk of packets (each packet `perPacket` points from its own pose). */
function chunkOf(world: Float64Array, poses: number[][], perPacket: number): NeighbourLogChunk & { truth: Float64Array } {
  const n = world.length / 3;
  const packets = Math.ceil(n / perPacket);
  const rayDir = new Float32Array(3 * n), rayRange = new Float32Array(n);
  const s = new Float64Array(3);
  const packetPose = new Float64Array(7 * packets);
  const rayStart = new Uint32Array(packets + 1);
  const truth = new Float64Array(3 * n);
  for (let p = 0; p < packets; p++) {
    const pose = poses[p % poses.length]!;
    packetPose.set(pose, 7 * p);
    rayStart[p + 1] = Math.min(n, (p + 1) * perPacket);
    for (let i = p * perPacket; i < rayStart[p + 1]!; i++) {
      applyPoseInverse(pose, 0, world[3 * i]!, world[3 * i + 1]!, world[3 * i + 2]!, s, 0);
      const r = Math.hypot(s[0]!, s[1]!, s[2]!);
      rayDir.set([s[0]! / r, s[1]! / r, s[2]! / r], 3 * i);
      rayRange[i] = r;
      truth.set([world[3 * i]!, world[3 * i + 1]!, world[3 * i + 2]!], 3 * i);
    }
  }
  const rayIntensity = Float32Array.from({ length: n }, (_, i) => i % 97);
  const rayObject = Uint32Array.from({ length: n }, (_, i) => i);
  const rayClass = Uint8Array.from({ length: n }, (_, i) => i % 7);
  const packetTime = Float64Array.from({ length: packets }, (_, p) => 0.01 * p);
  return { packetCount: packets, packetTime, packetPose, rayStart, rayDir, rayRange, rayIntensity, rayObject, rayClass, truth };
}

/** A scene-like cloud: a wavy ground, a few "trees" (blobs) and uniform clutter, far from the world origin. */
function cloud(r: RandomStream, n: number): Float64Array {
  const out = new Float64Array(3 * n);
  const X0 = 5000, Y0 = -3000, Z0 = 120;
  for (let i = 0; i < n; i++) {
    const u = r.next();
    let x: number, y: number, z: number;
    if (u < 0.5) {
      x = 60 * r.next(); y = 40 * r.next(); z = 0.3 * Math.sin(x / 3) + 0.02 * r.normal();
    } else if (u < 0.85) {
      const k = Math.floor(r.next() * 6);
      x = 8 + 8 * k + 0.8 * r.normal(); y = 20 + 4 * Math.sin(k) + 0.8 * r.normal(); z = 3 + 1.2 * r.normal();
    } else {
      x = 60 * r.next(); y = 40 * r.next(); z = 8 * r.next();
    }
    out.set([X0 + x, Y0 + y, Z0 + z], 3 * i);
  }
  return out;
}

function poses(r: RandomStream): number[][] {
  return Array.from({ length: 5 }, (_, k) => {
    const yaw = r.next() * 6, pitch = 0.1 * r.normal();
    const cy = Math.cos(yaw / 2), sy = Math.sin(yaw / 2), cp = Math.cos(pitch / 2), sp = Math.sin(pitch / 2);
    // yaw about z then pitch about y (q = qz · qy)
    return [5000 + 10 * k, -3000 + 20, 122, -sy * sp, cy * sp, sy * cp, cy * cp];
  });
}

describe('neighbour index', () => {
  const r = new RandomStream(2024, 0);
  const world = cloud(r, 20_000);
  const chunk = chunkOf(world, poses(r), 500);
  const index = buildNeighbourIndex([chunk], { cell: 0.25 });

  it('keeps every hit, placed in the world through its packet pose (within 1 mm)', () => {
    expect(hitCount(index)).toBe(20_000);
    const p = new Float64Array(3);
    let worst = 0;
    for (let j = 0; j < hitCount(index); j++) {
      hitPoint(index, j, p);
      const i = index.object[j]!; // the ray's own index, carried as its object id
      worst = Math.max(worst, Math.hypot(p[0]! - chunk.truth[3 * i]!, p[1]! - chunk.truth[3 * i + 1]!, p[2]! - chunk.truth[3 * i + 2]!));
      expect(index.cls[j]).toBe(i % 7);
      expect(index.intensity[j]).toBe(i % 97);
    }
    expect(worst).toBeLessThan(1e-3); // float32 range and direction at ≈ 40 m, float32 offsets
  });

  it.each([
    ['0.25 m cells', 0.25, [0.05, 0.1, 0.2]],
    ['cells just above the radius', neighbourCellFor(0.1), [0.03, 0.07, 0.1]],
  ] as const)('answers 1,000 random ray queries exactly as brute force does (%s)', (_name, cell, radii) => {
    const index = buildNeighbourIndex([chunk], { cell });
    const q = new NeighbourQuery(index);
    const rr = new RandomStream(7, 1);
    let found = 0, changed = 0;
    for (let k = 0; k < 1000; k++) {
      // Origins inside and outside the cloud, directions over the sphere (some straight up or along an axis).
      const ox = 5000 - 10 + 80 * rr.next(), oy = -3000 - 10 + 60 * rr.next(), oz = 120 + 12 * rr.next() - 2;
      let dx = rr.normal(), dy = rr.normal(), dz = 0.4 * rr.normal();
      if (k % 2 === 1) {
        // Aimed at a logged hit (±5 cm): these find something unless a range filter cuts it.
        const i = Math.floor(rr.next() * 20_000);
        dx = world[3 * i]! + 0.05 * rr.normal() - ox; dy = world[3 * i + 1]! + 0.05 * rr.normal() - oy; dz = world[3 * i + 2]! + 0.05 * rr.normal() - oz;
      }
      if (k % 50 === 0) { dx = 0; dy = 0; dz = -1; }
      if (k % 50 === 1) { dx = 1; dy = 0; dz = 0; }
      const l = Math.hypot(dx, dy, dz);
      dx /= l; dy /= l; dz /= l;
      const radius = radii[k % 3]!;
      const tmin = k % 4 === 0 ? 1 : 0, tmax = k % 5 === 0 ? 15 : 100;
      // Every third query leaves out the hits of a random 0.5 s of the log (held-out replay).
      const from = 0.4 * rr.next() - 0.05;
      const win: [number, number] = k % 3 === 2 ? [from, from + 0.15] : [Infinity, -Infinity];
      q.leaveOutFrom = win[0];
      q.leaveOutTo = win[1];
      const j = q.nearestAlongRay(ox, oy, oz, dx, dy, dz, tmin, tmax, radius);
      const b = nearestAlongRayBrute(index, ox, oy, oz, dx, dy, dz, tmin, tmax, radius, win);
      expect(j).toBe(b.index);
      if (j >= 0) {
        expect(q.t).toBe(b.t);
        if (k % 3 === 2) {
          expect(index.time[j]! < win[0] || index.time[j]! > win[1]).toBe(true);
          if (j !== nearestAlongRayBrute(index, ox, oy, oz, dx, dy, dz, tmin, tmax, radius).index) changed++;
        }
        found++;
      }
    }
    q.leaveOutFrom = Infinity;
    q.leaveOutTo = -Infinity;
    // The window's packets (0.01 s apart) held some of the answers: leaving them out changed them.
    expect(changed).toBeGreaterThan(10);
    // The aimed half mostly finds a hit (bar range filters and small radii); random rays rarely do.
    expect(found).toBeGreaterThan(300);
    expect(found).toBeLessThan(1000);
  });

  it('is exact for the largest radius the cell allows and for rays grazing the ground', () => {
    const q = new NeighbourQuery(index);
    const rr = new RandomStream(8, 1);
    for (let k = 0; k < 300; k++) {
      const ox = 4990 + 80 * rr.next(), oy = -3010 + 60 * rr.next(), oz = 120.5 + rr.next();
      const a = 2 * Math.PI * rr.next(), dz = -0.02 * rr.next();
      const h = Math.sqrt(1 - dz * dz);
      const radius = 0.2499;
      const j = q.nearestAlongRay(ox, oy, oz, h * Math.cos(a), h * Math.sin(a), dz, 0, 120, radius);
      const b = nearestAlongRayBrute(index, ox, oy, oz, h * Math.cos(a), h * Math.sin(a), dz, 0, 120, radius);
      expect(j).toBe(b.index);
    }
    expect(() => q.nearestAlongRay(5000, -3000, 121, 1, 0, 0, 0, 10, 0.25)).toThrow(/radius/);
  });

  it('stays exact when a log spans kilometres (coarser skip blocks)', () => {
    const rr = new RandomStream(9, 0);
    const far = new Float64Array(3 * 4000);
    for (let i = 0; i < 4000; i++) {
      const c = i < 2000 ? [0, 0, 0] : [6000, 5000, 400];
      far.set([c[0]! + 3 * rr.normal(), c[1]! + 3 * rr.normal(), c[2]! + rr.normal()], 3 * i);
    }
    const idx = buildNeighbourIndex([chunkOf(far, [[0, 0, 0, 0, 0, 0, 1]], 1000)], { cell: neighbourCellFor(0.05) });
    expect(idx.blockShift).toBeGreaterThan(2); // 4-cell blocks would need more than 2^26 bits
    const q = new NeighbourQuery(idx);
    let found = 0;
    for (let k = 0; k < 300; k++) {
      const i = Math.floor(rr.next() * 4000);
      const tx = far[3 * i]!, ty = far[3 * i + 1]!, tz = far[3 * i + 2]!;
      const ox = tx + 20 * rr.normal(), oy = ty + 20 * rr.normal(), oz = tz + 5 * rr.normal();
      const l = Math.hypot(tx - ox, ty - oy, tz - oz);
      const d = [(tx - ox) / l, (ty - oy) / l, (tz - oz) / l] as const;
      const j = q.nearestAlongRay(ox, oy, oz, d[0], d[1], d[2], 0, 100, 0.05);
      expect(j).toBe(nearestAlongRayBrute(idx, ox, oy, oz, d[0], d[1], d[2], 0, 100, 0.05).index);
      if (j >= 0) found++;
    }
    expect(found).toBeGreaterThan(250);
  });

  it('returns the nearest hit along the ray, within the range filters', () => {
    // Three points on the x axis at 2, 5 and 9 m (1 cm off it), one 0.3 m off at 1 m.
    const w = Float64Array.from([2, 0.01, 0, 5, 0, 0.01, 9, 0, 0, 1, 0.3, 0]);
    const idx = buildNeighbourIndex([chunkOf(w, [[0, 0, 0, 0, 0, 0, 1]], 4)], { cell: 0.5 });
    const q = new NeighbourQuery(idx);
    const obj = (j: number) => (j < 0 ? -1 : idx.object[j]!);
    expect(obj(q.nearestAlongRay(0, 0, 0, 1, 0, 0, 0, 100, 0.1))).toBe(0);
    expect(q.t).toBeCloseTo(2, 6);
    expect(obj(q.nearestAlongRay(0, 0, 0, 1, 0, 0, 0, 100, 0.4))).toBe(3); // the off-axis point is nearer along the ray
    expect(obj(q.nearestAlongRay(0, 0, 0, 1, 0, 0, 3, 100, 0.1))).toBe(1); // min range skips the first
    expect(obj(q.nearestAlongRay(0, 0, 0, 1, 0, 0, 3, 4, 0.1))).toBe(-1); // nothing in [3, 4]
    expect(obj(q.nearestAlongRay(0, 0, 0, -1, 0, 0, 0, 100, 0.1))).toBe(-1); // behind the origin
    expect(obj(q.nearestAlongRay(-20, 0, 0, 1, 0, 0, 0, 100, 0.1))).toBe(0); // from outside the box
  });

  it('builds the same index from the same log, and an empty one from a log of misses', () => {
    const again = buildNeighbourIndex([chunk], { cell: 0.25 });
    for (const k of Object.keys(index) as (keyof NeighbourIndexData)[]) {
      const a = index[k], b = again[k];
      if (typeof a === 'number') expect(b).toBe(a);
      else expect(Buffer.from((b as Float64Array).buffer).equals(Buffer.from(a.buffer))).toBe(true);
    }
    const misses = { ...chunk, rayRange: new Float32Array(chunk.rayRange.length).fill(NaN) };
    const empty = buildNeighbourIndex([misses]);
    expect(hitCount(empty)).toBe(0);
    expect(new NeighbourQuery(empty).nearestAlongRay(0, 0, 0, 1, 0, 0, 0, 100, 0.1)).toBe(-1);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePosesFile } from '../../../src-worker/formats/poses-file';
import { poseRotationMatrix, rollPitchYawToQuaternion, rotationMatrixToQuaternion, yawQuaternion } from '../../../src-worker/geometry/pose';
import { PoseTrack } from '../../../src-worker/geometry/pose-track';
import { dataFile, HAS_SHARED_DATA } from '../../helpers/shared-data';

/** |a − b| over a quaternion, q and −q being the same rotation. */
function quatError(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  const dot = a[ao]! * b[bo]! + a[ao + 1]! * b[bo + 1]! + a[ao + 2]! * b[bo + 2]! + a[ao + 3]! * b[bo + 3]!;
  const s = dot < 0 ? -1 : 1;
  let worst = 0;
  for (let k = 0; k < 4; k++) worst = Math.max(worst, Math.abs(a[ao + k]! - s * b[bo + k]!));
  return worst;
}

describe('rotationMatrixToQuaternion', () => {
  it('inverts poseRotationMatrix within 1e-14 for 2000 random rotations', () => {
    let s = 11;
    const r = (): number => { s = (Math.imul(s, 1103515245) + 12345) >>> 0; return s / 2 ** 32 - 0.5; };
    const pose = new Float64Array(7), m = new Float64Array(9), q = new Float64Array(4);
    for (let k = 0; k < 2000; k++) {
      const [x, y, z, w] = [r(), r(), r(), r()];
      const n = Math.hypot(x, y, z, w);
      pose.set([0, 0, 0, x / n, y / n, z / n, w / n]);
      poseRotationMatrix(pose, 0, m, 0);
      rotationMatrixToQuaternion(m, 0, q, 0);
      expect(quatError(q, 0, pose, 3)).toBeLessThan(1e-14);
      expect(q[3]).toBeGreaterThanOrEqual(0);
    }
  });

  it('is exact for the identity and for 180° turns, where the trace is −1', () => {
    const q = new Float64Array(4);
    const cases: [number[], number[]][] = [
      [[1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 0, 0, 1]],
      [[1, 0, 0, 0, -1, 0, 0, 0, -1], [1, 0, 0, 0]],
      [[-1, 0, 0, 0, 1, 0, 0, 0, -1], [0, 1, 0, 0]],
      [[-1, 0, 0, 0, -1, 0, 0, 0, 1], [0, 0, 1, 0]],
      [[0, 1, 0, 1, 0, 0, 0, 0, -1], [Math.SQRT1_2, Math.SQRT1_2, 0, 0]], // about (1, 1, 0)/√2
    ];
    for (const [m, want] of cases) {
      rotationMatrixToQuaternion(m, 0, q, 0);
      expect(quatError(q, 0, want, 0)).toBeLessThan(1e-15);
    }
  });
});

describe('rollPitchYawToQuaternion', () => {
  it('is yawQuaternion for pure yaw, and a quarter turn about x for roll π/2', () => {
    expect(quatError(rollPitchYawToQuaternion(0, 0, 0.7), 0, yawQuaternion(0.7), 0)).toBeLessThan(1e-15);
    expect(quatError(rollPitchYawToQuaternion(Math.PI / 2, 0, 0), 0, [Math.SQRT1_2, 0, 0, Math.SQRT1_2], 0)).toBeLessThan(1e-15);
  });
});

describe('PoseTrack', () => {
  // Yaw 0 at t = 1, yaw 90° at t = 3; the rows arrive out of order with a duplicate time.
  const q90 = yawQuaternion(Math.PI / 2);
  const track = PoseTrack.fromTimed([3, 1, 3], [10, 0, 2, ...q90, 0, 0, 0, 0, 0, 0, 1, 99, 99, 99, 0, 0, 0, 1]);
  const out = new Float64Array(7);

  it('sorts by time and keeps the first of equal times', () => {
    expect(track.count).toBe(2);
    expect(track.duplicatesDropped).toBe(1);
    expect([track.startTime, track.endTime]).toEqual([1, 3]);
    track.poseAt(3, out);
    expect(out[0]).toBe(10);
  });

  it('interpolates position linearly and rotation by slerp', () => {
    track.poseAt(2, out); // halfway: (5, 0, 1), yaw 45°
    expect([out[0], out[1], out[2]]).toEqual([5, 0, 1]);
    expect(quatError(out, 3, yawQuaternion(Math.PI / 4), 0)).toBeLessThan(1e-15);
    track.poseAt(1.5, out); // a quarter of the way: yaw 22.5°, as slerp (not lerp) gives
    expect(out[0]).toBe(2.5);
    expect(quatError(out, 3, yawQuaternion(Math.PI / 8), 0)).toBeLessThan(1e-15);
  });

  it('clamps outside its span', () => {
    track.poseAt(-100, out);
    expect([...out]).toEqual([0, 0, 0, 0, 0, 0, 1]);
    track.poseAt(1e9, out);
    expect(out[0]).toBe(10);
    expect(quatError(out, 3, q90, 0)).toBeLessThan(1e-15);
  });

  it('writes at an offset into a caller-owned array', () => {
    const big = new Float64Array(14).fill(-1);
    track.poseAt(2, big, 7);
    expect(big[6]).toBe(-1);
    expect(big[7]).toBe(5);
  });

  it('refuses mismatched lengths, non-finite times and zero quaternions', () => {
    expect(() => PoseTrack.fromTimed([0, 1], [0, 0, 0, 0, 0, 0, 1])).toThrow(/2 times need 14 pose numbers/);
    expect(() => PoseTrack.fromTimed([NaN], [0, 0, 0, 0, 0, 0, 1])).toThrow(/time 0 is not finite/);
    expect(() => PoseTrack.fromTimed([0], [0, 0, 0, 0, 0, 0, 0])).toThrow(/zero quaternion/);
    expect(() => PoseTrack.fromRows([1, 2, 3])).toThrow(/not whole poses/);
  });
});

describe.skipIf(!HAS_SHARED_DATA)('PoseTrack.fromRows on the Ouster lb_n3 KITTI poses (index i ↔ scan i)', () => {
  it('gives scan i its row at time i and interpolates between scans', () => {
    const f = parsePosesFile(readFileSync(dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3_poses_kitti.txt'), 'utf8'), 'poses.txt');
    const track = PoseTrack.fromFile(f);
    expect(track.count).toBe(3);
    const out = new Float64Array(7);
    for (let i = 0; i < 3; i++) {
      track.poseAt(i, out);
      for (let k = 0; k < 3; k++) expect(out[k]).toBe(f.poses[7 * i + k]);
      expect(quatError(out, 3, f.poses, 7 * i + 3)).toBeLessThan(1e-15);
    }
    track.poseAt(1.5, out);
    for (let k = 0; k < 3; k++) expect(Math.abs(out[k]! - (f.poses[7 + k]! + f.poses[14 + k]!) / 2)).toBeLessThan(1e-15);
    // With a scan period: scan i at t0 + i·dt.
    const timed = PoseTrack.fromRows(f.poses, { t0: 100, dt: 0.1 });
    timed.poseAt(100.2, out);
    expect(out[0]).toBe(f.poses[14]);
  });
});

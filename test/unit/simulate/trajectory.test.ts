import { describe, expect, it } from 'vitest';
import {
  applyPose, applyPoseInverse, composePoses, constantVelocityTrajectory, createTrajectory, invertPose, isStationary,
  poseAt, sensorPoseAt, staticTrajectory,
} from '../../../src-worker/geometry/trajectory';

const yaw = (a: number) => [0, 0, Math.sin(a / 2), Math.cos(a / 2)];

describe('trajectory', () => {
  const traj = createTrajectory([0, 1, 3], [0, 0, 0, ...yaw(0), 2, 0, 0, ...yaw(Math.PI / 2), 2, 4, 0, ...yaw(Math.PI / 2)]);

  it('returns the samples at their times and clamps outside', () => {
    const out = new Float64Array(7);
    poseAt(traj, 1, out);
    expect(Array.from(out)).toEqual([2, 0, 0, ...yaw(Math.PI / 2)]);
    poseAt(traj, -5, out);
    expect(Array.from(out)).toEqual([0, 0, 0, ...yaw(0)]);
    poseAt(traj, 99, out);
    expect(out[0]).toBe(2);
    expect(out[1]).toBe(4);
  });

  it('interpolates translation linearly and rotation by slerp', () => {
    const out = new Float64Array(7);
    poseAt(traj, 0.5, out);
    expect(out[0]).toBeCloseTo(1, 12);
    const q = yaw(Math.PI / 4);
    for (let k = 0; k < 4; k++) expect(out[3 + k]).toBeCloseTo(q[k]!, 12);
    poseAt(traj, 0.25, out);
    const q2 = yaw(Math.PI / 8); // slerp is uniform in angle
    for (let k = 0; k < 4; k++) expect(out[3 + k]).toBeCloseTo(q2[k]!, 12);
    poseAt(traj, 2, out);
    expect(out[1]).toBeCloseTo(2, 12);
  });

  it('takes the short way round when consecutive quaternions have opposite signs', () => {
    const q = yaw(0.2);
    const t = createTrajectory([0, 1], [0, 0, 0, ...yaw(0), 0, 0, 0, ...q.map((v) => -v)]);
    const out = new Float64Array(7);
    poseAt(t, 0.5, out);
    const expected = yaw(0.1);
    const s = Math.sign(out[6]!);
    for (let k = 0; k < 4; k++) expect(s * out[3 + k]!).toBeCloseTo(expected[k]!, 12);
  });

  it('composes, inverts and transforms consistently', () => {
    const a = [1, 2, 3, ...yaw(0.7)];
    const b = [-0.5, 0.25, 1.5, Math.sin(0.3), 0, 0, Math.cos(0.3)];
    const ab = new Float64Array(7);
    composePoses(a, 0, b, 0, ab, 0);
    const p1 = new Float64Array(3), p2 = new Float64Array(3), p3 = new Float64Array(3);
    applyPose(b, 0, 0.3, -0.2, 0.9, p1, 0);
    applyPose(a, 0, p1[0]!, p1[1]!, p1[2]!, p2, 0);
    applyPose(ab, 0, 0.3, -0.2, 0.9, p3, 0);
    for (let k = 0; k < 3; k++) expect(p3[k]).toBeCloseTo(p2[k]!, 12);
    const inv = new Float64Array(7), id = new Float64Array(7);
    invertPose(ab, 0, inv, 0);
    composePoses(ab, 0, inv, 0, id, 0);
    for (let k = 0; k < 3; k++) expect(id[k]).toBeCloseTo(0, 12);
    expect(Math.abs(id[6]!)).toBeCloseTo(1, 12);
    applyPoseInverse(ab, 0, p3[0]!, p3[1]!, p3[2]!, p1, 0);
    expect(Array.from(p1).map((v) => +v.toFixed(12))).toEqual([0.3, -0.2, 0.9]);
  });

  it('gives the sensor pose as vehicle pose ∘ mount', () => {
    const mount = [1, 0, 2, 0, 0, 0, 1];
    const out = new Float64Array(7);
    sensorPoseAt(traj, mount, 1, out);
    // vehicle at (2,0,0) yawed 90°: the mount's +x offset points along world +y
    expect(out[0]).toBeCloseTo(2, 12);
    expect(out[1]).toBeCloseTo(1, 12);
    expect(out[2]).toBeCloseTo(2, 12);
  });

  it('knows a stationary trajectory and a moving one', () => {
    expect(isStationary(staticTrajectory())).toBe(true);
    expect(isStationary(createTrajectory([0, 1], [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]))).toBe(true);
    expect(isStationary(constantVelocityTrajectory([0, 0, 0, 0, 0, 0, 1], [10, 0, 0], 0, 1))).toBe(false);
  });

  it('rejects bad samples with the reason', () => {
    expect(() => createTrajectory([], [])).toThrow(/at least one/);
    expect(() => createTrajectory([0, 0], new Array(14).fill(0).map((_, i) => (i % 7 === 6 ? 1 : 0)))).toThrow(/increase/);
    expect(() => createTrajectory([0], [0, 0, 0, 0, 0, 0, 0])).toThrow(/zero quaternion/);
    expect(() => createTrajectory([0], [0, 0, 0, 0, 0, 1])).toThrow(/7 pose numbers/);
    expect(() => createTrajectory([0], [NaN, 0, 0, 0, 0, 0, 1])).toThrow(/non-finite/);
  });
});

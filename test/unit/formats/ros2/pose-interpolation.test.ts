import { describe, expect, it } from 'vitest';
import { PoseSeries, TfTree } from '../../../../src-worker/formats/ros2/index';

const yaw = (a: number): number[] => [0, 0, Math.sin(a / 2), Math.cos(a / 2)];

describe('PoseSeries interpolation', () => {
  it('moves linearly and turns by slerp; clamps outside the samples', () => {
    const s = new PoseSeries();
    s.add(1, [0, 0, 0, ...yaw(0)]);
    s.add(3, [10, -4, 2, ...yaw(1)]);
    const out = new Array<number>(7);
    s.sample(1.5, out);
    expect(out.slice(0, 3)).toEqual([2.5, -1, 0.5]);
    // A quarter of the way: a quarter of the 1 rad turn (slerp keeps constant angular speed).
    expect(2 * Math.atan2(out[5]!, out[6]!)).toBeCloseTo(0.25, 12);
    s.sample(9, out);
    expect(out[0]).toBe(10);
    s.sample(-9, out);
    expect(out[0]).toBe(0);
  });

  it('takes the short way round across ±π (quaternions in opposite hemispheres)', () => {
    const s = new PoseSeries();
    s.add(0, [0, 0, 0, ...yaw(3.1)]);
    s.add(1, [0, 0, 0, ...yaw(-3.1)]); // 0.083 rad apart; their quaternions' dot product is −0.999
    const out = new Array<number>(7);
    s.sample(0.5, out);
    expect(Math.abs(out[5]!)).toBeCloseTo(1, 3); // yaw π: halfway between 3.1 and −3.1 the short way
    expect(new PoseSeries().sample(0, out)).toBe(false);
  });
});

describe('PoseSeries', () => {
  it('keeps samples sorted whatever their arrival order, replaces equal times, refuses bad poses', () => {
    const s = new PoseSeries();
    for (const t of [2, 0, 3, 1]) expect(s.add(t, [t, 0, 0, 0, 0, 0, 2])).toBe(true);
    expect(s.add(1, [1.5, 0, 0, 0, 0, 0, 1])).toBe(true);
    expect(s.add(4, [0, 0, 0, 0, 0, 0, 0])).toBe(false);
    expect(s.add(NaN, [0, 0, 0, 0, 0, 0, 1])).toBe(false);
    expect(s.count).toBe(4);
    expect(s.last).toBe(3);
    const out = new Float64Array(7);
    s.sample(1, out);
    expect(out[0]).toBe(1.5);
    s.sample(2.5, out);
    expect(out[0]).toBe(2.5);
    expect(out[6]).toBe(1); // normalised
    s.sample(99, out);
    expect(out[0]).toBe(3);
  });
});

describe('TfTree', () => {
  it('composes world ← … ← frame, static and moving edges; reports how far the poses reach', () => {
    const tf = new TfTree();
    tf.addStatic('base_link', 'lidar', [1, 0, 0, ...yaw(Math.PI / 2)]);
    expect(tf.coveredUntil('lidar')).toBe(-Infinity); // nothing moves yet
    tf.addSample('odom', 'base_link', 0, [0, 0, 0, ...yaw(0)]);
    tf.addSample('odom', 'base_link', 2, [4, 0, 0, ...yaw(Math.PI / 2)]);
    expect(tf.coveredUntil('lidar')).toBe(2);
    const out = new Float64Array(7);
    expect(tf.poseAt('lidar', 1, out)).toBe(true);
    // base_link at (2, 0) turned 45°; the lidar 1 m ahead of it.
    expect(out[0]).toBeCloseTo(2 + Math.SQRT1_2, 12);
    expect(out[1]).toBeCloseTo(Math.SQRT1_2, 12);
    expect(2 * Math.atan2(out[5]!, out[6]!)).toBeCloseTo(Math.PI / 4 + Math.PI / 2, 12);
    expect(tf.chain('lidar')!.world).toBe('odom');
  });

  it('a cycle reaches no fixed frame; a static transform is never moved by a later sample', () => {
    const tf = new TfTree();
    tf.addSample('a', 'b', 0, [0, 0, 0, 0, 0, 0, 1]);
    tf.addSample('b', 'a', 0, [0, 0, 0, 0, 0, 0, 1]);
    expect(tf.chain('a')).toBeNull();
    const t2 = new TfTree();
    t2.addStatic('base', 'lidar', [1, 2, 3, 0, 0, 0, 1]);
    expect(t2.addSample('base', 'lidar', 5, [9, 9, 9, 0, 0, 0, 1])).toBe(false);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeKittiPoses, parsePosesFile } from '../../../src-worker/formats/poses-file';
import { poseRotationMatrix } from '../../../src-worker/geometry/pose';
import { dataFile, HAS_SHARED_DATA } from '../../helpers/shared-data';
import { decodeErrorOf } from './helpers';

/** Largest |a − b| between two pose arrays, treating q and −q as the same rotation. */
function poseError(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let worst = 0;
  for (let o = 0; o < a.length; o += 7) {
    for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(a[o + k]! - b[o + k]!));
    const dot = a[o + 3]! * b[o + 3]! + a[o + 4]! * b[o + 4]! + a[o + 5]! * b[o + 5]! + a[o + 6]! * b[o + 6]!;
    const s = dot < 0 ? -1 : 1;
    for (let k = 3; k < 7; k++) worst = Math.max(worst, Math.abs(a[o + k]! - s * b[o + k]!));
  }
  return worst;
}

const S = Math.SQRT1_2;

describe.skipIf(!HAS_SHARED_DATA)('parsePosesFile on the Ouster SDK lb_n3 KITTI poses', () => {
  const text = (): string => readFileSync(dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3_poses_kitti.txt'), 'utf8');

  it('reads 3 poses about 0.25 m apart, the first the identity', () => {
    const f = parsePosesFile(text(), 'poses_kitti.txt');
    expect(f.kind).toBe('kitti');
    expect(f.times).toBeNull();
    expect(f.poses.length).toBe(21);
    expect([...f.poses.subarray(0, 7)]).toEqual([0, 0, 0, 0, 0, 0, 1]);
    const step = (i: number): number => Math.hypot(f.poses[7 * i]! - f.poses[7 * i - 7]!, f.poses[7 * i + 1]! - f.poses[7 * i - 6]!, f.poses[7 * i + 2]! - f.poses[7 * i - 5]!);
    expect(Math.abs(step(1) - 0.245652)).toBeLessThan(1e-6);
    expect(Math.abs(step(2) - 0.252905)).toBeLessThan(1e-6);
  });

  it('turns each 3×3 block into a quaternion that rebuilds it within 1e-9', () => {
    const rows = text().trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number));
    const f = parsePosesFile(text(), 'poses_kitti.txt');
    const m = new Float64Array(9);
    rows.forEach((r, i) => {
      poseRotationMatrix(f.poses, 7 * i, m, 0);
      for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) expect(Math.abs(m[3 * a + b]! - r[4 * a + b]!)).toBeLessThan(1e-9);
    });
  });

  it('encodeKittiPoses writes rows that parse back to the same poses within 1e-12', () => {
    const f = parsePosesFile(text(), 'poses_kitti.txt');
    const again = parsePosesFile(encodeKittiPoses(f.poses), 'again.txt');
    expect(poseError(again.poses, f.poses)).toBeLessThan(1e-12);
  });
});

describe('parsePosesFile: TUM and CSV', () => {
  it('reads TUM rows (time tx ty tz qx qy qz qw) with comments, and a commented TUM header keeps kind tum', () => {
    const body = '1305031102.175304 1.3405 0.6266 1.6575 0.6574 0.6126 -0.2949 -0.3248\n\n1305031102.211214 1.3303 0.6256 1.6464 0.6579 0.6161 -0.2932 -0.3189\n';
    const plain = parsePosesFile(`# ground truth trajectory\n${body}`, 'gt.txt');
    expect(plain.kind).toBe('tum');
    expect([...plain.times!]).toEqual([1305031102.175304, 1305031102.211214]);
    expect(plain.poses[0]).toBe(1.3405);
    const n = Math.hypot(0.6574, 0.6126, -0.2949, -0.3248);
    expect(plain.poses[3]).toBeCloseTo(0.6574 / n, 12); // normalised
    const headed = parsePosesFile(`# timestamp tx ty tz qx qy qz qw\n${body}`, 'gt.txt');
    expect(headed.kind).toBe('tum');
    expect(poseError(headed.poses, plain.poses)).toBe(0);
  });

  it('reads CSV columns by header name, in any order, extra columns ignored', () => {
    const f = parsePosesFile('frame,qw,qx,qy,qz,timestamp,x,y,z\n7,0.7071067811865476,0,0,0.7071067811865476,12.5,1,2,3\n8,1,0,0,0,12.6,4,5,6\n', 'p.csv');
    expect(f.kind).toBe('csv');
    expect([...f.times!]).toEqual([12.5, 12.6]);
    expect(poseError(f.poses, [1, 2, 3, 0, 0, S, S, 4, 5, 6, 0, 0, 0, 1])).toBeLessThan(1e-15);
  });

  it('reads roll/pitch/yaw (radians, R = Rz·Ry·Rx) and nanosecond times', () => {
    const f = parsePosesFile('time_ns;x;y;z;roll;pitch;yaw\n1500000000000000000;0;0;0;0;0;1.5707963267948966\n1500000000100000000;1;0;0;1.5707963267948966;0;0\n', 'rpy.csv');
    // 19-digit nanosecond stamps are not exact in a double (256 ns steps): compare within 1 µs.
    expect(f.times![0]).toBe(1.5e9);
    expect(Math.abs(f.times![1]! - (1.5e9 + 0.1))).toBeLessThan(1e-6);
    expect(poseError(f.poses, [0, 0, 0, 0, 0, S, S, 1, 0, 0, S, 0, 0, S])).toBeLessThan(1e-15);
    // A combined rotation: its matrix must equal Rz(yaw)·Ry(pitch)·Rx(roll).
    const [r, p, y] = [0.3, -0.2, 2.1];
    const g = parsePosesFile(`time x y z roll pitch yaw\n0 0 0 0 ${r} ${p} ${y}\n`, 'rpy.txt');
    const m = new Float64Array(9);
    poseRotationMatrix(g.poses, 0, m, 0);
    const [cr, sr, cp, sp, cy, sy] = [Math.cos(r), Math.sin(r), Math.cos(p), Math.sin(p), Math.cos(y), Math.sin(y)];
    const want = [
      cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr,
      sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr,
      -sp, cp * sr, cp * cr,
    ];
    for (let k = 0; k < 9; k++) expect(Math.abs(m[k]! - want[k]!)).toBeLessThan(1e-15);
  });
});

describe('parsePosesFile errors name the line', () => {
  const kittiRow = '1 0 0 0 0 1 0 0 0 0 1 0';
  const cases: [string, number, RegExp][] = [
    [`${kittiRow}\n${kittiRow} 5\n`, 2, /13 columns, expected 12/],
    [`${kittiRow}\n1 0 0 0 0 1 0 x 0 0 1 0\n`, 2, /column 8 is not a number$/],
    [`${kittiRow}\n${kittiRow}\n1 0 0 0 0 1 0.01 0 0 0 1 0\n`, 3, /not orthonormal: \|RᵀR − I\| reaches 0\.0100/],
    [`${kittiRow}\n-1 0 0 0 0 1 0 0 0 0 1 0\n`, 2, /det -1/], // a reflection
    ['1 2 3 4 5\n', 1, /5 columns: expected 12 .* or 8/],
    ['0.1 0 0 0 0 0 0 1\n0.2 0 0 0 0 0 0 2\n', 2, /norm 2\.00000, not 1/],
    ['0.1 0 0 0 0 0 0 1\n0.2 0 0 0 0 0 nan 1\n', 2, /column 7 is not a number$/],
    ['time,x,y,z,qx,qy,qz,qw\n0,0,0,0,0,0,0,1\n1,0,0\n', 3, /3 columns, expected 8/],
    ['hello world\n0 0 0 0 0 0 0 1\n', 1, /column 1 is not a number \(and the line is not a header/],
    ['# only a comment\n', 1, /no poses/],
  ];
  for (const [text, line, re] of cases) {
    it(re.source, () => {
      const e = decodeErrorOf(() => parsePosesFile(text, 'bad.txt'));
      expect(e.line).toBe(line);
      expect(e.reason).toMatch(re);
      expect(e.message).toMatch(/^bad\.txt, line \d+: /);
    });
  }

  it('accepts rotations within the 1e-3 tolerance (KITTI prints ~9 digits)', () => {
    expect(parsePosesFile('1 0 0 0 0 1 0.0009 0 0 0 1 0\n', 'ok.txt').poses.length).toBe(7);
  });
});

describe('a file that is not a poses file', () => {
  it('is refused by line and column, never echoing its text', () => {
    const secret = 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n';
    const e = decodeErrorOf(() => parsePosesFile(secret, 'passwd'));
    expect(e.message).toBe('passwd, line 1: column 1 is not a number (and the line is not a header naming time, x, y, z and a rotation): not a poses file');
    expect(e.message).not.toMatch(/root|daemon|bash/);
  });
});

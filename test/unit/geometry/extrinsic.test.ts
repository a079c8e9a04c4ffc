import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { composePose7, ExtrinsicError, invertPose7, mountPose, parseExtrinsic, parseMount } from '../../../src-common/extrinsic';
import { dataFile, HAS_SHARED_DATA } from '../../helpers/shared-data';

const near = (a: readonly number[], b: readonly number[], tol: number) => a.forEach((v, i) => expect(Math.abs(v - b[i]!), `component ${i}: ${v} vs ${b[i]}`).toBeLessThanOrEqual(tol));

/** The 3×4 [R | t] of a Pose7, row-major. */
function matrixOf(p: readonly number[]): number[] {
  const [x, y, z, w] = [p[3]!, p[4]!, p[5]!, p[6]!];
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), p[0]!,
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x), p[1]!,
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y), p[2]!,
  ];
}

const errorOf = (f: () => unknown): ExtrinsicError => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ExtrinsicError);
    return e as ExtrinsicError;
  }
  throw new Error('expected an ExtrinsicError');
};

describe('mounts', () => {
  it('reads x,y,z,roll,pitch,yaw in metres and degrees (R = Rz·Ry·Rx)', () => {
    const p = parseMount('0.5, 0, 1.8, 0, 0, 90');
    near(p, [0.5, 0, 1.8, 0, 0, Math.SQRT1_2, Math.SQRT1_2], 1e-12);
    // The sensor's x axis points along the vehicle's y after a 90° yaw.
    near(matrixOf(p).filter((_, i) => i % 4 === 0), [0, 1, 0], 1e-12);
    expect(errorOf(() => parseMount('1,2,3')).message).toBe('--mount: expected 6 numbers x,y,z,roll,pitch,yaw (metres, degrees), got 3');
    expect(errorOf(() => parseMount('1,2,3,a,0,0')).message).toContain('"a" is not a number');
    expect(() => mountPose([0, 0, 0, 0, 0, NaN])).toThrow(/yaw is not a finite number/);
  });

  it('composes and inverts (a · a⁻¹ = identity within 1e-12)', () => {
    const a = mountPose([1, -2, 0.3, 10, -20, 170]);
    near(composePose7(a, invertPose7(a)), [0, 0, 0, 0, 0, 0, 1], 1e-12);
  });
});

describe('extrinsic files', () => {
  const pose = mountPose([0.25, -0.1, 1.2, 3, -4, 120]);
  const m = matrixOf(pose);
  const rows = [m.slice(0, 4), m.slice(4, 8), m.slice(8, 12)].map((r) => r.map((v) => v.toPrecision(17)).join(' '));

  it('reads a 4×4 matrix, a 3×4 matrix and a KITTI row to the same pose (within 1e-12)', () => {
    near(parseExtrinsic([...rows, '0 0 0 1'].join('\n'), 'm44.txt'), pose, 1e-12);
    near(parseExtrinsic(rows.join('\n'), 'm34.txt'), pose, 1e-12);
    near(parseExtrinsic(`Tr: ${rows.join(' ')}\n`, 'calib.txt'), pose, 1e-12);
    near(parseExtrinsic(`[[${rows.map((r) => r.replaceAll(' ', ', ')).join('], [')}], [0, 0, 0, 1]]`.replace(/\], \[/g, ']\n['), 'numpy.txt'), pose, 1e-12);
  });

  it('inverts with --extrinsic-inverse', () => {
    near(parseExtrinsic(rows.join('\n'), 'm.txt', true), invertPose7(pose), 1e-12);
  });

  it('refuses a matrix that is not a rotation, a wrong shape and NaN, naming the file and line', () => {
    const scaled = [m.slice(0, 4), m.slice(4, 8), m.slice(8, 12)].map((r, i) => r.map((v, k) => (i === 1 && k < 3 ? v * 1.001 : v)).join(' '));
    const e = errorOf(() => parseExtrinsic(['# a comment', ...scaled, '0 0 0 1'].join('\n'), 'scaled.txt'));
    expect(e.file).toBe('scaled.txt');
    expect(e.line).toBe(3);
    expect(e.message).toMatch(/^scaled\.txt, line 3: not a rotation: R·Rᵀ differs from the identity by 0\.00200 \(allowed 1e-6\)/);
    const mirror = ['1 0 0 0', '0 1 0 0', '0 0 -1 0', '0 0 0 1'].join('\n');
    expect(errorOf(() => parseExtrinsic(mirror, 'mirror.txt')).message).toBe('mirror.txt, line 1: not a rotation: det R = -1.00000 (a mirror when −1); a rigid transform has det R = +1');
    expect(errorOf(() => parseExtrinsic('1 0 0 0\n0 1 0 0\n0 0 1 0\n0 0 1 1', 'h.txt')).message).toBe('h.txt, line 4: the last row of a 4×4 rigid transform must be 0 0 0 1 (got 0 0 1 1)');
    expect(errorOf(() => parseExtrinsic('1 0 0 0\n0 1 0\n0 0 1 0', 's.txt')).line).toBe(2);
    expect(errorOf(() => parseExtrinsic('1 0 0 0\n0 1 NaN 0\n0 0 1 0', 'n.txt')).message).toBe('n.txt, line 2: number 3 is not a finite number');
    expect(errorOf(() => parseExtrinsic('', 'e.txt')).message).toMatch(/^e\.txt: no numbers/);
  });

  it('reads flow-style YAML and refuses a quaternion that is not unit', () => {
    near(parseExtrinsic('q: [0, 0, 0, 1]\nt: {x: 1, y: 2, z: 3}\n', 'f.yaml'), [1, 2, 3, 0, 0, 0, 1], 0);
    expect(errorOf(() => parseExtrinsic('q: [0, 0, 0, 1.01]\nt: [0, 0, 0]\n', 'u.yaml')).message).toBe('u.yaml, line 1: q is not a unit quaternion: its norm is 1.01000 (allowed 1 ± 0.0001)');
    expect(errorOf(() => parseExtrinsic('q:\n  x: 0\n  y: 0\n  z: 0\nt: [0, 0, 0]\n', 'w.yaml')).message).toBe('w.yaml, line 1: q has no w (expected x, y, z, w)');
    expect(errorOf(() => parseExtrinsic('q: [0, 0, 0, 1]\nt: [0, nan, 0]\n', 'v.yaml')).message).toBe('v.yaml, line 2: t.y is not a finite number');
  });

  it.skipIf(!HAS_SHARED_DATA)('reads the RELLIS-3D extrinsics (vel2os1.yaml, transforms.yaml) as written', () => {
    const vel = parseExtrinsic(readFileSync(dataFile('rellis3d/vel2os1.yaml'), 'utf8'), 'vel2os1.yaml');
    near(vel, [-0.25209722874775564, 0.0010963734677045065, -0.09197253613570998, 0.00021657374105704352, -0.0001811754269666679, 0.9999999421723929, 0.00018954284517174916], 1e-9);
    const cam = parseExtrinsic(readFileSync(dataFile('rellis3d/transforms.yaml'), 'utf8'), 'transforms.yaml');
    // Its quaternion has norm 0.99998 as printed: accepted and normalised.
    expect(Math.hypot(cam[3], cam[4], cam[5], cam[6])).toBeCloseTo(1, 12);
    near(cam.slice(0, 3), [-0.13165462, 0.03870398, -0.17253834], 0);
  });
});

describe('a file that is not an extrinsic', () => {
  it('is refused by line and position, never quoting its text', () => {
    const passwd = 'root:x:0:0:root:/root:/bin/bash\n';
    const m = errorOf(() => parseExtrinsic(passwd, 'passwd')).message;
    expect(m).toMatch(/^passwd, line 1: /);
    expect(m).not.toMatch(/root|bash|x:0/);
  });
});

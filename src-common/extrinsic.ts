/**
 * A sensor's mount on the vehicle (vehicle ← sensor, a Pose7): from a `--mount` list or from an
 * extrinsic file. Direction: the file gives the transform that maps points from the sensor's
 * frame into the vehicle's (or a reference sensor's) frame, p_vehicle = R · p_sensor + t — the
 * sensor's pose in the vehicle frame, as a profile's `mount` is. A file written the other way is
 * read with `inverse` (`--extrinsic-inverse`). See docs/drive-logs.md, *Mounts and extrinsics*.
 *
 * File forms (whitespace, comma or bracket separated numbers; `#` comments):
 *  - a 4×4 homogeneous matrix, 4 rows of 4 (the last row 0 0 0 1);
 *  - a 3×4 matrix [R | t], row-major: one row of 12 numbers (KITTI's `Tr:` rows; an optional
 *    `name:` label is skipped) or 3 rows of 4;
 *  - a ROS-style YAML with `q` (x y z w: a `{x, y, z, w}` map or a list `[x, y, z, w]`) and `t`
 *    (`{x, y, z}` or `[x, y, z]`), at the top or under one key (RELLIS-3D's `vel2os1.yaml`).
 * A matrix's rotation must be one: RᵀR = I and det R = +1 within 1e-6. A quaternion's norm must
 * be 1 within 1e-4 and is then normalised: YAML exporters print 8 to 9 digits, and RELLIS-3D's
 * camera quaternion has norm 0.99997 (`transforms.yaml`). Pure text → numbers: the host parses
 * these small files (capped at 64 KiB), and the renderer may check one before a request.
 */
import { rpyToQuaternion } from './sensor-profile-schema';
import type { Pose7 } from './sensor-profile';
import { DEG } from './units';

/** The largest extrinsic file read (a matrix or a YAML of a few lines). */
export const MAX_EXTRINSIC_BYTES = 64 * 1024;
/** |RᵀR − I| and |det R − 1| allowed in a matrix. */
export const ROTATION_TOLERANCE = 1e-6;
/** |‖q‖ − 1| allowed in a quaternion (normalised afterwards). */
export const QUATERNION_TOLERANCE = 1e-4;

/** A bad extrinsic or mount: names the file (or the flag), the line and the reason. */
export class ExtrinsicError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly reason: string,
  ) {
    super(`${file}${line !== null ? `, line ${line}` : ''}: ${reason}`);
    this.name = 'ExtrinsicError';
  }
}

/** [x, y, z (m), roll, pitch, yaw (degrees; R = Rz(yaw)·Ry(pitch)·Rx(roll))] → vehicle ← sensor. */
export function mountPose(values: readonly number[], where = '--mount'): Pose7 {
  if (values.length !== 6) throw new ExtrinsicError(where, null, `expected 6 numbers x,y,z,roll,pitch,yaw (metres, degrees), got ${values.length}`);
  values.forEach((v, i) => {
    if (!Number.isFinite(v)) throw new ExtrinsicError(where, null, `${['x', 'y', 'z', 'roll', 'pitch', 'yaw'][i]} is not a finite number`);
  });
  const q = rpyToQuaternion(values[3]! * DEG, values[4]! * DEG, values[5]! * DEG);
  return [values[0]!, values[1]!, values[2]!, q[0], q[1], q[2], q[3]];
}

/** The text of `--mount x,y,z,roll,pitch,yaw`. */
export function parseMount(text: string, where = '--mount'): Pose7 {
  const parts = text.split(',').map((s) => s.trim());
  const values = parts.map((s) => (s === '' ? NaN : Number(s)));
  const bad = parts.findIndex((s, i) => !Number.isFinite(values[i]!));
  if (parts.length === 6 && bad >= 0) throw new ExtrinsicError(where, null, `"${parts[bad]}" is not a number (x,y,z,roll,pitch,yaw: metres, degrees)`);
  return mountPose(values, where);
}

/** out = a⁻¹ of a Pose7 (unit quaternion). */
export function invertPose7(a: readonly number[]): Pose7 {
  const [qx, qy, qz, qw] = [-a[3]!, -a[4]!, -a[5]!, a[6]!];
  const r = rotate([qx, qy, qz, qw], [-a[0]!, -a[1]!, -a[2]!]);
  return [r[0], r[1], r[2], qx, qy, qz, qw];
}

/** a ∘ b (apply b, then a). */
export function composePose7(a: readonly number[], b: readonly number[]): Pose7 {
  const [ax, ay, az, aw] = [a[3]!, a[4]!, a[5]!, a[6]!];
  const [bx, by, bz, bw] = [b[3]!, b[4]!, b[5]!, b[6]!];
  const r = rotate([ax, ay, az, aw], [b[0]!, b[1]!, b[2]!]);
  return [
    a[0]! + r[0], a[1]! + r[1], a[2]! + r[2],
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}

/** q · v · q⁻¹ for a unit quaternion [x, y, z, w]. */
function rotate(q: readonly number[], v: readonly number[]): [number, number, number] {
  const [qx, qy, qz, qw] = q as [number, number, number, number];
  const [x, y, z] = v as [number, number, number];
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  return [x + qw * tx + (qy * tz - qz * ty), y + qw * ty + (qz * tx - qx * tz), z + qw * tz + (qx * ty - qy * tx)];
}

/** Parse an extrinsic file (vehicle ← sensor; `inverse`: the file holds sensor ← vehicle). */
export function parseExtrinsic(text: string, name: string, inverse = false): Pose7 {
  if (text.length > MAX_EXTRINSIC_BYTES) throw new ExtrinsicError(name, null, `${text.length} bytes: an extrinsic file is at most ${MAX_EXTRINSIC_BYTES} bytes (a matrix or a few lines of YAML)`);
  const lines = text.split(/\r?\n/);
  const yaml = lines.some((l) => /^\s*(q|t)\s*:/.test(stripComment(l)));
  const pose = yaml ? fromYaml(lines, name) : fromMatrix(lines, name);
  return inverse ? invertPose7(pose) : pose;
}

const stripComment = (l: string) => l.replace(/#.*$/, '');

// ---------- matrices ----------

interface Row { line: number; values: number[] }

function fromMatrix(lines: string[], name: string): Pose7 {
  const rows: Row[] = [];
  lines.forEach((raw, i) => {
    // A KITTI calibration labels its rows ("Tr: …"); brackets and commas of printed arrays are separators.
    const body = stripComment(raw).replace(/^\s*[A-Za-z_][\w.-]*\s*:/, '').replace(/[[\](),;]/g, ' ').trim();
    if (body === '') return;
    const tokens = body.split(/\s+/);
    const values = tokens.map(Number);
    const bad = tokens.findIndex((t, k) => !Number.isFinite(values[k]!) || t === '');
    if (bad >= 0) throw new ExtrinsicError(name, i + 1, `number ${bad + 1} is not a finite number`); // its position, never the file's text
    rows.push({ line: i + 1, values });
  });
  if (rows.length === 0) throw new ExtrinsicError(name, null, 'no numbers: expected a 4×4 matrix, a row of 12 numbers (3×4 [R | t]) or a YAML with q and t');
  let m: number[];
  let lineOf: (r: number) => number;
  const widths = rows.map((r) => r.values.length);
  if (rows.length === 1 && widths[0] === 12) {
    m = rows[0]!.values;
    lineOf = () => rows[0]!.line;
  } else if ((rows.length === 4 || rows.length === 3) && widths.every((w) => w === 4)) {
    if (rows.length === 4) {
      const last = rows[3]!.values;
      if (Math.abs(last[0]!) > ROTATION_TOLERANCE || Math.abs(last[1]!) > ROTATION_TOLERANCE || Math.abs(last[2]!) > ROTATION_TOLERANCE || Math.abs(last[3]! - 1) > ROTATION_TOLERANCE) {
        throw new ExtrinsicError(name, rows[3]!.line, `the last row of a 4×4 rigid transform must be 0 0 0 1 (got ${last.join(' ')})`);
      }
    }
    m = rows.slice(0, 3).flatMap((r) => r.values);
    lineOf = (r) => rows[r]!.line;
  } else {
    const bad = rows.find((r) => r.values.length !== 4) ?? rows[0]!;
    throw new ExtrinsicError(name, bad.line, `${rows.length} row(s) of ${widths.join('/')} numbers: expected a 4×4 matrix (4 rows of 4), a 3×4 matrix (3 rows of 4) or one row of 12`);
  }
  const R = [m[0]!, m[1]!, m[2]!, m[4]!, m[5]!, m[6]!, m[8]!, m[9]!, m[10]!];
  checkRotation(R, name, lineOf);
  const q = matrixToQuaternion(R);
  return [m[3]!, m[7]!, m[11]!, q[0], q[1], q[2], q[3]];
}

/** RᵀR = I and det R = +1 within ROTATION_TOLERANCE; the error names the row that is furthest off. */
function checkRotation(R: number[], name: string, lineOf: (row: number) => number): void {
  let worst = 0, worstRow = 0;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      // (R Rᵀ)ᵢⱼ: row i against row j, so the error points at a row of the file.
      const d = R[3 * i]! * R[3 * j]! + R[3 * i + 1]! * R[3 * j + 1]! + R[3 * i + 2]! * R[3 * j + 2]! - (i === j ? 1 : 0);
      if (Math.abs(d) > worst) { worst = Math.abs(d); worstRow = Math.max(i, j); }
    }
  }
  if (worst > ROTATION_TOLERANCE) {
    throw new ExtrinsicError(name, lineOf(worstRow), `not a rotation: R·Rᵀ differs from the identity by ${worst.toPrecision(3)} (allowed 1e-6); a rigid transform's 3×3 block must be orthonormal`);
  }
  const det = R[0]! * (R[4]! * R[8]! - R[5]! * R[7]!) - R[1]! * (R[3]! * R[8]! - R[5]! * R[6]!) + R[2]! * (R[3]! * R[7]! - R[4]! * R[6]!);
  if (Math.abs(det - 1) > ROTATION_TOLERANCE) {
    throw new ExtrinsicError(name, lineOf(0), `not a rotation: det R = ${det.toPrecision(6)} (a mirror when −1); a rigid transform has det R = +1`);
  }
}

/** Shepperd's method (as src-worker/geometry/pose.ts's rotationMatrixToQuaternion), w ≥ 0. */
function matrixToQuaternion(m: number[]): [number, number, number, number] {
  const [m00, m01, m02, m10, m11, m12, m20, m21, m22] = m as [number, number, number, number, number, number, number, number, number];
  const tr = m00 + m11 + m22;
  let q: [number, number, number, number];
  if (tr >= m00 && tr >= m11 && tr >= m22) {
    const s = 2 * Math.sqrt(1 + tr);
    q = [(m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s, s / 4];
  } else if (m00 >= m11 && m00 >= m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    q = [s / 4, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 >= m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    q = [(m01 + m10) / s, s / 4, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    q = [(m02 + m20) / s, (m12 + m21) / s, s / 4, (m10 - m01) / s];
  }
  const n = Math.hypot(...q);
  const sign = q[3] < 0 ? -1 : 1;
  return [(sign * q[0]) / n, (sign * q[1]) / n, (sign * q[2]) / n, (sign * q[3]) / n];
}

// ---------- ROS-style YAML ----------

interface Entry { key: string; indent: number; value: string; line: number }

/**
 * The `q` and `t` of a small YAML (block maps or flow `{…}` / `[…]` values), read line by line:
 * enough for the extrinsic files ROS tools and datasets write, not a general YAML parser.
 */
function fromYaml(lines: string[], name: string): Pose7 {
  const entries: Entry[] = [];
  lines.forEach((raw, i) => {
    const l = stripComment(raw);
    if (l.trim() === '' || l.trim() === '---') return;
    const m = /^(\s*)(?:-\s+)?([A-Za-z_][\w.-]*|"[^"]*"|'[^']*')\s*:\s*(.*)$/.exec(l);
    if (!m) throw new ExtrinsicError(name, i + 1, 'not a "key: value" line (expected a matrix of numbers or a YAML with q and t)');
    entries.push({ key: m[2]!.replace(/^["']|["']$/g, ''), indent: m[1]!.length, value: m[3]!.trim(), line: i + 1 });
  });
  const qs = entries.filter((e) => e.key === 'q');
  const ts = entries.filter((e) => e.key === 't');
  if (qs.length !== 1 || ts.length !== 1) {
    const where = (qs[1] ?? ts[1] ?? qs[0] ?? ts[0])?.line ?? null;
    throw new ExtrinsicError(name, where, qs.length > 1 || ts.length > 1
      ? `${Math.max(qs.length, ts.length)} transforms (q and t keys): give a file with one`
      : `a YAML extrinsic needs both q (x y z w) and t (x y z); found ${qs.length ? 'q' : 't'} only`);
  }
  const q = vectorOf(entries, qs[0]!, ['x', 'y', 'z', 'w'], name);
  const t = vectorOf(entries, ts[0]!, ['x', 'y', 'z'], name);
  const n = Math.hypot(...q);
  if (Math.abs(n - 1) > QUATERNION_TOLERANCE) {
    throw new ExtrinsicError(name, qs[0]!.line, `q is not a unit quaternion: its norm is ${n.toPrecision(6)} (allowed 1 ± ${QUATERNION_TOLERANCE})`);
  }
  return [t[0]!, t[1]!, t[2]!, q[0]! / n, q[1]! / n, q[2]! / n, q[3]! / n];
}

/** The named components of `e`: a flow list/map on its line, or a block map on the lines under it. */
function vectorOf(entries: Entry[], e: Entry, keys: readonly string[], name: string): number[] {
  const num = (s: string, line: number, what: string): number => {
    const v = Number(s.trim());
    if (s.trim() === '' || !Number.isFinite(v)) throw new ExtrinsicError(name, line, `${e.key}.${what} is not a finite number`);
    return v;
  };
  const map = new Map<string, { value: string; line: number }>();
  if (e.value.startsWith('[')) {
    const items = e.value.replace(/^\[|\]$/g, '').split(',');
    if (items.length !== keys.length) throw new ExtrinsicError(name, e.line, `${e.key} has ${items.length} numbers: expected ${keys.length} (${keys.join(' ')})`);
    return items.map((s, i) => num(s, e.line, keys[i]!));
  }
  if (e.value.startsWith('{')) {
    for (const part of e.value.replace(/^\{|\}$/g, '').split(',')) {
      const [k, v] = part.split(':');
      if (k !== undefined && v !== undefined) map.set(k.trim(), { value: v, line: e.line });
    }
  } else if (e.value !== '') {
    throw new ExtrinsicError(name, e.line, `${e.key}: expected a map of ${keys.join(', ')} or a list [${keys.join(', ')}]`);
  } else {
    const start = entries.indexOf(e);
    for (let i = start + 1; i < entries.length && entries[i]!.indent > e.indent; i++) map.set(entries[i]!.key, { value: entries[i]!.value, line: entries[i]!.line });
  }
  return keys.map((k) => {
    const v = map.get(k);
    if (!v) throw new ExtrinsicError(name, e.line, `${e.key} has no ${k} (expected ${keys.join(', ')})`);
    return num(v.value, v.line, k);
  });
}

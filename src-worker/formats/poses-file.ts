/**
 * Pose files: one pose per line, as [tx, ty, tz, qx, qy, qz, qw] (7 per pose) out.
 *
 *  - kitti: 12 numbers, the 3×4 matrix [R | t] row-major (KITTI odometry, Ouster SDK, most
 *    SLAM exporters); no times — pose i belongs to scan i. Poses are taken as written: KITTI
 *    ground truth is the left camera's pose, and moving it to the lidar needs the dataset's
 *    calibration, which is the caller's.
 *  - tum: `time tx ty tz qx qy qz qw`, whitespace-separated, `#` comments (TUM RGB-D benchmark).
 *  - csv: a header row naming the columns, comma-, semicolon- or whitespace-separated:
 *    time, x, y, z and either qx, qy, qz, qw or roll, pitch, yaw (radians; R = Rz·Ry·Rx). Common
 *    spellings are accepted (timestamp, tx, pos_x, q_w, ...); other columns are ignored. A time
 *    column named with an _ns suffix is in nanoseconds, otherwise seconds.
 * Kind: a header row makes it csv; otherwise 12 columns kitti, 8 tum. Every error names the line.
 */
import { DecodeError } from './decode-error';
import { poseRotationMatrix, rollPitchYawToQuaternion, rotationMatrixToQuaternion } from '../geometry/pose';
import type { FuzzTarget } from './fuzz-target';

export interface PosesFile {
  kind: 'kitti' | 'csv' | 'tum';
  /** Seconds per pose, as in the file (not sorted); null for KITTI rows. */
  times: Float64Array<ArrayBuffer> | null;
  /** 7 numbers per pose: world ← sensor [tx, ty, tz, qx, qy, qz, qw], unit quaternion. */
  poses: Float64Array<ArrayBuffer>;
}

/** Largest allowed |RᵀR − I| entry (KITTI rows are printed with ~9 digits) and |‖q‖ − 1|. */
const ORTHO_TOL = 1e-3;

/** Column name aliases, lower-cased and stripped of a leading '#', field:[name, ...]. */
const ALIASES: Record<string, string[]> = {
  time: ['time', 't', 'timestamp', 'stamp', 'time_s', 'timestamp_s', 'sec', 'seconds', '%time', 'field.header.stamp'],
  time_ns: ['time_ns', 'timestamp_ns', 't_ns', 'stamp_ns'],
  x: ['x', 'tx', 'pos_x', 'position_x', 'p_x', 'px', 'translation_x'],
  y: ['y', 'ty', 'pos_y', 'position_y', 'p_y', 'py', 'translation_y'],
  z: ['z', 'tz', 'pos_z', 'position_z', 'p_z', 'pz', 'translation_z'],
  qx: ['qx', 'q_x', 'rot_x', 'orientation_x', 'quat_x'],
  qy: ['qy', 'q_y', 'rot_y', 'orientation_y', 'quat_y'],
  qz: ['qz', 'q_z', 'rot_z', 'orientation_z', 'quat_z'],
  qw: ['qw', 'q_w', 'rot_w', 'orientation_w', 'quat_w'],
  roll: ['roll'],
  pitch: ['pitch'],
  yaw: ['yaw', 'heading'],
};

interface Row { line: number; values: number[] }

export function parsePosesFile(text: string, name: string): PosesFile {
  const rows: Row[] = [];
  let header: { names: string[]; line: number; comment: boolean } | null = null;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    const tokens = split(raw.replace(/^#\s*/, ''));
    const isComment = raw.startsWith('#');
    const numeric = tokens.length > 0 && tokens.every((t) => isNumber(t));
    if (!numeric) {
      // The first non-numeric line before any data is a header if it names columns we know;
      // any other '#' line is a comment.
      if (!header && rows.length === 0 && columnsOf(tokens)) { header = { names: tokens, line: i + 1, comment: isComment }; continue; }
      if (isComment) continue;
      // The column, never the text: the file may be anything readable (its first line is no one's business).
      const bad = tokens.findIndex((t) => !isNumber(t));
      throw new DecodeError(name, `column ${bad + 1} is not a number${rows.length === 0 && !header ? ' (and the line is not a header naming time, x, y, z and a rotation): not a poses file' : ''}`, { line: i + 1 });
    }
    if (isComment) continue;
    rows.push({ line: i + 1, values: tokens.map(Number) });
  }
  if (rows.length === 0) {
    let last = lines.length;
    while (last > 1 && lines[last - 1]!.trim() === '') last--;
    throw new DecodeError(name, 'no poses', { line: last });
  }
  const width = rows[0]!.values.length;
  // A commented header is a comment that happens to name columns: it describes the rows only
  // when every column it names is one the rows have (`# timestamp tx ty tz qx qy qz qw (world
  // frame)` does; `# format: timestamp tx …` puts time in a 9th column and is prose).
  if (header?.comment && !Object.values(columnsOf(header.names)!).every((c) => c < width)) header = null;
  if (header) return fromCsv(rows, header, name);
  if (width === 12) return fromKitti(rows, name);
  if (width === 8) return fromTum(rows, name);
  throw new DecodeError(name, `${width} columns: expected 12 (KITTI 3×4 matrix) or 8 (TUM: time tx ty tz qx qy qz qw), or a header row`, { line: rows[0]!.line });
}

function split(s: string): string[] {
  return s.split(/[\s,;]+/).filter((t) => t !== '');
}

function isNumber(t: string): boolean {
  return t.trim() !== '' && Number.isFinite(Number(t));
}

function checkWidth(r: Row, width: number, name: string): void {
  if (r.values.length !== width) throw new DecodeError(name, `${r.values.length} columns, expected ${width}`, { line: r.line });
}

function fromKitti(rows: Row[], name: string): PosesFile {
  const poses = new Float64Array(7 * rows.length);
  const m = new Float64Array(9), q = new Float64Array(4);
  rows.forEach((r, i) => {
    checkWidth(r, 12, name);
    const v = r.values;
    for (let k = 0; k < 3; k++) {
      m[3 * k] = v[4 * k]!; m[3 * k + 1] = v[4 * k + 1]!; m[3 * k + 2] = v[4 * k + 2]!;
      poses[7 * i + k] = v[4 * k + 3]!;
    }
    checkRotation(m, r.line, name);
    rotationMatrixToQuaternion(m, 0, q, 0);
    poses.set(q, 7 * i + 3);
  });
  return { kind: 'kitti', times: null, poses };
}

/** Orthonormal within ORTHO_TOL and a proper rotation (det +1, not a reflection). */
function checkRotation(m: Float64Array, line: number, name: string): void {
  let worst = 0;
  for (let a = 0; a < 3; a++) {
    for (let b = 0; b < 3; b++) {
      const dot = m[a]! * m[b]! + m[3 + a]! * m[3 + b]! + m[6 + a]! * m[6 + b]!; // (RᵀR)ab
      worst = Math.max(worst, Math.abs(dot - (a === b ? 1 : 0)));
    }
  }
  const det = m[0]! * (m[4]! * m[8]! - m[5]! * m[7]!) - m[1]! * (m[3]! * m[8]! - m[5]! * m[6]!) + m[2]! * (m[3]! * m[7]! - m[4]! * m[6]!);
  if (worst > ORTHO_TOL || det < 0) {
    throw new DecodeError(name, `rotation is not orthonormal: |RᵀR − I| reaches ${worst.toPrecision(3)} (limit ${ORTHO_TOL}), det ${det.toPrecision(4)}`, { line });
  }
}

function fromTum(rows: Row[], name: string): PosesFile {
  const times = new Float64Array(rows.length);
  const poses = new Float64Array(7 * rows.length);
  rows.forEach((r, i) => {
    checkWidth(r, 8, name);
    times[i] = r.values[0]!;
    setPose(poses, i, r.values.slice(1, 4), r.values.slice(4, 8), r.line, name);
  });
  return { kind: 'tum', times, poses };
}

/** Column index of each field the header names, or null when time/x/y/z/rotation are missing. */
function columnsOf(tokens: string[]): Record<string, number> | null {
  const cols: Record<string, number> = {};
  tokens.forEach((t, i) => {
    const key = t.toLowerCase().replace(/^#/, '').replace(/^"|"$/g, '');
    for (const [field, names] of Object.entries(ALIASES)) if (names.includes(key) && cols[field] === undefined) cols[field] = i;
  });
  const hasTime = cols.time !== undefined || cols.time_ns !== undefined;
  const hasQuat = ['qx', 'qy', 'qz', 'qw'].every((f) => cols[f] !== undefined);
  const hasRpy = ['roll', 'pitch', 'yaw'].every((f) => cols[f] !== undefined);
  return hasTime && ['x', 'y', 'z'].every((f) => cols[f] !== undefined) && (hasQuat || hasRpy) ? cols : null;
}

/**
 * Columns by header name. TUM files often start with the comment `# timestamp tx ty tz qx qy qz
 * qw`: a commented header naming TUM's eight columns in TUM's order, over rows of eight, keeps
 * kind 'tum'. A commented header's words past the rows' columns are prose: the rows set the width.
 */
function fromCsv(rows: Row[], header: { names: string[]; line: number; comment: boolean }, name: string): PosesFile {
  const cols = columnsOf(header.names)!;
  const quat = ['qx', 'qy', 'qz', 'qw'].every((f) => cols[f] !== undefined);
  const timeCol = cols.time ?? cols.time_ns!;
  const unit = cols.time === undefined ? 1e-9 : 1;
  const width = header.comment ? rows[0]!.values.length : header.names.length;
  const times = new Float64Array(rows.length);
  const poses = new Float64Array(7 * rows.length);
  rows.forEach((r, i) => {
    checkWidth(r, width, name);
    const v = (f: string): number => r.values[cols[f]!]!;
    times[i] = r.values[timeCol]! * unit;
    const q = quat ? [v('qx'), v('qy'), v('qz'), v('qw')] : rollPitchYawToQuaternion(v('roll'), v('pitch'), v('yaw'));
    setPose(poses, i, [v('x'), v('y'), v('z')], q, r.line, name);
  });
  const tumOrder = ['time', 'x', 'y', 'z', 'qx', 'qy', 'qz', 'qw'];
  const isTum = header.comment && width === 8 && tumOrder.every((f, i) => cols[f] === i);
  return { kind: isTum ? 'tum' : 'csv', times, poses };
}

function setPose(poses: Float64Array, i: number, t: number[], q: number[], line: number, name: string): void {
  const norm = Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!);
  if (!(Math.abs(norm - 1) <= ORTHO_TOL)) {
    throw new DecodeError(name, `quaternion (${q.join(', ')}) has norm ${norm.toPrecision(6)}, not 1 within ${ORTHO_TOL}`, { line });
  }
  poses.set([t[0]!, t[1]!, t[2]!, q[0]! / norm, q[1]! / norm, q[2]! / norm, q[3]! / norm], 7 * i);
}

/**
 * KITTI pose rows (12 numbers, [R | t] row-major) for poses [tx, ty, tz, qx, qy, qz, qw], 7 each.
 * Numbers are written in the shortest form that reads back to the same double.
 */
export function encodeKittiPoses(poses: ArrayLike<number>): string {
  const m = new Float64Array(9);
  const lines: string[] = [];
  for (let o = 0; o + 7 <= poses.length; o += 7) {
    poseRotationMatrix(poses, o, m, 0);
    const row = (k: number): number[] => [m[3 * k]!, m[3 * k + 1]!, m[3 * k + 2]!, poses[o + k]!];
    lines.push([...row(0), ...row(1), ...row(2)].map((x) => String(x)).join(' '));
  }
  return lines.length ? lines.join('\n') + '\n' : '';
}

/** Small valid inputs for the fuzz harness (the file's text as bytes). */
export const FUZZ_TARGETS: FuzzTarget[] = [
  {
    name: 'poses kitti',
    sample: () => new TextEncoder().encode(encodeKittiPoses([0, 0, 0, 0, 0, 0, 1, 0.25, -0.01, 0.008, 0.0006, -0.0012, 0.00008, 1, 0.5, 0.006, -0.0005, 0.0008, -0.0019, 0.0002, 1])),
    decode: (bytes: Uint8Array) => parsePosesFile(new TextDecoder().decode(bytes), 'fuzz.txt'),
  },
  {
    name: 'poses tum',
    sample: () => new TextEncoder().encode('# timestamp tx ty tz qx qy qz qw\n1.0 0 0 0 0 0 0 1\n1.1 0.5 0.1 0 0 0 0.0998 0.995\n1.2 1.0 0.2 0 0 0 0.1987 0.98\n'),
    decode: (bytes: Uint8Array) => parsePosesFile(new TextDecoder().decode(bytes), 'fuzz.txt'),
  },
  {
    name: 'poses csv rpy',
    sample: () => new TextEncoder().encode('time,x,y,z,roll,pitch,yaw\n0,0,0,0,0,0,0\n0.1,1,0,0,0.01,0,0.2\n0.2,2,0.1,0,0.02,0.01,0.4\n'),
    decode: (bytes: Uint8Array) => parsePosesFile(new TextDecoder().decode(bytes), 'fuzz.csv'),
  },
];

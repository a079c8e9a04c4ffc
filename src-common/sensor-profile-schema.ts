/**
 * Checking sensor profiles, and the profile file format.
 *
 * Two forms of one profile:
 * - `SensorProfile` (profile.ts): SI units, what the simulator uses.
 * - `ProfileFile`: what files hold (resources/profiles/*.json, custom profiles, `thicket profile
 *   import` output): the same fields under the same names, in file units: angles in degrees,
 *   times in milliseconds, beam divergences in milliradians, lengths in metres, rates in Hz; the
 *   mount as translation (m) + roll/pitch/yaw (degrees, Z-Y-X); a `format`/`version` header and
 *   a `units` block that says so. Optional fields of a file get defaults (see ProfileFileInput).
 *
 * Both forms are checked by schemas built from one table of fields and limits, so an error
 * names the field as the file spells it and the reason in the file's units, e.g.
 * `groups[0].lasers[3].elevation: expected a number between -90 and 90 degrees, got 120`.
 * Unknown fields are errors (a typo must not silently fall back to a default).
 */
import { z } from 'zod';
import { BEAM_SHAPES, FILE_UNITS, PROFILE_FILE_FORMAT, PROFILE_FILE_VERSION, PROFILE_KINDS, RETURN_MODES, type LaserGroup, type LaserSpec, type Pose7, type ProfileFile, type ProfileFileLaser, type ProfileKind, type SensorProfile } from './sensor-profile';


export const PROFILE_ID_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
/** A revolution with more rays than this is refused (a typo'd firing period would exhaust memory). */
export const MAX_RAYS_PER_REVOLUTION = 5_000_000;
export const MAX_LASERS = 1024;

// ---------- errors ----------

export interface ProfileIssue {
  /** Field path as the file spells it: `groups[0].lasers[3].elevation` ('' = the whole profile). */
  path: string;
  reason: string;
}

/** A profile (or profile file) that fails its checks; the message lists every issue as `path: reason`. */
export class ProfileError extends Error {
  constructor(
    readonly issues: ProfileIssue[],
    /** File name (or other origin) to prefix the message with. */
    readonly origin?: string,
  ) {
    super(`${origin ? `${origin}: ` : ''}${issues.map((i) => (i.path ? `${i.path}: ${i.reason}` : i.reason)).join('; ')}`);
    this.name = 'ProfileError';
  }
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out;
}

/** One issue per field (the first: a field-level reason beats a cross-check that saw the bad value). */
function issuesOf(error: z.ZodError): ProfileIssue[] {
  const out: ProfileIssue[] = [];
  const seen = new Set<string>();
  const push = (i: ProfileIssue) => {
    if (seen.has(i.path)) return;
    seen.add(i.path);
    out.push(i);
  };
  for (const i of error.issues) {
    if (i.code === 'unrecognized_keys') {
      for (const k of i.keys) push({ path: formatPath([...i.path, k]), reason: 'unknown field' });
    } else if (i.code === 'invalid_type' && i.expected === 'object') {
      push({ path: formatPath(i.path), reason: 'expected an object' });
    } else if (i.code === 'invalid_type' && i.expected === 'array') {
      push({ path: formatPath(i.path), reason: 'expected a list' });
    } else {
      push({ path: formatPath(i.path), reason: i.message });
    }
  }
  return out;
}

// ---------- one table of fields, two unit systems ----------

type Quantity = 'angle' | 'time' | 'divergence' | 'length' | 'rate' | 'plain';

interface UnitSystem {
  /** value in this system = SI value × factor */
  factor: Record<Quantity, number>;
  label: Record<Quantity, string>;
}

const FILE: UnitSystem = {
  factor: { angle: 180 / Math.PI, time: 1e3, divergence: 1e3, length: 1, rate: 1, plain: 1 },
  label: { angle: 'degrees', time: 'ms', divergence: 'mrad', length: 'm', rate: 'Hz', plain: '' },
};
const SI: UnitSystem = {
  factor: { angle: 1, time: 1, divergence: 1, length: 1, rate: 1, plain: 1 },
  label: { angle: 'rad', time: 's', divergence: 'rad', length: 'm', rate: 'Hz', plain: '' },
};

const show = (v: unknown): string => {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : String(v);
};
const fmt = (x: number) => String(Number(x.toPrecision(6)));

interface NumOpts {
  /** Lower bound excluded (e.g. a period must be > 0). */
  loOpen?: boolean;
  int?: boolean;
}

/** A number in [lo, hi] (bounds in file units, converted for SI); one message for wrong type, range and absence. */
function num(sys: UnitSystem, q: Quantity, loFile: number, hiFile: number, o: NumOpts = {}) {
  const f = sys.factor[q] / FILE.factor[q];
  const lo = loFile * f;
  const hi = hiFile * f;
  const unit = sys.label[q] ? ` ${sys.label[q]}` : '';
  const what = o.int ? 'a whole number' : 'a number';
  const text = o.loOpen ? `expected ${what} greater than ${fmt(lo)} and at most ${fmt(hi)}${unit}` : `expected ${what} between ${fmt(lo)} and ${fmt(hi)}${unit}`;
  const slack = (b: number) => 1e-9 * Math.max(1, Math.abs(b));
  return z.custom<number>().superRefine((v, ctx) => {
    const ok =
      typeof v === 'number' &&
      Number.isFinite(v) &&
      (o.loOpen ? v > lo : v >= lo - slack(lo)) &&
      v <= hi + slack(hi) &&
      (!o.int || Number.isInteger(v));
    if (!ok) ctx.addIssue({ code: 'custom', message: v === undefined ? `is missing (${text})` : `${text}, got ${show(v)}` });
  });
}

function oneOf<T extends string>(values: readonly T[]) {
  const text = `expected one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
  return z.custom<T>().superRefine((v, ctx) => {
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v)) {
      ctx.addIssue({ code: 'custom', message: v === undefined ? `is missing (${text})` : `${text}, got ${show(v)}` });
    }
  });
}

function text(min: number, max: number) {
  const what = min > 0 ? `a non-empty text of at most ${max} characters` : `a text of at most ${max} characters`;
  return z.custom<string>().superRefine((v, ctx) => {
    if (typeof v !== 'string' || v.length < min || v.length > max) {
      ctx.addIssue({ code: 'custom', message: v === undefined ? `is missing (expected ${what})` : `expected ${what}, got ${show(v)}` });
    }
  });
}

const bool = z.custom<boolean>().superRefine((v, ctx) => {
  if (typeof v !== 'boolean') ctx.addIssue({ code: 'custom', message: v === undefined ? 'is missing (expected true or false)' : `expected true or false, got ${show(v)}` });
});

const profileId = z.custom<string>().superRefine((v, ctx) => {
  const rule = 'expected lowercase letters, digits and dashes (1 to 64, not starting or ending with a dash)';
  if (typeof v !== 'string' || !PROFILE_ID_PATTERN.test(v)) ctx.addIssue({ code: 'custom', message: v === undefined ? `is missing (${rule})` : `${rule}, got ${show(v)}` });
});

function list<T extends z.ZodType>(item: T, min: number, max: number, what: string) {
  return z.array(item).superRefine((a, ctx) => {
    if (a.length < min || a.length > max) ctx.addIssue({ code: 'custom', message: `expected ${min} to ${max} ${what}, got ${a.length}` });
  });
}

/** Fields and limits shared by both forms (limits in file units). */
function commonShape(sys: UnitSystem, withDefaults: boolean) {
  const d = <T extends z.ZodType>(schema: T, value: z.output<T>) => (withDefaults ? schema.optional().default(value as never) : schema);
  const laser = z.strictObject({
    elevation: num(sys, 'angle', -90, 90),
    azimuthOffset: d(num(sys, 'angle', -180, 180), 0),
    timeOffset: d(num(sys, 'time', 0, 1000), 0),
    rangeOffset: d(num(sys, 'length', -10, 10), 0),
    verticalOffset: d(num(sys, 'length', -1, 1), 0),
    horizontalOffset: d(num(sys, 'length', -1, 1), 0),
  });
  const group = z.strictObject({
    name: text(1, 64),
    firingPeriod: num(sys, 'time', 0, 1000, { loOpen: true }),
    lasers: list(laser, 1, MAX_LASERS, 'lasers'),
  });
  return {
    id: profileId,
    name: text(1, 200),
    description: d(text(0, 4000), ''),
    kind: oneOf(PROFILE_KINDS),
    groups: list(group, 1, 16, 'laser groups'),
    rotationHz: num(sys, 'rate', 0, 200, { loOpen: true }),
    spin: oneOf(['ccw', 'cw'] as const).optional(),
    azimuthStart: d(num(sys, 'angle', -360, 360), 0),
    azimuthEnd: d(num(sys, 'angle', -360, 720), 2 * Math.PI * (sys.factor.angle as number)),
    range: z.strictObject({
      min: num(sys, 'length', 0, 1000),
      max: num(sys, 'length', 0, 10000, { loOpen: true }),
      resolution: d(num(sys, 'length', 0, 1), 0),
      noiseSigma: d(num(sys, 'length', 0, 10), 0),
      noiseModel: num(sys, 'plain', 1, Number.MAX_SAFE_INTEGER, { int: true }).optional(),
    }),
    beam: z.strictObject({
      shape: oneOf(BEAM_SHAPES),
      divergenceH: num(sys, 'divergence', 0, 1000),
      divergenceV: num(sys, 'divergence', 0, 1000),
    }),
    returns: z.strictObject({
      mode: oneOf(RETURN_MODES),
      signalCutoff: num(sys, 'length', 0, 1000),
    }),
    intensity: d(
      z.strictObject({
        model: oneOf(['lambertian'] as const),
        scale: num(sys, 'plain', 0, 1e6),
        rangeFalloff: bool,
      }),
      { model: 'lambertian', scale: 1, rangeFalloff: false },
    ),
    sequencesPerPacket: d(num(sys, 'plain', 1, 100_000, { int: true }), 12),
    source: d(text(0, 1000), ''),
  };
}

interface CrossChecked {
  kind: ProfileKind;
  groups: { firingPeriod: number; lasers: { timeOffset: number }[] }[];
  rotationHz: number;
  azimuthStart: number;
  azimuthEnd: number;
  range: { min: number; max: number };
}

const finite = (...xs: unknown[]) => xs.every((x) => typeof x === 'number' && Number.isFinite(x));

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/**
 * Checks that need several fields, in the form's own units. Zod runs them even when a field
 * failed its own check, so each one looks only at values of the right type (a malformed field
 * has been reported already) and never throws.
 */
function crossCheck(sys: UnitSystem) {
  const unit = (q: Quantity) => (sys.label[q] ? ` ${sys.label[q]}` : '');
  return (p: CrossChecked, ctx: z.RefinementCtx): void => {
    if (!isObj(p)) return;
    if (isObj(p.range) && finite(p.range.min, p.range.max) && p.range.max <= p.range.min) {
      ctx.addIssue({ code: 'custom', path: ['range', 'max'], message: `must be greater than range.min (${fmt(p.range.min)} m)` });
    }
    const full = 2 * Math.PI * sys.factor.angle;
    const span = p.azimuthEnd - p.azimuthStart;
    if (finite(span) && span <= 0) {
      ctx.addIssue({ code: 'custom', path: ['azimuthEnd'], message: `must be greater than azimuthStart (${fmt(p.azimuthStart)}${unit('angle')})` });
    } else if (finite(span) && span > full * (1 + 1e-9)) {
      ctx.addIssue({ code: 'custom', path: ['azimuthEnd'], message: `the window azimuthStart…azimuthEnd spans ${fmt(span)}${unit('angle')}, more than one turn (${fmt(full)})` });
    }
    if (!Array.isArray(p.groups)) return;
    let lasers = 0;
    let rays = 0;
    const revolution = 1 / p.rotationHz; // s
    p.groups.forEach((g, gi) => {
      if (!isObj(g) || !Array.isArray(g.lasers)) {
        rays = NaN;
        return;
      }
      lasers += g.lasers.length;
      g.lasers.forEach((l, li) => {
        if (isObj(l) && finite(l.timeOffset, g.firingPeriod) && g.firingPeriod > 0 && l.timeOffset >= g.firingPeriod) {
          ctx.addIssue({
            code: 'custom',
            path: ['groups', gi, 'lasers', li, 'timeOffset'],
            message: `must be less than the group's firingPeriod (${fmt(g.firingPeriod)}${unit('time')}), got ${fmt(l.timeOffset)}`,
          });
        }
      });
      const periodS = g.firingPeriod / sys.factor.time;
      rays += g.lasers.length * Math.ceil(revolution / periodS);
    });
    if (lasers > MAX_LASERS) ctx.addIssue({ code: 'custom', path: ['groups'], message: `at most ${MAX_LASERS} lasers in all, got ${lasers}` });
    if (finite(rays, p.rotationHz) && p.rotationHz > 0 && rays > MAX_RAYS_PER_REVOLUTION) {
      ctx.addIssue({
        code: 'custom',
        path: ['rotationHz'],
        message: `one revolution would fire ${rays.toLocaleString('en-US')} rays (at most ${MAX_RAYS_PER_REVOLUTION.toLocaleString('en-US')}): raise rotationHz or the firing periods`,
      });
    }
  };
}

const vec3 = (sys: UnitSystem, q: Quantity, lo: number, hi: number) =>
  z.tuple([num(sys, q, lo, hi), num(sys, q, lo, hi), num(sys, q, lo, hi)], { error: 'expected a list of 3 numbers' });

/** The SI form, checked strictly: every field present (only `spin` may be absent). */
export const SensorProfileSchema = z
  .strictObject({
    ...commonShape(SI, false),
    builtin: bool,
    mount: z
      .tuple(
        [num(SI, 'length', -100, 100), num(SI, 'length', -100, 100), num(SI, 'length', -100, 100), num(SI, 'plain', -1, 1), num(SI, 'plain', -1, 1), num(SI, 'plain', -1, 1), num(SI, 'plain', -1, 1)],
        { error: 'expected [tx, ty, tz, qx, qy, qz, qw]' },
      )
      .superRefine((m, ctx) => {
        const n = Math.hypot(m[3], m[4], m[5], m[6]);
        if (Math.abs(n - 1) > 1e-6) ctx.addIssue({ code: 'custom', message: `the rotation quaternion must have unit length, got ${fmt(n)}` });
      }),
  })
  .superRefine(crossCheck(SI));

const UnitsSchema = z.strictObject({
  angle: z.literal('deg', { error: 'expected "deg"' }),
  time: z.literal('ms', { error: 'expected "ms"' }),
  rate: z.literal('Hz', { error: 'expected "Hz"' }),
  length: z.literal('m', { error: 'expected "m"' }),
  divergence: z.literal('mrad', { error: 'expected "mrad"' }),
});

/** The file form; optional fields get defaults (description, offsets, intensity, mount, window, packet size). */
export const ProfileFileSchema = z
  .strictObject({
    format: z.literal(PROFILE_FILE_FORMAT, { error: `expected "${PROFILE_FILE_FORMAT}"` }),
    version: z.literal(PROFILE_FILE_VERSION, { error: `expected ${PROFILE_FILE_VERSION} (the only version this Thicket reads)` }),
    units: UnitsSchema.optional().default({ ...FILE_UNITS }),
    ...commonShape(FILE, true),
    mount: z
      .strictObject({
        xyz: vec3(FILE, 'length', -100, 100),
        rpy: vec3(FILE, 'angle', -360, 360),
      })
      .optional()
      .default({ xyz: [0, 0, 2], rpy: [0, 0, 0] }),
  })
  .superRefine(crossCheck(FILE));

/** What a hand-written file must say; everything else gets the defaults above. */
export type ProfileFileInput = Omit<
  ProfileFile,
  'units' | 'description' | 'azimuthStart' | 'azimuthEnd' | 'range' | 'intensity' | 'mount' | 'sequencesPerPacket' | 'source' | 'groups'
> & {
  units?: ProfileFile['units'];
  description?: string;
  azimuthStart?: number;
  azimuthEnd?: number;
  range: { min: number; max: number; resolution?: number; noiseSigma?: number; noiseModel?: number };
  intensity?: ProfileFile['intensity'];
  mount?: ProfileFile['mount'];
  sequencesPerPacket?: number;
  source?: string;
  groups: { name: string; firingPeriod: number; lasers: (Pick<ProfileFileLaser, 'elevation'> & Partial<ProfileFileLaser>)[] }[];
};

// ---------- checking ----------

/** The SI profile, or a ProfileError listing every problem. */
export function validateProfile(value: unknown, origin?: string): SensorProfile {
  const r = SensorProfileSchema.safeParse(value);
  if (!r.success) throw new ProfileError(issuesOf(r.error), origin);
  return r.data as SensorProfile;
}

/** The file form with defaults applied, or a ProfileError. */
export function validateProfileFile(value: unknown, origin?: string): ProfileFile {
  const r = ProfileFileSchema.safeParse(value);
  if (!r.success) throw new ProfileError(issuesOf(r.error), origin);
  return r.data as ProfileFile;
}

/** True when `value` claims to be a profile file (has the format header). */
export function isProfileFile(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === PROFILE_FILE_FORMAT;
}

/** Either form → a checked SI profile (`builtin` from the argument for files). */
export function profileFromAny(value: unknown, opts: { origin?: string; builtin?: boolean } = {}): SensorProfile {
  if (isProfileFile(value)) return fromProfileFile(validateProfileFile(value, opts.origin), opts.builtin ?? false);
  return validateProfile(value, opts.origin);
}

/** Parse a profile file's text: JSON syntax errors name the line and column. */
export function parseProfileJson(textIn: string, origin = 'profile'): SensorProfile {
  return fromProfileFile(validateProfileFile(parseJsonText(textIn, origin), origin));
}

/** JSON.parse with an error that names the line and column (and the reason) of the first syntax error. */
export function parseJsonText(textIn: string, origin: string): unknown {
  const body = textIn.charCodeAt(0) === 0xfeff ? textIn.slice(1) : textIn;
  try {
    return JSON.parse(body);
  } catch {
    const { offset, reason } = findJsonError(body);
    const { line, column } = lineColumn(body, offset);
    throw new ProfileError([{ path: '', reason: `invalid JSON at line ${line}, column ${column}: ${reason}` }], origin);
  }
}

const MAX_JSON_DEPTH = 1000;

/**
 * Where JSON.parse failed and why. V8's messages carry no position for many errors, so a small
 * scanner walks the grammar and stops at the first character that breaks it.
 */
export function findJsonError(s: string): { offset: number; reason: string } {
  let i = 0;
  class Stop {
    constructor(
      readonly offset: number,
      readonly reason: string,
    ) {}
  }
  const fail = (reason: string, at = i): never => {
    throw new Stop(at, reason);
  };
  const describe = (at: number) => (at >= s.length ? 'the end of the file' : `'${s[at]}'`);
  const ws = () => {
    while (i < s.length && ' \t\n\r'.includes(s[i]!)) i++;
  };
  const str = () => {
    i++; // opening quote
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 0x20) fail('a control character (such as a line break) inside a string');
      if (c === 92) {
        const e = s[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) fail('a bad \\u escape in a string');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail(`a bad escape \\${e ?? ''} in a string`);
      } else i++;
    }
    fail('a string that never ends');
  };
  let depth = 0;
  const value = (): void => {
    ws();
    const c = s[i];
    // Walked recursively: past this depth, say so instead of overflowing the stack.
    if ((c === '{' || c === '[') && ++depth > MAX_JSON_DEPTH) fail(`nested more than ${MAX_JSON_DEPTH} levels deep`);
    if (c === '{') {
      i++;
      ws();
      if (s[i] === '}') {
        i++;
        depth--;
        return;
      }
      for (;;) {
        ws();
        if (s[i] !== '"') fail(`expected a field name in double quotes, found ${describe(i)}`);
        str();
        ws();
        if (s[i] !== ':') fail(`expected ':' after the field name, found ${describe(i)}`);
        i++;
        value();
        ws();
        if (s[i] === ',') {
          i++;
          continue;
        }
        if (s[i] === '}') {
          i++;
          depth--;
          return;
        }
        fail(`expected ',' or '}', found ${describe(i)}`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (s[i] === ']') {
        i++;
        depth--;
        return;
      }
      for (;;) {
        value();
        ws();
        if (s[i] === ',') {
          i++;
          continue;
        }
        if (s[i] === ']') {
          i++;
          depth--;
          return;
        }
        fail(`expected ',' or ']', found ${describe(i)}`);
      }
    }
    if (c === '"') return str();
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(s.slice(i, i + 400));
    if (m && m[0].length) {
      i += m[0].length;
      return;
    }
    for (const lit of ['true', 'false', 'null']) {
      if (s.startsWith(lit, i)) {
        i += lit.length;
        return;
      }
    }
    fail(`expected a value, found ${describe(i)}`);
  };
  try {
    value();
    ws();
    if (i < s.length) fail(`unexpected ${describe(i)} after the end of the JSON value`);
    return { offset: s.length, reason: 'invalid JSON' };
  } catch (e) {
    if (e instanceof Stop) return { offset: e.offset, reason: e.reason };
    throw e;
  }
}

export function lineColumn(textIn: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  const end = Math.min(offset, textIn.length);
  for (let i = 0; i < end; i++) {
    if (textIn.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, column: end - last };
}

// ---------- conversion ----------

const R2D = 180 / Math.PI;
const D2R = Math.PI / 180;

/** Round away float noise from unit conversion (12 significant digits) so files read cleanly. */
const clean = (x: number) => (x === 0 ? 0 : Number(x.toPrecision(12)));

/** Roll, pitch, yaw (rad; R = Rz(yaw)·Ry(pitch)·Rx(roll)) → unit quaternion [x, y, z, w] with w ≥ 0. */
export function rpyToQuaternion(roll: number, pitch: number, yaw: number): [number, number, number, number] {
  const cr = Math.cos(roll / 2), sr = Math.sin(roll / 2);
  const cp = Math.cos(pitch / 2), sp = Math.sin(pitch / 2);
  const cy = Math.cos(yaw / 2), sy = Math.sin(yaw / 2);
  const q: [number, number, number, number] = [
    sr * cp * cy - cr * sp * sy,
    cr * sp * cy + sr * cp * sy,
    cr * cp * sy - sr * sp * cy,
    cr * cp * cy + sr * sp * sy,
  ];
  return q[3] < 0 ? [-q[0], -q[1], -q[2], -q[3]] : q;
}

/** Unit quaternion [x, y, z, w] → roll, pitch, yaw (rad), the inverse of rpyToQuaternion. */
export function quaternionToRpy(x: number, y: number, z: number, w: number): [number, number, number] {
  const n = Math.hypot(x, y, z, w) || 1;
  x /= n; y /= n; z /= n; w /= n;
  const roll = Math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y));
  const sp = 2 * (w * y - z * x);
  const pitch = Math.abs(sp) >= 1 ? Math.sign(sp) * (Math.PI / 2) : Math.asin(sp);
  const yaw = Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
  return [roll, pitch, yaw];
}

/** File form (already checked) → SI profile. */
export function fromProfileFile(f: ProfileFile, builtin = false): SensorProfile {
  const q = rpyToQuaternion(f.mount.rpy[0] * D2R, f.mount.rpy[1] * D2R, f.mount.rpy[2] * D2R);
  const mount: Pose7 = [f.mount.xyz[0], f.mount.xyz[1], f.mount.xyz[2], q[0], q[1], q[2], q[3]];
  const groups: LaserGroup[] = f.groups.map((g) => ({
    name: g.name,
    firingPeriod: g.firingPeriod / 1e3,
    lasers: g.lasers.map(
      (l): LaserSpec => ({
        elevation: l.elevation * D2R,
        azimuthOffset: l.azimuthOffset * D2R,
        timeOffset: l.timeOffset / 1e3,
        rangeOffset: l.rangeOffset,
        verticalOffset: l.verticalOffset,
        horizontalOffset: l.horizontalOffset,
      }),
    ),
  }));
  return {
    id: f.id,
    name: f.name,
    description: f.description,
    builtin,
    kind: f.kind,
    groups,
    rotationHz: f.rotationHz,
    ...(f.spin ? { spin: f.spin } : {}),
    azimuthStart: f.azimuthStart * D2R,
    azimuthEnd: f.azimuthEnd * D2R,
    range: { ...f.range },
    beam: { shape: f.beam.shape, divergenceH: f.beam.divergenceH / 1e3, divergenceV: f.beam.divergenceV / 1e3 },
    returns: { ...f.returns },
    intensity: { ...f.intensity },
    mount,
    sequencesPerPacket: f.sequencesPerPacket,
    source: f.source,
  };
}

/** SI profile → file form (every field written). */
export function toProfileFile(p: SensorProfile): ProfileFile {
  const [roll, pitch, yaw] = quaternionToRpy(p.mount[3], p.mount[4], p.mount[5], p.mount[6]);
  return {
    format: PROFILE_FILE_FORMAT,
    version: PROFILE_FILE_VERSION,
    units: { ...FILE_UNITS },
    id: p.id,
    name: p.name,
    description: p.description,
    kind: p.kind,
    rotationHz: p.rotationHz,
    ...(p.spin ? { spin: p.spin } : {}),
    azimuthStart: clean(p.azimuthStart * R2D),
    azimuthEnd: clean(p.azimuthEnd * R2D),
    range: { min: p.range.min, max: p.range.max, resolution: p.range.resolution, noiseSigma: p.range.noiseSigma, ...(p.range.noiseModel !== undefined ? { noiseModel: p.range.noiseModel } : {}) },
    beam: { shape: p.beam.shape, divergenceH: clean(p.beam.divergenceH * 1e3), divergenceV: clean(p.beam.divergenceV * 1e3) },
    returns: { mode: p.returns.mode, signalCutoff: p.returns.signalCutoff },
    intensity: { model: p.intensity.model, scale: p.intensity.scale, rangeFalloff: p.intensity.rangeFalloff },
    mount: {
      xyz: [p.mount[0], p.mount[1], p.mount[2]],
      rpy: [clean(roll * R2D), clean(pitch * R2D), clean(yaw * R2D)],
    },
    sequencesPerPacket: p.sequencesPerPacket,
    source: p.source,
    groups: p.groups.map((g) => ({
      name: g.name,
      firingPeriod: clean(g.firingPeriod * 1e3),
      lasers: g.lasers.map((l) => ({
        elevation: clean(l.elevation * R2D),
        azimuthOffset: clean(l.azimuthOffset * R2D),
        timeOffset: clean(l.timeOffset * 1e3),
        rangeOffset: clean(l.rangeOffset),
        verticalOffset: clean(l.verticalOffset),
        horizontalOffset: clean(l.horizontalOffset),
      })),
    })),
  };
}

/** Total lasers over all groups. */
export function laserCount(p: { groups: { lasers: unknown[] }[] }): number {
  return p.groups.reduce((n, g) => n + g.lasers.length, 0);
}

/**
 * The editable fields of a profile (file form: degrees, ms, mrad) as the parameter table shows
 * them, and small pure helpers for the editor: reading/writing by path, and splitting the host's
 * "path: reason; path: reason" messages into issues. Unit-tested in Node.
 */
import type { ProfileFile } from '../../../src-common/sensor-profile';

export type FieldKind = 'number' | 'int' | 'text' | 'longtext' | 'select' | 'bool';

export interface FieldSpec {
  /** Path into ProfileFile, e.g. ['range', 'max'] or ['mount', 'xyz', 2]. */
  path: (string | number)[];
  label: string;
  unit?: string;
  kind: FieldKind;
  /** Shown value = file value × scale (e.g. ms → µs: 1000). */
  scale?: number;
  options?: { label: string; value: string }[];
  step?: number;
  hint?: string;
}

export interface FieldSection {
  title: string;
  fields: FieldSpec[];
}

export function profileSections(file: ProfileFile): FieldSection[] {
  return [
    {
      title: 'Identity',
      fields: [
        { path: ['name'], label: 'Name', kind: 'text' },
        { path: ['kind'], label: 'Kind', kind: 'select', options: [{ label: 'spinning', value: 'spinning' }, { label: 'planar', value: 'planar' }] },
        { path: ['source'], label: 'Source', kind: 'text' },
      ],
    },
    {
      title: 'Scanning',
      fields: [
        { path: ['rotationHz'], label: 'Rotation rate', unit: 'Hz', kind: 'number', step: 1, hint: 'revolutions (planar: scans) per second' },
        { path: ['spin'], label: 'Spin', kind: 'select', options: [{ label: 'counter-clockwise', value: 'ccw' }, { label: 'clockwise', value: 'cw' }] },
        { path: ['azimuthStart'], label: 'Azimuth start', unit: '°', kind: 'number', step: 1 },
        { path: ['azimuthEnd'], label: 'Azimuth end', unit: '°', kind: 'number', step: 1 },
        { path: ['sequencesPerPacket'], label: 'Sequences per packet', kind: 'int', step: 1 },
        ...file.groups.map(
          (g, i): FieldSpec => ({ path: ['groups', i, 'firingPeriod'], label: `Firing period: ${g.name}`, unit: 'µs', kind: 'number', scale: 1000, step: 1 }),
        ),
      ],
    },
    {
      title: 'Range',
      fields: [
        { path: ['range', 'min'], label: 'Minimum', unit: 'm', kind: 'number', step: 0.1 },
        { path: ['range', 'max'], label: 'Maximum', unit: 'm', kind: 'number', step: 1 },
        { path: ['range', 'resolution'], label: 'Resolution', unit: 'm', kind: 'number', step: 0.001 },
        { path: ['range', 'noiseSigma'], label: 'Noise σ', unit: 'm', kind: 'number', step: 0.001 },
      ],
    },
    {
      title: 'Beam and returns',
      fields: [
        {
          path: ['beam', 'shape'],
          label: 'Spot shape',
          kind: 'select',
          options: ['circular', 'rectangular', 'elliptical'].map((v) => ({ label: v, value: v })),
        },
        { path: ['beam', 'divergenceH'], label: 'Divergence, horizontal', unit: 'mrad', kind: 'number', step: 0.1 },
        { path: ['beam', 'divergenceV'], label: 'Divergence, vertical', unit: 'mrad', kind: 'number', step: 0.1 },
        {
          path: ['returns', 'mode'],
          label: 'Return mode',
          kind: 'select',
          options: ['first', 'last', 'strongest', 'strongest+last'].map((v) => ({ label: v, value: v })),
        },
        { path: ['returns', 'signalCutoff'], label: 'Signal cutoff', unit: 'm', kind: 'number', step: 0.1 },
        { path: ['intensity', 'scale'], label: 'Intensity scale', kind: 'number', step: 0.1 },
        { path: ['intensity', 'rangeFalloff'], label: 'Intensity falls as 1/r²', kind: 'bool' },
      ],
    },
    {
      title: 'Mount on the vehicle',
      fields: [
        { path: ['mount', 'xyz', 0], label: 'x (forward)', unit: 'm', kind: 'number', step: 0.1 },
        { path: ['mount', 'xyz', 1], label: 'y (left)', unit: 'm', kind: 'number', step: 0.1 },
        { path: ['mount', 'xyz', 2], label: 'z (up)', unit: 'm', kind: 'number', step: 0.1 },
        { path: ['mount', 'rpy', 0], label: 'Roll', unit: '°', kind: 'number', step: 1 },
        { path: ['mount', 'rpy', 1], label: 'Pitch', unit: '°', kind: 'number', step: 1 },
        { path: ['mount', 'rpy', 2], label: 'Yaw', unit: '°', kind: 'number', step: 1 },
      ],
    },
  ];
}

/** `groups[0].lasers[3].elevation` — the host's spelling of a path. */
export function pathKey(path: readonly (string | number)[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${p}` : p;
  return out;
}

export function getAt(obj: unknown, path: readonly (string | number)[]): unknown {
  let v: unknown = obj;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[k] : undefined;
  return v;
}

/** Set a value by path in place (containers along the path must exist). */
export function setAt(obj: unknown, path: readonly (string | number)[], value: unknown): void {
  let v = obj as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) v = v[path[i]!] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined) delete v[last];
  else v[last] = value;
}

export interface Issue {
  /** '' for an issue about the whole profile. */
  path: string;
  reason: string;
}

/** "a.b: reason; c[0].d: reason" → issues (text without a leading path is one general issue). */
export function parseIssues(message: string): Issue[] {
  return message
    .split(/;\s+(?=[A-Za-z_][\w.[\]]*:\s)/)
    .map((part) => {
      const m = /^([A-Za-z_][\w.[\]]*):\s+([\s\S]*)$/.exec(part.trim());
      return m ? { path: m[1]!, reason: m[2]! } : { path: '', reason: part.trim() };
    })
    .filter((i) => i.reason);
}

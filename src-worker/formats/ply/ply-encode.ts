/**
 * Writes a cloud as PLY: float x y z intensity, then the channels the cloud has — ushort ring,
 * double time, uchar class, uchar return. Time is written as absolute seconds (timeBase + the
 * relative float32 time) in a double, which any PLY reader understands and decodePly reads back
 * to the same relative times within 1 µs. The sensor pose, when the cloud has one, goes in a
 * `comment viewpoint tx ty tz qx qy qz qw` line (decodePly reads it; other readers ignore it).
 */
import type { DecodedCloud } from '../decoded-cloud';
import { formatFloat } from '../pcd/pcd-encode';
import type { PlyFormat, PlyType } from './ply-header';

type Cloud = Pick<DecodedCloud, 'count' | 'xyz' | 'intensity' | 'ring' | 'time' | 'timeBase' | 'viewpoint' | 'cls' | 'ret'>;

interface Column { name: string; type: PlyType; get: (i: number) => number }

const SIZE: Partial<Record<PlyType, number>> = { float32: 4, float64: 8, uint16: 2, uint8: 1 };
const PLY_NAME: Partial<Record<PlyType, string>> = { float32: 'float', float64: 'double', uint16: 'ushort', uint8: 'uchar' };

/** Binary little-endian by default (what every reader handles fastest). */
export function encodePly(cloud: Cloud, opts: { format?: PlyFormat } = {}): Uint8Array<ArrayBuffer> {
  const format = opts.format ?? 'binary_little_endian';
  const { count: n, xyz, intensity, ring, time, cls, ret } = cloud;
  const cols: Column[] = [
    { name: 'x', type: 'float32', get: (i) => xyz[3 * i]! },
    { name: 'y', type: 'float32', get: (i) => xyz[3 * i + 1]! },
    { name: 'z', type: 'float32', get: (i) => xyz[3 * i + 2]! },
    { name: 'intensity', type: 'float32', get: (i) => intensity[i]! },
  ];
  if (ring) cols.push({ name: 'ring', type: 'uint16', get: (i) => ring[i]! });
  if (time) cols.push({ name: 'time', type: 'float64', get: (i) => cloud.timeBase + time[i]! });
  if (cls) cols.push({ name: 'class', type: 'uint8', get: (i) => cls[i]! });
  if (ret) cols.push({ name: 'return', type: 'uint8', get: (i) => ret[i]! });

  const header = [
    'ply',
    `format ${format} 1.0`,
    'comment written by Thicket',
    ...(cloud.viewpoint ? [`comment viewpoint ${cloud.viewpoint.map((v) => String(v)).join(' ')}`] : []),
    `element vertex ${n}`,
    ...cols.map((c) => `property ${PLY_NAME[c.type]} ${c.name}`),
    'end_header',
    '',
  ].join('\n');
  const head = new TextEncoder().encode(header);

  if (format === 'ascii') {
    const rows: string[] = [];
    const fmt = (c: Column, v: number): string => (c.type === 'float32' ? formatFloat(v) : c.type === 'float64' ? formatDouble(v) : String(v));
    for (let i = 0; i < n; i++) rows.push(cols.map((c) => fmt(c, c.get(i))).join(' '));
    const body = new TextEncoder().encode(rows.length ? rows.join('\n') + '\n' : '');
    const out = new Uint8Array(head.length + body.length);
    out.set(head);
    out.set(body, head.length);
    return out;
  }

  const le = format === 'binary_little_endian';
  const record = cols.reduce((s, c) => s + SIZE[c.type]!, 0);
  const out = new Uint8Array(head.length + n * record);
  out.set(head);
  const dv = new DataView(out.buffer);
  let at = head.length;
  for (const c of cols) {
    const o0 = at;
    for (let i = 0, o = o0; i < n; i++, o += record) {
      const v = c.get(i);
      switch (c.type) {
        case 'float32': dv.setFloat32(o, v, le); break;
        case 'float64': dv.setFloat64(o, v, le); break;
        case 'uint16': dv.setUint16(o, v, le); break;
        default: dv.setUint8(o, v);
      }
    }
    at += SIZE[c.type]!;
  }
  return out;
}

/** Shortest decimal that reads back as the same double; nan/inf as C writers spell them. */
function formatDouble(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  return String(x);
}

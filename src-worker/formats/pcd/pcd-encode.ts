import type { DecodedCloud } from '../decoded-cloud';
import { lzfCompress } from './lzf';
import type { PcdData } from './pcd-header';

type Cloud = Pick<DecodedCloud, 'count' | 'xyz' | 'intensity' | 'ring' | 'time' | 'viewpoint' | 'cls'>;

interface Column { name: string; size: number; type: 'F' | 'U'; get: (i: number) => number }

/**
 * Writes a cloud as PCD v0.7: x y z intensity (float32), then ring (uint16), time (float32
 * seconds, relative as in DecodedCloud) and label (uint32: the point's class, as PCL's
 * PointXYZL names it; docs/labeling.md) when the cloud has them. Ascii values are written with
 * the fewest digits that read back to the same float32, so every form round-trips exactly.
 */
export function encodePcd(cloud: Cloud, data: PcdData): Uint8Array<ArrayBuffer> {
  const { count: n, xyz, intensity, ring, time, cls } = cloud;
  const cols: Column[] = [
    { name: 'x', size: 4, type: 'F', get: (i) => xyz[3 * i]! },
    { name: 'y', size: 4, type: 'F', get: (i) => xyz[3 * i + 1]! },
    { name: 'z', size: 4, type: 'F', get: (i) => xyz[3 * i + 2]! },
    { name: 'intensity', size: 4, type: 'F', get: (i) => intensity[i]! },
  ];
  if (ring) cols.push({ name: 'ring', size: 2, type: 'U', get: (i) => ring[i]! });
  if (time) cols.push({ name: 'time', size: 4, type: 'F', get: (i) => time[i]! });
  if (cls) cols.push({ name: 'label', size: 4, type: 'U', get: (i) => cls[i]! });

  // PCD's VIEWPOINT puts the quaternion's w first.
  const v = cloud.viewpoint ?? [0, 0, 0, 0, 0, 0, 1];
  const header = [
    '# .PCD v0.7 - Point Cloud Data file format',
    'VERSION 0.7',
    `FIELDS ${cols.map((c) => c.name).join(' ')}`,
    `SIZE ${cols.map((c) => c.size).join(' ')}`,
    `TYPE ${cols.map((c) => c.type).join(' ')}`,
    `COUNT ${cols.map(() => 1).join(' ')}`,
    `WIDTH ${n}`,
    'HEIGHT 1',
    `VIEWPOINT ${[v[0], v[1], v[2], v[6], v[3], v[4], v[5]].map((x) => String(x ?? 0)).join(' ')}`,
    `POINTS ${n}`,
    `DATA ${data}`,
    '',
  ].join('\n');
  const head = new TextEncoder().encode(header);

  if (data === 'ascii') {
    const rows: string[] = [];
    for (let i = 0; i < n; i++) rows.push(cols.map((c) => (c.type === 'F' ? formatFloat(c.get(i)) : String(c.get(i)))).join(' '));
    return concat(head, new TextEncoder().encode(rows.length ? rows.join('\n') + '\n' : ''));
  }

  const record = cols.reduce((s, c) => s + c.size, 0);
  const body = new Uint8Array(n * record);
  const dv = new DataView(body.buffer);
  let colStart = 0;
  for (const c of cols) {
    // Row-major for binary; column-major (one block per field) for binary_compressed, as PCL.
    const [base, stride] = data === 'binary' ? [colStart, record] : [n * colStart, c.size];
    for (let i = 0, o = base; i < n; i++, o += stride) {
      if (c.type === 'F') dv.setFloat32(o, c.get(i), true);
      else if (c.size === 4) dv.setUint32(o, c.get(i), true);
      else dv.setUint16(o, c.get(i), true);
    }
    colStart += c.size;
  }
  if (data === 'binary') return concat(head, body);
  const packed = lzfCompress(body);
  const sizes = new Uint8Array(8);
  new DataView(sizes.buffer).setUint32(0, packed.length, true);
  new DataView(sizes.buffer).setUint32(4, body.length, true);
  return concat(head, sizes, packed);
}

/** Shortest decimal that reads back as the same float32; nan/inf spelled as PCL writes them. */
export function formatFloat(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const f = Math.fround(x);
  if (Object.is(f, -0)) return '-0';
  for (let p = 6; p < 9; p++) {
    const s = f.toPrecision(p);
    if (Math.fround(Number(s)) === f) return String(Number(s));
  }
  return String(Number(f.toPrecision(9)));
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

/**
 * SICK 2D scanners' CoLa-B telegrams as a Wireshark-style JSON export of TCP payloads (an array
 * of `{_source: {layers: {tcp: {"tcp.payload": "02:02:…", Timestamps: {"tcp.time_relative"}}}}}`
 * entries, as the sick_scan_xd emulator's test data): each `sSN LMDscandata` telegram is one scan,
 * decoded into one packet of planar rays.
 *
 * A telegram is STX (02 02 02 02), a big-endian uint32 length, the payload and a checksum byte.
 * LMDscandata's payload (SICK, *Telegram listing: LMS1xx, LMS5xx, TiM5xx/7xx*, binary CoLa-B):
 * version u16, device number u16, serial u32, status 2 B, telegram counter u16, scan counter u16,
 * time since start-up u32 (µs), time of transmission u32, inputs 2 B, outputs 2 B, reserved 2 B,
 * scanning frequency u32 (1/100 Hz), measurement frequency u32, encoders u16 (× 6 B), 16-bit
 * channels u16, each: a 5-character name ("DIST1", "RSSI1"), scale f32, offset f32, start angle
 * i32 (1/10000°), angular step u16 (1/10000°), count u16, then count u16 values. A distance of 0
 * is no return (a miss). SICK counts angles from the scanner's right (0°) through its front (90°);
 * Thicket's sensor frame has x forward, so a ray at SICK angle a points at a − 90°, in the x-y plane.
 */
import { DecodeError } from '../decode-error';
import type { DecodedPacket } from '../log-source';

export interface SickScan {
  /** Capture time (s, the JSON's relative clock). */
  time: number;
  scanHz: number;
  startDeg: number;
  stepDeg: number;
  /** Metres; NaN for no return. */
  range: Float32Array;
  /** RSSI where the telegram carries it, else 0. */
  intensity: Float32Array;
}

const SCAN_PREFIX = 'sSN LMDscandata ';

interface Payload {
  time: number;
  bytes: Uint8Array;
  entry: number;
}

function payloadsOf(text: string, name: string): Payload[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new DecodeError(name, `not JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(doc)) throw new DecodeError(name, 'expected a JSON array of captured TCP segments (_source.layers.tcp)');
  const out: Payload[] = [];
  doc.forEach((entry: unknown, k) => {
    const tcp = (entry as { _source?: { layers?: { tcp?: Record<string, unknown> } } })?._source?.layers?.tcp;
    const hex = tcp?.['tcp.payload'];
    if (typeof hex !== 'string') return;
    if (!/^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2})*$/.test(hex)) throw new DecodeError(name, `entry ${k}: tcp.payload is not colon-separated hex bytes`);
    const bytes = new Uint8Array((hex.length + 1) / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(3 * i, 3 * i + 2), 16);
    const t = Number((tcp?.Timestamps as Record<string, unknown> | undefined)?.['tcp.time_relative']);
    out.push({ time: Number.isFinite(t) ? t : out.length, bytes, entry: k });
  });
  return out;
}

/** The scans of a file, in capture order. */
export function decodeSickJson(bytes: Uint8Array, name: string): SickScan[] {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const scans: SickScan[] = [];
  for (const p of payloadsOf(text, name)) {
    const b = p.bytes;
    for (let i = 0; i + 8 <= b.length; ) {
      if (!(b[i] === 2 && b[i + 1] === 2 && b[i + 2] === 2 && b[i + 3] === 2)) {
        i++;
        continue;
      }
      const n = ((b[i + 4]! << 24) | (b[i + 5]! << 16) | (b[i + 6]! << 8) | b[i + 7]!) >>> 0;
      const body = b.subarray(i + 8, Math.min(b.length, i + 8 + n));
      i += 8 + n + 1;
      if (body.length < SCAN_PREFIX.length || String.fromCharCode(...body.subarray(0, SCAN_PREFIX.length)) !== SCAN_PREFIX) continue;
      if (body.length < n) throw new DecodeError(name, `entry ${p.entry}: LMDscandata telegram cut short (${body.length} of ${n} bytes)`);
      scans.push(parseScan(body.subarray(SCAN_PREFIX.length), p.time, name, p.entry));
    }
  }
  if (scans.length === 0) throw new DecodeError(name, 'no LMDscandata telegram (sSN LMDscandata) in the captured TCP payloads');
  return scans;
}

function parseScan(b: Uint8Array, time: number, name: string, entry: number): SickScan {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let o = 0;
  const need = (k: number, what: string) => {
    if (o + k > b.length) throw new DecodeError(name, `entry ${entry}: LMDscandata ends inside ${what} (byte ${o} of ${b.length})`);
  };
  need(40, 'its header');
  o = 28; // version … reserved
  const scanHz = v.getUint32(o) / 100;
  o += 8;
  const encoders = v.getUint16(o);
  o += 2 + 6 * encoders;
  need(2, 'the channel count');
  const channels = v.getUint16(o);
  o += 2;
  let dist: { scale: number; offset: number; start: number; step: number; data: Uint16Array } | null = null;
  let rssi: Uint16Array | null = null;
  for (let c = 0; c < channels; c++) {
    need(21, `channel ${c + 1}'s header`);
    const label = String.fromCharCode(...b.subarray(o, o + 5));
    const scale = v.getFloat32(o + 5), offset = v.getFloat32(o + 9), start = v.getInt32(o + 13), step = v.getUint16(o + 17), count = v.getUint16(o + 19);
    o += 21;
    need(2 * count, `channel ${label}'s ${count} values`);
    const data = new Uint16Array(count);
    for (let k = 0; k < count; k++) data[k] = v.getUint16(o + 2 * k);
    o += 2 * count;
    if (label.startsWith('DIST') && !dist) dist = { scale, offset, start, step, data };
    else if (label.startsWith('RSSI') && !rssi) rssi = data;
  }
  if (!dist) throw new DecodeError(name, `entry ${entry}: LMDscandata has no DIST channel`);
  const n = dist.data.length;
  const range = new Float32Array(n), intensity = new Float32Array(n);
  const scale = Number.isFinite(dist.scale) && dist.scale > 0 ? dist.scale : 1;
  for (let k = 0; k < n; k++) {
    const d = dist.data[k]!;
    range[k] = d === 0 ? NaN : (d * scale + (Number.isFinite(dist.offset) ? dist.offset : 0)) / 1000;
    intensity[k] = rssi && rssi.length === n ? rssi[k]! : 0;
  }
  return { time, scanHz, startDeg: dist.start / 1e4, stepDeg: dist.step / 1e4, range, intensity };
}

/** One scan as a packet of planar rays (ring 0). */
export function sickScanPacket(s: SickScan): DecodedPacket {
  const n = s.range.length;
  const dir = new Float32Array(3 * n);
  const rayTime = new Float32Array(n);
  const period = s.scanHz > 0 ? 1 / s.scanHz : 0;
  for (let k = 0; k < n; k++) {
    const a = ((s.startDeg + k * s.stepDeg - 90) * Math.PI) / 180;
    dir[3 * k] = Math.cos(a);
    dir[3 * k + 1] = Math.sin(a);
    // Firing times across the scanned sector at the mirror's rate.
    rayTime[k] = (period * (k * s.stepDeg)) / 360;
  }
  return { time: s.time, count: n, dir, range: s.range, intensity: s.intensity, rayTime, ring: new Uint16Array(n), ret: null, recordsMisses: true };
}

import type { SensorProfile } from '../../../src-common/sensor-profile';
import { DecodeError } from '../decode-error';
import { allocateSensorRays, type SensorRays } from '../sensor-rays';
import { IDENTITY_POSE, type PacketChunk } from '../../../src-common/packets';

/**
 * Velodyne UDP packets (VLP-16, VLP-32C, HDL-32E, HDL-64E S2/S3): the 1206-byte data packet and the
 * 512-byte position packet with its $GPRMC sentence.
 *
 * Data packet: 12 blocks of 100 bytes (flag 0xFFEE upper / 0xFFDD HDL-64E lower block, written
 * as bytes EE FF / DD FF; azimuth uint16 LE in 0.01°; 32 × (distance uint16 LE in 2 mm units,
 * intensity uint8)), then the GPS timestamp (uint32 LE, µs past the hour) and two factory bytes:
 * return mode (0x37 strongest, 0x38 last, 0x39 dual) and product id (0x21 HDL-32E, 0x22 VLP-16,
 * ...). The HDL-64E has no factory bytes (status bytes instead); it is recognised by its lower
 * blocks.
 *
 * Azimuth convention: Velodyne's azimuth turns clockwise seen from above, 0 along the sensor's
 * forward axis (+y of the Velodyne manual). Thicket's sensor frame is x forward, y left, z up,
 * azimuth counter-clockwise from +x, so a ray's azimuth is −(Velodyne azimuth) + the laser's
 * azimuthOffset (the calibration's rot_correction, as the ROS driver applies it:
 * x = r cos el cos(θ − rot), y = −r cos el sin(θ − rot)).
 *
 * VLP-32C (product id 0x28): 32 channels per block, one firing sequence per block every
 * 55.296 µs, the channels fired in pairs 2.304 µs apart (VLP32C_TIMING; a profile carries it as
 * laser time offsets), and distances in 4 mm units (VLP-32C manual; nebula's VLP32.yaml says
 * distance_resolution 0.004).
 *
 * Azimuth range: the VLP-16 and HDL-32E manuals give a block's azimuth as 0–35999 hundredths of
 * a degree. A block outside it (HDL-32E firmware writes 36000 now and then, veloview's monterey
 * capture) carries no azimuth the manual defines, so its rays are dropped, as Foxglove's
 * velodyne-cloud does, and counted (`invalidBlocks`); interpolation skips it.
 */

export const VELODYNE_DATA_BYTES = 1206;
export const VELODYNE_POSITION_BYTES = 512;
const BLOCKS = 12;
const BLOCK_BYTES = 100;
const CHANNELS = 32;
const UPPER = 0xeeff; // bytes FF EE, read little-endian
const LOWER = 0xddff;
const DISTANCE_UNIT = 0.002; // m
const VLP32C_DISTANCE_UNIT = 0.004; // m
/** One past the manuals' last azimuth (35999, 0.01° units): this and above mark a block to drop. */
export const INVALID_AZIMUTH = 36000;
export const VLP32C_PRODUCT_ID = 0x28;
/** VLP-32C firing: pairs of channels (0–1, 2–3, …) 2.304 µs apart, one sequence per 55.296 µs block. */
export const VLP32C_TIMING = { pairSpacing: 2.304e-6, sequencePeriod: 55.296e-6, sequencesPerPacket: 12 } as const;

export type VelodyneModel = 'vlp16' | 'hdl32e' | 'hdl64e';
export type VelodyneReturnMode = 'strongest' | 'last' | 'dual' | 'unknown';

export const VELODYNE_PRODUCTS: Readonly<Record<number, string>> = {
  0x21: 'HDL-32E',
  0x22: 'VLP-16',
  0x23: 'VLP-32A',
  0x24: 'VLP-16 Hi-Res',
  0x28: 'VLP-32C',
  0x31: 'Velarray',
  0xa1: 'VLS-128',
};

export interface VelodyneDataPacket {
  /** GPS timestamp: seconds past the hour. */
  timestamp: number;
  returnMode: VelodyneReturnMode;
  /** Raw factory bytes (meaningless for the HDL-64E, which has status bytes there). */
  returnModeByte: number;
  productId: number;
  /** Blocks with the 0xDDFF (HDL-64E lower) flag. */
  lowerBlocks: number;
  /** Metres per raw distance unit: 0.004 for the VLP-32C, else 0.002. */
  distanceUnit: number;
  /** Per block: true for an upper (0xEEFF) block. */
  upper: boolean[];
  /** Per block, 0.01° units, 0..35999; INVALID_AZIMUTH for a block outside that range (its rays are dropped). */
  azimuth: Uint16Array<ArrayBuffer>;
  /** Blocks whose raw azimuth was outside the manuals' 0–35999. */
  invalidBlocks: number;
  /** 12 × 32 raw distances (2 mm units; 0 = no return). */
  distance: Uint16Array<ArrayBuffer>;
  intensity: Uint8Array<ArrayBuffer>;
}

export function isVelodyneDataPacket(payload: Uint8Array): boolean {
  return payload.length === VELODYNE_DATA_BYTES && payload[0] === 0xff && (payload[1] === 0xee || payload[1] === 0xdd);
}

/** Decodes one data packet; `offset` is the payload's byte offset in the file (for errors). */
export function decodeVelodyneData(payload: Uint8Array, name: string, offset = 0, into?: VelodyneDataPacket): VelodyneDataPacket {
  if (payload.length !== VELODYNE_DATA_BYTES) {
    throw new DecodeError(name, `Velodyne data packet at byte ${offset} has ${payload.length} bytes, expected ${VELODYNE_DATA_BYTES}`, { offset });
  }
  const dv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  // `into`: a packet decoded before whose arrays are reused (a capture's import decodes
  // hundreds of thousands of packets; fresh arrays for each cost more than the decoding).
  const azimuth = into?.azimuth ?? new Uint16Array(BLOCKS);
  const distance = into?.distance ?? new Uint16Array(BLOCKS * CHANNELS);
  const intensity = into?.intensity ?? new Uint8Array(BLOCKS * CHANNELS);
  const upper: boolean[] = into?.upper ?? [];
  upper.length = 0;
  let lowerBlocks = 0, invalidBlocks = 0;
  for (let b = 0; b < BLOCKS; b++) {
    const o = b * BLOCK_BYTES;
    const flag = dv.getUint16(o, true);
    if (flag !== UPPER && flag !== LOWER) {
      throw new DecodeError(name, `Velodyne block ${b} at byte ${offset + o}: flag 0x${flag.toString(16)} is neither 0xeeff nor 0xddff`, { offset: offset + o });
    }
    upper.push(flag === UPPER);
    if (flag === LOWER) lowerBlocks++;
    const az = dv.getUint16(o + 2, true);
    if (az >= INVALID_AZIMUTH) invalidBlocks++;
    azimuth[b] = az >= INVALID_AZIMUTH ? INVALID_AZIMUTH : az;
    for (let c = 0; c < CHANNELS; c++) {
      const p = o + 4 + 3 * c;
      distance[b * CHANNELS + c] = dv.getUint16(p, true);
      intensity[b * CHANNELS + c] = payload[p + 2]!;
    }
  }
  const ts = dv.getUint32(1200, true);
  if (ts >= 3600e6) {
    throw new DecodeError(name, `Velodyne timestamp at byte ${offset + 1200}: ${ts} µs is not within the hour`, { offset: offset + 1200 });
  }
  const returnModeByte = payload[1204]!;
  const productId = payload[1205]!;
  let returnMode: VelodyneReturnMode = 'unknown';
  if (lowerBlocks === 0) {
    if (returnModeByte === 0x37) returnMode = 'strongest';
    else if (returnModeByte === 0x38) returnMode = 'last';
    else if (returnModeByte === 0x39) returnMode = 'dual';
  }
  // The HDL-64E has status bytes where the product id would be, so only all-upper packets count.
  const distanceUnit = lowerBlocks === 0 && productId === VLP32C_PRODUCT_ID ? VLP32C_DISTANCE_UNIT : DISTANCE_UNIT;
  return { timestamp: ts * 1e-6, returnMode, returnModeByte, productId, lowerBlocks, distanceUnit, upper, azimuth, invalidBlocks, distance, intensity };
}

/** Packet periods (s) in single-return mode: 24 × 55.296 µs (VLP-16), 12 × 46.08 µs (HDL-32E). */
const PERIOD: Record<'vlp16' | 'hdl32e', number> = { vlp16: 24 * 55.296e-6, hdl32e: 12 * 46.08e-6 };

/**
 * Which sensor sent the packet. The product byte is not reliable (early VLP-16 firmware writes
 * 0x21, the HDL-32E's id), so when the time between consecutive data packets is known
 * (`periodS`, from their GPS timestamps) the timing decides between VLP-16 and HDL-32E.
 * Null for other products (VLP-32C, VLS-128, ...): the VLP-32C's packet period (12 × 55.296 µs)
 * is within the timing test's reach of the HDL-32E's, so its product id is checked first; the
 * capture reader then takes the built-in vlp32c (or the unit's calibration, whose lasers carry
 * VLP32C_TIMING).
 */
export function velodyneModel(packet: VelodyneDataPacket, periodS?: number): VelodyneModel | null {
  if (packet.lowerBlocks > 0) return 'hdl64e';
  if (packet.productId === VLP32C_PRODUCT_ID) return null;
  if (periodS !== undefined && periodS > 0) {
    const dual = packet.returnMode === 'dual' ? 0.5 : 1;
    const v = Math.abs(Math.log(periodS / (PERIOD.vlp16 * dual)));
    const h = Math.abs(Math.log(periodS / (PERIOD.hdl32e * dual)));
    if (Math.min(v, h) < 0.2) return v < h ? 'vlp16' : 'hdl32e';
  }
  if (packet.productId === 0x21) return 'hdl32e';
  if (packet.productId === 0x22 || packet.productId === 0x24) return 'vlp16';
  return null;
}

/**
 * A Velodyne packet's rays: time after the packet's timestamp; ring = laser id, an index over
 * the profile's groups in order; ret 0 = only or first return (dual: the odd block's, "last"),
 * 1 = second (dual: the even block's).
 */
export interface VelodyneRays extends SensorRays {
  /** Encoder azimuth of the ray in Velodyne's clockwise degrees (interpolated per firing). */
  azimuthDeg: Float32Array<ArrayBuffer>;
}

/** Scratch for velodyneRays' per-block azimuth steps (never escapes the call). */
const GAP = new Float64Array(BLOCKS);

/** Block azimuth steps above this (5°) are not a spinning head's; interpolation then stops. */
const MAX_GAP = 500;

const LASER_STRIDE = 8;

/**
 * Per-laser constants of `profile` in ring order (cos/sin of elevation and azimuth offset, time,
 * range, vertical and horizontal offsets): build once per log and pass to velodyneRays, which
 * otherwise builds it per packet. Rebuild it after changing the profile.
 */
export function velodyneLaserTable(profile: SensorProfile): Float64Array {
  const lasers = profile.groups.flatMap((g) => g.lasers);
  const t = new Float64Array(LASER_STRIDE * lasers.length);
  lasers.forEach((l, i) => {
    t.set([Math.cos(l.elevation), Math.sin(l.elevation), Math.cos(l.azimuthOffset), Math.sin(l.azimuthOffset),
      l.timeOffset, l.rangeOffset, l.verticalOffset, l.horizontalOffset], LASER_STRIDE * i);
  });
  return t;
}

/**
 * Turns a decoded packet into rays using `profile` (a Velodyne profile whose groups match the
 * blocks: one group of 16 lasers (VLP-16, two firing sequences per block), one of 32 (HDL-32E, VLP-32C),
 * or two of 32 (HDL-64E upper, lower)). Per ray: azimuth = block azimuth + the step to the next
 * block's azimuth × (firing time within the block / block duration); range = distance × 2 mm
 * (VLP-32C: 4 mm) + the laser's rangeOffset; the calibration's vertical/horizontal offsets move
 * the point, and the ray is the direction and distance from the sensor origin to that point. In
 * dual mode the second return is dropped when it equals the first or is empty.
 */
export function velodyneRays(packet: VelodyneDataPacket, profile: SensorProfile, table?: Float64Array, out?: VelodyneRays): VelodyneRays {
  const groups = profile.groups;
  const g0 = groups[0];
  if (!g0 || (g0.lasers.length !== 16 && g0.lasers.length !== 32)) {
    throw new RangeError(`profile ${profile.id}: a Velodyne block holds 32 channels; the first laser group needs 16 or 32 lasers`);
  }
  if (packet.lowerBlocks > 0 && groups[1]?.lasers.length !== 32) {
    throw new RangeError(`profile ${profile.id}: the packet has HDL-64E lower blocks but the profile has no second group of 32 lasers`);
  }
  const dual = packet.returnMode === 'dual';
  const hdl64 = packet.lowerBlocks > 0;
  const n = BLOCKS * CHANNELS;
  // `out`: rays of an earlier packet whose arrays (of full capacity) are overwritten; the result
  // then holds `count` valid entries in those arrays.
  const reuse = out !== undefined && out.range.length >= n;
  const { dir, range, intensity, time, ring, ret } = reuse ? out : allocateSensorRays(n);
  const azimuthDeg = reuse ? out.azimuthDeg : new Float32Array(n);
  const az = packet.azimuth;
  const step = (a: number, b: number): number => (b - a + 36000) % 36000;

  // Azimuth step per firing from each block to the next valid block with a different azimuth
  // (the last ones reuse the previous step; blocks outside the azimuth range are skipped, their
  // firings counted, and dropped).
  const firingOf = (b: number): number => (dual || hdl64 ? b >> 1 : b);
  const gap = GAP;
  gap.fill(0);
  for (let b = 0; b < BLOCKS; b++) {
    let g = -1;
    for (let c = b + 1; c < BLOCKS && az[b]! < INVALID_AZIMUTH; c++) {
      if (az[c]! >= INVALID_AZIMUTH) continue;
      const s = step(az[b]!, az[c]!);
      if (s !== 0) { g = s / Math.max(1, firingOf(c) - firingOf(b)); break; }
    }
    gap[b] = g;
  }
  for (let b = BLOCKS - 1, last = 0; b >= 0; b--) {
    if (gap[b]! < 0) gap[b] = last;
    else last = gap[b]!;
  }
  let prev = 0;
  for (let b = 0; b < BLOCKS; b++) {
    if (gap[b]! > 0) prev = gap[b]!;
    else gap[b] = prev;
    if (gap[b]! > MAX_GAP) gap[b] = 0;
  }

  const tab = table ?? velodyneLaserTable(profile);
  if (tab.length !== LASER_STRIDE * groups.reduce((n, g) => n + g.lasers.length, 0)) {
    throw new RangeError(`profile ${profile.id}: the laser table was built for another profile`);
  }
  const CENTI_DEG = Math.PI / 18000;

  let k = 0;
  for (let b = 0; b < BLOCKS; b++) {
    if (az[b]! >= INVALID_AZIMUTH) continue;
    const upper = packet.upper[b]!;
    const group = upper ? g0 : groups[1]!;
    const ringBase = upper ? 0 : g0.lasers.length;
    const nl = group.lasers.length;
    const seqs = CHANNELS / nl;
    const period = group.firingPeriod;
    // HDL-64E S2/S3 fire an upper and a lower block together, one pair per upper-block period
    // (an approximation of the real timing: the profile's 3:1 lower period describes the S1).
    const blockDuration = seqs * (hdl64 ? g0.firingPeriod : period);
    // Dual returns (and HDL-64E upper/lower pairs) put two blocks at each firing.
    const firing = dual || hdl64 ? b >> 1 : b;
    const second = dual && (b & 1) === 1;
    const blockTime = firing * blockDuration;
    const azB = az[b]!;
    const rate = blockDuration > 0 ? gap[b]! / blockDuration : 0; // 0.01° per second
    // a = azimuthOffset − block azimuth − interpolation step, by angle addition: one cos/sin pair
    // per block, the (below 5°) step by its Taylor series (error below 1e-9).
    const cB = Math.cos(azB * CENTI_DEG), sB = -Math.sin(azB * CENTI_DEG);
    const base = b * CHANNELS;
    for (let c = 0; c < CHANNELS; c++) {
      const d = packet.distance[base + c]!;
      if (second) {
        const first = packet.distance[base - CHANNELS + c]!;
        if (d === 0 || d === first) continue;
      }
      const li = c < nl ? c : c - nl;
      const ri = ringBase + li;
      const o = LASER_STRIDE * ri;
      const tIn = (c < nl ? 0 : period) + tab[o + 4]!;
      const azC = azB + rate * tIn; // 0.01°, clockwise
      const t = -rate * tIn * CENTI_DEG, t2 = t * t;
      const cT = 1 - t2 / 2 + (t2 * t2) / 24 - (t2 * t2 * t2) / 720, sT = t * (1 - t2 / 6 + (t2 * t2) / 120);
      const cBT = cB * cT - sB * sT, sBT = sB * cT + cB * sT;
      const cO = tab[o + 2]!, sO = tab[o + 3]!;
      const ca = cBT * cO - sBT * sO, sa = sBT * cO + cBT * sO;
      const ce = tab[o]!, se = tab[o + 1]!;
      let dx = ce * ca, dy = ce * sa, dz = se;
      let r = NaN;
      if (d !== 0) {
        r = d * packet.distanceUnit + tab[o + 5]!;
        const vo = tab[o + 6]!, ho = tab[o + 7]!;
        if (vo !== 0 || ho !== 0) {
          const px = r * dx - vo * se * ca - ho * sa;
          const py = r * dy - vo * se * sa + ho * ca;
          const pz = r * dz + vo * ce;
          const m = Math.sqrt(px * px + py * py + pz * pz);
          if (m > 0) { dx = px / m; dy = py / m; dz = pz / m; r = m; }
        }
      }
      dir[3 * k] = dx;
      dir[3 * k + 1] = dy;
      dir[3 * k + 2] = dz;
      range[k] = r;
      intensity[k] = packet.intensity[base + c]!;
      time[k] = blockTime + tIn;
      ring[k] = ri;
      ret[k] = second ? 1 : 0;
      azimuthDeg[k] = azC >= 36000 ? (azC - 36000) / 100 : azC / 100;
      k++;
    }
  }
  if (k === n || reuse) return { count: k, dir, range, intensity, time, ring, ret, azimuthDeg };
  return {
    count: k,
    dir: dir.slice(0, 3 * k),
    range: range.slice(0, k),
    intensity: intensity.slice(0, k),
    time: time.slice(0, k),
    ring: ring.slice(0, k),
    ret: ret.slice(0, k),
    azimuthDeg: azimuthDeg.slice(0, k),
  };
}

/**
 * One packet's rays as a one-packet PacketChunk: time = `opts.time` (default the packet's GPS
 * seconds past the hour), pose identity unless given; the ray arrays are the chunk's own.
 */
export function velodynePacketChunk(
  packet: VelodyneDataPacket,
  profile: SensorProfile,
  opts: { packetStart?: number; time?: number; pose?: readonly number[]; table?: Float64Array } = {},
): PacketChunk {
  const r = velodyneRays(packet, profile, opts.table);
  return {
    packetStart: opts.packetStart ?? 0,
    packetCount: 1,
    rayCount: r.count,
    packetTime: new Float64Array([opts.time ?? packet.timestamp]),
    packetPose: new Float64Array(opts.pose ?? IDENTITY_POSE),
    rayStart: new Uint32Array([0, r.count]),
    rayDir: r.dir,
    rayRange: r.range,
    rayIntensity: r.intensity,
    rayTime: r.time,
    rayRing: r.ring,
    rayReturn: r.ret,
    rayObject: new Uint32Array(r.count),
    rayClass: new Uint8Array(r.count),
  };
}

// ---- position packets ----

export interface Gprmc {
  /** UTC time of day, seconds. */
  time: number;
  /** 'A' (valid) or 'V'. */
  valid: boolean;
  /** Degrees, north and east positive. */
  lat: number;
  lon: number;
  speedKnots: number;
  /** Course over ground, degrees clockwise from true north; NaN when empty. */
  headingDeg: number;
  /** ddmmyy as written, '' when absent. */
  date: string;
}

export interface VelodynePosition {
  /** GPS timestamp: seconds past the hour. */
  timestamp: number;
  /** The NMEA sentence, '' when the packet has none. */
  nmea: string;
  /** The parsed $GPRMC / $GNRMC, null when absent or not parseable (bad checksum, missing fields). */
  fix: Gprmc | null;
}

/** A 512-byte datagram (units without GPS send them too, with the NMEA field empty). */
export function isVelodynePositionPacket(payload: Uint8Array): boolean {
  return payload.length === VELODYNE_POSITION_BYTES;
}

function findRmc(p: Uint8Array): number {
  for (let i = 0; i + 6 <= p.length; i++) {
    if (p[i] === 0x24 && p[i + 1] === 0x47 && (p[i + 2] === 0x50 || p[i + 2] === 0x4e) && p[i + 3] === 0x52 && p[i + 4] === 0x4d && p[i + 5] === 0x43) return i;
  }
  return -1;
}

/** Decodes a 512-byte position packet: timestamp at byte 198, NMEA from byte 206. */
export function decodeVelodynePosition(payload: Uint8Array, name: string, offset = 0): VelodynePosition {
  if (payload.length !== VELODYNE_POSITION_BYTES) {
    throw new DecodeError(name, `Velodyne position packet at byte ${offset} has ${payload.length} bytes, expected ${VELODYNE_POSITION_BYTES}`, { offset });
  }
  const dv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const ts = dv.getUint32(198, true);
  const at = findRmc(payload);
  if (at < 0) return { timestamp: ts * 1e-6, nmea: '', fix: null };
  let end = at;
  while (end < payload.length && payload[end] !== 0x0d && payload[end] !== 0x0a && payload[end] !== 0) end++;
  let nmea = '';
  for (let i = at; i < end; i++) nmea += String.fromCharCode(payload[i]!);
  return { timestamp: ts * 1e-6, nmea, fix: parseGprmc(nmea) };
}

/** Parses `$GPRMC,hhmmss.ss,A,ddmm.mmmm,N,dddmm.mmmm,W,knots,course,ddmmyy,...*CS`; null when malformed. */
export function parseGprmc(sentence: string): Gprmc | null {
  const star = sentence.lastIndexOf('*');
  const body = star >= 0 ? sentence.slice(1, star) : sentence.slice(1);
  if (star >= 0) {
    let x = 0;
    for (let i = 0; i < body.length; i++) x ^= body.charCodeAt(i);
    const cs = Number.parseInt(sentence.slice(star + 1, star + 3), 16);
    if (cs !== x) return null;
  }
  const f = body.split(',');
  if (f.length < 10 || (f[0] !== 'GPRMC' && f[0] !== 'GNRMC')) return null;
  const t = f[1]!;
  if (!/^\d{6}(\.\d+)?$/.test(t)) return null;
  const time = Number(t.slice(0, 2)) * 3600 + Number(t.slice(2, 4)) * 60 + Number(t.slice(4));
  const angle = (v: string, hemi: string, degDigits: number, pos: string, neg: string): number => {
    if (!/^\d+(\.\d+)?$/.test(v) || (hemi !== pos && hemi !== neg)) return NaN;
    const deg = Number(v.slice(0, degDigits)) + Number(v.slice(degDigits)) / 60;
    return hemi === neg ? -deg : deg;
  };
  const lat = angle(f[3]!, f[4]!, 2, 'N', 'S');
  const lon = angle(f[5]!, f[6]!, 3, 'E', 'W');
  const speedKnots = f[7] === '' ? NaN : Number(f[7]);
  const headingDeg = f[8] === '' ? NaN : Number(f[8]);
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || Number.isNaN(speedKnots) && f[7] !== '') return null;
  if (f[8] !== '' && !Number.isFinite(headingDeg)) return null;
  return { time, valid: f[2] === 'A', lat, lon, speedKnots, headingDeg, date: f[9] ?? '' };
}

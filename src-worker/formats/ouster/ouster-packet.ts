import { DecodeError } from '../decode-error';
import type { DecodeContext, DecodedPacket, LogSourceInfo } from '../log-source';
import { parseOusterMetadata, type OusterMetadata, type OusterUdpProfile } from './ouster-metadata';
import type { FuzzTarget } from '../fuzz-target';
import { allocateSensorRays, type SensorRays } from '../sensor-rays';

/**
 * Ouster lidar UDP packets (OS0/OS1/OS2, legacy firmware and fw 2.x+ "eUDP" profiles), as the
 * Ouster SDK's packet_format (ouster_client/src/parsing.cpp) lays them out; all little-endian.
 *
 * LEGACY: no packet header; `columns_per_packet` columns of [timestamp u64 ns, measurement id
 * u16, frame id u16, encoder count u32] + pixels of 12 bytes (range u32 low 20 bits in mm,
 * reflectivity u16, signal u16, near-IR u16, unused u16) + a u32 status (all ones = valid).
 * eUDP profiles: a 32-byte packet header (packet type u16 = 1, frame id u16, init id u24,
 * serial u40, ...), columns of [timestamp u64 ns, measurement id u16, status u16 (bit 0 =
 * valid)] + pixels, and a 32-byte footer. Pixels:
 *   RNG19_RFL8_SIG16_NIR16       12 B: range u32 low 19 bits mm; reflectivity u8 at 4; signal; NIR
 *   RNG19_RFL8_SIG16_NIR16_DUAL  16 B: range 19 bits + reflectivity u8 at 3; second return at 4..7; signals; NIR
 *   RNG15_RFL8_NIR8 (low band.)   4 B: range u16 low 15 bits in 8 mm units; reflectivity u8 at 2; NIR u8
 * Datagrams are told apart by size: the lidar packet size follows from the metadata, IMU
 * packets are 48 bytes; anything else is skipped and counted.
 *
 * Rays follow the SDK's XYZ formula (make_xyz_lut): for pixel row i of the column with
 * measurement id m, encoder angle θe = 2π(1 − m/W), beam azimuth θa = −beam_azimuth_angles[i],
 * altitude φ = beam_altitude_angles[i]; unit vector u = (cos(θe+θa)cos φ, sin(θe+θa)cos φ, sin φ);
 * point in the lidar frame p = r·u + (n cos θe − d u_x, n sin θe − d u_y, −d u_z + n_z) with n, n_z
 * the beam-to-lidar translation (lidar_origin_to_beam_origin_mm) and d = |(n, n_z)|; then the
 * lidar → sensor transform. Frame: Ouster's "sensor frame" has x pointing away from the
 * connector, y left, z up (its "lidar frame" is the one turned 180° about z, x towards the
 * connector). That is Thicket's sensor frame (x forward, y left, z up, azimuth counter-clockwise
 * from +x), so the points are used as the SDK's sensor-frame output, unchanged; a ray is the
 * direction and distance from the sensor origin to the point (as velodyne-packet does with its
 * offsets). A miss (range 0) keeps the beam's direction with range NaN. Intensity is the
 * reflectivity field (every profile has it; the low-bandwidth one has no signal).
 */

export const OUSTER_IMU_PACKET_BYTES = 48;
const TWO_PI = 2 * Math.PI;

export interface OusterPacketFormat {
  profile: OusterUdpProfile;
  legacy: boolean;
  dual: boolean;
  columns: number;
  pixels: number;
  headerBytes: number;
  columnHeaderBytes: number;
  pixelBytes: number;
  columnFooterBytes: number;
  footerBytes: number;
  columnBytes: number;
  packetBytes: number;
}

interface PixelLayout {
  bytes: number;
  rangeMask: number;
  /** mm per range count. */
  rangeUnit: number;
  reflOffset: number;
  reflBytes: 1 | 2;
  /** Second return's range / reflectivity offsets, -1 without one. */
  range2Offset: number;
  refl2Offset: number;
}

const PIXELS: Record<OusterUdpProfile, PixelLayout> = {
  LEGACY: { bytes: 12, rangeMask: 0xfffff, rangeUnit: 1, reflOffset: 4, reflBytes: 2, range2Offset: -1, refl2Offset: -1 },
  RNG19_RFL8_SIG16_NIR16: { bytes: 12, rangeMask: 0x7ffff, rangeUnit: 1, reflOffset: 4, reflBytes: 1, range2Offset: -1, refl2Offset: -1 },
  RNG19_RFL8_SIG16_NIR16_DUAL: { bytes: 16, rangeMask: 0x7ffff, rangeUnit: 1, reflOffset: 3, reflBytes: 1, range2Offset: 4, refl2Offset: 7 },
  RNG15_RFL8_NIR8: { bytes: 4, rangeMask: 0x7fff, rangeUnit: 8, reflOffset: 2, reflBytes: 1, range2Offset: -1, refl2Offset: -1 },
};

export function ousterPacketFormat(meta: Pick<OusterMetadata, 'udpProfileLidar' | 'columnsPerPacket' | 'pixelsPerColumn'>): OusterPacketFormat {
  const legacy = meta.udpProfileLidar === 'LEGACY';
  const px = PIXELS[meta.udpProfileLidar];
  const headerBytes = legacy ? 0 : 32;
  const columnHeaderBytes = legacy ? 16 : 12;
  const columnFooterBytes = legacy ? 4 : 0;
  const footerBytes = legacy ? 0 : 32;
  const columnBytes = columnHeaderBytes + meta.pixelsPerColumn * px.bytes + columnFooterBytes;
  return {
    profile: meta.udpProfileLidar,
    legacy,
    dual: px.range2Offset >= 0,
    columns: meta.columnsPerPacket,
    pixels: meta.pixelsPerColumn,
    headerBytes,
    columnHeaderBytes,
    pixelBytes: px.bytes,
    columnFooterBytes,
    footerBytes,
    columnBytes,
    packetBytes: headerBytes + meta.columnsPerPacket * columnBytes + footerBytes,
  };
}

/** One lidar packet's fields. Pixel arrays are column-major: index = column · pixels + row. */
export interface OusterLidarPacket {
  /** 1 (lidar data) for eUDP profiles, 0 for LEGACY (which has no header). */
  packetType: number;
  /** The header's frame id (eUDP) or the first valid column's (LEGACY; 0 when none is valid). */
  frameId: number;
  /** 0 for LEGACY. */
  initId: number;
  serial: number;
  timestampNs: BigUint64Array;
  measurementId: Uint16Array;
  /** LEGACY: per column frame id and encoder count (0 for eUDP). */
  columnFrameId: Uint16Array;
  encoder: Uint32Array;
  status: Uint32Array;
  valid: Uint8Array;
  /** mm (LB: already × 8); 0 = no return. */
  rangeMm: Uint32Array;
  reflectivity: Uint16Array;
  rangeMm2: Uint32Array | null;
  reflectivity2: Uint16Array | null;
}

/**
 * Decodes one lidar packet; `offset` is the payload's byte offset in the file (for errors).
 * `columnsPerFrame` bounds the measurement ids of valid columns.
 */
export function decodeOusterLidarPacket(payload: Uint8Array, fmt: OusterPacketFormat, name: string, offset = 0, columnsPerFrame = 0x10000): OusterLidarPacket {
  if (payload.length !== fmt.packetBytes) {
    throw new DecodeError(name, `Ouster lidar packet at byte ${offset} has ${payload.length} bytes, expected ${fmt.packetBytes} (${fmt.profile})`, { offset });
  }
  const dv = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const C = fmt.columns, P = fmt.pixels;
  const px = PIXELS[fmt.profile];
  let packetType = 0, frameId = 0, initId = 0, serial = 0;
  if (!fmt.legacy) {
    packetType = dv.getUint16(0, true);
    if (packetType !== 1) throw new DecodeError(name, `Ouster packet at byte ${offset}: packet type ${packetType}, expected 1 (lidar data)`, { offset });
    frameId = dv.getUint16(2, true);
    initId = dv.getUint32(4, true) & 0xffffff;
    serial = dv.getUint32(7, true) + (payload[11]! * 2 ** 32);
  }
  const timestampNs = new BigUint64Array(C);
  const measurementId = new Uint16Array(C);
  const columnFrameId = new Uint16Array(C);
  const encoder = new Uint32Array(C);
  const status = new Uint32Array(C);
  const valid = new Uint8Array(C);
  const rangeMm = new Uint32Array(C * P);
  const reflectivity = new Uint16Array(C * P);
  const rangeMm2 = fmt.dual ? new Uint32Array(C * P) : null;
  const reflectivity2 = fmt.dual ? new Uint16Array(C * P) : null;
  let firstValid = true;
  for (let c = 0; c < C; c++) {
    const o = fmt.headerBytes + c * fmt.columnBytes;
    timestampNs[c] = dv.getBigUint64(o, true);
    const mid = dv.getUint16(o + 8, true);
    measurementId[c] = mid;
    if (fmt.legacy) {
      columnFrameId[c] = dv.getUint16(o + 10, true);
      encoder[c] = dv.getUint32(o + 12, true);
      status[c] = dv.getUint32(o + fmt.columnBytes - 4, true);
    } else {
      status[c] = dv.getUint16(o + 10, true);
      columnFrameId[c] = frameId;
    }
    if ((status[c]! & 1) === 0) continue;
    valid[c] = 1;
    if (mid >= columnsPerFrame) {
      throw new DecodeError(name, `Ouster column ${c} at byte ${offset + o + 8}: measurement id ${mid} is not below ${columnsPerFrame} columns per frame`, { offset: offset + o + 8 });
    }
    if (fmt.legacy && firstValid) frameId = columnFrameId[c]!;
    firstValid = false;
    const p0 = o + fmt.columnHeaderBytes;
    for (let r = 0; r < P; r++) {
      const p = p0 + r * px.bytes;
      const k = c * P + r;
      const raw = px.bytes === 4 ? dv.getUint16(p, true) : dv.getUint32(p, true);
      rangeMm[k] = (raw & px.rangeMask) * px.rangeUnit;
      reflectivity[k] = px.reflBytes === 2 ? dv.getUint16(p + px.reflOffset, true) : payload[p + px.reflOffset]!;
      if (rangeMm2) {
        rangeMm2[k] = dv.getUint32(p + px.range2Offset, true) & px.rangeMask;
        reflectivity2![k] = payload[p + px.refl2Offset]!;
      }
    }
  }
  return { packetType, frameId, initId, serial, timestampNs, measurementId, columnFrameId, encoder, status, valid, rangeMm, reflectivity, rangeMm2, reflectivity2 };
}

/**
 * Per-beam and per-column constants of the XYZ formula for `meta`: build once per log.
 * Layout: beams (cos φ, sin φ, cos θa, sin θa) × P, then encoder (cos θe, sin θe) × W.
 */
export interface OusterBeamTable {
  pixels: number;
  columnsPerFrame: number;
  beam: Float64Array;
  encoder: Float64Array;
  /** Lidar → sensor rotation (row-major 3×3) and translation (mm). */
  rot: Float64Array;
  trans: Float64Array;
  /** Beam-to-lidar translation: radial n, vertical n_z, and d = |(n, n_z)| (mm). */
  n: number;
  nz: number;
  d: number;
}

export function ousterBeamTable(meta: OusterMetadata): OusterBeamTable {
  const P = meta.pixelsPerColumn, W = meta.columnsPerFrame;
  const beam = new Float64Array(4 * P);
  for (let i = 0; i < P; i++) {
    const phi = (meta.beamAltitudeDeg[i]! * Math.PI) / 180;
    const ta = (-meta.beamAzimuthDeg[i]! * Math.PI) / 180;
    beam.set([Math.cos(phi), Math.sin(phi), Math.cos(ta), Math.sin(ta)], 4 * i);
  }
  const encoder = new Float64Array(2 * W);
  for (let m = 0; m < W; m++) {
    const te = TWO_PI * (1 - m / W);
    encoder[2 * m] = Math.cos(te);
    encoder[2 * m + 1] = Math.sin(te);
  }
  const t = meta.lidarToSensor, b = meta.beamToLidar;
  const n = b[3]!, nz = b[11]!;
  return {
    pixels: P,
    columnsPerFrame: W,
    beam,
    encoder,
    rot: Float64Array.from([t[0]!, t[1]!, t[2]!, t[4]!, t[5]!, t[6]!, t[8]!, t[9]!, t[10]!]),
    trans: Float64Array.from([t[3]!, t[7]!, t[11]!]),
    n,
    nz,
    // The SDK takes the beam-origin distance along the beam as n unless the origin is also raised.
    d: nz !== 0 ? Math.hypot(n, nz) : n,
  };
}

/**
 * An Ouster packet's rays: ring = pixel row; time in seconds after the first valid column's
 * timestamp; ret 1 = the dual profile's second return.
 */
export interface OusterRays extends SensorRays {
  /** Measurement id of the ray's column (for destaggering). */
  column: Uint16Array<ArrayBuffer>;
  /** The first valid column's timestamp (ns); null when no column is valid (count 0). */
  t0: bigint | null;
}

/**
 * The rays of a decoded packet in the sensor frame, raw beam order (ring = pixel row): per valid
 * column, each row's first return, then (dual profile) its second return when it has one.
 * Invalid columns give no rays.
 */
export function ousterRays(packet: OusterLidarPacket, table: OusterBeamTable): OusterRays {
  const C = packet.valid.length, P = table.pixels;
  let nValid = 0;
  let t0: bigint | null = null;
  for (let c = 0; c < C; c++) {
    if (packet.valid[c]) {
      nValid++;
      if (t0 === null) t0 = packet.timestampNs[c]!;
    }
  }
  let n = nValid * P;
  const r2 = packet.rangeMm2;
  if (r2) for (let c = 0; c < C; c++) if (packet.valid[c]) for (let r = 0; r < P; r++) if (r2[c * P + r]! > 0) n++;
  const { dir, range, intensity, time, ring, ret } = allocateSensorRays(n);
  const column = new Uint16Array(n);
  const R = table.rot, T = table.trans, B = table.beam, E = table.encoder;
  const nb = table.n, nz = table.nz, d = table.d;
  let k = 0;
  const emit = (mm: number, ux: number, uy: number, uz: number, ox: number, oy: number, oz: number): void => {
    if (mm === 0) {
      dir[3 * k] = R[0]! * ux + R[1]! * uy + R[2]! * uz;
      dir[3 * k + 1] = R[3]! * ux + R[4]! * uy + R[5]! * uz;
      dir[3 * k + 2] = R[6]! * ux + R[7]! * uy + R[8]! * uz;
      range[k] = NaN;
      return;
    }
    const lx = mm * ux + ox, ly = mm * uy + oy, lz = mm * uz + oz;
    const sx = R[0]! * lx + R[1]! * ly + R[2]! * lz + T[0]!;
    const sy = R[3]! * lx + R[4]! * ly + R[5]! * lz + T[1]!;
    const sz = R[6]! * lx + R[7]! * ly + R[8]! * lz + T[2]!;
    const m = Math.sqrt(sx * sx + sy * sy + sz * sz);
    dir[3 * k] = sx / m;
    dir[3 * k + 1] = sy / m;
    dir[3 * k + 2] = sz / m;
    range[k] = m / 1000;
  };
  for (let c = 0; c < C; c++) {
    if (!packet.valid[c]) continue;
    const mid = packet.measurementId[c]!;
    const cE = E[2 * mid]!, sE = E[2 * mid + 1]!;
    const dt = Number(packet.timestampNs[c]! - t0!) / 1e9;
    for (let r = 0; r < P; r++) {
      const cp = B[4 * r]!, sp = B[4 * r + 1]!, cA = B[4 * r + 2]!, sA = B[4 * r + 3]!;
      const ux = (cE * cA - sE * sA) * cp, uy = (sE * cA + cE * sA) * cp, uz = sp;
      const ox = cE * nb - ux * d, oy = sE * nb - uy * d, oz = -uz * d + nz;
      const i = c * P + r;
      for (let ri = 0; ri < (r2 ? 2 : 1); ri++) {
        const mm = ri === 0 ? packet.rangeMm[i]! : r2![i]!;
        if (ri === 1 && mm === 0) continue;
        emit(mm, ux, uy, uz, ox, oy, oz);
        intensity[k] = ri === 0 ? packet.reflectivity[i]! : packet.reflectivity2![i]!;
        time[k] = dt;
        ring[k] = r;
        ret[k] = ri;
        column[k] = mid;
        k++;
      }
    }
  }
  return { count: k, dir, range, intensity, time, ring, ret, column, t0 };
}

/** A decoded packet with the Ouster frame id it belongs to. */
export interface OusterDecodedPacket extends DecodedPacket {
  frameId: number;
}

/**
 * Decodes the UDP datagrams of an Ouster capture (pcapUdpPackets' output) with its metadata:
 * one packet per lidar datagram that has a valid column. time = the first valid column's
 * timestamp (s, the sensor's clock); rayTime relative to it. IMU datagrams (48 bytes) and
 * datagrams of other sizes are skipped and counted; a capture with no lidar packet of the
 * metadata's size is a DecodeError (the metadata is likely for another configuration). A
 * packet from a sensor of another serial number than the metadata's is a DecodeError too.
 */
export function* ousterPackets(
  udp: Iterable<{ time: number; payload: Uint8Array; payloadOffset: number }>,
  meta: OusterMetadata,
  name: string,
  ctx?: DecodeContext,
): Generator<OusterDecodedPacket, LogSourceInfo> {
  const fmt = ousterPacketFormat(meta);
  const table = ousterBeamTable(meta);
  const serial = meta.serial !== undefined && /^\d+$/.test(meta.serial) ? Number(meta.serial) : 0;
  let datagrams = 0, lidar = 0, imu = 0, other = 0, invalidColumns = 0, emptyPackets = 0, initIdMismatch = 0, frames = 0, rays = 0;
  let firstOffset = -1, otherSize = -1, lastFrame = -1, firstFrame = -1;
  for (const u of udp) {
    if (++datagrams % 256 === 0) ctx?.checkCancelled();
    if (firstOffset < 0) firstOffset = u.payloadOffset;
    const len = u.payload.length;
    if (len !== fmt.packetBytes) {
      if (len === OUSTER_IMU_PACKET_BYTES) imu++;
      else {
        other++;
        if (otherSize < 0) otherSize = len;
      }
      continue;
    }
    lidar++;
    const p = decodeOusterLidarPacket(u.payload, fmt, name, u.payloadOffset, meta.columnsPerFrame);
    if (!fmt.legacy) {
      if (serial !== 0 && p.serial !== 0 && p.serial !== serial) {
        throw new DecodeError(name, `Ouster packet at byte ${u.payloadOffset + 7}: sensor serial ${p.serial}, but the metadata (${meta.name}) is for ${meta.serial}`, { offset: u.payloadOffset + 7 });
      }
      if (meta.initId !== undefined && p.initId !== meta.initId) initIdMismatch++;
    }
    const r = ousterRays(p, table);
    for (let c = 0; c < p.valid.length; c++) if (!p.valid[c]) invalidColumns++;
    if (r.t0 === null) {
      emptyPackets++;
      continue;
    }
    if (p.frameId !== lastFrame) {
      frames++;
      lastFrame = p.frameId;
      if (firstFrame < 0) firstFrame = p.frameId;
    }
    rays += r.count;
    yield {
      time: Number(r.t0) / 1e9,
      frameId: p.frameId,
      count: r.count,
      dir: r.dir,
      range: r.range,
      intensity: r.intensity,
      rayTime: r.time,
      ring: r.ring,
      ret: fmt.dual ? r.ret : null,
    };
  }
  if (lidar === 0) {
    throw new DecodeError(
      name,
      `no Ouster lidar packets: expected UDP datagrams of ${fmt.packetBytes} bytes (${fmt.profile}, ${fmt.columns} columns × ${fmt.pixels} pixels, from ${meta.name}); ` +
        `found ${datagrams} datagrams${otherSize >= 0 ? `, the first other one of ${otherSize} bytes` : ''}`,
      { offset: Math.max(0, firstOffset) },
    );
  }
  const notes: LogSourceInfo['notes'] = {
    udpProfile: fmt.profile,
    mode: `${meta.columnsPerFrame}x${meta.turnsPerSecond}`,
    metadataLayout: meta.layout,
    lidarPackets: lidar,
    imuPackets: imu,
    otherPackets: other,
    emptyPackets,
    invalidColumns,
    frames,
    firstFrameId: firstFrame,
    lastFrameId: lastFrame,
    rays,
  };
  if (initIdMismatch) notes.initIdMismatch = initIdMismatch;
  if (meta.serial) notes.serial = meta.serial;
  if (meta.firmware) notes.firmware = meta.firmware;
  return {
    format: 'ouster-pcap',
    sensor: meta.prodLine ?? `Ouster ${meta.pixelsPerColumn}-beam`,
    recordsMisses: true,
    notes,
  };
}

// ---- encoder (tests, fuzz samples) ----

export interface OusterColumnSpec {
  timestampNs: bigint;
  measurementId: number;
  /** LEGACY column frame id. */
  frameId?: number;
  encoder?: number;
  valid?: boolean;
  /** Per pixel, mm (LB: rounded down to 8 mm); 0 = no return. */
  rangeMm: ArrayLike<number>;
  reflectivity?: ArrayLike<number>;
  rangeMm2?: ArrayLike<number>;
  reflectivity2?: ArrayLike<number>;
}

/** Builds one lidar packet of `fmt` (the inverse of decodeOusterLidarPacket for the fields it reads). */
export function encodeOusterLidarPacket(fmt: OusterPacketFormat, columns: readonly OusterColumnSpec[], header: { frameId?: number; initId?: number; serial?: number } = {}): Uint8Array {
  if (columns.length !== fmt.columns) throw new RangeError(`expected ${fmt.columns} columns, got ${columns.length}`);
  const out = new Uint8Array(fmt.packetBytes);
  const dv = new DataView(out.buffer);
  const px = PIXELS[fmt.profile];
  if (!fmt.legacy) {
    dv.setUint16(0, 1, true);
    dv.setUint16(2, header.frameId ?? 0, true);
    dv.setUint32(4, (header.initId ?? 0) & 0xffffff, true);
    const s = header.serial ?? 0;
    dv.setUint32(7, s % 2 ** 32, true);
    out[11] = Math.floor(s / 2 ** 32) & 0xff;
  }
  columns.forEach((col, c) => {
    const o = fmt.headerBytes + c * fmt.columnBytes;
    dv.setBigUint64(o, col.timestampNs, true);
    dv.setUint16(o + 8, col.measurementId, true);
    const ok = col.valid ?? true;
    if (fmt.legacy) {
      dv.setUint16(o + 10, col.frameId ?? 0, true);
      dv.setUint32(o + 12, col.encoder ?? 0, true);
      dv.setUint32(o + fmt.columnBytes - 4, ok ? 0xffffffff : 0, true);
    } else dv.setUint16(o + 10, ok ? 1 : 0, true);
    for (let r = 0; r < fmt.pixels; r++) {
      const p = o + fmt.columnHeaderBytes + r * px.bytes;
      const raw = Math.floor((col.rangeMm[r] ?? 0) / px.rangeUnit) & px.rangeMask;
      if (px.bytes === 4) dv.setUint16(p, raw, true);
      else dv.setUint32(p, raw, true);
      const refl = col.reflectivity?.[r] ?? 0;
      if (px.reflBytes === 2) dv.setUint16(p + px.reflOffset, refl, true);
      else out[p + px.reflOffset] = refl;
      if (px.range2Offset >= 0) {
        const raw2 = (col.rangeMm2?.[r] ?? 0) & px.rangeMask;
        dv.setUint32(p + px.range2Offset, (dv.getUint32(p + px.range2Offset, true) & ~px.rangeMask) | raw2, true);
        out[p + px.refl2Offset] = col.reflectivity2?.[r] ?? 0;
      }
    }
  });
  return out;
}

/** A small metadata JSON (flat fw 2.x layout): `beams` beams, 512x10, `columnsPerPacket` columns per packet. */
export function sampleOusterMetadataJson(profile: OusterUdpProfile, beams = 8, columnsPerPacket = 4): string {
  const alt = Array.from({ length: beams }, (_, i) => 15 - (30 * i) / Math.max(1, beams - 1));
  const az = Array.from({ length: beams }, (_, i) => [3, 1, -1, -3][i % 4]!);
  return JSON.stringify({
    beam_altitude_angles: alt,
    beam_azimuth_angles: az,
    lidar_mode: '512x10',
    prod_line: 'OS-1-' + beams,
    prod_sn: '122201000998',
    initialization_id: 7109750,
    lidar_origin_to_beam_origin_mm: 15.806,
    lidar_to_sensor_transform: [-1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 36.18, 0, 0, 0, 1],
    data_format: { columns_per_frame: 512, columns_per_packet: columnsPerPacket, pixels_per_column: beams, pixel_shift_by_row: alt.map((_, i) => [9, 6, 3, 0][i % 4]), udp_profile_lidar: profile },
  }, null, 1);
}

/** One valid packet of `meta` with ranges 1–40 m (second returns on every third pixel). */
export function sampleOusterPacket(meta: OusterMetadata, frameId = 7, firstColumn = 16): Uint8Array {
  const fmt = ousterPacketFormat(meta);
  const cols: OusterColumnSpec[] = Array.from({ length: fmt.columns }, (_, c) => ({
    timestampNs: 1_000_000_000_000n + BigInt(c) * 97_656n,
    measurementId: (firstColumn + c) % meta.columnsPerFrame,
    frameId,
    valid: c !== 1,
    rangeMm: Array.from({ length: fmt.pixels }, (_, r) => (r % 5 === 4 ? 0 : 1000 + 2500 * ((r + c) % 16))),
    reflectivity: Array.from({ length: fmt.pixels }, (_, r) => (r * 13 + c) % 256),
    rangeMm2: Array.from({ length: fmt.pixels }, (_, r) => (r % 3 === 0 ? 45_000 + r : 0)),
    reflectivity2: Array.from({ length: fmt.pixels }, (_, r) => r),
  }));
  return encodeOusterLidarPacket(fmt, cols, { frameId, initId: meta.initId ?? 0, serial: meta.serial ? Number(meta.serial) : 0 });
}

function packetTarget(profile: OusterUdpProfile): FuzzTarget {
  let meta: OusterMetadata | null = null;
  const m = (): OusterMetadata => (meta ??= parseOusterMetadata(sampleOusterMetadataJson(profile), 'fuzz.json'));
  return {
    name: `ouster-packet ${profile}`,
    sample: () => sampleOusterPacket(m()),
    decode: (bytes) => {
      let rays = 0;
      const it = ousterPackets([{ time: 0, payload: bytes, payloadOffset: 0 }], m(), 'fuzz.pcap');
      for (let r = it.next(); ; r = it.next()) {
        if (r.done) return { rays, info: r.value };
        rays += r.value.count;
      }
    },
  };
}

/** Decoders for the fuzzer (the format's descriptor lists them): each decode returns or throws DecodeError. */
export const FUZZ_TARGETS: FuzzTarget[] = [
  packetTarget('LEGACY'),
  packetTarget('RNG19_RFL8_SIG16_NIR16'),
  packetTarget('RNG19_RFL8_SIG16_NIR16_DUAL'),
  packetTarget('RNG15_RFL8_NIR8'),
  {
    name: 'ouster-metadata',
    sample: () => new TextEncoder().encode(sampleOusterMetadataJson('RNG19_RFL8_SIG16_NIR16_DUAL')),
    decode: (bytes) => parseOusterMetadata(new TextDecoder().decode(bytes), 'fuzz.json'),
  },
];

/**
 * What a profile fires in one revolution (one scan for a planar scanner), packetised.
 *
 * Timing (profile.ts): group g fires a sequence every `firingPeriod` seconds from t = 0; laser i
 * of the sequence fires `timeOffset` after it. The head turns at `rotationHz`, so at time t the
 * encoder azimuth is `azimuthStart + ω t` (spin 'ccw', the default) or `azimuthEnd − ω t` ('cw'),
 * ω = 2π · rotationHz. A sequence is emitted when its encoder azimuth lies in the window
 * [azimuthStart, azimuthEnd] (always, for a full turn).
 *
 * Packets: a packet spans `sequencesPerPacket` firing periods of the fastest group and holds
 * every sequence (of any group) that starts inside it; a sequence never straddles two packets,
 * like the blocks of a Velodyne packet. Rays of a packet are in order of sequence start (ties:
 * group order), lasers in firing order. The revolution is `ceil(T / packetDuration)` packets,
 * the last one possibly shorter; the pattern then repeats: revolution r's packet p starts at
 * r·T + p·packetDuration (packetTime).
 *
 * Per ray: firing time relative to its packet's start, unit direction in the sensor frame
 * (cos el cos az, cos el sin az, sin el) with az = encoder azimuth + the laser's azimuthOffset,
 * beam origin (the calibration's offsets, as the Velodyne decoders apply them:
 * verticalOffset along the beam's "up" (−sin el cos az, −sin el sin az, cos el), horizontalOffset
 * along its "left" (−sin az, cos az, 0)), and ring = the laser's index over all groups in order.
 */
import type { SensorProfile } from '../../src-common/sensor-profile';
import { PROFILE_TIMING_EPS, encoderAzimuth, inAzimuthWindow, packetDurationOf, sequencesPerRevolution } from '../../src-common/profile-timing';

export interface ScanPattern {
  profileId: string;
  /** Seconds per revolution (1 / rotationHz). */
  revolutionDuration: number;
  packetDuration: number;
  packetsPerRevolution: number;
  rayCount: number;
  /** Rays of packet p are rayStart[p] .. rayStart[p+1]-1 (packetsPerRevolution + 1 entries). */
  rayStart: Uint32Array;
  /** Firing time relative to the start of the ray's packet (s). */
  time: Float32Array;
  /** Unit direction, sensor frame, 3 per ray. */
  dir: Float32Array;
  /** Beam origin, sensor frame (m), 3 per ray. */
  origin: Float32Array;
  ring: Uint16Array;
}

export interface PacketRays {
  /** The packet's index within its revolution. */
  index: number;
  /** Start time relative to the start of the first revolution (s). */
  startTime: number;
  count: number;
  time: Float32Array;
  dir: Float32Array;
  origin: Float32Array;
  ring: Uint16Array;
}

const EPS = PROFILE_TIMING_EPS;

interface Sequence {
  t: number;
  group: number;
  packet: number;
  az: number;
}

function sequences(profile: SensorProfile, packetDuration: number, packets: number): Sequence[] {
  const inWindow = inAzimuthWindow(profile);
  const out: Sequence[] = [];
  profile.groups.forEach((g, gi) => {
    const n = sequencesPerRevolution(profile, gi);
    for (let k = 0; k < n; k++) {
      const t = k * g.firingPeriod;
      const az = encoderAzimuth(profile, t);
      if (!inWindow(az)) continue;
      const packet = Math.min(packets - 1, Math.floor(t / packetDuration + EPS));
      out.push({ t, group: gi, packet, az });
    }
  });
  out.sort((a, b) => a.t - b.t || a.group - b.group);
  return out;
}


export function revolutionPattern(profile: SensorProfile): ScanPattern {
  const T = 1 / profile.rotationHz;
  const D = packetDurationOf(profile);
  const packets = Math.max(1, Math.ceil(T / D - EPS));
  const seqs = sequences(profile, D, packets);
  const ringBase: number[] = [];
  let lasers = 0;
  for (const g of profile.groups) {
    ringBase.push(lasers);
    lasers += g.lasers.length;
  }
  let rayCount = 0;
  for (const s of seqs) rayCount += profile.groups[s.group]!.lasers.length;

  const rayStart = new Uint32Array(packets + 1);
  const time = new Float32Array(rayCount);
  const dir = new Float32Array(rayCount * 3);
  const origin = new Float32Array(rayCount * 3);
  const ring = new Uint16Array(rayCount);

  let r = 0;
  let packet = 0;
  for (const s of seqs) {
    while (packet < s.packet) rayStart[++packet] = r;
    const g = profile.groups[s.group]!;
    const packetStart = s.packet * D;
    for (let li = 0; li < g.lasers.length; li++) {
      const l = g.lasers[li]!;
      const az = s.az + l.azimuthOffset;
      const ca = Math.cos(az);
      const sa = Math.sin(az);
      const ce = Math.cos(l.elevation);
      const se = Math.sin(l.elevation);
      time[r] = s.t + l.timeOffset - packetStart;
      dir[3 * r] = ce * ca;
      dir[3 * r + 1] = ce * sa;
      dir[3 * r + 2] = se;
      const vo = l.verticalOffset;
      const ho = l.horizontalOffset;
      origin[3 * r] = -vo * se * ca - ho * sa;
      origin[3 * r + 1] = -vo * se * sa + ho * ca;
      origin[3 * r + 2] = vo * ce;
      ring[r] = ringBase[s.group]! + li;
      r++;
    }
  }
  while (packet < packets) rayStart[++packet] = r;

  return { profileId: profile.id, revolutionDuration: T, packetDuration: D, packetsPerRevolution: packets, rayCount, rayStart, time, dir, origin, ring };
}

/** Start time of packet `index` counted from the first revolution's start (index may exceed one revolution). */
export function packetTime(pattern: ScanPattern, index: number): number {
  const rev = Math.floor(index / pattern.packetsPerRevolution);
  const p = index - rev * pattern.packetsPerRevolution;
  return rev * pattern.revolutionDuration + p * pattern.packetDuration;
}

/** Views (no copies) of packet `index`'s rays; indices past one revolution wrap (the pattern repeats). */
export function packetRays(pattern: ScanPattern, index: number): PacketRays {
  const n = pattern.packetsPerRevolution;
  const p = ((index % n) + n) % n;
  const a = pattern.rayStart[p]!;
  const b = pattern.rayStart[p + 1]!;
  return {
    index: p,
    startTime: packetTime(pattern, index),
    count: b - a,
    time: pattern.time.subarray(a, b),
    dir: pattern.dir.subarray(3 * a, 3 * b),
    origin: pattern.origin.subarray(3 * a, 3 * b),
    ring: pattern.ring.subarray(a, b),
  };
}

export interface DecimatedPattern {
  /** Unit directions (sensor frame), 3 per kept ray. */
  dir: Float32Array;
  ring: Uint16Array;
  /** Rays in the full revolution. */
  totalRays: number;
  /** Every `stride`-th firing of each laser is kept. */
  stride: number;
}

/**
 * At most `maxRays` rays of a revolution for display: every k-th firing of each laser, so each
 * ring keeps its shape (a plain stride over rays would drop whole lasers of a sequence).
 */
export function decimatePattern(pattern: ScanPattern, maxRays: number): DecimatedPattern {
  const seen = new Uint32Array(65536);
  for (let i = 0; i < pattern.rayCount; i++) seen[pattern.ring[i]!]!++;
  const counts = [...seen].filter((c) => c > 0);
  const most = Math.max(1, ...counts);
  const keptAt = (k: number) => counts.reduce((n, c) => n + Math.ceil(c / k), 0);
  // The smallest stride whose kept rays fit (each ring keeps ceil(count / stride) rays).
  let stride = Math.max(1, Math.floor(pattern.rayCount / Math.max(1, maxRays)));
  while (stride < most && keptAt(stride) > maxRays) stride++;
  const kept = keptAt(stride);
  seen.fill(0);
  const dir = new Float32Array(kept * 3);
  const ring = new Uint16Array(kept);
  let j = 0;
  for (let i = 0; i < pattern.rayCount; i++) {
    const rg = pattern.ring[i]!;
    if (seen[rg]!++ % stride !== 0) continue;
    dir[3 * j] = pattern.dir[3 * i]!;
    dir[3 * j + 1] = pattern.dir[3 * i + 1]!;
    dir[3 * j + 2] = pattern.dir[3 * i + 2]!;
    ring[j] = rg;
    j++;
  }
  return { dir, ring, totalRays: pattern.rayCount, stride };
}

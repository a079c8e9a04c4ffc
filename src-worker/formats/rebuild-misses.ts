/**
 * Formats that keep only hits (PointCloud2, PCD, PLY, LAS, KITTI .bin) lose what a learner
 * needs most in vegetation: the rays that went through. With the sensor's profile they can be
 * put back: a spinning lidar fires every laser at every azimuth step of its pattern, so each
 * (laser, azimuth step) cell of the sweep that holds no hit was a ray that returned nothing.
 *
 * A hit's laser is its ring where the format has one, else the laser of nearest elevation. Per
 * laser, a gap between successive hits of k + 1 azimuth steps held k misses, placed evenly in
 * the gap. Misses are added only inside the azimuth span the hits cover (a scan cropped to a
 * camera's field of view has no misses outside it); a sweep covering more than 330° counts as a
 * full revolution.
 *
 * A packet that records misses already (an organised scan's empty cells, kitti/kitti-organised.ts;
 * a VelodyneScan's packets, flagged `recordsMisses` even when every channel returned) is left as
 * it is. A scan whose lasers fire more finely than the profile says — an OS1-64 in
 * 2048-column mode read with a 1024-column calibration — would get half its misses, so it is
 * refused: per laser (of scans whose file gives rings), the median azimuth gap between successive
 * hits must be at least 3/4 of the profile's step (dual returns, at a gap of ~0, are not counted).
 */
import type { DecodedPacket } from './log-source';
import { RING_UNKNOWN } from '../../src-common/packets';
import type { SensorProfile } from '../../src-common/sensor-profile';
import { azimuthStep } from '../../src-common/profile-timing';
import { DecodeError } from './decode-error';

const TWO_PI = 2 * Math.PI;
const FULL_SWEEP = (330 / 360) * TWO_PI;

interface Laser {
  elevation: number;
  azimuthOffset: number;
  /** Azimuth step between its firings (rad). */
  step: number;
}

function lasersOf(profile: SensorProfile): Laser[] {
  return profile.groups.flatMap((g, gi) => {
    const step = azimuthStep(profile, gi);
    return g.lasers.map((l) => ({ elevation: l.elevation, azimuthOffset: l.azimuthOffset, step }));
  });
}

/** True when the profile describes a spinning lidar whose misses can be rebuilt. */
export function canRebuildMisses(profile: SensorProfile): boolean {
  return profile.kind === 'spinning' && profile.groups.length > 0;
}

/**
 * A packet holding the hits of `p` (one sweep) plus a miss ray (NaN range) for every empty
 * (laser, azimuth step) cell inside the hits' azimuth span. Returns `p` unchanged when it has
 * no hits or the profile is not a spinning lidar.
 */
export function rebuildMisses(p: DecodedPacket, profile: SensorProfile, name = 'scan'): DecodedPacket {
  if (!canRebuildMisses(profile) || p.count === 0 || p.recordsMisses) return p;
  for (let i = 0; i < p.count; i++) if (Number.isNaN(p.range[i]!)) return p;
  const lasers = lasersOf(profile);
  const byElevation = lasers.map((l, i) => ({ e: l.elevation, i })).sort((a, b) => a.e - b.e);
  // Each hit's encoder azimuth (its direction's azimuth less its laser's offset), per laser.
  const perLaser: number[][] = lasers.map(() => []);
  const all = new Float64Array(p.count);
  for (let i = 0; i < p.count; i++) {
    const dx = p.dir[3 * i]!, dy = p.dir[3 * i + 1]!, dz = p.dir[3 * i + 2]!;
    const a = wrap(Math.atan2(dy, dx));
    all[i] = a;
    let ring = p.ring ? p.ring[i]! : RING_UNKNOWN;
    if (ring === RING_UNKNOWN || ring >= lasers.length) ring = nearestLaser(byElevation, Math.asin(Math.max(-1, Math.min(1, dz))));
    perLaser[ring]!.push(wrap(a - lasers[ring]!.azimuthOffset));
  }
  // Azimuth span of the sweep: the largest gap between sorted hit azimuths is what it does not cover.
  all.sort();
  let gapStart = all[all.length - 1]! - TWO_PI, gap = all[0]! - gapStart;
  for (let i = 1; i < all.length; i++) {
    const g = all[i]! - all[i - 1]!;
    if (g > gap) { gap = g; gapStart = all[i - 1]!; }
  }
  const full = TWO_PI - gap >= FULL_SWEEP;
  // Only rings the file gives tell a laser's hits apart (nearest-elevation guesses merge lasers).
  if (knownRings(p, lasers.length)) checkStep(perLaser, lasers, profile, name);
  const spanStart = wrap(gapStart + gap);
  const spanEnd = spanStart + (TWO_PI - gap);

  // Misses of a laser: between successive hits (in azimuth), a gap of k + 1 azimuth steps held
  // k rays that returned nothing. Counting gaps, not a fixed grid of cells, is robust to a real
  // head turning slightly faster or slower than the profile says.
  const missAz: number[] = [];
  const missLaser: number[] = [];
  const fill = (li: number, from: number, to: number, open: boolean): void => {
    const step = lasers[li]!.step;
    const k = Math.round((to - from) / step) - (open ? 0 : 1);
    for (let j = 1; j <= k; j++) {
      missAz.push(from + ((to - from) * j) / (k + 1));
      missLaser.push(li);
    }
  };
  perLaser.forEach((az, li) => {
    const off = lasers[li]!.azimuthOffset;
    az.sort((a, b) => a - b);
    if (full) {
      if (az.length === 0) { fill(li, 0, TWO_PI, true); return; }
      for (let i = 1; i < az.length; i++) fill(li, az[i - 1]!, az[i]!, false);
      fill(li, az[az.length - 1]!, az[0]! + TWO_PI, false);
    } else {
      // Hits of this laser inside the sweep's span, unrolled so the span does not wrap.
      const inSpan = az.map((a) => { let u = wrap(a + off); if (u < spanStart) u += TWO_PI; return u - off; }).sort((a, b) => a - b);
      const lo = spanStart - off, hi = spanEnd - off;
      if (inSpan.length === 0) { fill(li, lo, hi, true); return; }
      fill(li, lo, inSpan[0]!, true);
      for (let i = 1; i < inSpan.length; i++) fill(li, inSpan[i - 1]!, inSpan[i]!, false);
      fill(li, inSpan[inSpan.length - 1]!, hi, true);
    }
  });
  const misses = missAz.length;
  if (misses === 0) return p;

  const n = p.count + misses;
  const dir = new Float32Array(3 * n);
  const range = new Float32Array(n);
  const intensity = new Float32Array(n);
  const ring = new Uint16Array(n);
  dir.set(p.dir.subarray(0, 3 * p.count));
  range.set(p.range.subarray(0, p.count));
  intensity.set(p.intensity.subarray(0, p.count));
  if (p.ring) ring.set(p.ring.subarray(0, p.count));
  else ring.fill(RING_UNKNOWN, 0, p.count);
  const copy = <T extends Float32Array | Uint8Array | Uint32Array>(a: T | null | undefined, make: (n: number) => T): T | null => {
    if (!a) return null;
    const out = make(n);
    out.set(a.subarray(0, p.count) as never);
    return out;
  };
  const rayTime = copy(p.rayTime, (k) => new Float32Array(k));
  const ret = copy(p.ret, (k) => new Uint8Array(k));
  const object = copy(p.object, (k) => new Uint32Array(k));
  const cls = copy(p.cls, (k) => new Uint8Array(k));
  for (let k = 0, i = p.count; k < misses; k++, i++) {
    const li = missLaser[k]!;
    const l = lasers[li]!;
    const a = missAz[k]! + l.azimuthOffset;
    const ce = Math.cos(l.elevation);
    dir[3 * i] = ce * Math.cos(a);
    dir[3 * i + 1] = ce * Math.sin(a);
    dir[3 * i + 2] = Math.sin(l.elevation);
    range[i] = NaN;
    ring[i] = li; // firing time, return number, object, class stay 0: not recorded for misses
  }
  return { ...p, count: n, dir, range, intensity, ring, rayTime, ret, object, cls };
}

/** True when the file gave (nearly) every hit a valid ring. */
function knownRings(p: DecodedPacket, lasers: number): boolean {
  if (!p.ring) return false;
  let known = 0;
  for (let i = 0; i < p.count; i++) if (p.ring[i]! !== RING_UNKNOWN && p.ring[i]! < lasers) known++;
  return known >= 0.9 * p.count;
}

/** Refuses a scan fired more finely than the profile (its median hit gap below 3/4 of a step). */
function checkStep(perLaser: number[][], lasers: Laser[], profile: SensorProfile, name: string): void {
  const ratios: number[] = [];
  perLaser.forEach((az, li) => {
    const step = lasers[li]!.step;
    const sorted = [...az].sort((a, b) => a - b);
    const gaps: number[] = [];
    for (let i = 1; i < sorted.length; i++) {
      const g = sorted[i]! - sorted[i - 1]!;
      if (g > 0.1 * step) gaps.push(g);
    }
    if (gaps.length >= 16) {
      gaps.sort((a, b) => a - b);
      ratios.push(gaps[gaps.length >> 1]! / step);
    }
  });
  if (ratios.length === 0) return;
  ratios.sort((a, b) => a - b);
  const ratio = ratios[ratios.length >> 1]!;
  if (ratio < 0.75) {
    const stepDeg = (lasers[0]!.step * 180) / Math.PI;
    throw new DecodeError(
      name,
      `the scan's hits lie ${(ratio * stepDeg).toFixed(3)}° apart in azimuth, but profile "${profile.id}" fires every ${stepDeg.toFixed(3)}° ` +
        `(${Math.round(1 / ratio)}× finer than the profile): rebuilding its misses would give ${Math.round(100 * ratio)} % of them. ` +
        'Use the profile of its column mode (e.g. os1-64-2048 for a 2048-column OS1-64; --model os1-64-2048 on a calibration) or import with --no-misses',
    );
  }
}

function wrap(a: number): number {
  const w = a % TWO_PI;
  return w < 0 ? w + TWO_PI : w;
}

function nearestLaser(byElevation: { e: number; i: number }[], elevation: number): number {
  let lo = 0, hi = byElevation.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (byElevation[mid]!.e < elevation) lo = mid;
    else hi = mid;
  }
  return Math.abs(byElevation[lo]!.e - elevation) <= Math.abs(byElevation[hi]!.e - elevation) ? byElevation[lo]!.i : byElevation[hi]!.i;
}

/**
 * Test doubles for the simulation modes: a minimal sensor profile, ray sources, and analytic
 * SceneQuery implementations (planes with optional half-plane limits, Gaussian ellipsoids and
 * voxels, ground planes), so the modes are tested independently of the BVH.
 */
import { ElementKind, type ElementHit, type SceneQuery, type SurfaceHit } from '../../../src-worker/scene/scene-query';
import type { SensorProfile } from '../../../src-common/sensor-profile';
import type { PacketRays, PacketRaySource } from '../../../src-worker/simulate/types';

export function makeProfile(over: Partial<Omit<SensorProfile, 'range' | 'beam' | 'returns' | 'intensity'>> & {
  range?: Partial<SensorProfile['range']>;
  beam?: Partial<SensorProfile['beam']>;
  returns?: Partial<SensorProfile['returns']>;
  intensity?: Partial<SensorProfile['intensity']>;
} = {}): SensorProfile {
  const base: SensorProfile = {
    id: 'test',
    name: 'Test',
    description: '',
    builtin: false,
    kind: 'spinning',
    groups: [{ name: 'all', firingPeriod: 1e-4, lasers: [{ elevation: 0, azimuthOffset: 0, timeOffset: 0, rangeOffset: 0, verticalOffset: 0, horizontalOffset: 0 }] }],
    rotationHz: 10,
    azimuthStart: 0,
    azimuthEnd: 2 * Math.PI,
    range: { min: 0.5, max: 100, resolution: 0, noiseSigma: 0 },
    beam: { shape: 'circular', divergenceH: 0.003, divergenceV: 0.003 },
    returns: { mode: 'strongest', signalCutoff: 1 },
    intensity: { model: 'lambertian', scale: 1, rangeFalloff: false },
    mount: [0, 0, 0, 0, 0, 0, 1],
    sequencesPerPacket: 1,
    source: 'test',
  };
  return {
    ...base,
    ...over,
    range: { ...base.range, ...over.range },
    beam: { ...base.beam, ...over.beam },
    returns: { ...base.returns, ...over.returns },
    intensity: { ...base.intensity, ...over.intensity },
  };
}

/** The same rays in every packet; packet p starts at p · period. */
export function fixedRays(
  dirs: number[][],
  opts: { period?: number; timeOffsets?: number[]; rings?: number[]; origins?: number[][] } = {},
): PacketRaySource {
  const n = dirs.length;
  const dir = Float64Array.from(dirs.flat());
  const time = Float64Array.from(opts.timeOffsets ?? new Array<number>(n).fill(0));
  const ring = Uint16Array.from(opts.rings ?? dirs.map((_, i) => i));
  const origin = opts.origins ? Float64Array.from(opts.origins.flat()) : null;
  const period = opts.period ?? 0.001;
  const rays: PacketRays = { startTime: 0, count: n, dir, time, ring, origin };
  return (p) => {
    rays.startTime = p * period;
    return rays;
  };
}

/** A direction from azimuth and elevation (rad), sensor frame. */
export function dirAt(az: number, el = 0): number[] {
  return [Math.cos(el) * Math.cos(az), Math.cos(el) * Math.sin(az), Math.sin(el)];
}

export interface TestPlane {
  /** Unit normal and offset: n·x = c. */
  n: [number, number, number];
  c: number;
  reflectance?: number;
  objectId?: number;
  classId?: number;
  /** Optional limit: the plane exists only where it returns true. */
  where?: (x: number, y: number, z: number) => boolean;
}

function newElementHit(): ElementHit {
  return { kind: ElementKind.Surface, t: 0, mahalanobis: 0, pHit: 1, objectId: 0, classId: 0, muT: 0, varT: 0, mean: new Float64Array(3), chol: new Float64Array(6) };
}

/** Opaque planes (walls): closestSurface, and traverse as Surface elements with p_hit 1. */
export function planeScene(planes: TestPlane[]): SceneQuery & { calls: number } {
  const intersect = (p: TestPlane, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): number => {
    const dn = p.n[0] * dx + p.n[1] * dy + p.n[2] * dz;
    if (Math.abs(dn) < 1e-15) return Infinity;
    const t = (p.c - (p.n[0] * ox + p.n[1] * oy + p.n[2] * oz)) / dn;
    if (p.where && !p.where(ox + t * dx, oy + t * dy, oz + t * dz)) return Infinity;
    return t;
  };
  const scene = {
    calls: 0,
    closestSurface(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, out: SurfaceHit): boolean {
      scene.calls++;
      let best = Infinity, bp: TestPlane | null = null;
      for (const p of planes) {
        const t = intersect(p, ox, oy, oz, dx, dy, dz);
        if (t > tmin && t <= tmax && t < best) {
          best = t;
          bp = p;
        }
      }
      if (!bp) return false;
      const dn = bp.n[0] * dx + bp.n[1] * dy + bp.n[2] * dz;
      const s = dn > 0 ? -1 : 1; // face the ray's origin
      out.t = best;
      out.nx = s * bp.n[0]; out.ny = s * bp.n[1]; out.nz = s * bp.n[2];
      out.reflectance = bp.reflectance ?? 1;
      out.objectId = bp.objectId ?? 1;
      out.classId = bp.classId ?? 1;
      return true;
    },
    traverse(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, visit: (h: ElementHit) => boolean): void {
      const hits = planes
        .map((p) => ({ p, t: intersect(p, ox, oy, oz, dx, dy, dz) }))
        .filter((h) => h.t > tmin && h.t <= tmax)
        .sort((a, b) => a.t - b.t);
      const e = newElementHit();
      for (const h of hits) {
        e.kind = ElementKind.Surface; e.t = h.t; e.muT = h.t; e.varT = 0; e.pHit = 1;
        e.objectId = h.p.objectId ?? 1; e.classId = h.p.classId ?? 1;
        if (visit(e)) return;
      }
    },
  };
  return scene;
}

export interface TestGaussian {
  kind: typeof ElementKind.Ellipsoid | typeof ElementKind.Voxel;
  mean: [number, number, number];
  /** Row-major 3 × 3 covariance. */
  cov: number[];
  pHit: number;
  objectId?: number;
  classId?: number;
}

export interface TestGround {
  kind: typeof ElementKind.Ground;
  /** Plane n·x = c. */
  n: [number, number, number];
  c: number;
  pHit: number;
  variance: number;
  objectId?: number;
  classId?: number;
}

function inv3(m: number[]): number[] {
  const [a, b, c, d, e, f, g, h, i] = m as [number, number, number, number, number, number, number, number, number];
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  return [A / det, -(b * i - c * h) / det, (b * f - c * e) / det, B / det, (a * i - c * g) / det, -(a * f - c * d) / det, C / det, -(a * h - b * g) / det, (a * e - b * d) / det];
}

export function cholesky3(m: number[]): number[] {
  const l00 = Math.sqrt(m[0]!);
  const l10 = m[3]! / l00;
  const l11 = Math.sqrt(m[4]! - l10 * l10);
  const l20 = m[6]! / l00;
  const l21 = (m[7]! - l20 * l10) / l11;
  const l22 = Math.sqrt(m[8]! - l20 * l20 - l21 * l21);
  return [l00, l10, l11, l20, l21, l22];
}

/**
 * Hybrid / voxel elements: Gaussians (met when the ray's minimum Mahalanobis distance is below
 * `threshold`; t and μ_t from 000 eq. 1–2, σ_t² from eq. 3) and ground planes (t, σ²_ground).
 * Records every traversal's direction in `dirs` when `record` is set.
 */
export function elementScene(elements: (TestGaussian | TestGround)[], threshold = 3.5): SceneQuery & { dirs: number[][]; record: boolean } {
  const prepared = elements.map((el) => (el.kind === ElementKind.Ground ? { el, inv: null, chol: null } : { el, inv: inv3(el.cov), chol: cholesky3(el.cov) }));
  const scene = {
    dirs: [] as number[][],
    record: false,
    closestSurface(): boolean {
      return false;
    },
    traverse(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tmin: number, tmax: number, visit: (h: ElementHit) => boolean): void {
      if (scene.record) scene.dirs.push([dx, dy, dz]);
      const hits: ElementHit[] = [];
      for (const { el, inv, chol } of prepared) {
        const e = newElementHit();
        e.kind = el.kind; e.pHit = el.pHit; e.objectId = el.objectId ?? 1; e.classId = el.classId ?? 1;
        if (el.kind === ElementKind.Ground) {
          const dn = el.n[0] * dx + el.n[1] * dy + el.n[2] * dz;
          if (Math.abs(dn) < 1e-15) continue;
          const t = (el.c - (el.n[0] * ox + el.n[1] * oy + el.n[2] * oz)) / dn;
          if (!(t > tmin && t <= tmax)) continue;
          e.t = t; e.muT = t; e.varT = el.variance;
        } else {
          const S = inv!;
          const r = [dx, dy, dz], m = [el.mean[0] - ox, el.mean[1] - oy, el.mean[2] - oz];
          let rSr = 0, rSm = 0, mSm = 0;
          for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
            rSr += r[i]! * S[3 * i + j]! * r[j]!;
            rSm += r[i]! * S[3 * i + j]! * m[j]!;
            mSm += m[i]! * S[3 * i + j]! * m[j]!;
          }
          const varT = 1 / rSr, t = varT * rSm;
          const d2 = mSm - rSm * rSm * varT;
          if (!(t > tmin && t <= tmax) || Math.sqrt(Math.max(0, d2)) > threshold) continue;
          e.t = t; e.muT = t; e.varT = varT; e.mahalanobis = Math.sqrt(Math.max(0, d2));
          e.mean.set(el.mean); e.chol.set(chol!);
        }
        hits.push(e);
      }
      hits.sort((a, b) => a.t - b.t);
      for (const h of hits) if (visit(h)) return;
    },
  };
  return scene;
}

/** Mean and (population) variance. */
export function meanVar(xs: ArrayLike<number>): { mean: number; variance: number; n: number } {
  let s = 0, n = 0;
  for (let i = 0; i < xs.length; i++) {
    s += xs[i]!;
    n++;
  }
  const mean = s / n;
  let v = 0;
  for (let i = 0; i < xs.length; i++) v += (xs[i]! - mean) ** 2;
  return { mean, variance: v / n, n };
}

/**
 * `hybrid` (001 §IV, docs/methods.md §1) and `voxel` (000 §IV, docs/methods.md §2) modes: the same stochastic
 * ray tracing over scene elements.
 *
 * The ray visits the elements it meets nearest first (SceneQuery.traverse: triangles it crosses,
 * ellipsoids / voxel Gaussians it passes within the Mahalanobis threshold). At each it draws
 * Bernoulli(p_hit) (for a voxel p_hit = 1 − ρ, ρ its permeability): on success the return is
 * sampled and the ray stops; otherwise it passes through. Past the last element (or max range)
 * the pulse is a miss. Elements nearer than the profile's minimum range are not visited.
 *
 * The return of a hit:
 * - ground / surface triangle: t + N(0, σ²) with σ² the element's variance (σ²_ground; varT)
 *   or, for a triangle without one, the profile's range noise;
 * - ellipsoid / voxel, `along-ray` sampler: t ~ N(μ_t, σ_t²) (000 eq. 2–3), reported along the
 *   beam axis;
 * - ellipsoid / voxel, `gaussian-point` sampler: the point y ~ N(μ, Σ) itself (001), which may
 *   leave the ray.
 * Reported ranges are quantised and limited to [min, max]: a hit is a return the model says the
 * sensor made, and its training returns all lay within the sensor's window, so the range is drawn
 * from its distribution restricted to the window (redrawn until it falls inside; a ground
 * triangle 0.7 m away with σ 0.2 m otherwise lost a quarter of its hits under a 0.5 m minimum).
 * The model's own variance is the range noise, so no extra profile noise is added to Gaussians.
 *
 * With `coneSampling` (voxel default, 000 §IV) the ray is drawn uniformly inside the beam's
 * divergence cone; the range is still reported along the nominal beam axis, as a sensor does.
 */
import { ElementKind, type ElementHit, type SceneQuery } from '../scene/scene-query';
import type { SensorProfile } from '../../src-common/sensor-profile';
import type { RandomStream } from '../random/stream';
import { rotateVector } from '../geometry/trajectory';
import type { ModeCaster } from './caster';
import type { Firing, ReturnEmitter } from './firing';
import { modelIntensity } from './intensity';
import { quantiseRange, type RangeModel } from './returns';
import { beamBasis, offsetDirection, sampleSpot, spotHalfWidths } from './stencil';
import type { RangeSampler } from './types';

export interface StochasticOptions {
  rangeSampler: RangeSampler;
  coneSampling: boolean;
  /** σ for triangles whose element carries no variance (m). */
  surfaceSigma: number;
}

/** Draws of a return's range before it counts as outside the window (each lands inside with p ≳ ½: the element lies within it). */
const REDRAWS = 16;

export class StochasticCaster implements ModeCaster {
  private rng: RandomStream | null = null;
  private chosen = false;
  private kind: ElementKind = ElementKind.Surface;
  private t = 0;
  private muT = 0;
  private varT = 0;
  private objectId = 0;
  private classId = 0;
  private readonly mean = new Float64Array(3);
  private readonly chol = new Float64Array(6);
  private readonly basis = new Float64Array(6);
  private readonly spot = new Float64Array(2);
  private readonly sub = new Float64Array(3);
  private readonly world = new Float64Array(3);
  private readonly halfWidths: [number, number];
  private readonly visit: (hit: ElementHit) => boolean;

  constructor(
    private readonly scene: SceneQuery,
    private readonly profile: SensorProfile,
    private readonly range: RangeModel,
    private readonly opts: StochasticOptions,
  ) {
    const b = profile.beam;
    this.halfWidths = spotHalfWidths(b.shape, b.divergenceH, b.divergenceV);
    this.visit = (hit) => {
      if (!(this.rng!.next() < hit.pHit)) return false; // pass through
      this.chosen = true;
      this.kind = hit.kind;
      this.t = hit.t;
      this.muT = hit.muT;
      this.varT = hit.varT;
      this.objectId = hit.objectId;
      this.classId = hit.classId;
      if (hit.kind === ElementKind.Ellipsoid || hit.kind === ElementKind.Voxel) {
        for (let i = 0; i < 3; i++) this.mean[i] = hit.mean[i]!;
        for (let i = 0; i < 6; i++) this.chol[i] = hit.chol[i]!;
      }
      return true;
    };
  }

  fire(f: Firing, rng: RandomStream, out: ReturnEmitter): void {
    let dx = f.dx, dy = f.dy, dz = f.dz;
    if (this.opts.coneSampling && (this.halfWidths[0] > 0 || this.halfWidths[1] > 0)) {
      beamBasis(f.sx, f.sy, f.sz, this.basis);
      sampleSpot(this.profile.beam.shape, this.halfWidths[0], this.halfWidths[1], rng, this.spot);
      offsetDirection(f.sx, f.sy, f.sz, this.basis, this.spot[0]!, this.spot[1]!, this.sub, 0);
      rotateVector(f.pose, 0, this.sub[0]!, this.sub[1]!, this.sub[2]!, this.world, 0);
      dx = this.world[0]!; dy = this.world[1]!; dz = this.world[2]!;
    }
    this.rng = rng;
    this.chosen = false;
    // From the minimum range on: nearer than that the sensor cannot range, a fitted model holds no
    // evidence (its replay counts nothing there, src-worker/fit/replay.ts), and an element chosen
    // there would only turn the pulse into a miss.
    this.scene.traverse(f.ox, f.oy, f.oz, dx, dy, dz, this.range.min, this.range.max, this.visit);
    this.rng = null;
    if (!this.chosen) return;

    const kind = this.kind;
    if (kind === ElementKind.Ellipsoid || kind === ElementKind.Voxel) {
      if (this.opts.rangeSampler === 'gaussian-point') {
        const m = this.mean, L = this.chol;
        let px = 0, py = 0, pz = 0, ex = 0, ey = 0, ez = 0, r = 0, q = NaN;
        for (let k = 0; k < REDRAWS && !(q === q && r > 0); k++) {
          const z0 = rng.normal(), z1 = rng.normal(), z2 = rng.normal();
          px = m[0]! + L[0]! * z0;
          py = m[1]! + L[1]! * z0 + L[2]! * z1;
          pz = m[2]! + L[3]! * z0 + L[4]! * z1 + L[5]! * z2;
          ex = px - f.ox; ey = py - f.oy; ez = pz - f.oz;
          r = Math.sqrt(ex * ex + ey * ey + ez * ez);
          q = quantiseRange(r, this.range);
        }
        if (Number.isNaN(q) || !(r > 0)) return;
        if (q !== r) {
          px = f.ox + (ex * q) / r;
          py = f.oy + (ey * q) / r;
          pz = f.oz + (ez * q) / r;
        }
        out.point(px, py, pz, modelIntensity(q, this.profile.intensity), this.objectId, this.classId);
        return;
      }
      const q = this.drawRange(this.muT, this.varT > 0 ? Math.sqrt(this.varT) : 0, rng);
      if (!Number.isNaN(q)) out.alongAxis(q, modelIntensity(q, this.profile.intensity), this.objectId, this.classId);
      return;
    }
    // Ground or surface triangle: nominal range plus the element's (or the profile's) noise.
    const sigma = this.varT > 0 ? Math.sqrt(this.varT) : this.opts.surfaceSigma;
    const q = this.drawRange(this.t, sigma, rng);
    if (!Number.isNaN(q)) out.alongAxis(q, modelIntensity(q, this.profile.intensity), this.objectId, this.classId);
  }

  /** mean + σ·N(0, 1), quantised, redrawn while outside the sensor's window (NaN after REDRAWS tries). */
  private drawRange(mean: number, sigma: number, rng: RandomStream): number {
    let q = NaN;
    for (let k = 0; k < REDRAWS && q !== q; k++) q = quantiseRange(mean + (sigma > 0 ? sigma * rng.normal() : 0), this.range);
    return q;
  }
}

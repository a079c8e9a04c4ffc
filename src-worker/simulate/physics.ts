/**
 * `physics` mode (003 §3.2–3.3): each pulse is 9 rays through a fixed stencil on the beam spot
 * (stencil.ts: shape and size from the divergences), each traced to the closest opaque surface;
 * each sub-ray's intensity is Lambertian, I = ρ I₀ cos θ (optionally / r²); no multiple
 * scattering. The sub-returns are processed per the return mode (returns.ts: strongest, last,
 * first with the signal cutoff, strongest + last) into one or two returns reported along the
 * beam axis, then range noise, quantisation and the [min, max] limits apply. A pulse whose
 * sub-rays all miss is a miss.
 */
import { newSurfaceHit, type SceneQuery, type SurfaceHit } from '../scene/scene-query';
import type { ReturnMode, SensorProfile } from '../../src-common/sensor-profile';
import type { RandomStream } from '../random/stream';
import { rotateVector } from '../geometry/trajectory';
import type { ModeCaster } from './caster';
import type { Firing, ReturnEmitter } from './firing';
import { lambertian } from './intensity';
import { measureRange, newPulseReturns, processPulse, type RangeModel } from './returns';
import { STENCIL_SIZE, beamBasis, beamStencil, offsetDirection } from './stencil';

export interface PhysicsOptions {
  returnMode: ReturnMode;
  signalCutoff: number;
  stencilScale?: number | undefined;
}

export class PhysicsCaster implements ModeCaster {
  /** One hit record per sub-ray, and the sub-rays' world directions (3 each), for the beam query. */
  private readonly hits: SurfaceHit[] = Array.from({ length: STENCIL_SIZE }, () => newSurfaceHit());
  private readonly dirs = new Float64Array(3 * STENCIL_SIZE);
  private readonly stencil: Float64Array;
  private readonly basis = new Float64Array(6);
  private readonly sub = new Float64Array(3);
  private readonly world = new Float64Array(3);
  private readonly t = new Float64Array(STENCIL_SIZE);
  private readonly I = new Float64Array(STENCIL_SIZE);
  private readonly obj = new Uint32Array(STENCIL_SIZE);
  private readonly cls = new Uint8Array(STENCIL_SIZE);
  private readonly results = newPulseReturns();

  constructor(
    private readonly scene: SceneQuery,
    private readonly profile: SensorProfile,
    private readonly range: RangeModel,
    private readonly opts: PhysicsOptions,
  ) {
    const b = profile.beam;
    this.stencil = beamStencil(b.shape, b.divergenceH, b.divergenceV, opts.stencilScale);
  }

  fire(f: Firing, rng: RandomStream, out: ReturnEmitter): void {
    const { scene, stencil, basis, sub, world, dirs, hits, t, I, obj, cls } = this;
    const min = this.range.min, max = this.range.max;
    beamBasis(f.sx, f.sy, f.sz, basis);
    for (let k = 0; k < STENCIL_SIZE; k++) {
      offsetDirection(f.sx, f.sy, f.sz, basis, stencil[2 * k]!, stencil[2 * k + 1]!, sub, 0);
      rotateVector(f.pose, 0, sub[0]!, sub[1]!, sub[2]!, world, 0);
      dirs[3 * k] = world[0]!; dirs[3 * k + 1] = world[1]!; dirs[3 * k + 2] = world[2]!;
    }
    // The sub-rays share the origin: one beam traversal when the scene offers it (same results
    // as one closestSurface per sub-ray), else one query each.
    let mask = 0;
    if (scene.closestSurfaceBeam) {
      mask = scene.closestSurfaceBeam(f.ox, f.oy, f.oz, dirs, STENCIL_SIZE, 0, max, hits);
    } else {
      for (let k = 0; k < STENCIL_SIZE; k++) {
        if (scene.closestSurface(f.ox, f.oy, f.oz, dirs[3 * k]!, dirs[3 * k + 1]!, dirs[3 * k + 2]!, 0, max, hits[k]!)) mask |= 1 << k;
      }
    }
    let n = 0;
    for (let k = 0; k < STENCIL_SIZE; k++) {
      if ((mask & (1 << k)) === 0) continue;
      const h = hits[k]!;
      if (h.t < min) continue;
      t[n] = h.t;
      I[n] = lambertian(h.reflectance, h.nx, h.ny, h.nz, dirs[3 * k]!, dirs[3 * k + 1]!, dirs[3 * k + 2]!, h.t, this.profile.intensity);
      obj[n] = h.objectId;
      cls[n] = h.classId;
      n++;
    }
    const m = processPulse(this.opts.returnMode, this.opts.signalCutoff, n, t, I, this.results);
    for (let j = 0; j < m; j++) {
      const res = this.results[j]!;
      const r = measureRange(res.range, this.range, rng);
      if (Number.isNaN(r)) continue;
      out.alongAxis(r, res.intensity, obj[res.sub]!, cls[res.sub]!);
    }
  }
}

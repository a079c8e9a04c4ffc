/**
 * `mesh` mode: one ray on the beam axis, the closest opaque surface, additive Gaussian range
 * noise N(0, σ²) with σ = profile.range.noiseSigma (000 §V-C measured 5 mm on a planar target),
 * quantisation, and a miss when nothing lies within [min, max]. Intensity is Lambertian.
 */
import { newSurfaceHit, type SceneQuery } from '../scene/scene-query';
import type { SensorProfile } from '../../src-common/sensor-profile';
import type { RandomStream } from '../random/stream';
import type { ModeCaster } from './caster';
import type { Firing, ReturnEmitter } from './firing';
import { lambertian } from './intensity';
import { measureRange, type RangeModel } from './returns';

export class MeshCaster implements ModeCaster {
  private readonly hit = newSurfaceHit();

  constructor(
    private readonly scene: SceneQuery,
    private readonly profile: SensorProfile,
    private readonly range: RangeModel,
  ) {}

  fire(f: Firing, rng: RandomStream, out: ReturnEmitter): void {
    const h = this.hit;
    if (!this.scene.closestSurface(f.ox, f.oy, f.oz, f.dx, f.dy, f.dz, 0, this.range.max, h)) return;
    if (h.t < this.range.min) return;
    const r = measureRange(h.t, this.range, rng);
    if (Number.isNaN(r)) return;
    const i = lambertian(h.reflectance, h.nx, h.ny, h.nz, f.dx, f.dy, f.dz, h.t, this.profile.intensity);
    out.alongAxis(r, i, h.objectId, h.classId);
  }
}

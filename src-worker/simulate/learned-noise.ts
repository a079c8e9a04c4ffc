/**
 * A learned sensor noise model in place of the Gaussian range noise, in every mode
 * (docs/methods.md §8). The mode's caster runs without range noise; each return it emits is then
 * measured through the model: at the return's range r and the incidence δ of the surface the beam
 * axis meets first (NaN where there is no scene: the neighbour mode), the model draws a null (the
 * return is dropped; a pulse left with none is a miss) or a range, quantised and limited as any.
 * Draws come from the packet's own stream, so runs stay deterministic.
 */
import { newSurfaceHit, type SceneQuery } from '../scene/scene-query';
import type { RandomStream } from '../random/stream';
import type { LearnedNoiseSampler } from '../noise/sampler';
import type { ModeCaster } from './caster';
import { ReturnEmitter, type Firing } from './firing';
import { quantiseRange, type RangeModel } from './returns';

/** Forwards a caster's returns to the real emitter after the learned measurement. */
class MeasuredEmitter extends ReturnEmitter {
  target: ReturnEmitter | null = null;
  shot: Firing | null = null;
  rng: RandomStream | null = null;
  delta = NaN;

  constructor(private readonly sampler: LearnedNoiseSampler, private readonly range: RangeModel) {
    super();
  }

  private measure(r: number): number {
    const v = this.sampler.draw(this.shot!.ring, r, this.delta, this.rng!);
    return Number.isNaN(v) ? NaN : quantiseRange(v, this.range);
  }

  override get returns(): number {
    return this.target!.returns;
  }

  override alongAxis(range: number, intensity: number, objectId: number, classId: number): void {
    const v = this.measure(range);
    if (!Number.isNaN(v)) this.target!.alongAxis(v, intensity, objectId, classId);
  }

  override point(wx: number, wy: number, wz: number, intensity: number, objectId: number, classId: number): void {
    const f = this.shot!;
    const x = wx - f.ox, y = wy - f.oy, z = wz - f.oz;
    const r = Math.sqrt(x * x + y * y + z * z);
    if (!(r > 0)) return;
    const v = this.measure(r);
    if (Number.isNaN(v)) return;
    const s = v / r;
    this.target!.point(f.ox + s * x, f.oy + s * y, f.oz + s * z, intensity, objectId, classId);
  }
}

export class LearnedNoiseCaster implements ModeCaster {
  private readonly emitter: MeasuredEmitter;
  private readonly hit = newSurfaceHit();

  constructor(
    private readonly inner: ModeCaster,
    sampler: LearnedNoiseSampler,
    private readonly scene: SceneQuery | null,
    private readonly range: RangeModel,
  ) {
    this.emitter = new MeasuredEmitter(sampler, range);
  }

  fire(f: Firing, rng: RandomStream, out: ReturnEmitter): void {
    const e = this.emitter;
    e.target = out;
    e.shot = f;
    e.rng = rng;
    e.delta = NaN;
    const h = this.hit;
    if (this.scene && this.scene.closestSurface(f.ox, f.oy, f.oz, f.dx, f.dy, f.dz, 0, this.range.max, h)) {
      e.delta = Math.acos(Math.min(1, Math.abs(h.nx * f.dx + h.ny * f.dy + h.nz * f.dz)));
    }
    this.inner.fire(f, rng, e);
  }
}

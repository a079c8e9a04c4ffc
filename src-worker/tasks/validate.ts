/**
 * The physics-mode validations of Goodin et al. (2018, §3.4) as worker tasks (they cast millions of rays):
 * the single-beam grass penetration statistics and the LMS-291 mixed-pixel rod bench.
 */
import type { TaskContext } from './task-context';
import { validateGrass, type GrassReport } from '../validate/grass';
import { validateMixedPixel, type MixedPixelReport } from '../validate/mixed-pixel';
import type { SensorProfile } from '../../src-common/sensor-profile';

export type { GrassReport, MixedPixelReport };

export interface ValidateInput {
  which: 'grass' | 'mixed-pixel';
  seed: number;
  /** Grass: pulses per case; mixed pixel: scans per case. */
  samples?: number;
  /** Mixed pixel: the scanner (the built-in LMS-291 at 100° / 1° by default). */
  profile?: SensorProfile;
}

export function validateTask(input: ValidateInput, ctx: TaskContext): GrassReport | MixedPixelReport {
  ctx.progress(0.02, `validating ${input.which}`, true);
  const report =
    input.which === 'grass'
      ? validateGrass({ seed: input.seed, ...(input.samples ? { samples: input.samples } : {}) })
      : validateMixedPixel({ seed: input.seed, ...(input.samples ? { scans: input.samples } : {}), ...(input.profile ? { profile: input.profile } : {}) });
  ctx.checkCancelled();
  return report;
}

import type { AppServices } from '../../services/app-services';
import { runTransient } from '../../jobs/job-runner';
import { getProfile } from '../../services/profiles-service';
import type { GrassReport, MixedPixelReport, ValidateInput } from '../../../src-worker/tasks/validate';
import { intFlag, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';

/** The LMS-291 mode of the paper's mixed-pixel bench (003 §3.4.2): 100° field of view, 1°. */
export const MIXED_PIXEL_PROFILE = 'lms291-100-1';

export async function validateCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const which = args.positionals[1];
  if (which !== 'grass' && which !== 'mixed-pixel') throw new CliError(`validate: expected "grass" or "mixed-pixel", got "${which ?? ''}"`, 2);
  const input: ValidateInput = {
    which,
    seed: intFlag(args.values, 'seed') ?? 1,
    ...(args.values.samples ? { samples: intFlag(args.values, 'samples', 1, 10_000_000)! } : {}),
    ...(args.values.profile || which === 'mixed-pixel' ? { profile: getProfile(null, args.values.profile ?? MIXED_PIXEL_PROFILE) } : {}),
  };
  progress.note(`validate ${which}: running in a worker…`);
  const { result } = await runTransient(services.pool, 'validate', input);
  if (which === 'grass') {
    const r = result as GrassReport;
    const lines = r.cases.map(
      (c) =>
        `λ=${c.lambda}/m² d=${c.d * 1000} mm D=${c.D} m: mean penetration ${c.meanPenetration.toFixed(3)} m (1/(λd) = ${c.expectedMeanPenetration.toFixed(3)}), α=${c.alpha.toFixed(2)}, B(gamma)=${c.bhattacharyyaGamma.toFixed(3)} vs B(exponential)=${c.bhattacharyyaExponential.toFixed(3)}`,
    );
    return { json: r, text: lines.join('\n') };
  }
  const r = result as MixedPixelReport;
  return { json: r, text: r.cases.map((c) => `background ${c.offset} m behind the rods: ${c.mixedPixels} mixed pixels of ${c.totalReturns} returns`).join('\n') };
}

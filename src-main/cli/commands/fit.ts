import type { FitResultInfo } from '../../api/contract';
import type { AppServices } from '../../services/app-services';
import { intFlag, numberFlag, paramFlags, requireProject, type CommonArgs } from '../args';
import { resolveFitParams } from '../../../src-common/fit-params';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { waitForJob } from '../wait-job';

/**
 * `thicket fit --project P --log L [--seed N] [--param k=v …] [--name N]`: fit a hybrid model
 * (and the voxel model) to a drive log and store it; prints {model, ellipsoids, triangles,
 * voxels, groundVariance, seconds}. Ctrl-C cancels both of the fit's jobs (nothing is stored).
 * With `--tune` θ is tuned first on a slice of the log (src-worker/fit/tuning.ts) and the fit
 * uses the best θ; the output adds {tuning}.
 * `thicket fit list --project P` lists the stored models.
 */
/** The `--tune*` flags as fit.start's `tune`, or undefined without `--tune`. */
function tuneFlags(v: CommonArgs['values']) {
  const named = ['tune-params', 'tune-seconds', 'tune-start', 'tune-evaluations'] as const;
  if (!v.tune) {
    const stray = named.find((n) => v[n] !== undefined);
    if (stray) throw new CliError(`--${stray} needs --tune`, 2);
    return undefined;
  }
  const seconds = numberFlag(v, 'tune-seconds', 1e-3, 600);
  const startS = numberFlag(v, 'tune-start', 0);
  const evaluations = intFlag(v, 'tune-evaluations', 2, 500);
  const params = v['tune-params']?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  return {
    ...(params && params.length ? { params } : {}),
    seconds: seconds ?? 10,
    startS: startS ?? 0,
    evaluations: evaluations ?? 30,
  };
}

export async function fitCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const v = args.values;
  await services.call('project.open', { path: requireProject(args) });
  if (args.positionals[1] === 'list') {
    const models = await services.call('models.list', {});
    return {
      json: { models },
      text: models.map((m) => `${m.id}\t${m.name}\t${m.counts.triangles} triangles, ${m.counts.ellipsoids} ellipsoids, ${m.counts.voxels} voxels`).join('\n') || 'no models',
    };
  }
  if (args.positionals[1] !== undefined) throw new CliError(`fit: unknown subcommand "${args.positionals[1]}" (expected list, or none)`, 2);
  const logId = intFlag(v, 'log', 1);
  if (logId === undefined) throw new CliError('--log L is required (a drive log id: `thicket project info` counts them)', 2);
  const seed = intFlag(v, 'seed') ?? 1;

  let interrupted: Promise<void> | null = null;
  const onSigint = () => {
    progress.note('interrupted: cancelling the fit (nothing is kept)…');
    interrupted = services.requireSession().runner.cancelAll();
  };
  const stopIfInterrupted = async () => {
    if (!interrupted) return;
    await interrupted;
    throw new CliError('fit cancelled: nothing was stored', 130);
  };
  process.once('SIGINT', onSigint);
  try {
    const tune = tuneFlags(v);
    const { job } = await services.call('fit.start', { logId, seed, params: paramFlags(v, 'param', resolveFitParams), ...(args.name ? { name: args.name } : {}), ...(tune ? { tune } : {}) });
    let elementsJob = job.id;
    if (tune) {
      const tuned = await waitForJob(services, job.id, progress);
      await stopIfInterrupted();
      elementsJob = Number(tuned.fitJob);
    }
    const first = await waitForJob(services, elementsJob, progress);
    await stopIfInterrupted();
    const r = (await waitForJob(services, Number(first.replayJob), progress)) as unknown as FitResultInfo;
    const json: FitResultInfo = { model: r.model, ellipsoids: r.ellipsoids, triangles: r.triangles, voxels: r.voxels, groundVariance: r.groundVariance, seconds: r.seconds, ...(r.tuning ? { tuning: r.tuning } : {}) };
    const tuned = r.tuning
      ? `\ntuned on ${r.tuning.slice.packets} packets in ${r.tuning.evaluations} evaluations: J ${r.tuning.startObjective.toFixed(4)} → ${r.tuning.objective.toFixed(4)} with ${Object.entries(r.tuning.best).map(([k, x]) => `${k}=${+x.toPrecision(4)}`).join(', ')}`
      : '';
    return {
      json,
      text: `model ${r.model}: ${r.triangles} ground triangles, ${r.ellipsoids} ellipsoids, ${r.voxels} voxels; σ²_ground ${r.groundVariance.toFixed(4)} m²; ${r.seconds.toFixed(1)} s${tuned}`,
    };
  } catch (e) {
    await stopIfInterrupted();
    throw e;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

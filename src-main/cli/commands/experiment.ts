import type { AppServices } from '../../services/app-services';
import { intFlag, paramFlags, requireProject, type CommonArgs } from '../args';
import { resolveFitParams } from '../../../src-common/fit-params';
import { checkEvaluationParams } from '../evaluation-param-check';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { runRealExperiment, type RealExperimentRow } from '../../services/real-experiment';
import { regionFlags } from './evaluate';

/**
 * `thicket experiment --project P --train LOG --test LOG [--profile ID] [--seed N] [--fit-param k=v …]
 * [--region SPEC …] [--exclude-body [--body …]] [--param k=v …]`:
 * the real-data experiment (services/real-experiment.ts) — fit the training log, build every
 * simulator from it, simulate the test log's own rays with each and evaluate them; --param
 * passes evaluation parameters. --json prints {table: [{simulator, precision, recall, f1,
 * pointCloudError, packetError, packets, run, evaluation}], selfCheck: {…}, model, primitives,
 * scenes, profileId, seconds}. Ctrl-C cancels the running job; what finished stays stored.
 */
export async function experimentCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const v = args.values;
  await services.call('project.open', { path: requireProject(args) });
  const trainLogId = intFlag(v, 'train', 1);
  if (trainLogId === undefined) throw new CliError('--train LOG is required (the drive log the simulators are built from)', 2);
  const testLogId = intFlag(v, 'test', 1);
  if (testLogId === undefined) throw new CliError('--test LOG is required (the drive log they predict)', 2);
  const seed = intFlag(v, 'seed') ?? 1;
  const riskSamples = intFlag(v, 'risk-samples', 0, 10_000);

  let interrupted: Promise<void> | null = null;
  const onSigint = () => {
    progress.note('interrupted: cancelling the experiment (what it finished stays stored)…');
    interrupted = services.requireSession().runner.cancelAll();
  };
  process.once('SIGINT', onSigint);
  try {
    const x = await runRealExperiment(services, {
      trainLogId,
      testLogId,
      seed,
      ...(typeof v.profile === 'string' ? { profileId: v.profile } : {}),
      fitParams: paramFlags(v, 'fit-param', resolveFitParams),
      evaluationParams: { ...paramFlags(v, 'param', checkEvaluationParams), ...regionParam(v) },
      ...(riskSamples !== undefined ? { risk: { samples: riskSamples } } : {}),
      note: (m) => progress.note(m),
    });
    const lines = [
      `log ${testLogId} predicted from log ${trainLogId} (${x.profileId ?? 'each log\'s own sensor'}; model ${x.model}, ${x.primitives.segments} segments, mesh scene ${x.scenes.mesh}; ${x.seconds} s)`,
      'simulator   precision  recall  F1     pointCloudError  packetError  run  evaluation  risk (scan matching)',
      ...x.table.map(line),
      line({ ...x.selfCheck, simulator: 'self-check' as RealExperimentRow['simulator'] }),
    ];
    return { json: { ...x }, text: lines.join('\n') };
  } catch (e) {
    if (interrupted) {
      await interrupted;
      throw new CliError('experiment cancelled: what it finished stays stored', 130);
    }
    throw e;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

/** `--region` / `--exclude-body` / `--body` as for `thicket evaluate`: every evaluation scores that region. */
function regionParam(v: CommonArgs['values']): { region?: NonNullable<ReturnType<typeof regionFlags>> } {
  const region = regionFlags(v);
  return region ? { region } : {};
}

const f = (n: number | null, d = 3) => (n === null ? '—' : n.toFixed(d));

function line(r: RealExperimentRow): string {
  return `${r.simulator.padEnd(11)} ${f(r.precision).padStart(9)}  ${f(r.recall).padStart(6)}  ${f(r.f1).padStart(5)}  ${f(r.pointCloudError).padStart(13)} m  ${f(r.packetError).padStart(9)} m  ${String(r.run).padStart(3)}  ${String(r.evaluation).padStart(10)}  ${f(r.risk ?? null).padStart(8)} m`;
}

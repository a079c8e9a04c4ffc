import type { AppServices } from '../../services/app-services';
import { intFlag, requireProject, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { waitForJob } from '../wait-job';
import { APPLICATIONS, type Application, type RiskResult } from '../../../src-common/application-risk';

/**
 * `thicket risk --project P --real LOG --sim RUN --application scan-matching|obstacles|ground
 * [--samples N] [--seed S] [--max-pairs N]`: the application-level risk of a run against a drive
 * log (docs/methods.md, "Application-level risk"), stored; --json prints {application, risk,
 * samples: [{alpha, jReal, jSim, loss}], bestAlphaSim, jRealAtBestAlphaSim, …}. Ctrl-C cancels
 * (nothing is kept).
 */
export async function riskCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const v = args.values;
  if (args.positionals[1] !== undefined) throw new CliError(`risk: unexpected argument "${args.positionals[1]}"`, 2);
  const application = v.application;
  if (application === undefined) throw new CliError(`--application is required (${APPLICATIONS.join(', ')})`, 2);
  if (!(APPLICATIONS as readonly string[]).includes(application)) throw new CliError(`--application: expected ${APPLICATIONS.join(', ')}, got "${application}"`, 2);
  const realLogId = intFlag(v, 'real', 1);
  if (realLogId === undefined) throw new CliError('--real LOG is required (a drive log id: `thicket project info` counts them)', 2);
  const runId = intFlag(v, 'sim', 1);
  if (runId === undefined) throw new CliError('--sim RUN is required (a simulation run id, as `thicket simulate` prints it)', 2);
  const samples = intFlag(v, 'samples', 1, 10_000) ?? 50;
  const seed = intFlag(v, 'seed') ?? 1;
  const maxPairs = intFlag(v, 'max-pairs', 1, 10_000);
  await services.call('project.open', { path: requireProject(args) });

  let interrupted: Promise<void> | null = null;
  const onSigint = () => {
    progress.note('interrupted: cancelling the risk computation (nothing is kept)…');
    interrupted = services.requireSession().runner.cancelAll();
  };
  process.once('SIGINT', onSigint);
  try {
    const { job } = await services.call('risk.start', { realLogId, runId, application: application as Application, samples, seed, ...(maxPairs ? { maxPairs } : {}) });
    const r = (await waitForJob(services, job.id, progress)) as unknown as RiskResult & { riskId: number; seconds: number };
    return { json: { ...r }, text: summary(r) };
  } catch (e) {
    if (interrupted) {
      await interrupted;
      throw new CliError('risk computation cancelled: nothing was stored', 130);
    }
    throw e;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

const fmt = (x: number | null | undefined, digits = 4) => (x === null || x === undefined ? '—' : x.toFixed(digits));

function summary(r: RiskResult & { riskId: number; seconds: number }): string {
  const unit = r.application === 'scan-matching' ? ' m' : r.application === 'obstacles' ? ' cells' : '';
  const lines = [
    `risk ${r.riskId}: ${r.application}, ${r.samples.length} α samples, ${r.extent.real} real and ${r.extent.sim} simulated ${r.extent.unit} (${r.seconds} s)`,
    `  risk ${fmt(r.risk)}${unit}${r.riskAngle !== undefined ? `, angle ${fmt(r.riskAngle, 5)} rad` : ''}`,
    `  best α in simulation: J ${fmt(r.jSimAtBestAlphaSim)}${unit} simulated, ${fmt(r.jRealAtBestAlphaSim)}${unit} real`,
  ];
  return lines.join('\n');
}

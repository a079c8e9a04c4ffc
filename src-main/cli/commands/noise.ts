import type { AppServices } from '../../services/app-services';
import { intFlag, numberFlag, requireProject, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { waitForJob } from '../wait-job';
import { NOISE_METHODS, type NoiseLearnSummary, type NoiseMethod } from '../../../src-common/noise-model';

/**
 * `thicket noise learn --project P --log L [--method p-reg|np-reg] [--test-fraction 0.3] [--seed S]`:
 * a sensor noise model learnt from a log of repeated static scans (docs/methods.md §8);
 * `thicket noise list --project P`: the project's learned models.
 */
export async function noiseCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const sub = args.positionals[1];
  const v = args.values;
  if (sub === 'list') {
    await services.call('project.open', { path: requireProject(args) });
    const models = await services.call('noise.list', {});
    const text = models.length ? models.map((m) => `noise model ${m.id} "${m.name}": ${m.method}, risk ${m.summary.risk.toFixed(4)} m`).join('\n') : 'no learned noise models';
    return { json: { noiseModels: models }, text };
  }
  if (sub !== 'learn') throw new CliError(`noise: unknown subcommand "${sub ?? ''}" (known: learn, list)`, 2);
  if (v.log === undefined) throw new CliError('noise learn: --log ID is required (a drive log of repeated static scans)', 2);
  const method = (v.method ?? 'p-reg') as NoiseMethod;
  if (!NOISE_METHODS.includes(method)) throw new CliError(`noise learn: --method must be one of ${NOISE_METHODS.join(', ')}, got "${String(v.method)}"`, 2);
  const log = intFlag(v, 'log', 1)!;
  const testFraction = numberFlag(v, 'test-fraction', 0.01, 0.99) ?? 0.3;
  const seed = intFlag(v, 'seed', 0) ?? 1;
  await services.call('project.open', { path: requireProject(args) });
  const { job } = await services.call('noise.learn', { logId: log, method, testFraction, seed, ...(v.name !== undefined ? { name: String(v.name) } : {}) });
  progress.job(job);
  const r = (await waitForJob(services, job.id, progress)) as unknown as NoiseLearnSummary & { noiseModel: number };
  const json = {
    noiseModel: r.noiseModel,
    method: r.method,
    beams: r.beams,
    trainScans: r.trainScans,
    testScans: r.testScans,
    risk: r.risk,
    riskByTrainingSize: r.riskByTrainingSize,
    trainCells: r.trainCells,
    testCells: r.testCells,
    bandwidths: r.bandwidths,
    baselines: r.baselines,
    bins: r.bins,
    seconds: r.seconds,
  };
  const curve = r.riskByTrainingSize.map((p) => `  ${String(p.n).padStart(7)} states: ${p.risk.toFixed(4)} m`).join('\n');
  const text = [
    `noise model ${r.noiseModel} (${r.method}) from drive log ${log}: ${r.beams} beam(s), ${r.trainScans} training and ${r.testScans} test scans, ${r.trainCells} training and ${r.testCells} test cells`,
    `risk (mean histogram match on the test cells): ${r.risk.toFixed(4)} m; physics-based σ² = K r²/cos δ: ${r.baselines.physics.risk.toFixed(4)} m; constant σ ${r.baselines.constant.sigma} m: ${r.baselines.constant.risk.toFixed(4)} m`,
    'risk by training size:',
    curve,
  ].join('\n');
  return { json, text };
}

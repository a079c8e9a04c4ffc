import type { EvaluationInfo } from '../../api/contract';
import type { EvaluationMetrics } from '../../../src-common/metrics';
import type { AppServices } from '../../services/app-services';
import { intFlag, paramFlags, requireProject, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { waitForJob } from '../wait-job';

/**
 * `thicket evaluate --project P --real LOG --sim RUN [--param key=value …]`: evaluate a
 * simulation run against a real drive log (docs/methods.md §6) and store the evaluation; --json prints
 * {packets, packetError, precision, recall, f1, pointCloudError, evaluation, unpairedRays,
 * unpairedPackets, seconds} and, when both logs stand still, bhattacharyya and histogramMatch.
 * `thicket evaluate list --project P` lists the stored evaluations. Ctrl-C cancels (nothing is kept).
 */
export async function evaluateCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const v = args.values;
  await services.call('project.open', { path: requireProject(args) });
  if (args.positionals[1] === 'list') {
    const list = await services.call('evaluations.list', {});
    return { json: { evaluations: list }, text: list.map(listLine).join('\n') || 'no evaluations' };
  }
  if (args.positionals[1] !== undefined) throw new CliError(`evaluate: unknown subcommand "${args.positionals[1]}" (expected list, or none)`, 2);
  const realLogId = intFlag(v, 'real', 1);
  if (realLogId === undefined) throw new CliError('--real LOG is required (a drive log id: `thicket project info` counts them)', 2);
  const runId = intFlag(v, 'sim', 1);
  if (runId === undefined) throw new CliError('--sim RUN is required (a simulation run id, as `thicket simulate` prints it)', 2);

  let interrupted: Promise<void> | null = null;
  const onSigint = () => {
    progress.note('interrupted: cancelling the evaluation (nothing is kept)…');
    interrupted = services.requireSession().runner.cancelAll();
  };
  process.once('SIGINT', onSigint);
  try {
    const { job } = await services.call('evaluate.start', { realLogId, runId, params: paramFlags(v) });
    const r = (await waitForJob(services, job.id, progress)) as unknown as EvaluationMetrics & { evaluation: number };
    const json: Record<string, unknown> = {
      packets: r.packets,
      packetError: r.packetError,
      precision: r.precision,
      recall: r.recall,
      f1: r.f1,
      pointCloudError: r.pointCloudError,
      evaluation: r.evaluation,
      unpairedRays: r.unpairedRays,
      unpairedPackets: { real: r.unpairedPackets.real, sim: r.unpairedPackets.sim },
      seconds: r.seconds,
    };
    if (r.staticScan) {
      json.bhattacharyya = r.staticScan.bhattacharyya;
      json.histogramMatch = r.staticScan.histogramMatch;
    }
    return { json, text: summary(r) };
  } catch (e) {
    if (interrupted) {
      await interrupted;
      throw new CliError('evaluation cancelled: nothing was stored', 130);
    }
    throw e;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

const fmt = (x: number | null, digits = 3) => (x === null ? '—' : x.toFixed(digits));

function summary(r: EvaluationMetrics & { evaluation: number }): string {
  const lines = [
    `evaluation ${r.evaluation}: ${r.packets} packets paired (${r.unpairedPackets.real} real and ${r.unpairedPackets.sim} simulated without a partner)`,
    `  packet error ${fmt(r.packetError)} m, point-cloud error ${fmt(r.pointCloudError)} m`,
    `  precision ${fmt(r.precision)}, recall ${fmt(r.recall)}, F1 ${fmt(r.f1)} (${r.trueHits} true hits, ${r.falseHits} false hits, ${r.falseMisses} false misses)`,
  ];
  if (r.unpairedRays.real + r.unpairedRays.sim > 0) lines.push(`  rays without a partner: ${r.unpairedRays.real} real, ${r.unpairedRays.sim} simulated`);
  if (r.staticScan) lines.push(`  static scans: Bhattacharyya ${fmt(r.staticScan.bhattacharyya)}, histogram match ${fmt(r.staticScan.histogramMatch)} (${r.staticScan.bearings} bearings)`);
  return lines.join('\n');
}

function listLine(e: EvaluationInfo): string {
  const m = e.metrics;
  return `${e.id}\tlog ${e.realLogId} vs run ${e.runId}\tpacket error ${fmt(m.packetError)} m, F1 ${fmt(m.f1)}, point-cloud error ${fmt(m.pointCloudError)} m`;
}

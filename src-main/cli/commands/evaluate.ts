import type { EvaluationInfo } from '../../api/contract';
import type { EvaluationMetrics } from '../../../src-common/metrics';
import type { AppServices } from '../../services/app-services';
import { intFlag, paramFlags, requireProject, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { waitForJob } from '../wait-job';
import { checkEvaluationParams } from '../evaluation-param-check';
import { defaultBody, parseBody, parseRegion, RegionSyntaxError, type EvaluationRegion } from '../../../src-common/evaluation-region';
import type { EvaluationParams } from '../../api/contract';

/**
 * `thicket evaluate --project P --real LOG --sim RUN [--region SPEC …] [--exclude-body [--body
 * L,W,H[,cx,cy,cz]]] [--range-bin M] [--pairing time|index|rays] [--param key=value …]`: evaluate
 * a simulation run against a real drive log (docs/methods.md §6) and store the evaluation; --json
 * prints {packets, packetError, precision, recall, f1, pointCloudError, evaluation, unpairedRays,
 * unpairedPackets, pairedRays, pairedFraction, warnings, region, perClass, byRange, seconds} and,
 * when both logs stand still, bhattacharyya and histogramMatch. Warnings also go to stderr.
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
    const params: Partial<EvaluationParams> = { ...paramFlags(v, 'param', checkEvaluationParams) };
    const region = regionFlags(v);
    if (region) params.region = region;
    const bin = v['range-bin'];
    if (bin !== undefined) {
      const m = Number(bin);
      if (!(Number.isFinite(m) && m > 0)) throw new CliError(`--range-bin: expected a positive number of metres, got "${bin}"`, 2);
      params.rangeBreakdownBinM = m;
    }
    if (v.pairing !== undefined) {
      if (v.pairing !== 'time' && v.pairing !== 'index' && v.pairing !== 'rays') throw new CliError(`--pairing: expected time, index or rays, got "${v.pairing}"`, 2);
      params.packetPairing = v.pairing;
    }
    const { job } = await services.call('evaluate.start', { realLogId, runId, params });
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
      pairedRays: r.pairedRays,
      pairedFraction: r.pairedFraction,
      pairing: r.pairing,
      warnings: r.warnings ?? [],
      region: r.region,
      perClass: r.perClass ?? null,
      byRange: r.byRange ?? [],
      seconds: r.seconds,
    };
    for (const w of r.warnings ?? []) process.stderr.write(`thicket: warning: ${w}\n`);
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

/** `--region` (repeatable: the terms of every flag together), `--exclude-body`, `--body`; undefined when none. */
export function regionFlags(v: CommonArgs['values']): EvaluationRegion | undefined {
  try {
    const region: EvaluationRegion = v.region && v.region.length > 0 ? parseRegion(v.region.join(',')) : {};
    if (v.body !== undefined && !v['exclude-body']) throw new CliError('--body is the footprint --exclude-body leaves out: give --exclude-body with it', 2);
    if (v['exclude-body']) region.excludeBody = v.body !== undefined ? parseBody(v.body) : defaultBody();
    return Object.keys(region).length > 0 ? region : undefined;
  } catch (e) {
    if (e instanceof RegionSyntaxError) throw new CliError(`${e.where.startsWith('body') ? '--body' : '--region'}: ${e.where}: ${e.reason}`, 2);
    throw e;
  }
}

const fmt = (x: number | null | undefined, digits = 3) => (x === null || x === undefined ? '—' : x.toFixed(digits));

function summary(r: EvaluationMetrics & { evaluation: number }): string {
  const lines = [
    `evaluation ${r.evaluation}: ${r.packets} packets paired (${r.unpairedPackets.real} real and ${r.unpairedPackets.sim} simulated without a partner)`,
    `  packet error ${fmt(r.packetError)} m, point-cloud error ${fmt(r.pointCloudError)} m`,
    `  precision ${fmt(r.precision)}, recall ${fmt(r.recall)}, F1 ${fmt(r.f1)} (${r.trueHits} true hits, ${r.falseHits} false hits, ${r.falseMisses} false misses)`,
  ];
  if (r.unpairedRays.real + r.unpairedRays.sim > 0) lines.push(`  rays without a partner: ${r.unpairedRays.real} real, ${r.unpairedRays.sim} simulated`);
  if (r.pairedFraction) lines.push(`  paired ${fmt(100 * r.pairedFraction.real, 1)} % of the real rays and ${fmt(100 * r.pairedFraction.sim, 1)} % of the simulated (${r.pairing ?? 'time'} pairing)`);
  if (r.region && r.region.spec !== 'everything') lines.push(`  region ${r.region.spec}: ${r.region.pairs} ray pairs scored`);
  for (const c of r.perClass ?? []) lines.push(`  class ${c.name}: ${c.realHits} real hits, recall ${fmt(c.recall)}, precision ${fmt(c.precision)}, point-cloud error ${fmt(c.pointCloudError)} m`);
  for (const b of r.byRange ?? []) lines.push(`  range ${b.fromM}–${b.toM} m: ${b.realHits} real hits, recall ${fmt(b.recall)}, precision ${fmt(b.precision)}, median range error ${fmt(b.rangeErrorMedianM)} m`);
  if (r.staticScan) lines.push(`  static scans: Bhattacharyya ${fmt(r.staticScan.bhattacharyya)}, histogram match ${fmt(r.staticScan.histogramMatch)} (${r.staticScan.bearings} bearings)`);
  return lines.join('\n');
}

function listLine(e: EvaluationInfo): string {
  const m = e.metrics;
  return `${e.id}\tlog ${e.realLogId} vs run ${e.runId}\tpacket error ${fmt(m.packetError)} m, F1 ${fmt(m.f1)}, point-cloud error ${fmt(m.pointCloudError)} m`;
}

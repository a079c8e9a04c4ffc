import { resolve } from 'node:path';
import { LOG_FORMATS, type LogFormat } from '../../../src-common/formats';
import type { AppServices } from '../../services/app-services';
import { requireProject, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { waitForJob } from '../wait-job';
import { mountFlags } from '../mount-flags';
import { parseScanRange, type ScanRange } from '../../../src-common/scan-range';

export async function importCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const file = args.positionals[1];
  if (!file) throw new CliError('import: give the FILE to import', 2);
  if (args.format && !(LOG_FORMATS as readonly string[]).includes(args.format)) {
    throw new CliError(`--format: unknown format "${args.format}" (known: ${LOG_FORMATS.join(', ')})`, 2);
  }
  const v = args.values;
  let scans: ScanRange | undefined;
  try {
    if (v.scans !== undefined) scans = parseScanRange(v.scans);
  } catch (e) {
    throw new CliError(`--${(e as Error).message}`, 2);
  }
  await services.call('project.open', { path: requireProject(args) });
  const { job } = await services.call('logs.importFile', {
    path: resolve(file),
    ...(args.format ? { format: args.format as LogFormat } : {}),
    ...(args.name ? { name: args.name } : {}),
    ...(v.profile ? { profileId: v.profile } : {}),
    ...(v.calibration ? { calibrationPath: resolve(v.calibration) } : {}),
    ...(v.model ? { sensorModel: v.model } : {}),
    ...(v.poses ? { posesPath: resolve(v.poses) } : {}),
    ...(v['no-misses'] ? { rebuildMisses: false } : {}),
    ...mountFlags(v),
    ...(scans ? { scans } : {}),
  });
  progress.job(job);
  const r = (await waitForJob(services, job.id, progress)) as Record<string, number | string | string[]>;
  // Warnings (a truncated file's dropped bytes) go to stderr even with --quiet: they change the data.
  const warnings = Array.isArray(r.warnings) ? r.warnings : [];
  for (const w of warnings) process.stderr.write(`thicket: warning: ${w}\n`);
  const json = {
    log: r.log, format: r.format, packets: r.packets, points: r.points, hits: r.hits, misses: r.misses,
    rebuiltMisses: r.rebuiltMisses, durationS: r.durationS,
    ...(r.scans !== undefined ? { scans: r.scans, scansInCapture: r.scansInCapture } : {}),
    warnings,
  };
  return { json, text: `imported ${file} as drive log ${r.log}: ${r.packets} packet(s), ${r.hits} hits, ${r.misses} misses${r.rebuiltMisses ? ` (${r.rebuiltMisses} rebuilt from the profile)` : ''}, ${Number(r.durationS).toFixed(2)} s (${r.format})` };
}

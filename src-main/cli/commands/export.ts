import { resolve } from 'node:path';
import { EXPORT_FORMATS, type ExportFormat } from '../../../src-common/formats';
import type { AppServices } from '../../services/app-services';
import { intFlag, requireProject, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { waitForJob } from '../wait-job';

/** `thicket export --project P (--run R | --log L) --format F --out PATH [--las-version 1.2|1.4] [--mcap-messages revolution|packet]` */
export async function exportCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const v = args.values;
  if (!!v.run === !!v.log) throw new CliError('export: give either --run ID or --log ID', 2);
  const format = args.format;
  if (!format || !(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new CliError(`--format: give one of ${EXPORT_FORMATS.join(', ')}`, 2);
  }
  if (!v.out) throw new CliError('--out PATH is required (a file; a folder for --format kitti)', 2);
  const lasVersion = v['las-version'];
  if (lasVersion !== undefined && (format !== 'las' || (lasVersion !== '1.2' && lasVersion !== '1.4'))) {
    throw new CliError(`--las-version: give 1.2 (point format 3) or 1.4 (point format 6) with --format las, got "${lasVersion}"`, 2);
  }
  const mcapMessages = v['mcap-messages'];
  if (mcapMessages !== undefined && (format !== 'mcap' || (mcapMessages !== 'revolution' && mcapMessages !== 'packet'))) {
    throw new CliError(`--mcap-messages: give revolution (one PointCloud2 a revolution) or packet with --format mcap, got "${mcapMessages}"`, 2);
  }
  const source = v.run ? { kind: 'run' as const, id: intFlag(v, 'run', 1)! } : { kind: 'log' as const, id: intFlag(v, 'log', 1)! };
  await services.call('project.open', { path: requireProject(args) });
  const { job } = await services.call('export.start', { source, format: format as ExportFormat, path: resolve(v.out), ...(v.force ? { force: true } : {}), ...(lasVersion ? { lasVersion } : {}), ...(mcapMessages ? { mcapMessages } : {}) });
  progress.job(job);
  const r = await waitForJob(services, job.id, progress);
  return { json: r, text: `exported ${source.kind} ${source.id} to ${String(r.out)}: ${String(r.points)} points in ${String(r.scans)} scan(s), ${String(r.files)} file(s)` };
}

import { resolve } from 'node:path';
import type { AppServices } from '../../services/app-services';
import { LABEL_FORMATS, type LabelFormat, type LabelVersionInfo } from '../../api/contract';
import { intFlag, numberFlag, requireProject, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { waitForJob } from '../wait-job';

const SUBCOMMANDS = ['list', 'import', 'export', 'compare', 'propose'] as const;

/**
 * `thicket annotation list|import|export|compare|propose --project P --log L …`: a drive log's
 * label versions, label files in and out, two versions compared, automatic proposals
 * (docs/labeling.md).
 */
export async function annotationCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const sub = args.positionals[1];
  if (!(SUBCOMMANDS as readonly string[]).includes(sub ?? '')) throw new CliError(`annotation: unknown subcommand "${sub ?? ''}" (known: ${SUBCOMMANDS.join(', ')})`, 2);
  const v = args.values;
  if (v.log === undefined) throw new CliError(`annotation ${sub}: --log ID is required`, 2);
  const logId = intFlag(v, 'log', 1)!;
  const format = args.format as LabelFormat | undefined;
  if (format !== undefined && !(LABEL_FORMATS as readonly string[]).includes(format)) {
    throw new CliError(`annotation ${sub}: --format ${format} is not a label format (${LABEL_FORMATS.join(', ')})`, 2);
  }
  const mapName = v['class-map-name'];
  if (mapName !== undefined && mapName !== 'rellis3d' && mapName !== 'semantic-kitti') {
    throw new CliError(`annotation ${sub}: --class-map-name ${mapName} is not a built-in class map (rellis3d, semantic-kitti)`, 2);
  }
  const labelVersion = intFlag(v, 'label-version', 1);
  await services.call('project.open', { path: requireProject(args) });
  const line = (x: LabelVersionInfo) =>
    `version ${x.version} (${x.source}${x.author ? `, ${x.author}` : ''}) ${x.createdAt}: ${x.labelled} of ${x.points} returns labelled, ${x.objects} object(s)${x.changed === null ? '' : `, ${x.changed} changed`}${x.note ? ` — ${x.note}` : ''}`;

  if (sub === 'list') {
    const versions = await services.call('labels.versions', { logId });
    return { json: { log: logId, versions }, text: versions.length ? versions.map(line).join('\n') : `drive log ${logId} has no saved labels` };
  }
  if (sub === 'import') {
    const file = args.positionals[2];
    if (!file) throw new CliError('annotation import: give the label file (thicket annotation import FILE --log L)', 2);
    const info = await services.call('labels.import', {
      logId, path: resolve(file), ...(format ? { format } : {}),
      ...(v['class-map'] ? { classMap: resolve(v['class-map']) } : {}), ...(mapName ? { classMapName: mapName } : {}),
      ...(v.calibration ? { calibration: resolve(v.calibration) } : {}),
    });
    return { json: info as unknown as Record<string, unknown>, text: `drive log ${logId}: ${line(info)}` };
  }
  if (sub === 'export') {
    if (!v.out) throw new CliError('annotation export: --out FILE is required', 2);
    if (!format) throw new CliError(`annotation export: --format is required (${LABEL_FORMATS.join(', ')})`, 2);
    const r = await services.call('labels.export', {
      logId, path: resolve(v.out), format, force: v.force ?? false, ...(labelVersion ? { version: labelVersion } : {}),
      ...(v.calibration ? { calibration: resolve(v.calibration) } : {}),
    });
    return { json: r, text: `wrote ${r.path}: labels of ${r.points} returns, ${r.bytes} bytes` };
  }
  if (sub === 'compare') {
    const pair = (v.versions ?? '').split(',').map((s) => Number(s.trim()));
    if (pair.length !== 2 || !pair.every((x) => Number.isInteger(x) && x >= 1)) throw new CliError('annotation compare: --versions A,B (two version numbers) is required', 2);
    const c = await services.call('labels.compare', { logId, a: pair[0]!, b: pair[1]! });
    const rows = c.perClass.map((p) => `  class ${p.class}: ${p.a} → ${p.b}, agreement ${p.agreement.toFixed(3)}`).join('\n');
    return { json: c as unknown as Record<string, unknown>, text: `versions ${c.a} and ${c.b}: ${c.classChanged} of ${c.points} returns change class, ${c.objectChanged} change object; agreement ${c.overallAgreement.toFixed(3)}\n${rows}` };
  }
  const minHeight = numberFlag(v, 'min-height', 0, 5);
  const { job } = await services.call('labels.propose', { logId, ...(minHeight !== undefined ? { minHeight } : {}) });
  progress.job(job);
  const r = (await waitForJob(services, job.id, progress)) as { version: number; ground: number; objects: number; unclassified: number };
  return { json: r, text: `drive log ${logId}: proposed version ${r.version} — ${r.ground} ground returns, ${r.objects} objects classed by size (${r.unclassified} clusters too low to class)` };
}

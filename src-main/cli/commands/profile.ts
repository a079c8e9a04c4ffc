/**
 * `thicket profile import FILE [--project P] [--id ID] [--name NAME] [--model M] [--json]`
 * `thicket profile list [--project P] [--json]`
 * `thicket profile show ID [--project P] [--json]`
 *
 * `import` and `show` print the profile in the file form (ProfileFile: degrees, ms, mrad),
 * so `thicket profile show vlp16 --json > my.json` gives a file that edits and imports back.
 * `import` saves into the project when --project is given; without it, it only converts. The
 * sensor model is detected from the file; --model states it (src-worker/sensors/models.ts).
 */
import { resolve } from 'node:path';
import type { AppServices } from '../../services/app-services';
import type { CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { readProfileFile } from '../../services/profiles-service';
import type { ProfileSummary } from '../../api/contract';
import type { ProfileFile } from '../../../src-common/sensor-profile';
import { toProfileFile } from '../../../src-common/sensor-profile-schema';

const deg = (x: number) => `${Number(x.toFixed(2))}°`;

function describe(f: ProfileFile): string {
  const lasers = f.groups.reduce((n, g) => n + g.lasers.length, 0);
  const elev = f.groups.flatMap((g) => g.lasers.map((l) => l.elevation));
  return [
    `${f.id}: ${f.name}`,
    `  ${f.kind}, ${lasers} laser${lasers === 1 ? '' : 's'} in ${f.groups.length} group${f.groups.length === 1 ? '' : 's'}, ${f.rotationHz} Hz, elevation ${deg(Math.min(...elev))} … ${deg(Math.max(...elev))}`,
    `  range ${f.range.min}–${f.range.max} m, ${f.beam.shape} beam ${f.beam.divergenceH} × ${f.beam.divergenceV} mrad, ${f.returns.mode} return`,
    `  source: ${f.source || '—'}`,
    f.description ? `  ${f.description}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

export async function profileCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const sub = args.positionals[1];
  const id = args.values.id;
  if (args.project && sub !== undefined) await services.call('project.open', { path: args.project });

  if (sub === 'import') {
    const file = args.positionals[2];
    if (!file) throw new CliError('profile import: give the calibration FILE (ROS velodyne .yaml, Velodyne db.xml, Ouster metadata .json)', 2);
    const path = resolve(file);
    const model = args.values.model;
    let fileForm: ProfileFile;
    if (args.project) {
      const saved = await services.call('profiles.import', { path, ...(id ? { id } : {}), ...(args.name ? { name: args.name } : {}), ...(model ? { model } : {}) });
      fileForm = await services.call('profiles.getFile', { id: saved.id });
      progress.note(`saved profile "${saved.id}" in ${args.project}`);
    } else {
      const { profile, format, model: detected } = await readProfileFile(services.pools, path, { ...(id ? { id } : {}), ...(args.name ? { name: args.name } : {}), ...(model ? { model } : {}) });
      fileForm = toProfileFile(profile);
      progress.note(`read ${file} (${format}, model ${detected}${model ? ', stated' : ''}); not saved (give --project FILE to save it)`);
    }
    return { json: fileForm, text: describe(fileForm) };
  }

  if (sub === 'list') {
    const profiles: ProfileSummary[] = await services.call('profiles.list', {});
    const text = profiles
      .map((p) => `${p.builtin ? 'built-in' : 'custom  '}  ${p.id.padEnd(22)} ${p.name.padEnd(34)} ${`${p.lasers} laser${p.lasers === 1 ? ' ' : 's'}`.padStart(10)}  ${String(p.rotationHz).padStart(5)} Hz  ${p.rangeMax} m`)
      .join('\n');
    return { json: { profiles }, text: text || 'no profiles' };
  }

  if (sub === 'show') {
    const which = args.positionals[2] ?? id;
    if (!which) throw new CliError('profile show: give the profile ID (see `thicket profile list`)', 2);
    const fileForm = await services.call('profiles.getFile', { id: which });
    return { json: fileForm, text: describe(fileForm) };
  }

  throw new CliError(`profile: unknown subcommand "${sub ?? ''}" (expected import, list or show)`, 2);
}

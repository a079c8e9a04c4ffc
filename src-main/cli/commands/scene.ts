import { SCENE_KINDS, type SceneKind } from '../../api/contract';
import type { AppServices } from '../../services/app-services';
import { intFlag, paramFlags, requireProject, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { waitForJob } from '../wait-job';

export async function sceneCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const sub = args.positionals[1];
  await services.call('project.open', { path: requireProject(args) });
  if (sub === 'list') {
    const scenes = await services.call('scenes.list', {});
    return { json: { scenes }, text: scenes.map((s) => `${s.id}\t${s.name}`).join('\n') || 'no scenes' };
  }
  if (sub !== 'generate') throw new CliError(`scene: unknown subcommand "${sub ?? ''}" (expected generate or list)`, 2);
  const kind = args.values.kind ?? 'offroad';
  if (!(SCENE_KINDS as readonly string[]).includes(kind)) throw new CliError(`--kind: unknown scene kind "${kind}" (known: ${SCENE_KINDS.join(', ')})`, 2);
  const seed = intFlag(args.values, 'seed') ?? 1;
  const { job } = await services.call('scenes.generate', { kind: kind as SceneKind, seed, params: paramFlags(args.values), ...(args.name ? { name: args.name } : {}) });
  const result = await waitForJob(services, job.id, progress);
  return { json: result, text: `scene ${result.scene}: ${String(result.name)}` };
}

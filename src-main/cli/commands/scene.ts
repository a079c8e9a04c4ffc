import type { ComposeResult } from '../../api/contract';
import { SCENE_KINDS, SIMULATION_MODES, type SceneKind, type SimulationMode } from '../../../src-common/modes';
import type { AppServices } from '../../services/app-services';
import { intFlag, numberFlag, paramFlags, requireProject, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { waitForJob } from '../wait-job';
import { checkSceneParams } from '../../../src-common/scene-params';

export async function sceneCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const sub = args.positionals[1];
  await services.call('project.open', { path: requireProject(args) });
  if (sub === 'list') {
    const scenes = await services.call('scenes.list', {});
    return { json: { scenes }, text: scenes.map((s) => `${s.id}\t${s.name}`).join('\n') || 'no scenes' };
  }
  if (sub === 'compose') return composeScene(services, args, progress);
  if (sub !== 'generate') throw new CliError(`scene: unknown subcommand "${sub ?? ''}" (expected generate, compose or list)`, 2);
  const kind = args.values.kind ?? 'offroad';
  if (!(SCENE_KINDS as readonly string[]).includes(kind)) throw new CliError(`--kind: unknown scene kind "${kind}" (known: ${SCENE_KINDS.join(', ')})`, 2);
  const seed = intFlag(args.values, 'seed') ?? 1;
  const { job } = await services.call('scenes.generate', { kind: kind as SceneKind, seed, params: paramFlags(args.values, 'param', (p) => checkSceneParams(kind as SceneKind, p)), ...(args.name ? { name: args.name } : {}) });
  const result = await waitForJob(services, job.id, progress);
  return { json: result, text: `scene ${result.scene}: ${String(result.name)}` };
}

/**
 * `thicket scene compose --project P --annotation A [--library hybrid|mesh] [--mode M]
 * (--ground-model M | --ground-z Z) [--from-models 1,2] [--name N]`: a scene from an annotation
 * and the primitive library; prints {scene, mode, entries, primitivesUsed, fallbacks, missing}.
 */
async function composeScene(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const v = args.values;
  const annotationId = intFlag(v, 'annotation', 1);
  if (annotationId === undefined) throw new CliError('--annotation A is required (the demo stores one per drive: `thicket project info`)', 2);
  const library = v.library ?? 'hybrid';
  if (library !== 'hybrid' && library !== 'mesh') throw new CliError(`--library: expected hybrid or mesh, got "${library}"`, 2);
  const mode = v.mode;
  if (mode !== undefined && !(SIMULATION_MODES as readonly string[]).includes(mode)) throw new CliError(`--mode: unknown mode "${mode}" (known: ${SIMULATION_MODES.join(', ')})`, 2);
  const groundModelId = intFlag(v, 'ground-model', 1);
  const groundZ = numberFlag(v, 'ground-z');
  if ((groundModelId === undefined) === (groundZ === undefined)) throw new CliError('give --ground-model M (a fitted model) or --ground-z Z (flat ground), one of them', 2);
  const fromModels = v['from-models']?.split(',').map((x) => {
    const n = Number(x.trim());
    if (!Number.isInteger(n) || n < 1) throw new CliError(`--from-models: expected model ids like 1,2, got "${v['from-models']}"`, 2);
    return n;
  });
  const { job } = await services.call('scenes.compose', {
    annotationId,
    library,
    ...(mode !== undefined ? { mode: mode as SimulationMode } : {}),
    ...(groundModelId !== undefined ? { groundModelId } : { groundZ: groundZ! }),
    ...(fromModels ? { fromModels } : {}),
    ...(args.name ? { name: args.name } : {}),
  });
  const r = (await waitForJob(services, job.id, progress)) as unknown as ComposeResult;
  return {
    json: r as unknown as Record<string, unknown>,
    text: `scene ${r.scene} (${r.mode}): ${r.entries} entries from ${r.primitivesUsed} primitives${r.fallbacks.length ? `, ${r.fallbacks.length} fallbacks` : ''}${r.missing.length ? `, ${r.missing.length} entries left out` : ''}`,
  };
}

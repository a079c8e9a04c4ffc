import { SIMULATION_MODES, type SimulationMode, type TrajectorySpec } from '../../api/contract';
import type { AppServices } from '../../services/app-services';
import { intFlag, numberFlag, requireProject, vec3Flag, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { waitForJob } from '../wait-job';

export async function simulateCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const v = args.values;
  const sceneId = intFlag(v, 'scene', 1);
  const modelId = intFlag(v, 'model', 1);
  if (sceneId === undefined && modelId === undefined) {
    throw new CliError('--scene S is required (a scene id: `thicket scene list`), or --model M (a fitted model: `thicket fit list`)', 2);
  }
  if (sceneId !== undefined && modelId !== undefined) throw new CliError('give --scene S or --model M, not both', 2);
  if (!v.profile) throw new CliError('--profile ID is required (e.g. vlp16, hdl32e, hdl64e, lms291: `thicket profile list`)', 2);
  const mode = v.mode ?? 'hybrid';
  if (!(SIMULATION_MODES as readonly string[]).includes(mode)) throw new CliError(`--mode: unknown mode "${mode}" (known: ${SIMULATION_MODES.join(', ')})`, 2);
  const seconds = numberFlag(v, 'seconds', 1e-6, 3600);
  const posesFrom = intFlag(v, 'poses-from', 1);
  let trajectory: TrajectorySpec;
  if (v.trail) {
    trajectory = { kind: 'trail', speed: numberFlag(v, 'speed', 0.01, 60) ?? 2.4, ...(seconds !== undefined ? { seconds } : {}) };
  } else if (posesFrom !== undefined) {
    trajectory = { kind: 'log', logId: posesFrom, ...(seconds !== undefined ? { seconds } : {}) };
  } else {
    const speed = numberFlag(v, 'speed', 0, 60) ?? 0;
    const start = vec3Flag(v, 'start') ?? [0, 0, 0];
    const headingDeg = numberFlag(v, 'heading') ?? 0;
    trajectory = speed > 0
      ? { kind: 'straight', seconds: seconds ?? 1, start, headingDeg, speed }
      : { kind: 'static', seconds: seconds ?? 0.1, position: start, headingDeg };
  }
  const sampler = v['range-sampler'];
  if (sampler !== undefined && sampler !== 'gaussian-point' && sampler !== 'along-ray') throw new CliError(`--range-sampler: expected gaussian-point or along-ray, got "${sampler}"`, 2);
  await services.call('project.open', { path: requireProject(args) });
  const { job } = await services.call('simulate.start', {
    ...(sceneId !== undefined ? { sceneId } : { modelId }),
    profileId: v.profile,
    mode: mode as SimulationMode,
    seed: intFlag(v, 'seed') ?? 1,
    trajectory,
    ...(args.name ? { name: args.name } : {}),
    ...(v['batch-packets'] ? { batchPackets: intFlag(v, 'batch-packets', 1, 100_000)! } : {}),
    ...(sampler ? { rangeSampler: sampler } : {}),
  });
  const r = await waitForJob(services, job.id, progress);
  return {
    json: r,
    text: `run ${r.run}: ${r.packets} packets, ${r.rays} rays, ${r.hits} hits, ${r.misses} misses over ${Number(r.durationS).toFixed(3)} s`,
  };
}

import type { TrajectorySpec } from '../../api/contract';
import { SIMULATION_MODES, type SimulationMode } from '../../../src-common/modes';
import type { AppServices } from '../../services/app-services';
import { intFlag, numberFlag, requireProject, vec3Flag, type CommonArgs } from '../args';
import { CliError } from '../cli-error';
import type { CommandOutput } from '../output';
import type { ProgressReporter } from '../progress';
import { waitForJob } from '../wait-job';
import { mountFlags } from '../mount-flags';

export async function simulateCommand(services: AppServices, args: CommonArgs, progress: ProgressReporter): Promise<CommandOutput> {
  const v = args.values;
  const sceneId = intFlag(v, 'scene', 1);
  const modelId = intFlag(v, 'model', 1);
  const neighbourLogId = intFlag(v, 'neighbour-log', 1);
  const sources = [sceneId, modelId, neighbourLogId].filter((s) => s !== undefined).length;
  if (sources === 0) {
    throw new CliError('--scene S is required (a scene id: `thicket scene list`), or --model M (a fitted model: `thicket fit list`), or --neighbour-log L (a drive log to replay)', 2);
  }
  if (sources > 1) throw new CliError('give one of --scene S, --model M or --neighbour-log L', 2);
  const raysFrom = intFlag(v, 'rays-from', 1);
  if (raysFrom !== undefined) {
    // The log's own rays are fired from the log's own sensor poses: nothing places the sensor.
    const clash = (['mount', 'extrinsic', 'extrinsic-inverse', 'poses-from', 'trail', 'speed', 'start', 'heading', 'seconds'] as const).filter((k) => v[k] !== undefined && v[k] !== false);
    if (clash.length) throw new CliError(`--rays-from LOG fires that log's own rays from its own sensor poses: ${clash.map((k) => `--${k}`).join(', ')} does not apply`, 2);
  }
  if (!v.profile && raysFrom === undefined) throw new CliError('--profile ID is required (e.g. vlp16, hdl32e, hdl64e, lms291: `thicket profile list`)', 2);
  // The neighbour simulator is its own mode: --neighbour-log implies it.
  const mode = v.mode ?? (neighbourLogId !== undefined ? 'neighbour' : 'hybrid');
  if (!(SIMULATION_MODES as readonly string[]).includes(mode)) throw new CliError(`--mode: unknown mode "${mode}" (known: ${SIMULATION_MODES.join(', ')})`, 2);
  if ((mode === 'neighbour') !== (neighbourLogId !== undefined)) throw new CliError('--mode neighbour goes with --neighbour-log L (and --neighbour-log with it)', 2);
  const neighbourRadius = numberFlag(v, 'neighbour-radius', 1e-3, 5);
  if (neighbourRadius !== undefined && neighbourLogId === undefined) throw new CliError('--neighbour-radius applies to --neighbour-log only', 2);
  const neighbourLeaveOutS = numberFlag(v, 'neighbour-leave-out', 0, 3600);
  if (neighbourLeaveOutS !== undefined && neighbourLogId === undefined) throw new CliError('--neighbour-leave-out applies to --neighbour-log only', 2);
  const rangeNoiseSigma = numberFlag(v, 'range-noise', 0, 10);
  const seconds = numberFlag(v, 'seconds', 1e-6, 3600);
  const posesFrom = intFlag(v, 'poses-from', 1);
  let trajectory: TrajectorySpec | undefined;
  if (raysFrom !== undefined) {
    trajectory = undefined;
  } else if (v.trail) {
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
    ...(sceneId !== undefined ? { sceneId } : modelId !== undefined ? { modelId } : { neighbourLogId }),
    ...(neighbourRadius !== undefined ? { neighbourRadius } : {}),
    ...(neighbourLeaveOutS !== undefined ? { neighbourLeaveOutS } : {}),
    ...(rangeNoiseSigma !== undefined ? { rangeNoiseSigma } : {}),
    ...(v.profile ? { profileId: v.profile } : {}),
    mode: mode as SimulationMode,
    seed: intFlag(v, 'seed') ?? 1,
    ...(trajectory ? { trajectory } : { raysFromLogId: raysFrom }),
    ...mountFlags(v),
    ...(args.name ? { name: args.name } : {}),
    ...(v['batch-packets'] ? { batchPackets: intFlag(v, 'batch-packets', 1, 100_000)! } : {}),
    ...(sampler ? { rangeSampler: sampler } : {}),
  });
  const r = await waitForJob(services, job.id, progress);
  return {
    json: r,
    text: `run ${r.run}: ${r.packets} packets, ${r.rays} rays, ${r.hits} hits, ${r.misses} misses over ${Number(r.durationS).toFixed(3)} s${r.raysFromLogId !== undefined ? ` (the rays of drive log ${r.raysFromLogId})` : ''}`,
  };
}

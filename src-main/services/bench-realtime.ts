/**
 * Real-time factors (simulated seconds per wall second) of every built-in profile in hybrid and
 * physics modes, driving the composed 200 m off-road strip's trail at 2.4 m/s. Batches run on
 * the pool exactly as `thicket simulate` runs them (scene in shared memory, fixed batches).
 */
import type { Piscina } from 'piscina';
import { runTransient } from '../jobs/job-runner';
import type { GeneratedScene } from '../../src-worker/tasks/generate-scene';
import type { SimulateBatchInput } from '../../src-worker/tasks/simulate-batch';
import type { SensorProfile } from '../../src-common/sensor-profile';
import { packetDurationOf } from '../../src-common/profile-timing';
import { builtinProfiles } from '../../src-common/builtin-profiles';
import { shareScene, toShared } from './scene-store';
import { trailTrajectory } from './trajectories';

export interface RealtimeFigure {
  profile: string;
  mode: 'hybrid' | 'physics';
  factor: number;
  simulatedSeconds: number;
  wallSeconds: number;
  rays: number;
}

async function generate(pool: Piscina, mesh: boolean, seed: number): Promise<GeneratedScene> {
  const { outputs } = await runTransient(pool, 'generate-scene', { kind: 'hybrid-strip', seed, params: { lengthM: 200, ...(mesh ? { mesh: 1 } : {}) } });
  return outputs.get('scene') as GeneratedScene;
}

const REALTIME_DEFAULT = ['vlp16', 'hdl32e', 'hdl64e', 'lms291-180-1', 'lms291-180-05', 'lms291-100-1', 'lms291-100-05', 'lms291-100-025'];

export async function benchRealtime(
  pool: Piscina,
  opts: { seconds?: number; seed?: number; profiles?: string[] },
  progress: (msg: string) => void,
): Promise<RealtimeFigure[]> {
  const seconds = opts.seconds ?? 1;
  const seed = opts.seed ?? 1;
  progress('realtime: building the composed 200 m strip (hybrid and mesh)');
  const scenes = { hybrid: await generate(pool, false, seed), physics: await generate(pool, true, seed) } as const;
  const shared = { hybrid: await shareScene(pool, scenes.hybrid.data), physics: await shareScene(pool, scenes.physics.data) };
  const trail = scenes.hybrid.meta.trail as number[][];
  const trajectory = toShared(trailTrajectory(trail, 2.4));
  // By default the sensors of docs/benchmarks.md's table (the LMS-291 modes, VLP-16, HDL-32E, HDL-64E), not every built-in.
  const profiles: SensorProfile[] = builtinProfiles().filter((p) => (opts.profiles ?? REALTIME_DEFAULT).includes(p.id));
  const out: RealtimeFigure[] = [];
  for (const profile of profiles) {
    for (const mode of ['hybrid', 'physics'] as const) {
      progress(`realtime: ${profile.id} ${mode}`);
      const duration = packetDurationOf(profile);
      const packets = Math.max(1, Math.round(seconds / duration));
      const batch = Math.max(1, Math.ceil(packets / (4 * pool.options.maxThreads)));
      const base: Omit<SimulateBatchInput, 'firstPacket' | 'packetCount'> = {
        scene: shared[mode],
        profile,
        trajectory,
        mountOverride: [0, 0, 0, 0, 0, 0, 1],
        mode,
        seed,
        rangeSampler: 'along-ray',
      };
      // Warm every worker (JIT, BVH wrapper, scan pattern) so the figure is the steady state of a
      // long drive, not the first batch's start-up: one small batch per thread, all at once.
      const threads = pool.options.maxThreads;
      await Promise.all(Array.from({ length: threads }, (_, k) => runTransient(pool, 'simulate-batch', { ...base, firstPacket: k * 4, packetCount: 4 })));
      const t0 = performance.now();
      const runs = [];
      for (let first = 0; first < packets; first += batch) {
        runs.push(runTransient(pool, 'simulate-batch', { ...base, firstPacket: first, packetCount: Math.min(batch, packets - first) }));
      }
      const results = await Promise.all(runs);
      const wall = (performance.now() - t0) / 1000;
      const rays = results.reduce((a, r) => a + (r.result as { rays: number }).rays, 0);
      const simulated = packets * duration;
      out.push({ profile: profile.id, mode, factor: Math.round((simulated / wall) * 100) / 100, simulatedSeconds: simulated, wallSeconds: Math.round(wall * 1000) / 1000, rays });
    }
  }
  return out;
}

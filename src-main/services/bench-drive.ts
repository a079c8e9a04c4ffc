/**
 * How fast a live drive runs against the clock (docs/studies.md, "Live drives"), printed by
 * `thicket bench --only drive`: in a temporary project, a generated off-road scene (100 m, its
 * trail), one sensor at a time drives from the scene's default start toward its goal for
 * `seconds` simulated seconds in each mode, and the bench times the job from drive.start to its
 * end and to the first frame on the host's events. A factor ≥ 1 keeps up with real time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppServices } from './app-services';

export interface DriveBench {
  scene: string;
  seconds: number;
  results: { profile: string; mode: 'hybrid' | 'physics'; simulatedSeconds: number; wallSeconds: number; factor: number; firstFrameSeconds: number }[];
}

export async function benchDrive(services: AppServices, opts: { seconds?: number; profiles?: string[] }, progress: (m: string) => void): Promise<DriveBench> {
  const seconds = opts.seconds ?? 10;
  const profiles = opts.profiles ?? ['vlp16', 'hdl32e', 'hdl64e'];
  const dir = mkdtempSync(join(tmpdir(), 'thicket-bench-drive-'));
  try {
    await services.call('project.create', { path: join(dir, 'bench-drive.thicket') });
    progress('drive: generating a 100 m off-road scene');
    const gen = await services.call('scenes.generate', { kind: 'offroad', seed: 1, params: { sizeM: 100, targetTriangles: 500_000 } });
    const done = await services.whenJobSettled(gen.job.id);
    if (done.state !== 'done') throw new Error(`bench: the scene was not generated (${done.error ?? done.state})`);
    const sceneId = Number(done.result!.scene);
    const results: DriveBench['results'] = [];
    for (const mode of ['hybrid', 'physics'] as const) {
      for (const profile of profiles) {
        progress(`drive: ${profile}, ${mode}, ${seconds} s`);
        let last = 0, first = 0;
        const t0 = performance.now();
        const off = services.onEvent((e) => {
          if (e.type !== 'drive') return;
          last = Math.max(last, e.frame.time);
          if (!first) first = performance.now();
        });
        try {
          const { job } = await services.call('drive.start', { definition: { sceneId, seconds, simulation: mode, sensors: [{ profileId: profile }], cloudBudget: 60_000 } });
          const end = await services.whenJobSettled(job.id);
          if (end.state !== 'done') throw new Error(`bench: the ${profile} drive ended ${end.state}: ${end.error ?? ''}`);
        } finally {
          off();
        }
        const wall = (performance.now() - t0) / 1000;
        results.push({ profile, mode, simulatedSeconds: +last.toFixed(2), wallSeconds: +wall.toFixed(2), factor: +(last / wall).toFixed(2), firstFrameSeconds: +((first - t0) / 1000).toFixed(2) });
      }
    }
    return { scene: 'offroad 100 m (seed 1, 500,000 triangles)', seconds, results };
  } finally {
    await services.call('project.close', {}).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cliTempHome, openCliServices, runCli, runCliOk } from '../../helpers/cli';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import type { AppServices } from '../../../src-main/services/app-services';
import type { RealExperiment } from '../../../src-main/services/real-experiment';

const tmp = cliTempHome();
const { env } = tmp;
const PCAP = dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3.pcap');
const META = dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10.json');
const POSES = dataFile('ouster_sdk/OS-1-128_v2.3.0_1024x10_lb_n3_poses_kitti.txt');

/**
 * The real-data experiment on a real capture: the three-scan OS1-128 recording with its per-scan
 * SLAM poses, split into scans 1–2 (training) and scan 3 (test), as docs/fitting-and-primitives.md
 * describes it.
 */
describe.skipIf(!HAS_SHARED_DATA)('thicket experiment on a real capture (ouster-sdk lb_n3: fit scans 1–2, predict scan 3)', () => {
  const project = join(tmp.dir, 'real.thicket');
  let x: RealExperiment;
  let services: AppServices;
  let profile: string;

  beforeAll(async () => {
    runCliOk(['project', 'create', '--project', project, '--json'], env);
    runCliOk(['import', PCAP, '--calibration', META, '--poses', POSES, '--project', project, '--json'], env);
    runCliOk(['log', 'split', '--project', project, '--log', '1', '--at', '3', '--json'], env);
    // No --profile: each log's own sensor is the profile its calibration made at import.
    x = runCliOk(['experiment', '--project', project, '--train', '2', '--test', '3', '--json'], env).json as RealExperiment;
    services = await openCliServices(env.THICKET_HOME, project);
    profile = (await services.call('logs.get', { id: 1 })).profileId!;
  }, 300_000);
  afterAll(async () => services?.close());

  it('keeps the calibration that decoded the capture as the log\'s profile, once however often it is imported', async () => {
    expect(profile).toBe('os-1-128-v2-3-0-1024x10');
    const again = runCliOk(['import', PCAP, '--calibration', META, '--scans', '1:1', '--project', project, '--json'], env).json as { log: number };
    expect((await services.call('logs.get', { id: again.log })).profileId).toBe(profile);
    const stored = (await services.call('profiles.list', {})).filter((p) => p.id.startsWith('os-1-128-v2-3-0-1024x10'));
    expect(stored.map((p) => p.id)).toEqual([profile]);
    // The split logs carry it too, and the experiment simulated with it.
    for (const id of [2, 3]) expect((await services.call('logs.get', { id })).profileId).toBe(profile);
    expect(x.profileId).toBeNull();
  });

  it('prints a row per simulator and the self-check, every run simulated from the scored log\'s own rays', async () => {
    expect(x.table.map((r) => r.simulator)).toEqual(['hybrid', 'voxel', 'mesh', 'neighbour']);
    const runs = await services.call('runs.list', {});
    for (const r of [...x.table, x.selfCheck]) {
      for (const v of [r.precision, r.recall, r.f1]) expect(v! > 0.3 && v! <= 1).toBe(true);
      expect(r.pointCloudError!).toBeGreaterThan(0);
      const run = runs.find((u) => u.id === r.run)!;
      expect(run.mode).toBe(r.simulator);
      const evaluation = await services.call('evaluations.get', { id: r.evaluation });
      expect(evaluation.runId).toBe(r.run);
    }
    // Scan 3 is 64 packets and every one of them pairs; the self-check scores the 128 of scans 1–2.
    for (const r of x.table) expect(r.packets).toBe(64);
    expect(x.selfCheck.packets).toBe(128);
    expect(x.primitives.segments).toBeGreaterThan(0);
  });

  it('the learned hybrid model predicts the held-out scan far better than mesh primitives, and re-simulates its own scans', () => {
    const row = (s: string) => x.table.find((r) => r.simulator === s)!;
    const hybrid = row('hybrid'), mesh = row('mesh'), replay = row('neighbour');
    // Measured (seed 1, the defaults; docs/fitting-and-primitives.md): hybrid F1 0.957, point-cloud
    // error 0.108 m; replay 0.967 and 0.144 m; mesh 0.908 and 0.858 m; self-check precision
    // 0.984, recall 0.976. The goals: self-check ≥ 0.97 both; held-out point-cloud error no higher
    // than the replay's; F1 within 0.01 of it (met at 0.0100 here, 0.007 with θ's Mahalanobis
    // limit 4.5: the next test) — asserted with 0.003 for sampling on other platforms.
    expect(hybrid.f1!).toBeGreaterThan(mesh.f1!);
    expect(hybrid.pointCloudError!).toBeLessThan(0.5 * mesh.pointCloudError!);
    expect(hybrid.pointCloudError!).toBeLessThan(replay.pointCloudError!);
    expect(hybrid.f1!).toBeGreaterThan(replay.f1! - 0.013);
    expect(x.selfCheck.precision!).toBeGreaterThanOrEqual(0.97);
    expect(x.selfCheck.recall!).toBeGreaterThanOrEqual(0.97);
  });

  it('with θ\'s Mahalanobis limit 4.5 the held-out F1 is within 0.01 of the replay\'s', () => {
    const y = runCliOk(['experiment', '--project', project, '--train', '2', '--test', '3', '--fit-param', 'mahalanobisThreshold=4.5', '--risk-samples', '0', '--json'], env).json as RealExperiment;
    const row = (s: string) => y.table.find((r) => r.simulator === s)!;
    // Measured (seed 1): 0.959 against 0.967, point-cloud error 0.108 m against 0.144 m; self-check 0.982 / 0.977.
    expect(row('hybrid').f1!).toBeGreaterThanOrEqual(row('neighbour').f1! - 0.01);
    expect(row('hybrid').pointCloudError!).toBeLessThan(row('neighbour').pointCloudError!);
    expect(y.selfCheck.precision!).toBeGreaterThanOrEqual(0.97);
    expect(y.selfCheck.recall!).toBeGreaterThanOrEqual(0.97);
  }, 120_000);

  it('refuses the same log as training and test, and a log that does not exist, storing nothing', async () => {
    const before = (await services.call('project.current', {}))!.counts;
    const same = runCli(['experiment', '--project', project, '--train', '2', '--test', '2', '--json'], env);
    expect(same.status).toBe(1);
    expect((same.json as { error: string }).error).toMatch(/same log \(2\).*log split/);
    const missing = runCli(['experiment', '--project', project, '--train', '2', '--test', '99', '--json'], env);
    expect(missing.status).toBe(1);
    expect((missing.json as { error: string }).error).toMatch(/no drive log 99/);
    const badRegion = runCli(['experiment', '--project', project, '--train', '2', '--test', '3', '--region', 'azimuth=10', '--json'], env);
    expect(badRegion.status).toBe(2);
    expect((badRegion.json as { error: string }).error).toMatch(/--region: term "azimuth=10"/);
    // The API's experiments.run (the app's Predict a log…) refuses the same.
    await expect(services.call('experiments.run', { trainLogId: 2, testLogId: 2 })).rejects.toMatchObject({ code: 'bad_input' });
    const noTest = runCli(['experiment', '--project', project, '--train', '2'], env);
    expect(noTest.status).toBe(2);
    expect(noTest.stderr).toMatch(/--test LOG is required/);
    expect((await services.call('project.current', {}))!.counts).toEqual(before);
  });
});

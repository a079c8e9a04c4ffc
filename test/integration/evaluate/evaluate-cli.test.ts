/**
 * `thicket evaluate` end to end on the small demo: the test drive (a physics-mode HDL-32E log of
 * the reference site) against runs simulated along its own poses, against the other drive, and a
 * static scan against a static run; plus the usage and input errors.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { cliTempHome, runCli, runCliOk } from '../../helpers/cli';
import { expectBetween } from '../../helpers/expect';

const tmp = cliTempHome();
const { env } = tmp;

const ISSUE_KEYS = ['packets', 'packetError', 'precision', 'recall', 'f1', 'pointCloudError'];

interface EvalJson {
  packets: number;
  packetError: number;
  precision: number;
  recall: number;
  f1: number;
  pointCloudError: number;
  evaluation: number;
  unpairedRays: { real: number; sim: number };
  unpairedPackets: { real: number; sim: number };
  seconds: number;
  bhattacharyya?: number | null;
  histogramMatch?: number | null;
}

/** `thicket ARGS --project <the test's project>`. */
const cli = (args: string[]) => runCli([...args, '--project', project], env);
/** `cli` that asserts the command exits 0. */
const cliOk = (args: string[]) => runCliOk([...args, '--project', project], env);

const project = join(tmp.dir, 'eval.thicket');
let logs: { log: number; packets: number }[];
let scene: number;

describe('thicket evaluate', () => {
  let same: EvalJson;
  let run: { run: number; packets: number; hits: number };

  beforeAll(() => {
    const d = cliOk(['demo', '--small', '--seed', '3', '--no-experiment', '--json']);
    const demo = d.json as { site: { scene: number }; logs: { log: number; packets: number }[] };
    logs = demo.logs;
    scene = demo.site.scene;
    // The test drive again, physics mode, another seed: only the range noise differs.
    const s = cliOk(['simulate', '--scene', String(scene), '--profile', 'hdl32e', '--mode', 'physics', '--poses-from', String(logs[1]!.log), '--seed', '9', '--json']);
    run = s.json as typeof run;
    const e = cliOk(['evaluate', '--real', String(logs[1]!.log), '--sim', String(run.run), '--json']);
    same = e.json as EvalJson;
  }, 180_000);

  it('prints the issue\'s keys, and the run along the log\'s own poses scores as nearly identical', () => {
    for (const k of ISSUE_KEYS) expect(same).toHaveProperty(k);
    expect(Object.keys(same)).toEqual(expect.arrayContaining([...ISSUE_KEYS, 'evaluation', 'unpairedRays', 'unpairedPackets', 'seconds']));
    // Every run packet pairs with the log packet of the same time (the run stops at the log's last pose).
    expect(same.packets).toBe(run.packets);
    expect(same.unpairedPackets.sim).toBe(0);
    expect(same.unpairedPackets.real).toBe(logs[1]!.packets - run.packets);
    expect(same.unpairedRays).toEqual({ real: 0, sim: 0 });
    // Same scene, same sensor, same rays: hits agree; true hits differ by the range noise (σ ≈ 2 cm for the HDL-32E).
    expect(same.precision).toBeGreaterThan(0.98);
    expect(same.recall).toBeGreaterThan(0.98);
    expect(same.f1).toBeGreaterThan(0.98);
    expectBetween(same.packetError, 0.001, 0.08);
    expectBetween(same.pointCloudError, 0, 0.08);
    // A moving sensor: no static-scan distances.
    expect(same).not.toHaveProperty('bhattacharyya');
  });

  it('scores a run of another drive as far worse, and lists both evaluations', () => {
    const e = cliOk(['evaluate', '--real', String(logs[0]!.log), '--sim', String(run.run), '--json', '--quiet']);
    const other = e.json as EvalJson;
    expect(other.packetError).toBeGreaterThan(10 * same.packetError);
    expect(other.pointCloudError).toBeGreaterThan(5 * same.pointCloudError);
    expect(other.f1).toBeLessThan(same.f1);
    const l = cliOk(['evaluate', 'list', '--json']);
    const list = (l.json as { evaluations: { id: number; realLogId: number; runId: number; metrics: EvalJson }[] }).evaluations;
    expect(list.map((x) => x.id)).toEqual(expect.arrayContaining([same.evaluation, other.evaluation]));
    const stored = list.find((x) => x.id === same.evaluation)!;
    expect(stored).toMatchObject({ realLogId: logs[1]!.log, runId: run.run });
    expect(stored.metrics.packetError).toBeCloseTo(same.packetError, 12);
  });

  it('static scans add the Bhattacharyya and histogram-match distances', () => {
    // A static run, one sweep of it exported as KITTI and imported as the "real" log at its pose.
    const s = cliOk(['simulate', '--scene', String(scene), '--profile', 'hdl32e', '--mode', 'physics', '--start', '0,0,0', '--seconds', '0.25', '--seed', '4', '--json', '--quiet']);
    const staticRun = (s.json as { run: number }).run;
    cliOk(['export', '--run', String(staticRun), '--format', 'kitti', '--out', join(tmp.dir, 'kitti'), '--json', '--quiet']);
    const poses = join(tmp.dir, 'pose.txt');
    writeFileSync(poses, '1 0 0 0 0 1 0 0 0 0 1 2\n'); // the HDL-32E's mount: 2 m up
    const i = cliOk(['import', join(tmp.dir, 'kitti', 'velodyne', '000000.bin'), '--format', 'kitti-bin', '--poses', poses, '--json', '--quiet']);
    const scan = (i.json as { log: number }).log;
    const second = cli(['simulate', '--scene', String(scene), '--profile', 'hdl32e', '--mode', 'physics', '--start', '0,0,0', '--seconds', '0.25', '--seed', '5', '--json', '--quiet']);
    const e = cliOk(['evaluate', '--real', String(scan), '--sim', String((second.json as { run: number }).run), '--json', '--quiet']);
    const m = e.json as EvalJson;
    for (const k of ISSUE_KEYS) expect(m).toHaveProperty(k);
    // The scan's misses were not exported (KITTI holds hits): the no-return bins differ, so the
    // distances are clearly above zero, yet finite.
    expectBetween(m.bhattacharyya, 0.01, 5);
    expect(m.histogramMatch).toBeGreaterThan(0);
    // One real packet (the scan, at time 0, its rays without firing times) pairs across the run's
    // packets by direction: every hit of the sweep finds the simulated ray of its beam.
    expect(m.packets).toBe(1);
    expect(m.unpairedRays.real).toBe(0);
    expect(m.unpairedPackets.real).toBe(0);
  });

  it('says clearly what is wrong with bad input', () => {
    const noSim = cli(['evaluate', '--real', '1']);
    expect(noSim.status).toBe(2);
    expect(noSim.stderr).toMatch(/--sim RUN is required/);
    const missing = cli(['evaluate', '--real', '99', '--sim', '1', '--json']);
    expect(missing.status).toBe(1);
    expect((missing.json as { error: string }).error).toMatch(/no drive log 99/);
    // Runs that share no time with the log (shifted by 100 s): a clear error, nothing stored.
    const before = (cli(['evaluate', 'list', '--json']).json as { evaluations: unknown[] }).evaluations.length;
    const apart = cli(['evaluate', '--real', String(logs[1]!.log), '--sim', '1', '--param', 'timeOffsetS=100', '--json']);
    expect(apart.status).toBe(1);
    expect((apart.json as { error: string }).error).toMatch(/no packet of the simulated run pairs with one of the real log/);
    expect((cli(['evaluate', 'list', '--json']).json as { evaluations: unknown[] }).evaluations.length).toBe(before);
    // An unknown --param is a usage error (exit 2), like an unknown flag.
    const badParam = cli(['evaluate', '--real', '1', '--sim', '1', '--param', 'bogus=1', '--json']);
    expect(badParam.status).toBe(2);
    expect((badParam.json as { error: string }).error).toMatch(/bogus/);
  });
});

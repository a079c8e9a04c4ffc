import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cliTempHome, openCliServices, runCli, runCliOk } from '../../helpers/cli';
import type { RiskResult } from '../../../src-common/application-risk';

const tmp = cliTempHome();
const { env } = tmp;

describe('thicket risk', () => {
  const project = join(tmp.dir, 'risk.thicket');
  let run = 0;

  beforeAll(() => {
    runCliOk(['demo', '--project', project, '--small', '--seed', '3', '--no-experiment', '--json', '--workers', '1'], env);
    // The test drive's own rays fired at the site's meshes: a simulation of log 2 ray for ray.
    const sim = runCliOk(['simulate', '--project', project, '--scene', '1', '--rays-from', '2', '--mode', 'mesh', '--json', '--workers', '1'], env);
    run = (sim.json as { run: number }).run;
  }, 180_000);

  it('scan matching: the risk is the mean |J(α, D) − J(α, D̂)| over the α drawn, with α̂* and J(α̂*, D); stored', async () => {
    const r = runCliOk(['risk', '--project', project, '--real', '2', '--sim', String(run), '--application', 'scan-matching', '--samples', '3', '--seed', '4', '--max-pairs', '2', '--json', '--workers', '1'], env);
    const x = r.json as RiskResult & { riskId: number };
    expect(x.application).toBe('scan-matching');
    expect(x.samples).toHaveLength(3);
    expect(x.extent.real).toBeGreaterThanOrEqual(1);
    for (const s of x.samples) {
      expect(Object.keys(s.alpha).sort()).toEqual(['iterations', 'logMinObjectiveChange', 'logVoxelSize', 'maxCorrespondenceDistance']);
      expect(s.loss).toBeCloseTo(Math.abs(s.jReal - s.jSim), 12);
      // Revolutions 0.1 s apart at a few m/s: a registration error of metres would be a broken matcher.
      expect(s.jReal).toBeLessThan(1);
      expect(s.jSim).toBeLessThan(1);
    }
    expect(x.risk).toBeCloseTo(x.samples.reduce((a, s) => a + s.loss, 0) / 3, 12);
    const best = x.samples.reduce((a, s) => (s.jSim < a.jSim ? s : a));
    expect(x.bestAlphaSim).toEqual(best.alpha);
    expect(x.jRealAtBestAlphaSim).toBe(best.jReal);
    const services = await openCliServices(env.THICKET_HOME, project);
    try {
      const stored = await services.call('risks.list', { runId: run });
      expect(stored.map((s) => s.id)).toContain(x.riskId);
      expect(stored.find((s) => s.id === x.riskId)!.risk).toBe(x.risk);
    } finally {
      await services.close();
    }
  }, 120_000);

  it('obstacles and ground on the same pair, seeded: the same seed gives the same samples', () => {
    for (const app of ['obstacles', 'ground']) {
      const args = ['risk', '--project', project, '--real', '2', '--sim', String(run), '--application', app, '--samples', '2', '--seed', '9', '--json', '--workers', '1'];
      const a = runCliOk(args, env).json as RiskResult;
      const b = runCliOk(args, env).json as RiskResult;
      expect(a.samples).toEqual(b.samples);
      expect(a.risk).toBeGreaterThanOrEqual(0);
    }
  }, 120_000);

  it('usage errors exit 2 and name the flag', () => {
    const base = ['risk', '--project', project, '--real', '2', '--sim', String(run)];
    const cases: [string[], RegExp][] = [
      [base, /--application is required/],
      [[...base, '--application', 'parking'], /--application: expected scan-matching, obstacles, ground/],
      [[...base, '--application', 'ground', '--samples', '0'], /--samples/],
      [[...base, '--application', 'ground', '--mode', 'mesh'], /unknown option --mode/],
      [['risk', '--project', project, '--sim', '1', '--application', 'ground'], /--real LOG is required/],
    ];
    for (const [args, message] of cases) {
      const r = runCli(args, env);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});

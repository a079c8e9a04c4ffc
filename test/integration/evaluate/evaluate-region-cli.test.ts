/**
 * `thicket evaluate`'s region, body, range-bin and pairing options end to end on a real scan
 * (../shared/data/overlapnet_kitti/000000.bin, one packet) against an HDL-64E revolution
 * simulated along its pose: what is scored, the errors of bad input (the project keeps no
 * evaluation for them), and the overlap warnings on stderr.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { cliTempHome, runCli, runCliOk } from '../../helpers/cli';
import { HAS_SHARED_DATA, dataFile } from '../../helpers/shared-data';
import type { ClassMetrics, RangeBinMetrics } from '../../../src-common/metrics';

const tmp = cliTempHome();
const project = join(tmp.dir, 'region.thicket');
const cli = (args: string[]) => runCli([...args, '--project', project], tmp.env);
const cliOk = (args: string[]) => runCliOk([...args, '--project', project], tmp.env);

interface EvalJson {
  evaluation: number;
  trueHits?: number;
  pairedRays: number;
  pairedFraction: { real: number; sim: number };
  warnings: string[];
  region: { spec: string; pairs: number; realRays: number };
  perClass: ClassMetrics[] | null;
  byRange: RangeBinMetrics[];
}

describe.skipIf(!HAS_SHARED_DATA)('thicket evaluate --region, --exclude-body, --body, --range-bin, --pairing (overlapnet_kitti/000000.bin)', () => {
  let log: number, run: number, runName: string, whole: EvalJson;
  const evaluations = () => (cliOk(['evaluate', 'list', '--json']).json as { evaluations: unknown[] }).evaluations.length;

  beforeAll(() => {
    cliOk(['project', 'create', '--json']);
    log = (cliOk(['import', dataFile('overlapnet_kitti/000000.bin'), '--json', '--quiet']).json as { log: number }).log;
    const scene = (cliOk(['scene', 'generate', '--kind', 'offroad', '--json', '--quiet']).json as { scene: number }).scene;
    run = (cliOk(['simulate', '--scene', String(scene), '--profile', 'hdl64e', '--mode', 'physics', '--poses-from', String(log), '--json', '--quiet']).json as { run: number }).run;
    whole = cliOk(['evaluate', '--real', String(log), '--sim', String(run), '--json', '--quiet']).json as EvalJson;
    runName = (cliOk(['evaluate', 'list', '--json']).json as { evaluations: { runName: string }[] }).evaluations[0]!.runName;
  }, 240_000);

  it('a region scores fewer pairs than the whole; the body and the range bins as given', () => {
    expect(whole.region).toEqual({ spec: 'everything', pairs: whole.pairedRays, realRays: 124_668 });
    const r = cliOk(['evaluate', '--real', String(log), '--sim', String(run), '--region', 'azimuth=-60:60', '--region', 'range=1:40', '--exclude-body', '--body', '5,2.2,2', '--range-bin', '20', '--json', '--quiet']).json as EvalJson;
    expect(r.region.spec).toBe('azimuth=-60:60,range=1:40,exclude-body=5,2.2,2,0,0,-0.9');
    expect(r.region.pairs).toBeGreaterThan(0.1 * whole.pairedRays);
    expect(r.region.pairs).toBeLessThan(0.5 * whole.pairedRays); // a third of the azimuths, and only to 40 m
    // Bins 20 m wide; every scored real hit lies within 1…40 m, so in the first two.
    expect(r.byRange.map((b) => [b.fromM, b.toM])).toEqual([[0, 20], [20, 40]]);
    expect(r.perClass).toBeNull(); // KITTI .bin: no labels
    // The pairing itself does not depend on the region.
    expect(r.pairedRays).toBe(whole.pairedRays);
  }, 60_000);

  it('bad regions and a wrong pairing: a clear error, nothing stored', () => {
    const before = evaluations();
    const nothing = cli(['evaluate', '--real', String(log), '--sim', String(run), '--region', 'range=300:400', '--json']);
    expect(nothing.status).toBe(1);
    expect((nothing.json as { error: string }).error).toBe(
      `drive log ${log} (000000.bin) against run ${run} (${runName}): the region range=300:400 leaves nothing to score: 0 of the real log's 124668 rays are inside it, and none of the ${whole.pairedRays} paired rays`,
    );
    const syntax = cli(['evaluate', '--real', String(log), '--sim', String(run), '--region', 'azimuth=10']);
    expect(syntax.status).toBe(2);
    expect(syntax.stderr).toContain('--region: term "azimuth=10": expected 2 numbers separated by ":", got "10"');
    const body = cli(['evaluate', '--real', String(log), '--sim', String(run), '--body', '4,2,2']);
    expect(body.status).toBe(2);
    expect(body.stderr).toContain('--body is the footprint --exclude-body leaves out');
    const rays = cli(['evaluate', '--real', String(log), '--sim', String(run), '--pairing', 'rays', '--json']);
    expect(rays.status).toBe(1);
    expect((rays.json as { error: string }).error).toMatch(/ray-for-ray pairing, real packet 0 .*: 124668 pulses but simulated packet 0 has \d+ rays: the run was not simulated from this log's rays/);
    expect(evaluations()).toBe(before);
  }, 60_000);

  it('packet k with packet k pairs a sliver and says so on stderr', () => {
    const r = cliOk(['evaluate', '--real', String(log), '--sim', String(run), '--pairing', 'index', '--json']);
    const m = r.json as EvalJson;
    expect(m.pairedFraction.real).toBeLessThan(0.05);
    expect(m.warnings[0]).toMatch(/^only \d+\.\d % of the real log's rays paired/);
    expect(r.stderr).toContain(`thicket: warning: ${m.warnings[0]}`);
  }, 60_000);
});

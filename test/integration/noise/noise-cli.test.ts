/**
 * `thicket noise learn|list` as a user runs it (docs/methods.md §8): the VLP-16 capture of 50
 * revolutions of a static scene, both methods, risk falling with training size; a profile that
 * names the model simulates with it; usage errors exit 2, bad input exits 1 naming the log.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliTempHome, runCli, runCliOk } from '../../helpers/cli';
import { dataFile, HAS_SHARED_DATA } from '../../helpers/shared-data';
import { syntheticKitti } from '../../helpers/temp';
import type { NoiseLearnSummary } from '../../../src-common/noise-model';

const tmp = cliTempHome();
const { env } = tmp;
const project = join(tmp.dir, 'noise.thicket');
const cli = (args: string[]) => runCli([...args, '--project', project, '--json', '--workers', '1'], env);

let scanLog = 0;
let vlpLog = 0;

beforeAll(() => {
  runCliOk(['project', 'create', '--project', project], env);
  const scan = join(tmp.dir, 'scan.bin');
  writeFileSync(scan, syntheticKitti(300));
  scanLog = (runCliOk(['import', scan, '--project', project, '--json'], env).json as { log: number }).log;
  if (HAS_SHARED_DATA) {
    const r = runCliOk(['import', dataFile('veloview/vlp-16-test-90deg-1-50-frames.pcap'), '--calibration', dataFile('veloview/VLP-16.xml'), '--project', project, '--json'], env);
    vlpLog = (r.json as { log: number }).log;
  }
}, 120_000);

describe.skipIf(!HAS_SHARED_DATA)('thicket noise learn on the VLP-16 capture (50 revolutions of a static scene)', () => {
  type Learnt = NoiseLearnSummary & { noiseModel: number };
  const learnt: Partial<Record<'p-reg' | 'np-reg', Learnt>> = {};

  it('P-Reg and NP-Reg: 16 beams, the scans split 36 / 15, the risk lower with more training states', () => {
    for (const method of ['p-reg', 'np-reg'] as const) {
      const r = runCliOk(['noise', 'learn', '--log', String(vlpLog), '--method', method, '--seed', '1', '--project', project, '--json', '--workers', '1'], env);
      const x = r.json as Learnt;
      learnt[method] = x;
      expect(x).toMatchObject({ method, beams: 16, trainScans: 36, testScans: 15 });
      const curve = x.riskByTrainingSize;
      expect(curve.length).toBeGreaterThanOrEqual(5);
      expect(curve.map((p) => p.n)).toEqual([...curve.map((p) => p.n)].sort((a, b) => a - b));
      expect(x.risk).toBe(curve[curve.length - 1]!.risk);
      // Figure 3.14b's shape: the risk falls from the smallest training set to the whole.
      expect(curve[curve.length - 1]!.risk, method).toBeLessThan(curve[0]!.risk);
      expect(x.risk).toBeGreaterThan(0);
      expect(x.risk).toBeLessThan(0.1);
    }
    // Outdoors the residuals are not Gaussian (edges, mixed pixels): the histograms predict them better than physics-based noise.
    expect(learnt['np-reg']!.risk).toBeLessThan(learnt['np-reg']!.baselines.physics.risk);
    const list = runCliOk(['noise', 'list', '--project', project, '--json'], env).json as { noiseModels: { id: number; method: string; summary: NoiseLearnSummary }[] };
    expect(list.noiseModels.map((m) => m.method)).toEqual(['p-reg', 'np-reg']);
    expect(list.noiseModels[0]!.summary.riskByTrainingSize).toEqual(learnt['p-reg']!.riskByTrainingSize);
  }, 240_000);

  it('a profile naming the model simulates with it: nulls and ranges drawn from it; a model the project lacks is refused', () => {
    const id = learnt['p-reg']!.noiseModel;
    const shown = runCliOk(['profile', 'show', 'vlp16', '--json'], env).json as { id: string; range: Record<string, number> };
    const file = join(tmp.dir, 'vlp16-learned.json');
    writeFileSync(file, JSON.stringify({ ...shown, id: 'vlp16-learned', name: 'VLP-16 learned noise', range: { ...shown.range, noiseModel: id } }));
    runCliOk(['profile', 'import', file, '--project', project, '--json'], env);
    runCliOk(['scene', 'generate', '--kind', 'rod-bench', '--project', project, '--json'], env);
    const sim = (profile: string) => cli(['simulate', '--scene', '1', '--profile', profile, '--mode', 'mesh', '--seconds', '0.2']);
    const plain = sim('vlp16'), learned = sim('vlp16-learned');
    expect(plain.status, plain.stderr).toBe(0);
    expect(learned.status, learned.stderr).toBe(0);
    expect((learned.json as { rays: number }).rays).toBe((plain.json as { rays: number }).rays);
    writeFileSync(file, JSON.stringify({ ...shown, id: 'vlp16-missing', name: 'VLP-16 missing model', range: { ...shown.range, noiseModel: 999 } }));
    runCliOk(['profile', 'import', file, '--project', project, '--json'], env);
    const missing = sim('vlp16-missing');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('sensor profile vlp16-missing names learned noise model 999, which this project does not have');
  }, 240_000);
});

describe.skipIf(!HAS_SHARED_DATA)('thicket noise learn on a SICK LMS111 (175 static scans of 541 bearings)', () => {
  it('one beam, bins of 2 mm; both methods below physics-based noise, the risk lower with more training states', () => {
    const sick = join(tmp.dir, 'sick.thicket');
    runCliOk(['project', 'create', '--project', sick], env);
    const imported = runCliOk(['import', dataFile('sick_scan_xd/20210302_lms111.pcapng.json'), '--project', sick, '--json'], env).json as { format: string; packets: number };
    expect(imported).toMatchObject({ format: 'sick-json', packets: 175 });
    for (const method of ['p-reg', 'np-reg']) {
      const x = runCliOk(['noise', 'learn', '--log', '1', '--method', method, '--project', sick, '--json', '--workers', '1'], env).json as NoiseLearnSummary;
      expect(x).toMatchObject({ beams: 1, trainScans: 122, testScans: 53, bins: { width: 0.002 } });
      const curve = x.riskByTrainingSize;
      expect(curve[curve.length - 1]!.risk, method).toBeLessThan(curve[0]!.risk);
      expect(x.risk, method).toBeLessThan(x.baselines.physics.risk);
    }
  }, 120_000);
});

describe('thicket noise: usage and input errors', () => {
  it('usage errors exit 2 and name the flag', () => {
    const cases: [string[], RegExp][] = [
      [['noise'], /noise: unknown subcommand "" \(known: learn, list\)/],
      [['noise', 'frob'], /unknown subcommand "frob"/],
      [['noise', 'learn'], /--log ID is required/],
      [['noise', 'learn', '--log', '1', '--method', 'gp'], /--method must be one of p-reg, np-reg, got "gp"/],
      [['noise', 'learn', '--log', '1', '--test-fraction', '1.5'], /--test-fraction: expected a number ≥ 0.01 and ≤ 0.99, got "1.5"/],
      [['noise', 'learn', '--log', 'x'], /--log: expected a number/],
      [['noise', 'learn', '--log', '1', '--mode', 'mesh'], /noise: unknown option --mode/],
    ];
    for (const [args, message] of cases) {
      const r = cli(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
  });

  it('bad input exits 1 naming the log and the reason: no such log; a log of one scan', () => {
    const none = cli(['noise', 'learn', '--log', '99']);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('no drive log 99 in this project');
    const one = cli(['noise', 'learn', '--log', String(scanLog)]);
    expect(one.status).toBe(1);
    expect(one.stderr).toMatch(new RegExp(`drive log ${scanLog} \\(.*\\): the log has 1 scan\\(s\\): learning needs at least 2 training scans and 1 test scan`));
  }, 60_000);
});

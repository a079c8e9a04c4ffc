/**
 * Fuzz: every target of the format registry (each log format's and the poses files') gets RUNS
 * seeded mutations of its valid sample; each must decode or throw DecodeError. A decoded cloud
 * must be consistent, a poses file well formed. These seeds are fixed (from the target's name),
 * so CI sees the same inputs every time; `npm run fuzz` runs the same targets with 10,000
 * mutations from a new seed each run, printed so that `--seed N` replays it.
 */
import { describe, expect, it } from 'vitest';
import type { DecodedCloud } from '../../../src-worker/formats/decoded-cloud';
import { encodePcd } from '../../../src-worker/formats/pcd/pcd-encode';
import type { PosesFile } from '../../../src-worker/formats/poses-file';
import { fuzzTargets } from '../../../src-worker/formats/registry';
import { expectConsistent, sampleCloud } from './helpers';
import { mutate, seededRandom } from './mutate';
import { fuzzSeed, fuzzTarget, runSeedFrom, runTargetSeed } from './fuzz-run';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../helpers/shared-data';

const RUNS = 2000;

/** The invariants of what a target returns, by its shape: a cloud, a poses file, or anything. */
function checkOutput(out: unknown): void {
  if (out && typeof out === 'object' && 'xyz' in out && 'count' in out) expectConsistent(out as DecodedCloud);
  if (out && typeof out === 'object' && 'poses' in out && out.poses instanceof Float64Array) {
    const f = out as PosesFile;
    expect(f.poses.length % 7).toBe(0);
    if (f.times) expect(f.times.length).toBe(f.poses.length / 7);
    for (let o = 0; o < f.poses.length; o += 7) {
      expect(Math.abs(Math.hypot(f.poses[o + 3]!, f.poses[o + 4]!, f.poses[o + 5]!, f.poses[o + 6]!) - 1)).toBeLessThan(1e-12);
    }
  }
}

describe('fuzz: every registered target decodes its mutations consistently or throws DecodeError', () => {
  for (const t of fuzzTargets()) {
    it(`${t.name}: ${RUNS} mutations`, () => {
      const sample = t.sample();
      checkOutput(t.decode(sample));
      const tally = fuzzTarget(sample, t.decode, fuzzSeed(t.name), RUNS, checkOutput);
      expect(tally.ok + tally.rejected).toBe(RUNS);
      // The mutations reach past the first check.
      expect(tally.rejected).toBeGreaterThan(0);
    }, 60_000);
  }
});

describe('fuzz helpers', () => {
  it('mutate is deterministic', () => {
    const valid = encodePcd(sampleCloud(40, 7), 'ascii');
    const a = seededRandom(9), b = seededRandom(9);
    for (let k = 0; k < 50; k++) expect(mutate(valid, a)).toEqual(mutate(valid, b));
  });
});

describe('npm run fuzz: a seed per run, printed, replayed with --seed', () => {
  it('draws a new run seed unless --seed gives one; targets get different sequences per run', () => {
    expect(runSeedFrom(undefined, () => 0.5)).toBe(2 ** 31);
    expect(runSeedFrom(undefined, () => 0.25)).not.toBe(runSeedFrom(undefined, () => 0.75));
    expect(runSeedFrom('42')).toBe(42);
    expect(() => runSeedFrom('-1')).toThrow('--seed: expected a whole number');
    expect(runTargetSeed(1, 'pcap')).not.toBe(runTargetSeed(2, 'pcap'));
    expect(runTargetSeed(1, 'pcap')).not.toBe(runTargetSeed(1, 'ply ascii'));
    expect(runTargetSeed(7, 'pcap')).toBe(runTargetSeed(7, 'pcap'));
  });

  it('prints the seed it ran with; the same --seed gives the same tallies', () => {
    const run = (...extra: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts/fuzz-decoders.ts'), '--runs', '300', '--only', 'kitti-bin,poses tum', ...extra], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
    const tallies = (out: string) => out.split('\n').filter((l) => / ok \d+, rejected \d+/.test(l)).map((l) => l.replace(/, slowest.*$/, ''));
    const a = run('--seed', '42'), b = run('--seed', '42');
    expect(a.status, a.stderr).toBe(0);
    expect(a.stdout.split('\n')[0]).toBe('fuzz: seed 42 (replay: npm run fuzz -- --seed 42 --runs 300 --only kitti-bin,poses tum)');
    expect(tallies(a.stdout)).toHaveLength(2);
    expect(tallies(b.stdout)).toEqual(tallies(a.stdout));
    const fresh = run();
    expect(fresh.stdout).toMatch(/^fuzz: seed \d+ \(replay: npm run fuzz -- --seed \d+ /);
    const bad = run('--seed', 'x');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--seed: expected a whole number');
  }, 120_000);
});

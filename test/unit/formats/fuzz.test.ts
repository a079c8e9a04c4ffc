/**
 * Fuzz: every target of the format registry (each log format's and the poses files') gets RUNS
 * seeded mutations of its valid sample; each must decode or throw DecodeError. A decoded cloud
 * must be consistent, a poses file well formed. `npm run fuzz` runs the same targets with the
 * same seeds and 10,000 mutations, so a failure here replays there (`--only NAME`).
 */
import { describe, expect, it } from 'vitest';
import type { DecodedCloud } from '../../../src-worker/formats/decoded-cloud';
import { encodePcd } from '../../../src-worker/formats/pcd/pcd-encode';
import type { PosesFile } from '../../../src-worker/formats/poses-file';
import { fuzzTargets } from '../../../src-worker/formats/registry';
import { expectConsistent, sampleCloud } from './helpers';
import { mutate, seededRandom } from './mutate';
import { fuzzSeed, fuzzTarget } from './fuzz-run';

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

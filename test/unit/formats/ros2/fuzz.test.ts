/**
 * Fuzz: 2,000 mutations of each ROS 2 / MCAP FUZZ_TARGETS sample must decode or throw
 * DecodeError (never another error, a hang or a huge allocation). The lead's script runs the
 * same targets with 10,000 mutations.
 */
import { describe, expect, it } from 'vitest';
import { FUZZ_TARGETS as ROS2_TARGETS } from '../../../../src-worker/formats/ros2/index';
import { FUZZ_TARGETS as MCAP_TARGETS } from '../../../../src-worker/formats/mcap/index';
import { fuzzTarget } from '../fuzz-run';

const RUNS = 2000;

describe('fuzz: ROS 2 message codecs and MCAP', () => {
  [...ROS2_TARGETS, ...MCAP_TARGETS].forEach((t, i) => {
    it(`${t.name}: ${RUNS} mutations decode or throw DecodeError`, () => {
      const sample = t.sample();
      // The unmutated sample decodes.
      expect(() => t.decode(sample)).not.toThrow();
      const tally = fuzzTarget(sample, t.decode, 9100 + i, RUNS);
      expect(tally.ok + tally.rejected).toBe(RUNS);
      // Both outcomes occur: the mutations reach past the first check.
      expect(tally.rejected).toBeGreaterThan(RUNS / 20);
      expect(tally.ok).toBeGreaterThan(0);
    }, 60_000);
  });
});

/**
 * Fuzz: 2,000 mutations of each sample of the ROS 2 bag formats' fuzz targets (.db3 messages,
 * MCAP) must decode or throw DecodeError (never another error, a hang or a huge allocation).
 * `npm run fuzz` runs the same targets with 10,000 mutations.
 */
import { describe, expect, it } from 'vitest';
import { LOG_FORMAT_REGISTRY } from '../../../../src-worker/formats/registry';
import { fuzzTarget } from '../fuzz-run';

const RUNS = 2000;

describe('fuzz: ROS 2 message codecs and MCAP', () => {
  [...LOG_FORMAT_REGISTRY['ros2-db3'].fuzz, ...LOG_FORMAT_REGISTRY.mcap.fuzz].forEach((t, i) => {
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

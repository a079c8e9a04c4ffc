import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../../src-worker/formats/decode-error';
import type { DecodedCloud } from '../../../src-worker/formats/decoded-cloud';
import { decodeCloud } from '../../../src-worker/formats/detect';
import { encodePcd } from '../../../src-worker/formats/pcd/pcd-encode';
import { LOG_FORMAT_REGISTRY } from '../../../src-worker/formats/registry';
import { expectConsistent, sampleCloud } from './helpers';
import { mutate, seededRandom, type MutationKind } from './mutate';
import { fuzzTarget } from './fuzz-run';

const RUNS = 2000;

/**
 * Decodes RUNS mutations of `valid`: each must return a consistent cloud or throw DecodeError.
 * Anything else fails with the seed and mutation kind, so the case can be replayed.
 */
function fuzz(valid: Uint8Array, decode: (b: Uint8Array) => DecodedCloud, seed: number): Record<string, number> {
  const rnd = seededRandom(seed);
  const tally: Record<string, number> = { ok: 0, rejected: 0 };
  for (let k = 0; k < RUNS; k++) {
    const { bytes, kind } = mutate(valid, rnd);
    let cloud: DecodedCloud;
    try {
      cloud = decode(bytes);
    } catch (e) {
      if (e instanceof DecodeError) { tally.rejected!++; continue; }
      throw new Error(`run ${k} (seed ${seed}, ${kind as MutationKind}): ${String(e)}`, { cause: e });
    }
    tally.ok!++;
    expectConsistent(cloud);
  }
  return tally;
}

describe('fuzz: every mutation decodes consistently or throws DecodeError', () => {
  const cloud = sampleCloud(40, 7);
  // The registry's KITTI and PCD targets (seeds 1, 2, 3, 4), each cloud checked for consistency.
  const clouds = [...LOG_FORMAT_REGISTRY['kitti-bin'].fuzz, ...LOG_FORMAT_REGISTRY.pcd.fuzz];
  clouds.forEach((target, k) => {
    it(target.name, () => {
      const t = fuzz(target.sample(), (b) => target.decode(b) as DecodedCloud, 1 + k);
      expect(t.ok).toBeGreaterThan(100);
      expect(t.rejected).toBeGreaterThan(100);
    });
  });

  it('ouster-pcap: a whole capture through datagrams and packets', () => {
    const target = LOG_FORMAT_REGISTRY['ouster-pcap'].fuzz.find((t) => t.name === 'ouster-pcap')!;
    const tally = fuzzTarget(target.sample(), target.decode, 400, RUNS);
    expect(tally.ok).toBeGreaterThan(0);
    expect(tally.rejected).toBeGreaterThan(0);
  });

  it('decodeCloud with detection', () => {
    const valid = encodePcd(cloud, 'binary');
    fuzz(valid, (b) => decodeCloud(b, 'f.pcd'), 5);
    fuzz(valid, (b) => decodeCloud(b, 'f.bin'), 6);
  });

  it('mutate is deterministic', () => {
    const valid = encodePcd(cloud, 'ascii');
    const a = seededRandom(9), b = seededRandom(9);
    for (let k = 0; k < 50; k++) expect(mutate(valid, a)).toEqual(mutate(valid, b));
  });
});

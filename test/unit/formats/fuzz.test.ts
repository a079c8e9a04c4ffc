import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../../src-worker/formats/decode-error';
import type { DecodedCloud } from '../../../src-worker/formats/decoded-cloud';
import { decodeCloud } from '../../../src-worker/formats/detect';
import { decodeKittiBin } from '../../../src-worker/formats/kitti/kitti-bin';
import { decodePcd } from '../../../src-worker/formats/pcd/pcd';
import { encodePcd } from '../../../src-worker/formats/pcd/pcd-encode';
import { expectConsistent, sampleCloud } from './helpers';
import { mutate, seededRandom, type MutationKind } from './mutate';

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
  it('kitti-bin', () => {
    const valid = new Uint8Array(160 * 4);
    new Float32Array(valid.buffer).set(Float32Array.from({ length: 160 }, (_, i) => Math.sin(i) * 50));
    const t = fuzz(valid, (b) => decodeKittiBin(b, 'f.bin'), 1);
    expect(t.ok).toBeGreaterThan(100);
    expect(t.rejected).toBeGreaterThan(100);
  });

  for (const [data, seed] of [['ascii', 2], ['binary', 3], ['binary_compressed', 4]] as const) {
    it(`pcd ${data}`, () => {
      const t = fuzz(encodePcd(cloud, data), (b) => decodePcd(b, 'f.pcd'), seed);
      expect(t.ok).toBeGreaterThan(100);
      expect(t.rejected).toBeGreaterThan(100);
    });
  }

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

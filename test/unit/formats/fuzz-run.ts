import { DecodeError } from '../../../src-worker/formats/decode-error';
import { mutate, seededRandom, type MutationKind } from './mutate';

/** A target's seed, from its name: the unit tests and `npm run fuzz` draw the same mutations. */
export function fuzzSeed(name: string): number {
  return [...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
}

/**
 * Decodes `runs` mutations of `valid`: each must return a value that passes `check`, or throw
 * DecodeError. Anything else fails with the run, seed and mutation kind, so the case can be replayed.
 */
export function fuzzTarget(
  valid: Uint8Array,
  decode: (b: Uint8Array) => unknown,
  seed: number,
  runs: number,
  check: (out: unknown) => void = () => {},
): { ok: number; rejected: number } {
  const rnd = seededRandom(seed);
  const tally = { ok: 0, rejected: 0 };
  for (let k = 0; k < runs; k++) {
    const { bytes, kind } = mutate(valid, rnd);
    let out: unknown;
    try {
      out = decode(bytes);
    } catch (e) {
      if (e instanceof DecodeError) { tally.rejected++; continue; }
      throw new Error(`run ${k} (seed ${seed}, ${kind as MutationKind}): ${String(e)}`, { cause: e });
    }
    tally.ok++;
    check(out);
  }
  return tally;
}

import { DecodeError } from '../../../src-worker/formats/decode-error';
import { mutate, seededRandom, type MutationKind } from './mutate';

/** A target's seed, from its name: the unit tests draw the same mutations on every run. */
export function fuzzSeed(name: string): number {
  return [...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
}

/**
 * A target's seed in one `npm run fuzz` run: the run's seed (new each run, printed, given back
 * with --seed to replay) mixed with the target's name, so targets draw different sequences.
 */
export function runTargetSeed(runSeed: number, name: string): number {
  return (fuzzSeed(name) ^ Math.imul(runSeed >>> 0, 0x9e3779b1)) >>> 0;
}

/** The run's seed: --seed N when given (a whole number 0 … 2³²−1), else a fresh random one. */
export function runSeedFrom(arg: string | undefined, random: () => number = Math.random): number {
  if (arg === undefined) return Math.floor(random() * 2 ** 32) >>> 0;
  const n = Number(arg);
  if (!/^\d+$/.test(arg.trim()) || !Number.isSafeInteger(n) || n >= 2 ** 32) throw new Error(`--seed: expected a whole number from 0 to 4294967295, got "${arg}"`);
  return n;
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

/**
 * A decoder the fuzzer exercises: a small valid sample, built in code so the fuzzer needs no
 * data files, and a decode that must return or throw DecodeError on any mutation of it.
 * Descriptors list theirs (log-format.ts); registry.ts collects them for `npm run fuzz`.
 */
export interface FuzzTarget {
  /** Unique; the fuzzer derives its seed from it, so renaming one changes its inputs. */
  name: string;
  sample: () => Uint8Array;
  decode: (bytes: Uint8Array) => unknown;
}

/**
 * Deterministic input mutations for decoder fuzz tests (reused by every format's tests).
 * Each mutation is one of: bit flips, byte overwrites with "interesting" values, truncation,
 * insertion, deletion, or an edit of one line of a leading text header.
 */

export { seededRandom } from '../../helpers/random';

export type MutationKind = 'bitflip' | 'overwrite' | 'truncate' | 'insert' | 'delete' | 'header';

const INTERESTING = [0, 1, 0x7f, 0x80, 0xff, 0x0a, 0x0d, 0x20, 0x23, 0x2d, 0x2e, 0x30, 0x39, 0x65, 0x6e];
const HEADER_WORDS = ['0', '1', '-1', '2', '3', '8', '40', '99999999', '4294967295', '4294967296', 'nan', 'x', 'F', 'U', 'I', 'binary', 'ascii', 'binary_compressed', ''];

/** Length of the leading printable-text part of `bytes` (a text header), in bytes. */
export function textPrefixLength(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const c = bytes[i]!;
    if (c !== 9 && c !== 10 && c !== 13 && (c < 32 || c > 126)) break;
    i++;
  }
  return i;
}

/**
 * One mutated copy of `input`. `headerLength` bounds the line edits (default: the leading
 * printable text); with no text header, 'header' mutations fall back to byte overwrites.
 */
export function mutate(input: Uint8Array, rnd: () => number, opts: { kind?: MutationKind; headerLength?: number } = {}): {
  bytes: Uint8Array;
  kind: MutationKind;
} {
  const kinds: MutationKind[] = ['bitflip', 'overwrite', 'truncate', 'insert', 'delete', 'header'];
  const kind = opts.kind ?? kinds[Math.floor(rnd() * kinds.length)]!;
  const int = (n: number): number => Math.floor(rnd() * n);
  // Half the byte-level edits land in the first 256 bytes, where headers and sizes live.
  const where = (n: number): number => (rnd() < 0.5 ? int(Math.min(n, 256)) : int(n));
  const b = input.slice();
  const n = b.length;
  switch (kind) {
    case 'bitflip': {
      const flips = 1 + int(4);
      for (let k = 0; k < flips && n > 0; k++) { const i = where(n); b[i] = b[i]! ^ (1 << int(8)); }
      return { bytes: b, kind };
    }
    case 'overwrite': {
      const m = 1 + int(8);
      for (let k = 0; k < m && n > 0; k++) b[where(n)] = rnd() < 0.5 ? INTERESTING[int(INTERESTING.length)]! : int(256);
      return { bytes: b, kind };
    }
    case 'truncate':
      return { bytes: b.slice(0, int(n + 1)), kind };
    case 'insert': {
      const at = where(n + 1);
      const extra = Uint8Array.from({ length: 1 + int(16) }, () => (rnd() < 0.5 ? INTERESTING[int(INTERESTING.length)]! : int(256)));
      const out = new Uint8Array(n + extra.length);
      out.set(b.subarray(0, at));
      out.set(extra, at);
      out.set(b.subarray(at), at + extra.length);
      return { bytes: out, kind };
    }
    case 'delete': {
      const at = where(n + 1);
      const len = 1 + int(16);
      const out = new Uint8Array(n - Math.min(len, n - at));
      out.set(b.subarray(0, at));
      out.set(b.subarray(Math.min(n, at + len)), at);
      return { bytes: out, kind };
    }
    case 'header': {
      const hl = Math.min(n, opts.headerLength ?? textPrefixLength(b));
      if (hl < 2) return mutate(input, rnd, { kind: 'overwrite' });
      // Up to three edits, so that related lines (WIDTH and POINTS) can change together.
      let out = editHeaderLine(b, hl, rnd);
      for (let e = Math.floor(rnd() * 3); e > 0; e--) out = editHeaderLine(out, Math.min(out.length, hl + out.length - n), rnd);
      return { bytes: out, kind };
    }
  }
}

/** Edits one line of the text in b[0, hl): drop it, duplicate it, or change/drop/add a token. */
function editHeaderLine(b: Uint8Array, hl: number, rnd: () => number): Uint8Array {
  let text = '';
  for (let i = 0; i < hl; i++) text += String.fromCharCode(b[i]!);
  const lines = text.split('\n');
  // The last element is the partial line after the final newline; keep it as is.
  const editable = Math.max(1, lines.length - 1);
  const li = Math.floor(rnd() * editable);
  const tokens = lines[li]!.split(' ');
  const word = HEADER_WORDS[Math.floor(rnd() * HEADER_WORDS.length)]!;
  const ti = Math.floor(rnd() * tokens.length);
  switch (Math.floor(rnd() * 5)) {
    case 0: lines.splice(li, 1); break;
    case 1: lines.splice(li, 0, lines[li]!); break;
    case 2: tokens[ti] = word; lines[li] = tokens.join(' '); break;
    case 3: tokens.splice(ti, 1); lines[li] = tokens.join(' '); break;
    default: tokens.splice(ti, 0, word); lines[li] = tokens.join(' '); break;
  }
  const head = Uint8Array.from(lines.join('\n'), (c) => c.charCodeAt(0) & 0xff);
  const out = new Uint8Array(head.length + b.length - hl);
  out.set(head);
  out.set(b.subarray(hl), head.length);
  return out;
}

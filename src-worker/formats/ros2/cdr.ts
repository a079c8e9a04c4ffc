/**
 * A bounds-checked reader over @foxglove/cdr's CdrReader for the hand-written ROS 2 message
 * codecs. ROS 2 Humble's .db3 bags carry no message definitions, so each codec reads its type's
 * fields in order; this layer makes every way a corrupt message can go wrong one DecodeError
 * naming the message (topic, index) and the byte offset within it.
 *
 * Why a wrapper: CdrReader builds arrays and strings as views on the whole ArrayBuffer, so a
 * corrupt length inside a message that is a view into a bigger buffer (an MCAP chunk) would read
 * the neighbouring bytes instead of failing. Every length is checked against this message here.
 */
import { CdrReader } from '@foxglove/cdr';
import { DecodeError } from '../decode-error';

/** Where a message sits, for error messages. */
export interface MessagePlace {
  /** Display name of the bag file. */
  file: string;
  topic: string;
  /** 0-based index of the message within its topic (or the file, as the source counts). */
  index: number;
  /** Byte offset of the message's data in the file, when the container knows it (MCAP). */
  offset?: number;
}

/** Thrown inside a codec; `decodeMessage` turns it into a DecodeError with the place. */
class CdrFault extends Error {
  constructor(readonly at: number, reason: string) {
    super(reason);
  }
}

/** Encapsulation kinds whose plain (final) types these codecs read: CDR and XCDR2, either byte order. */
const PLAIN_KINDS = new Set([0x00, 0x01, 0x10, 0x11]);

export class Cdr {
  readonly r: CdrReader;
  readonly length: number;

  constructor(data: Uint8Array) {
    if (data.byteLength < 4) throw new CdrFault(0, `${data.byteLength} bytes: a CDR message starts with a 4-byte encapsulation header`);
    const kind = data[1]!;
    if (data[0] !== 0 || !PLAIN_KINDS.has(kind)) {
      throw new CdrFault(0, `encapsulation header 0x${data[0]!.toString(16).padStart(2, '0')}${kind.toString(16).padStart(2, '0')} is not plain CDR (0x0000/0x0001)`);
    }
    this.r = new CdrReader(data);
    this.length = data.byteLength;
  }

  get offset(): number {
    return this.r.offset;
  }

  fail(reason: string, at = this.r.offset): never {
    throw new CdrFault(at, reason);
  }

  /** Checks that `n` more bytes (after aligning to `align`) lie inside the message. */
  need(n: number, what: string, align = 1): void {
    const o = this.r.offset;
    const pad = align > 1 ? (align - ((o - 4) % align)) % align : 0;
    if (!(o + pad + n <= this.length)) this.fail(`${what} needs ${n} bytes but the message ends at byte ${this.length}`, o);
  }

  u8(what: string): number { this.need(1, what); return this.r.uint8(); }
  u32(what: string): number { this.need(4, what, 4); return this.r.uint32(); }
  i32(what: string): number { this.need(4, what, 4); return this.r.int32(); }
  f64(what: string): number { this.need(8, what, this.r.isCDR2 ? 4 : 8); return this.r.float64(); }

  bool(what: string): boolean {
    const v = this.u8(what);
    if (v > 1) this.fail(`${what}: ${v} is not a boolean`, this.r.offset - 1);
    return v === 1;
  }

  string(what: string): string {
    const n = this.u32(`${what} length`);
    if (n > this.length - this.r.offset) this.fail(`${what}: length ${n} runs past the end of the message (${this.length} bytes)`, this.r.offset - 4);
    return this.r.string(n);
  }

  /** A sequence length whose elements take at least `minBytes` each (so a corrupt count fails here, before any loop). */
  seq(what: string, minBytes: number): number {
    const n = this.u32(`${what} count`);
    if (n * minBytes > this.length - this.r.offset) {
      this.fail(`${what}: ${n} elements of at least ${minBytes} bytes do not fit in the ${this.length - this.r.offset} bytes left`, this.r.offset - 4);
    }
    return n;
  }

  /** `n` raw bytes as a view into the message (no copy). */
  bytes(n: number, what: string): Uint8Array {
    this.need(n, what);
    return this.r.uint8Array(n);
  }

  /** builtin_interfaces/Time as seconds. */
  time(what: string): number {
    const sec = this.i32(`${what}.sec`);
    const nsec = this.u32(`${what}.nanosec`);
    if (nsec >= 1e9) this.fail(`${what}.nanosec ${nsec} is not below 1e9`, this.r.offset - 4);
    return sec + nsec * 1e-9;
  }

  /** std_msgs/Header. */
  header(): RosHeader {
    const stamp = this.time('header.stamp');
    const frameId = this.string('header.frame_id');
    return { stamp, frameId };
  }
}

export interface RosHeader {
  /** Seconds (sec + nanosec · 1e-9). */
  stamp: number;
  frameId: string;
}

/**
 * Runs a codec over one message; any fault (a CdrFault, or a DataView RangeError the checks
 * missed) becomes a DecodeError naming the message, its type and the byte within it.
 */
export function decodeMessage<T>(data: Uint8Array, type: string, place: MessagePlace, codec: (c: Cdr) => T): T {
  let c: Cdr | null = null;
  try {
    c = new Cdr(data);
    return codec(c);
  } catch (e) {
    if (e instanceof DecodeError) throw e;
    const at = e instanceof CdrFault ? e.at : (c?.offset ?? 0);
    const reason = e instanceof Error ? e.message : String(e);
    throw new DecodeError(
      place.file,
      `${place.topic} message ${place.index} (${type}), byte ${at} of ${data.byteLength}: ${reason}`,
      place.offset !== undefined ? { offset: place.offset + at } : {},
    );
  }
}

/** Throws a DecodeError about a decoded message's content (not its bytes). */
export function messageError(place: MessagePlace, type: string, reason: string): DecodeError {
  return new DecodeError(place.file, `${place.topic} message ${place.index} (${type}): ${reason}`, place.offset !== undefined ? { offset: place.offset } : {});
}

/** Seconds → builtin_interfaces/Time (nanoseconds rounded; negative times keep nanosec ≥ 0). */
export function toRosTime(t: number): { sec: number; nanosec: number } {
  let sec = Math.floor(t);
  let nanosec = Math.round((t - sec) * 1e9);
  if (nanosec >= 1e9) { sec += 1; nanosec -= 1e9; }
  return { sec, nanosec };
}

/**
 * One side (real or simulated) of an evaluation as a stream of packets over chunks fed one at a
 * time: the evaluator looks at the current packet and the one after it (to pair packets by
 * nearest time), so at most two chunks per side are held and memory stays bounded however long
 * the log. Chunks are checked on arrival, so a malformed chunk is a clear error rather than a
 * read past an array's end.
 */
import { POSE_STRIDE, type PacketChunk } from '../../src-common/packets';

/** Why an evaluation cannot run (mismatched or malformed input): the message says what to fix. */
export class EvaluationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EvaluationError';
  }
}

/** What a look-ahead finds: a packet, the end of the stream, or a chunk still to be fed. */
export const Peek = { Packet: 0, End: 1, Need: 2 } as const;
export type Peek = (typeof Peek)[keyof typeof Peek];

/**
 * The fields the evaluation reads; firing times (without them every ray fires at its packet's
 * time) and classes (without them, none is labelled) are optional.
 */
export type EvalChunk = Pick<PacketChunk, 'packetCount' | 'packetTime' | 'packetPose' | 'rayStart' | 'rayDir' | 'rayRange' | 'rayReturn'> &
  Partial<Pick<PacketChunk, 'rayTime' | 'rayClass'>> & {
    /**
     * The directions pairing compares, where they differ from rayDir: the beams' (sensors whose
     * beams start off the origin, such as an Ouster, store a hit's direction from the origin;
     * src-worker/sensors/beam-directions.ts). Points are always made from rayDir.
     */
    pairDir?: Float32Array;
  };

export class PacketCursor {
  private readonly chunks: EvalChunk[] = [];
  /** Packet within chunks[0]. */
  private p = 0;
  private ended = false;
  /** Packets consumed so far (the index of the current packet in the stream). */
  consumed = 0;
  /** Chunks fed so far. */
  fed = 0;

  constructor(readonly label: string) {}

  /** Feeds the next chunk, or null at the end of the stream. */
  push(chunk: EvalChunk | null): void {
    if (this.ended) throw new EvaluationError(`${this.label}: a chunk arrived after the end of the stream`);
    if (chunk === null) {
      this.ended = true;
      return;
    }
    checkChunk(chunk, `${this.label} chunk ${this.fed}`);
    this.fed++;
    if (chunk.packetCount > 0) this.chunks.push(chunk);
  }

  /** Whether packet k ahead of the current one (k = 0 or 1) is available. */
  peek(k: 0 | 1): Peek {
    if (this.chunks.length === 0) return this.ended ? Peek.End : Peek.Need;
    const first = this.chunks[0]!;
    if (this.p + k < first.packetCount) return Peek.Packet;
    if (this.chunks.length > 1) return Peek.Packet; // k = 1 at the last packet of the first chunk: chunks are non-empty
    return this.ended ? Peek.End : Peek.Need;
  }

  /** Chunk and packet index of packet k ahead (peek(k) must be Packet). */
  chunkAt(k: 0 | 1): EvalChunk {
    const first = this.chunks[0]!;
    return this.p + k < first.packetCount ? first : this.chunks[1]!;
  }

  packetAt(k: 0 | 1): number {
    const first = this.chunks[0]!;
    return this.p + k < first.packetCount ? this.p + k : this.p + k - first.packetCount;
  }

  timeAt(k: 0 | 1): number {
    return this.chunkAt(k).packetTime[this.packetAt(k)]!;
  }

  advance(): void {
    this.consumed++;
    if (++this.p >= this.chunks[0]!.packetCount) {
      this.chunks.shift();
      this.p = 0;
    }
  }
}

/** Throws EvaluationError unless the chunk's arrays are as long as its counts say. */
export function checkChunk(c: EvalChunk, where: string): void {
  const n = c.packetCount;
  if (!(Number.isInteger(n) && n >= 0)) throw new EvaluationError(`${where}: packet count ${String(n)} is not a whole number`);
  if (c.packetTime.length < n) throw new EvaluationError(`${where}: ${c.packetTime.length} packet times for ${n} packets`);
  if (c.packetPose.length < POSE_STRIDE * n) throw new EvaluationError(`${where}: ${c.packetPose.length / POSE_STRIDE} poses for ${n} packets`);
  if (c.rayStart.length < n + 1) throw new EvaluationError(`${where}: ${c.rayStart.length} ray offsets for ${n} packets (need ${n + 1})`);
  const rays = c.rayRange.length;
  if (c.rayDir.length < 3 * rays || c.rayReturn.length < rays || (c.rayTime && c.rayTime.length < rays) || (c.rayClass && c.rayClass.length < rays)) throw new EvaluationError(`${where}: ray arrays differ in length (${rays} ranges, ${c.rayDir.length / 3} directions, ${c.rayReturn.length} return numbers)`);
  for (let p = 0; p < n; p++) {
    const a = c.rayStart[p]!, b = c.rayStart[p + 1]!;
    if (b < a || b > rays) throw new EvaluationError(`${where}: packet ${p}'s rays [${a}, ${b}) are outside the chunk's ${rays} rays`);
  }
}

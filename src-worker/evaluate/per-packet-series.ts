/**
 * Per paired packet: where it is along the drive and how well it was simulated — what the
 * Evaluation page's chart draws and the store keeps (PerPacketSeries, src-common/metrics.ts).
 * Grown by doubling as packets stream past (about 40 bytes a packet: 4 MB for a 100,000-packet log).
 */
import { PER_PACKET_FIELDS, type PerPacketSeries } from '../../src-common/metrics';

export class PerPacketBuilder {
  count = 0;
  private s: PerPacketSeries = allocate(256);

  push(realPacket: number, simPacket: number, time: number, distance: number, error: number, th: number, fh: number, fm: number): void {
    if (this.count === this.s.time.length) this.grow();
    const i = this.count++, s = this.s;
    s.realPacket[i] = realPacket;
    s.simPacket[i] = simPacket;
    s.time[i] = time;
    s.distance[i] = distance;
    s.error[i] = error;
    s.trueHits[i] = th;
    s.falseHits[i] = fh;
    s.falseMisses[i] = fm;
  }

  /** The series trimmed to size (fresh buffers: transferable). */
  finish(): PerPacketSeries {
    const n = this.count, s = this.s;
    return {
      realPacket: s.realPacket.slice(0, n),
      simPacket: s.simPacket.slice(0, n),
      time: s.time.slice(0, n),
      distance: s.distance.slice(0, n),
      error: s.error.slice(0, n),
      trueHits: s.trueHits.slice(0, n),
      falseHits: s.falseHits.slice(0, n),
      falseMisses: s.falseMisses.slice(0, n),
    };
  }

  private grow(): void {
    const old = this.s;
    const next = allocate(2 * old.time.length);
    for (const f of PER_PACKET_FIELDS) (next[f] as { set(a: ArrayLike<number>): void }).set(old[f]);
    this.s = next;
  }
}

function allocate(n: number): PerPacketSeries {
  return {
    realPacket: new Uint32Array(n),
    simPacket: new Uint32Array(n),
    time: new Float64Array(n),
    distance: new Float64Array(n),
    error: new Float32Array(n),
    trueHits: new Uint32Array(n),
    falseHits: new Uint32Array(n),
    falseMisses: new Uint32Array(n),
  };
}

/** An empty series (evaluations that keep no per-packet arrays). */
export function emptySeries(): PerPacketSeries {
  return allocate(0);
}

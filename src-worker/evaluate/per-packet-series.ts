/**
 * Per paired packet: where it is along the drive and how well it was simulated — what the
 * Evaluation page's chart draws and the store keeps (PerPacketSeries, src-common/metrics.ts).
 * Grown by doubling as packets stream past (about 40 bytes a packet: 4 MB for a 100,000-packet log).
 */
import type { PerPacketSeries } from '../../src-common/metrics';
import { GrowableArray } from '../arrays/typed-arrays';

export class PerPacketBuilder {
  private readonly realPacket = new GrowableArray(Uint32Array);
  private readonly simPacket = new GrowableArray(Uint32Array);
  private readonly time = new GrowableArray(Float64Array);
  private readonly distance = new GrowableArray(Float64Array);
  private readonly error = new GrowableArray(Float32Array);
  private readonly trueHits = new GrowableArray(Uint32Array);
  private readonly falseHits = new GrowableArray(Uint32Array);
  private readonly falseMisses = new GrowableArray(Uint32Array);

  get count(): number {
    return this.time.length;
  }

  push(realPacket: number, simPacket: number, time: number, distance: number, error: number, th: number, fh: number, fm: number): void {
    this.realPacket.push(realPacket);
    this.simPacket.push(simPacket);
    this.time.push(time);
    this.distance.push(distance);
    this.error.push(error);
    this.trueHits.push(th);
    this.falseHits.push(fh);
    this.falseMisses.push(fm);
  }

  /** The series trimmed to size (fresh buffers: transferable). */
  finish(): PerPacketSeries {
    return {
      realPacket: this.realPacket.finish(),
      simPacket: this.simPacket.finish(),
      time: this.time.finish(),
      distance: this.distance.finish(),
      error: this.error.finish(),
      trueHits: this.trueHits.finish(),
      falseHits: this.falseHits.finish(),
      falseMisses: this.falseMisses.finish(),
    };
  }
}

/** An empty series (evaluations that keep no per-packet arrays). */
export function emptySeries(): PerPacketSeries {
  return new PerPacketBuilder().finish();
}

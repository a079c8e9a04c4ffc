/**
 * Evaluating a simulation run against a real drive log on the pool (src-main/services/
 * evaluation-service.ts; the metrics: src-worker/evaluate/observation-metrics.ts).
 *
 * The logs are not handed over whole: a long log is gigabytes. The task pulls chunks from the
 * host through its own MessagePort (`feed`), one side at a time as the evaluator asks, with one
 * chunk a side requested ahead so the host's store reads overlap the pairing. It posts
 * `{ want: 'real' | 'sim' }`; the host answers `{ side, chunk }` (transferred; null at the end of
 * that side) or `{ side, error }`. `{ restart: side }` asks the host to read that side again from
 * its first chunk (the point-cloud error's second pass, for a cloud larger than its sample).
 * At most three chunks a side are alive at once.
 *
 * Output 'per-packet': the per-packet series (transferred). Return value: the metrics.
 */
import type { MessagePort, Transferable } from 'node:worker_threads';
import type { TaskContext } from './task-context';
import type { PacketChunk } from '../../src-common/packets';
import { EvaluationError, ObservationEvaluator } from '../evaluate/observation-metrics';
import { withRays } from '../formats/packed-rays';
import { beamDirections } from '../sensors/beam-directions';
import type { SensorProfile } from '../../src-common/sensor-profile';
import type { EvaluationOptions } from '../../src-common/evaluation-options';
import { type ObservationMetrics, PER_PACKET_FIELDS } from '../../src-common/metrics';

type Side = 'real' | 'sim';

export interface EvaluateRunInput {
  feed: MessagePort;
  options: EvaluationOptions;
  /** Packets on each side (for progress). */
  realPackets: number;
  simPackets: number;
  /** What the two sides are called in an error ("drive log 2 (000000.bin)", "run 5 (…)"). */
  names?: { real: string; sim: string };
  /**
   * Each side's sensor, where its beams start off the origin (an Ouster): rays then pair by their
   * beams' directions, which a hit's stored direction leans away from at short range
   * (docs/drive-logs.md, *Ouster frames*). Null or absent: stored directions.
   */
  beams?: { real: SensorProfile | null; sim: SensorProfile | null };
}

/** The profile when some of its beams start off the origin (their hits' directions lean), else null. */
function offBeam(p: SensorProfile | null): SensorProfile | null {
  return p && p.groups.some((g) => g.lasers.some((l) => l.verticalOffset !== 0 || l.horizontalOffset !== 0)) ? p : null;
}

/** What the host answers on the feed. */
export type FeedReply = { side: Side; chunk: PacketChunk | null } | { side: Side; error: string };
export type FeedRequest = { want: Side } | { restart: Side };

export async function evaluateRunTask(input: EvaluateRunInput, ctx: TaskContext): Promise<ObservationMetrics> {
  const feed = new ChunkFeed(input.feed, input.beams);
  try {
    ctx.progress(0, 'pairing packets', true);
    const check = () => ctx.checkCancelled();
    const ev = new ObservationEvaluator(input.options, { checkCancelled: check });
    const packets = { real: input.realPackets, sim: input.simPackets };
    const total = Math.max(1, packets.real + packets.sim);
    // Progress: the first pass to 60 %, the point-cloud error's second pass (when needed) to 95 %.
    for (let need = ev.step(); need !== 'done'; need = ev.step()) {
      check();
      if (ev.currentPhase === 'pairing') {
        ctx.progress((0.6 * (ev.real.consumed + ev.sim.consumed)) / total, 'pairing packets');
      } else {
        const again = Math.max(1, ev.refineSides.reduce((n, s) => n + packets[s], 0));
        ctx.progress(0.6 + (0.35 * ev.refineConsumed) / again, 'point-cloud error: second pass');
      }
      if (need === 'restart-real' || need === 'restart-sim') {
        feed.restart(need === 'restart-real' ? 'real' : 'sim');
        continue;
      }
      ev.feed(need, await feed.next(need));
    }
    const { perPacket, ...metrics } = ev.finish();
    const transfer: Transferable[] = PER_PACKET_FIELDS.map((f) => perPacket[f].buffer);
    ctx.post({ type: 'output', name: 'per-packet', value: perPacket }, transfer);
    ctx.progress(1, 'evaluated', true);
    return metrics;
  } catch (e) {
    // Input that cannot be evaluated: say which log and run the message is about.
    if (e instanceof EvaluationError && input.names) throw new EvaluationError(`${input.names.real} against ${input.names.sim}: ${e.message}`);
    throw e;
  } finally {
    feed.close();
  }
}

/** The worker's end of the feed: chunks in arrival order per side, one requested ahead (also the ray errors' task). */
export class ChunkFeed {
  private readonly ready: Record<Side, (PacketChunk | null)[]> = { real: [], sim: [] };
  private readonly asked: Record<Side, number> = { real: 0, sim: 0 };
  private readonly ended: Record<Side, boolean> = { real: false, sim: false };
  private readonly waiting: Record<Side, { resolve: (c: PacketChunk | null) => void; reject: (e: Error) => void } | null> = { real: null, sim: null };
  private failure: Error | null = null;

  constructor(
    private readonly port: MessagePort,
    beams: EvaluateRunInput['beams'] = { real: null, sim: null },
  ) {
    const offset = { real: offBeam(beams.real), sim: offBeam(beams.sim) };
    port.on('message', (m: FeedReply) => {
      const side = m.side;
      this.asked[side]--;
      if ('error' in m) return this.fail(new Error(m.error));
      const chunk: (PacketChunk & { pairDir?: Float32Array }) | null = m.chunk && withRays(m.chunk);
      const profile = offset[side];
      if (chunk && profile) chunk.pairDir = beamDirections(chunk, profile);
      const w = this.waiting[side];
      if (w) {
        this.waiting[side] = null;
        w.resolve(chunk);
      } else {
        this.ready[side].push(chunk);
      }
    });
    port.on('close', () => this.fail(new Error('the host closed the evaluation feed')));
  }

  async next(side: Side): Promise<PacketChunk | null> {
    if (this.failure) throw this.failure;
    let chunk: PacketChunk | null;
    if (this.ready[side].length > 0) {
      chunk = this.ready[side].shift()!;
    } else {
      if (this.asked[side] === 0) this.ask(side);
      chunk = await new Promise<PacketChunk | null>((resolve, reject) => (this.waiting[side] = { resolve, reject }));
    }
    if (chunk === null) this.ended[side] = true;
    else if (this.asked[side] === 0 && this.ready[side].length === 0) this.ask(side); // read ahead
    return chunk;
  }

  /** Reads the side again from its first chunk (it has ended: nothing of it is in flight). */
  restart(side: Side): void {
    if (this.failure) throw this.failure;
    this.ended[side] = false;
    this.ready[side] = [];
    this.port.postMessage({ restart: side } satisfies FeedRequest);
  }

  close(): void {
    this.port.removeAllListeners();
    this.port.close();
  }

  private ask(side: Side): void {
    if (this.ended[side]) return;
    this.asked[side]++;
    this.port.postMessage({ want: side } satisfies FeedRequest);
  }

  private fail(e: Error): void {
    if (!this.failure) this.failure = e;
    for (const side of ['real', 'sim'] as const) {
      const w = this.waiting[side];
      this.waiting[side] = null;
      w?.reject(this.failure);
    }
  }
}

/**
 * Evaluating a simulation run against a real drive log (docs/methods.md §6), as one job ('evaluate') on
 * the pool: the task (src-worker/tasks/evaluate-run.ts) pulls the two logs' chunks through a
 * MessagePort of its own, one chunk at a time as its evaluator asks (and one ahead), so neither
 * log is ever in memory whole; a cloud larger than the point-cloud sample is read a second time
 * (the exact point-cloud error). The host end of that port reads chunks from the store (each by its
 * own lookup, so the job's progress writes are never blocked by an open cursor) and transfers
 * them. Success stores the evaluation and its per-packet series in one transaction; the job's
 * result is the metrics with the evaluation's id. Nothing is stored on failure or cancel.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { ApiError, type EvaluationData, type EvaluationParams, type EvaluationSeries, type ParsedRequest } from '../api/contract';
import { type EvaluationMetrics, type ObservationMetrics, PER_PACKET_FIELDS, type PerPacketSeries } from '../../src-common/metrics';
import type { RunningJob } from '../jobs/job-runner';
import type { ServiceContext } from './service-context';
import type { ProjectSession } from './project-session';
import { chunkBuffers, type PacketChunk } from '../../src-common/packets';
import { resolveEvaluationOptions, type EvaluationOptions } from '../../src-common/evaluation-options';
import type { EvaluateRunInput, FeedReply, FeedRequest } from '../../src-worker/tasks/evaluate-run';
import type { SensorProfile } from '../../src-common/sensor-profile';
import { getProfile } from './profiles-service';


/** The contract's flat options → the evaluator's. */
export function evaluationOptions(p: EvaluationParams): EvaluationOptions {
  return {
    directionToleranceDeg: p.directionToleranceDeg,
    packetPairing: p.packetPairing,
    timeToleranceS: p.timeToleranceS,
    timeOffsetS: p.timeOffsetS,
    targetCap: p.targetCap,
    queryCap: p.queryCap,
    exactPointCloud: p.exactPointCloud,
    seed: p.seed,
    staticTranslationM: p.staticTranslationM,
    staticRotationDeg: p.staticRotationDeg,
    scanHistogram: { azimuthBinDeg: p.azimuthBinDeg, elevationBinDeg: p.elevationBinDeg, rangeBinM: p.rangeBinM, maxRangeM: p.maxRangeM },
    region: p.region ?? null,
    rangeBreakdownBinM: p.rangeBreakdownBinM,
    minOverlap: p.minOverlap,
  };
}

/**
 * How a run pairs with a log unless the request says: ray for ray when the run was simulated from
 * this log's own rays (`thicket simulate --rays-from`, stored as `raysFromLogId`), by firing time
 * and direction otherwise (docs/methods.md §6, *Pairing*).
 */
export function defaultPairing(runParams: Record<string, unknown>, logId: number): 'rays' | 'time' {
  return Number(runParams.raysFromLogId) === logId ? 'rays' : 'time';
}

/** The profile a log was recorded with, when it has one the project still holds. */
function logSensor(session: ProjectSession, id: string | null): SensorProfile | null {
  if (!id) return null;
  try {
    return getProfile(session.store, id);
  } catch {
    return null; // deleted since: pair by the stored directions
  }
}

/** The sensors whose beam directions the pairing compares (the task's `beams`), by the pairing used. */
export function pairingBeams(session: ProjectSession, logProfileId: string | null, runParams: Record<string, unknown>, pairing: string): Pick<EvaluateRunInput, 'beams'> {
  // A run of the log's own rays fired each along its stored direction: those pair as stored.
  return pairing === 'rays' ? {} : { beams: { real: logSensor(session, logProfileId), sim: (runParams.profile as SensorProfile | undefined) ?? null } };
}

export function startEvaluation(ctx: ServiceContext, req: ParsedRequest<'evaluate.start'>): RunningJob {
  const session = ctx.requireSession();
  const { store } = session;
  const log = store.logs.get(req.realLogId);
  if (!log) throw new ApiError('not_found', `no drive log ${req.realLogId} in this project`);
  const run = store.runs.get(req.runId);
  if (!run) throw new ApiError('not_found', `no simulation run ${req.runId} in this project`);
  if (log.packets === 0) throw new ApiError('bad_input', `drive log ${log.id} (${log.name}) has no packets to evaluate against`);
  if (run.packets === 0) throw new ApiError('bad_input', `simulation run ${run.id} (${run.name}) has no packets to evaluate`);
  const options = evaluationOptions({ ...req.params, packetPairing: req.params.packetPairing ?? defaultPairing(run.params, log.id) });
  const resolved = resolveEvaluationOptions(options);
  const t0 = performance.now();

  const { port1, port2 } = new MessageChannel();
  serveChunks(port1, { real: () => store.logs.chunks(log.id), sim: () => store.runs.chunks(run.id) }, { real: `drive log ${log.id}`, sim: `run ${run.id}` });
  const input: EvaluateRunInput = {
    feed: port2, options, realPackets: log.packets, simPackets: run.packets,
    names: { real: `drive log ${log.id} (${log.name})`, sim: `run ${run.id} (${run.name})` },
    ...pairingBeams(session, log.profileId, run.params, resolved.packetPairing),
  };
  let series: PerPacketSeries | null = null;
  const close = () => {
    port1.removeAllListeners();
    port1.close();
  };
  return session.runner.submit({
    kind: 'evaluate',
    params: { realLogId: log.id, runId: run.id, params: req.params },
    task: 'evaluate-run',
    input,
    // A MessagePort is transferable like a buffer; the runner passes the list to the pool as is.
    transfer: [port2 as unknown as ArrayBuffer],
    onMessage: (m) => {
      if (m.type === 'output' && m.name === 'per-packet') series = m.value as PerPacketSeries;
    },
    onSuccess: (output, job) => {
      close();
      if (!series) throw new Error('the evaluation task returned no per-packet series');
      if (!store.logs.get(log.id) || !store.runs.get(run.id)) throw new Error(`drive log ${log.id} or run ${run.id} was deleted during the evaluation: nothing was stored`);
      const metrics: EvaluationMetrics = { ...(output as ObservationMetrics), seconds: round3((performance.now() - t0) / 1000) };
      const arrays = Object.fromEntries(PER_PACKET_FIELDS.map((f) => [f, series![f]]));
      const info = store.evaluations.create({ realLogId: log.id, runId: run.id, params: { ...resolved }, metrics, jobId: job.id }, arrays);
      ctx.events.emit({ type: 'project', entity: 'evaluations', id: info.id });
      return { evaluation: info.id, ...metrics } as unknown as Record<string, unknown>;
    },
    onAbort: close,
  });
}

/**
 * The host end of the feed: answers each request with the side's next chunk (transferred), and
 * starts a side over when asked (the point-cloud error's second pass).
 */
export function serveChunks(port: MessagePort, sources: Record<'real' | 'sim', () => Iterator<PacketChunk>>, names: Record<'real' | 'sim', string>): void {
  const its = { real: sources.real(), sim: sources.sim() };
  const done = { real: false, sim: false };
  port.on('message', (m: FeedRequest) => {
    if ('restart' in m) {
      its[m.restart] = sources[m.restart]();
      done[m.restart] = false;
      return;
    }
    const side = m.want;
    let reply: FeedReply;
    let transfer: ArrayBuffer[] = [];
    try {
      const next = done[side] ? { done: true as const, value: undefined } : its[side].next();
      if (next.done) done[side] = true;
      const chunk = next.done ? null : next.value;
      reply = { side, chunk };
      if (chunk) transfer = chunkBuffers(chunk);
    } catch (e) {
      // A store read failing (a corrupt row): the task fails with this message.
      reply = { side, error: `reading ${names[side]}: ${(e as Error).message}` };
    }
    port.postMessage(reply, transfer);
  });
}

/** One evaluation with its per-packet series. */
export function evaluationData(session: ProjectSession, id: number): EvaluationData {
  const info = session.store.evaluations.get(id);
  if (!info) throw new ApiError('not_found', `no evaluation ${id} in this project`);
  const a = session.store.evaluations.arrays(id);
  const pick = <T>(name: keyof EvaluationSeries, make: () => T): T => (a[name] as T | undefined) ?? make();
  const perPacket: EvaluationSeries = {
    realPacket: pick('realPacket', () => new Uint32Array(0)),
    simPacket: pick('simPacket', () => new Uint32Array(0)),
    time: pick('time', () => new Float64Array(0)),
    distance: pick('distance', () => new Float64Array(0)),
    error: pick('error', () => new Float32Array(0)),
    trueHits: pick('trueHits', () => new Uint32Array(0)),
    falseHits: pick('falseHits', () => new Uint32Array(0)),
    falseMisses: pick('falseMisses', () => new Uint32Array(0)),
  };
  return { ...info, perPacket };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

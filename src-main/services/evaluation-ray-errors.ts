/**
 * The per-ray range errors of a stored evaluation (docs/methods.md §6, *Per-ray range error*) for
 * the Evaluation page's difference colouring. The evaluation stores figures, not pairs, so the
 * log and the run are paired again in a worker ('evaluation-ray-errors', on the interactive lane)
 * with the evaluation's stored options — the pairing is deterministic, so these are its pairs —
 * fed chunk by chunk as the evaluation job is, and decimated there to the display budget; the
 * host thread only serves chunks. A few answers are kept per project: an evaluation never changes.
 */
import { MessageChannel } from 'node:worker_threads';
import { ApiError, type EvaluationRayErrors, type ParsedRequest } from '../api/contract';
import type { ProjectSession } from './project-session';
import type { EvaluationOptions } from '../../src-common/evaluation-options';
import type { EvaluationRayErrorsInput, RayErrorSample } from '../../src-worker/tasks/evaluation-ray-errors';
import { pairingBeams, serveChunks } from './evaluation-service';

const cache = new WeakMap<ProjectSession, Map<string, EvaluationRayErrors>>();
const KEEP = 4;

export async function evaluationRayErrors(session: ProjectSession, req: ParsedRequest<'evaluations.rayErrors'>): Promise<EvaluationRayErrors> {
  const { store } = session;
  const info = store.evaluations.get(req.id);
  if (!info) throw new ApiError('not_found', `no evaluation ${req.id} in this project`);
  // Deleting the log or the run deletes its evaluations, so both are here.
  const log = store.logs.get(info.realLogId), run = store.runs.get(info.runId);
  if (!log || !run) throw new ApiError('not_found', `evaluation ${info.id}: drive log ${info.realLogId} or run ${info.runId} is gone`);

  let kept = cache.get(session);
  if (!kept) cache.set(session, (kept = new Map()));
  const key = `${info.id}:${info.createdAt}:${req.budget}`;
  const hit = kept.get(key);
  if (hit) return hit;

  const m = info.metrics;
  const options = info.params as EvaluationOptions;
  const { port1, port2 } = new MessageChannel();
  serveChunks(port1, { real: () => store.logs.chunks(log.id), sim: () => store.runs.chunks(run.id) }, { real: `drive log ${log.id}`, sim: `run ${run.id}` });
  const input: EvaluationRayErrorsInput = {
    feed: port2,
    options,
    budget: req.budget,
    total: m.trueHits + m.falseHits + m.falseMisses,
    realPackets: log.packets,
    simPackets: run.packets,
    ...pairingBeams(session, log.profileId, run.params, String(options.packetPairing ?? 'time')),
  };
  try {
    // A MessagePort is transferable like a buffer: it moves to the worker with the input.
    const { outputs } = await session.runner.runTransient('evaluation-ray-errors', input, [port2 as unknown as ArrayBuffer]);
    const s = outputs.get('ray-errors') as RayErrorSample;
    const out: EvaluationRayErrors = { id: info.id, totalPairs: s.seen, real: s.real, sim: s.sim, error: s.error };
    kept.set(key, out);
    while (kept.size > KEEP) kept.delete(kept.keys().next().value!);
    return out;
  } finally {
    port1.removeAllListeners();
    port1.close();
  }
}

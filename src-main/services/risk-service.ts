/**
 * Application-level risk of a simulation run against a real drive log (docs/methods.md,
 * "Application-level risk"), as one job ('risk') on the pool: the task (src-worker/tasks/risk.ts)
 * reads both through feeds of their own (chunk-server.ts), keeps at most MAX_HITS hits a side
 * (every stride-th), and runs the application for every α drawn. Success stores the result; the
 * job's result is it with the stored risk's id (riskId). Nothing is stored on failure or cancel.
 */
import { ApiError, type JobInfo, type Method, type ParsedRequest, type Response } from '../api/contract';
import type { RunningJob } from '../jobs/job-runner';
import type { ServiceContext } from './service-context';
import type { RiskTaskInput } from '../../src-worker/tasks/risk';
import type { Application, RiskResult } from '../../src-common/application-risk';
import { serveChunks } from './chunk-server';

/** Hits kept per side at most (every stride-th of a longer log). */
export const MAX_HITS = 2_000_000;

export function startRisk(ctx: ServiceContext, req: ParsedRequest<'risk.start'>): RunningJob {
  const session = ctx.requireSession();
  const { store } = session;
  const log = store.logs.get(req.realLogId) ?? missing(`drive log ${req.realLogId}`);
  const run = store.runs.get(req.runId) ?? missing(`simulation run ${req.runId}`);
  for (const [what, x] of [['drive log', log], ['simulation run', run]] as const) {
    if (x.hits === 0) throw new ApiError('bad_input', `${what} ${x.id} (${x.name}) has no hits`);
  }
  const t0 = performance.now();
  const real = serveChunks(() => store.logs.chunks(log.id), `drive log ${log.id}`);
  const sim = serveChunks(() => store.runs.chunks(run.id), `run ${run.id}`);
  const close = () => {
    real.close();
    sim.close();
  };
  const options = { samples: req.samples, seed: req.seed, maxPairs: req.maxPairs };
  const input: RiskTaskInput = {
    real: real.port,
    sim: sim.port,
    application: req.application,
    options,
    strides: { real: Math.max(1, Math.ceil(log.hits / MAX_HITS)), sim: Math.max(1, Math.ceil(run.hits / MAX_HITS)) },
    names: { real: `drive log ${log.id} (${log.name})`, sim: `run ${run.id} (${run.name})` },
  };
  return session.runner.submit({
    kind: 'risk',
    params: { realLogId: log.id, runId: run.id, application: req.application, ...options },
    task: 'risk',
    input,
    // MessagePorts are transferable like buffers; the runner passes the list to the pool as is.
    transfer: [real.port as unknown as ArrayBuffer, sim.port as unknown as ArrayBuffer],
    onSuccess: (output, job) => {
      close();
      if (!store.logs.get(log.id) || !store.runs.get(run.id)) throw new Error(`drive log ${log.id} or run ${run.id} was deleted during the risk computation: nothing was stored`);
      const seconds = Math.round((performance.now() - t0) / 100) / 10;
      const info = store.risks.create({ realLogId: log.id, runId: run.id, params: { application: req.application, ...options }, result: output as RiskResult, seconds, jobId: job.id });
      return { ...(output as RiskResult), riskId: info.id, seconds } as unknown as Record<string, unknown>;
    },
    onAbort: close,
  });
}

/** What a caller of the API needs to run a risk job to its end (the experiments). */
export interface RiskHost {
  call<M extends Method>(method: M, request: Record<string, unknown>): Promise<Response<M>>;
  whenJobSettled(id: number): Promise<JobInfo>;
}

function missing(what: string): never {
  throw new ApiError('not_found', `no ${what} in this project`);
}

/** Runs a risk job and returns its result; a job that did not finish is an error naming it. */
export async function computeRisk(host: RiskHost, realLogId: number, runId: number, application: Application, opts: { samples: number; seed: number; maxPairs?: number }): Promise<RiskResult & { riskId: number; seconds: number }> {
  const { job } = await host.call('risk.start', { realLogId, runId, application, samples: opts.samples, seed: opts.seed, ...(opts.maxPairs ? { maxPairs: opts.maxPairs } : {}) });
  const final = await host.whenJobSettled(job.id);
  if (final.state !== 'done') throw new ApiError('internal', `risk job ${final.id} ${final.state}${final.error ? `: ${final.error}` : ''}`);
  return final.result as unknown as RiskResult & { riskId: number; seconds: number };
}

/** How much α sampling the experiments spend on scan-matching risk: samples, and revolution pairs a side. */
export interface ExperimentRiskOptions {
  samples: number;
  maxPairs: number;
}

/** The experiments' defaults: a few draws on the demo's small drives (a quarter second: two pairs), more on full ones. */
export function experimentRiskDefaults(small: boolean): ExperimentRiskOptions {
  return small ? { samples: 3, maxPairs: 2 } : { samples: 10, maxPairs: 5 };
}

/**
 * Scan-matching risk of a run against a log for an experiment's row (004 Table 4.4: position and
 * angle): null when samples is 0, or when the log has fewer than two revolutions (asked of its
 * timeline first, so no job fails for it; a run of fewer is an error).
 */
export async function scanMatchingRisk(host: RiskHost, logId: number, runId: number, seed: number, o: ExperimentRiskOptions): Promise<{ risk: number | null; riskAngle: number | null }> {
  if (o.samples <= 0) return { risk: null, riskAngle: null };
  const timeline = await host.call('logs.timeline', { id: logId, maxPoses: 2 });
  if (timeline.sweepStart.length < 2) return { risk: null, riskAngle: null };
  const r = await computeRisk(host, logId, runId, 'scan-matching', { samples: o.samples, seed, maxPairs: o.maxPairs });
  return { risk: r.risk, riskAngle: r.riskAngle ?? null };
}

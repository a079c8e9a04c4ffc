/**
 * Learned sensor noise (docs/methods.md §8): learning a model from a drive log of repeated static
 * scans as a job (task learn-noise, fed the log's chunks), storing it, and handing a simulation
 * the tables its sensor profile names (`range.noiseModel`).
 */
import { ApiError, type ParsedRequest } from '../api/contract';
import type { RunningJob } from '../jobs/job-runner';
import type { LearnedNoiseTables, NoiseModelInfo } from '../../src-common/noise-model';
import type { SensorProfile } from '../../src-common/sensor-profile';
import type { LearnNoiseInput, LearnNoiseOutput } from '../../src-worker/tasks/learn-noise';
import { noiseModelsOf } from '../store/noise-models-repository';
import type { ProjectStore } from '../store/project-store';
import type { ProjectSession } from './project-session';
import type { ServiceContext } from './service-context';
import { serveChunks } from './chunk-server';
import { resolveProfileForUse } from './profiles-service';

export function startNoiseLearning(ctx: ServiceContext, req: ParsedRequest<'noise.learn'>): RunningJob {
  const session: ProjectSession = ctx.requireSession();
  const { store } = session;
  const log = store.logs.get(req.logId);
  if (!log) throw new ApiError('not_found', `no drive log ${req.logId} in this project`);
  if (log.hits === 0) throw new ApiError('bad_input', `drive log ${log.id} (${log.name}) has no returns: there is nothing to learn from`);
  let profileSigma: number | undefined;
  if (log.profileId) {
    try {
      profileSigma = resolveProfileForUse(store, log.profileId).range.noiseSigma;
    } catch {
      profileSigma = undefined; // an unknown profile: the constant baseline is then σ = 0
    }
  }
  const { port, close } = serveChunks(() => store.logs.chunks(log.id), `drive log ${log.id}`);
  const input: LearnNoiseInput = { feed: port, method: req.method, testFraction: req.testFraction, seed: req.seed, packets: log.packets, where: `drive log ${log.id} (${log.name})`, ...(profileSigma !== undefined ? { profileSigma } : {}) };
  const name = req.name ?? `${req.method === 'p-reg' ? 'P-Reg' : 'NP-Reg'} noise of ${log.name}`;
  let jobId: number | null = null;
  const running = session.runner.submit({
    kind: 'noise-learn',
    params: { logId: log.id, method: req.method, testFraction: req.testFraction, seed: req.seed, name },
    task: 'learn-noise',
    input,
    // A MessagePort is transferable like a buffer; the runner passes the list to the pool as is.
    transfer: [port as unknown as ArrayBuffer],
    onSuccess: (output) => {
      close();
      const out = output as LearnNoiseOutput;
      const info = noiseModelsOf(store).create({ name, logId: log.id, summary: out.summary, tables: out.tables, jobId });
      ctx.events.emit({ type: 'project', entity: 'project' });
      return { noiseModel: info.id, ...out.summary };
    },
    onAbort: () => close(),
  });
  jobId = running.job.id;
  return running;
}

export function listNoiseModels(ctx: ServiceContext): NoiseModelInfo[] {
  return noiseModelsOf(ctx.requireSession().store).list();
}

export function getNoiseModel(ctx: ServiceContext, id: number): NoiseModelInfo {
  const m = noiseModelsOf(ctx.requireSession().store).get(id);
  if (!m) throw new ApiError('not_found', `no learned noise model ${id} in this project`);
  return m;
}

/**
 * What a simulation task adds to its input for a profile: `{ learnedNoise }` when the profile names
 * a learned noise model (range.noiseModel), else nothing — the Gaussian range noise stays.
 */
export function learnedNoiseFor(store: ProjectStore, profile: SensorProfile): { learnedNoise?: LearnedNoiseTables } {
  const id = profile.range.noiseModel;
  if (id === undefined) return {};
  const tables = noiseModelsOf(store).tables(id);
  if (!tables) throw new ApiError('bad_input', `sensor profile ${profile.id} names learned noise model ${id}, which this project does not have (thicket noise learn makes one)`);
  return { learnedNoise: tables };
}

/**
 * How long the host thread stalls while the whole demo runs (`thicket bench --only host`): the
 * host only orchestrates — it reads BLOBs, submits tasks and writes results — so its event loop
 * must never block for long, or the app's window and the WebSocket API freeze. The longest
 * event-loop delay is measured with `perf_hooks.monitorEventLoopDelay` (one histogram for the
 * whole run and one per step, each sampling only while its step runs) through: the demo
 * project (reference site and drives), a capture import, scene generation, simulation of the
 * site, the Table 4.3 experiment (fit, extract, compose, simulate with every simulator,
 * evaluate), scene previews (a 5 M-triangle scene among them), the log views (timeline and
 * display cloud) and a short sensor study. Every step goes through the API, as the app does.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, type ELDHistogram } from 'node:perf_hooks';
import type { DemoResult, JobInfo, Method, ParsedRequest, Response } from '../api/contract';
import type { AppServices } from './app-services';
import { captureRecords, writeCapture } from './bench-import';
import { runTable43, type ExperimentHost } from './experiment-service';
import { DEMO_PROFILE_ID } from './demo-service';

export interface HostStepStall {
  step: string;
  /** Longest event-loop delay while the step ran (ms). */
  maxStallMs: number;
  /** The highest 99th percentile of its stretches (ms). */
  p99StallMs: number;
  /** Most CPU time the host thread spent between two turns of its loop (ms): the stall its own
   * work makes, without the time it waited for a core (null where Node cannot tell). */
  maxBusyMs: number | null;
  /** Wall time the step took (s; a step the experiment interleaves adds up its parts). */
  seconds: number;
}

export interface HostBench {
  maxStallMs: number;
  p99StallMs: number;
  maxBusyMs: number | null;
  steps: HostStepStall[];
  small: boolean;
  /** Placed triangles of the large scene the `preview` step decimates. */
  previewTriangles: number;
  project: string;
}

export interface HostBenchOptions {
  small?: boolean;
  /** Reuse (or build the demo into) this project instead of a temporary one. */
  project?: string;
  /** Simulated seconds of the site simulation and the study. */
  seconds?: number;
  seed?: number;
  /** Placed triangles of the scene the preview step shows (default 5 M; 200 k with `small`). */
  previewTriangles?: number;
}

/** Sampling period of the histograms (ms): fine enough for a 50 ms goal, cheap to run. */
const RESOLUTION_MS = 2;

/** The experiment's API calls, by the step their work belongs to. */
const STEP_OF: Partial<Record<Method, string>> = {
  'fit.start': 'fit',
  'primitives.extract': 'extract',
  'primitives.generateMesh': 'extract',
  'scenes.compose': 'compose',
  'simulate.start': 'simulate',
  'evaluate.start': 'evaluate',
};

/**
 * One histogram per stretch of a step (the experiment interleaves simulate and evaluate): a
 * histogram disabled and enabled again would count the time in between as a stall, so each
 * stretch gets a fresh one and a step keeps the worst of its stretches. The run's figures are the
 * worst of its steps: the bench's own set-up between steps (writing the capture it imports) is
 * not the host's work and is not measured.
 *
 * On a shared machine a stall is also the time the host waited for a core. So a sampler on the
 * same period reads the thread's own CPU time at every turn of the loop: the most it spent
 * between two turns is the stall its own work made (`maxBusyMs`).
 */
class StallMeter {
  private readonly steps = new Map<string, { maxStallMs: number; p99StallMs: number; maxBusyMs: number; ms: number }>();
  private current: { name: string; since: number; h: ELDHistogram; busy: number } | null = null;
  private cpuAt = threadCpuMs();
  private readonly sampler = setInterval(() => {
    const now = threadCpuMs();
    if (now === null || this.cpuAt === null) return;
    const busy = now - this.cpuAt;
    this.cpuAt = now;
    if (this.current) this.current.busy = Math.max(this.current.busy, busy);
  }, RESOLUTION_MS);

  async enter(name: string): Promise<void> {
    if (this.current?.name === name) return;
    await this.leave();
    const h = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    h.enable();
    // The histogram's first tick only starts its clock: let it pass before the step runs.
    await turn();
    this.current = { name, since: performance.now(), h, busy: 0 };
  }

  /** Lets the loop turn first: a step that blocked to its end is recorded when the timer fires late. */
  async leave(): Promise<void> {
    if (!this.current) return;
    await turn();
    const { name, since, h, busy } = this.current;
    h.disable();
    const s = this.steps.get(name) ?? { maxStallMs: 0, p99StallMs: 0, maxBusyMs: 0, ms: 0 };
    const part = stalls(h);
    this.steps.set(name, {
      maxStallMs: Math.max(s.maxStallMs, part.maxStallMs),
      p99StallMs: Math.max(s.p99StallMs, part.p99StallMs),
      maxBusyMs: Math.max(s.maxBusyMs, busy),
      ms: s.ms + performance.now() - since,
    });
    this.current = null;
  }

  async finish(): Promise<{ maxStallMs: number; p99StallMs: number; maxBusyMs: number | null; steps: HostStepStall[] }> {
    await this.leave();
    this.stop();
    const known = this.cpuAt !== null;
    const busy = (ms: number) => (known ? round(ms, 1) : null);
    const steps = [...this.steps].map(([step, s]) => ({ step, maxStallMs: s.maxStallMs, p99StallMs: s.p99StallMs, maxBusyMs: busy(s.maxBusyMs), seconds: round(s.ms / 1000, 2) }));
    const worst = (f: (s: { maxStallMs: number; p99StallMs: number; maxBusyMs: number }) => number) => Math.max(0, ...[...this.steps.values()].map(f));
    return { maxStallMs: worst((s) => s.maxStallMs), p99StallMs: worst((s) => s.p99StallMs), maxBusyMs: busy(worst((s) => s.maxBusyMs)), steps };
  }

  stop(): void {
    clearInterval(this.sampler);
  }
}

/** The host thread's CPU time (ms), where Node can tell it (22.19 and later). */
function threadCpuMs(): number | null {
  const usage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.();
  return usage ? (usage.user + usage.system) / 1000 : null;
}

function turn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 2 * RESOLUTION_MS));
}

function stalls(h: ELDHistogram): { maxStallMs: number; p99StallMs: number } {
  if (h.count === 0) return { maxStallMs: 0, p99StallMs: 0 };
  return { maxStallMs: round(h.max / 1e6, 1), p99StallMs: round(h.percentile(99) / 1e6, 1) };
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export async function benchHost(services: AppServices, opts: HostBenchOptions, progress: (m: string) => void): Promise<HostBench> {
  const small = opts.small ?? false;
  const seed = opts.seed ?? 1;
  const seconds = opts.seconds ?? (small ? 0.5 : 2);
  const previewTriangles = opts.previewTriangles ?? (small ? 200_000 : 5_000_000);
  const dir = opts.project ? null : mkdtempSync(join(tmpdir(), 'thicket-bench-host-'));
  const project = opts.project ?? join(dir!, 'bench-host.thicket');
  const meter = new StallMeter();
  const settle = async (job: Pick<JobInfo, 'id'>): Promise<Record<string, unknown>> => {
    const final = await services.whenJobSettled(job.id);
    if (final.state !== 'done') throw new Error(`bench host: ${final.kind} job ${final.id} ${final.state}${final.error ? `: ${final.error}` : ''}`);
    return final.result ?? {};
  };
  try {
    await meter.enter('demo');
    progress(`host: the demo project${small ? ' (small)' : ''} in ${project}`);
    await services.call(existsSync(project) ? 'project.open' : 'project.create', { path: project });
    const demo = (await storedDemo(services)) ?? (await buildDemo(services, seed, small, settle));

    // The capture is the bench's own input: written between steps, where nothing is measured.
    await meter.leave();
    const capture = join(dir ?? tmpdir(), `bench-host-${process.pid}.pcap`);
    writeCapture(capture, captureRecords(small ? 4 : 64));
    await meter.enter('import');
    progress('host: importing a capture');
    try {
      await settle((await services.call('logs.importFile', { path: capture })).job);
    } finally {
      rmSync(capture, { force: true });
    }

    await meter.enter('generate');
    progress(`host: generating an offroad scene of ${previewTriangles} triangles`);
    const big = Number((await settle((await services.call('scenes.generate', { kind: 'offroad', seed, params: { targetTriangles: previewTriangles } })).job)).scene);

    await meter.enter('simulate');
    progress(`host: simulating ${seconds} s of the training drive in the site`);
    const [train] = demo.logs;
    await settle((await services.call('simulate.start', { sceneId: demo.site.scene, profileId: DEMO_PROFILE_ID, mode: 'physics', seed, trajectory: { kind: 'log', logId: train!.log, seconds } })).job);

    // The experiment's own calls, each step metered while its call and its jobs run.
    const host: ExperimentHost = {
      call: async <M extends Method>(method: M, request: ParsedRequest<M> | Record<string, unknown>): Promise<Response<M>> => {
        const step = STEP_OF[method];
        if (step) await meter.enter(step);
        return services.call(method, request);
      },
      whenJobSettled: (id) => services.whenJobSettled(id),
    };
    const table = await runTable43(host, demo, { seed, note: (m) => progress(`host: ${m}`) });

    await meter.enter('preview');
    progress('host: scene previews');
    for (const id of [demo.site.scene, table.scenes.testHybrid, big]) await services.call('scenes.preview', { id });

    await meter.enter('views');
    progress('host: timeline and display cloud of the training drive');
    await services.call('logs.timeline', { id: train!.log });
    await services.call('logs.cloud', { id: train!.log });

    await meter.enter('study');
    progress(`host: a ${seconds} s sensor study`);
    const definition = { sceneId: demo.site.scene, seconds, seed, sensors: [{ profileId: 'vlp16' }, { profileId: DEMO_PROFILE_ID }] };
    await settle((await services.call('study.start', { definition })).job);

    return { ...(await meter.finish()), small, previewTriangles, project: opts.project ?? '(temporary)' };
  } finally {
    meter.stop();
    if (services.session) await services.call('project.close', {});
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

type Settle = (job: Pick<JobInfo, 'id'>) => Promise<Record<string, unknown>>;

async function buildDemo(services: AppServices, seed: number, small: boolean, settle: Settle): Promise<DemoResult> {
  const first = await settle((await services.call('demo.create', { seed, small })).job);
  return (await settle({ id: Number(first.drivesJob) })) as unknown as DemoResult;
}

/** A project that already holds a demo: its site and drives as demo.create reported them. */
async function storedDemo(services: AppServices): Promise<DemoResult | null> {
  const site = (await services.call('scenes.list', {})).find((s) => s.meta.kind === 'reference-site');
  const logIds = site && Array.isArray(site.meta.logs) ? (site.meta.logs as number[]) : [];
  if (!site || logIds.length < 2) return null;
  const logs: DemoResult['logs'] = [];
  for (const id of logIds) {
    const l = await services.call('logs.get', { id });
    const annotation = (await services.call('annotations.list', { logId: id }))[0];
    if (!annotation) return null;
    logs.push({ log: l.id, name: l.name, packets: l.packets, rays: l.hits + l.misses, hits: l.hits, misses: l.misses, durationS: l.durationS, annotation: annotation.id });
  }
  const m = site.meta;
  return { site: { seed: Number(m.seed), small: m.small === true, objects: Number(m.objects), triangles: Number(m.triangles), scene: site.id, annotation: Number(m.annotation) }, logs };
}

/**
 * The host's services: one object behind every binding (Electron IPC, WebSocket, CLI).
 * `dispatch` validates a request against the contract's schema before anything runs, so a
 * request that fails validation gets a clear error and changes nothing.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Piscina } from 'piscina';
import {
  ApiError,
  isMethod,
  requestSchemas,
  type ApiEvent,
  type AppInfo,
  type JobInfo,
  type Method,
  type ParsedRequest,
  type Response,
} from '../api/contract';
import { createInteractivePool, createPool, defaultWorkerCount } from '../jobs/pool';
import type { WorkerPools } from '../jobs/lanes';
import { SCHEMA_VERSION } from '../store';
import { EventBus } from './event-bus';
import { RecentProjects } from './recent-projects';
import { ProjectSession } from './project-session';
import type { ApiHost } from './api-host';
import { projectHandlers } from './handlers/project-handlers';
import { logHandlers } from './handlers/log-handlers';
import { exportHandlers } from './handlers/export-handlers';
import { jobHandlers } from './handlers/job-handlers';
import { profileHandlers } from './handlers/profile-handlers';
import { sceneHandlers } from './handlers/scene-handlers';
import { sceneEditorHandlers } from './handlers/scene-editor-handlers';
import { runHandlers } from './handlers/run-handlers';
import { demoHandlers } from './handlers/demo-handlers';
import { studyHandlers } from './handlers/study-handlers';
import { driveHandlers } from './handlers/drive-handlers';
import { fitHandlers } from './handlers/fit-handlers';
import { primitiveHandlers } from './handlers/primitive-handlers';
import { evaluationHandlers } from './handlers/evaluation-handlers';
import { experimentHandlers } from './handlers/experiment-handlers';
import { riskHandlers } from './handlers/risk-handlers';
import { labelHandlers } from './handlers/label-handlers';
import { noiseHandlers } from './handlers/noise-handlers';
import { formatZodError } from './validation';
import type { AppServicesOptions, Handlers, ServiceContext } from './service-context';
import { version } from './version';

export type { AppServicesOptions, Handlers, ServiceContext } from './service-context';

export class AppServices implements ApiHost, ServiceContext {
  readonly events = new EventBus();
  readonly recent: RecentProjects;
  readonly pool: Piscina;
  readonly pools: WorkerPools;
  readonly options: Required<AppServicesOptions> & { defaultProjectDir: string };
  session: ProjectSession | null = null;
  private readonly handlers: Handlers;

  constructor(opts: AppServicesOptions) {
    const envHome = process.env.THICKET_HOME;
    const homeDir = opts.homeDir ?? envHome ?? join(homedir(), '.thicket');
    mkdirSync(homeDir, { recursive: true });
    const defaultProjectDir = opts.homeDir || envHome ? join(homeDir, 'projects') : join(homedir(), 'Thicket');
    this.options = { shell: opts.shell, homeDir, workers: opts.workers ?? defaultWorkerCount(), defaultProjectDir };
    this.recent = new RecentProjects(homeDir);
    this.pool = createPool(this.options.workers);
    this.pools = { jobs: this.pool, interactive: createInteractivePool() };
    this.handlers = {
      'app.info': () => this.appInfo(),
      ...projectHandlers(this),
      ...logHandlers(this),
      ...exportHandlers(this),
      ...jobHandlers(this),
      ...profileHandlers(this),
      ...sceneHandlers(this),
      ...sceneEditorHandlers(this),
      ...runHandlers(this),
      ...demoHandlers(this),
      ...studyHandlers(this),
      ...driveHandlers(this),
      ...fitHandlers(this),
      ...primitiveHandlers(this),
      ...evaluationHandlers(this),
      ...experimentHandlers(this),
      ...riskHandlers(this),
      ...labelHandlers(this),
      ...noiseHandlers(this),
    };
  }

  requireSession(): ProjectSession {
    if (!this.session) throw new ApiError('no_project', 'no project is open: create or open one first');
    return this.session;
  }

  appInfo(): AppInfo {
    return {
      name: 'Thicket',
      version,
      shell: this.options.shell,
      schemaVersion: SCHEMA_VERSION,
      workers: this.options.workers,
      defaultProjectDir: this.options.defaultProjectDir,
    };
  }

  async dispatch(method: string, params: unknown): Promise<unknown> {
    if (!isMethod(method)) throw new ApiError('unknown_method', `unknown method "${String(method)}"`);
    const parsed = requestSchemas[method].safeParse(params ?? {});
    if (!parsed.success) throw new ApiError('invalid_request', `${method}: ${formatZodError(parsed.error)}`);
    const handler = this.handlers[method] as (req: unknown) => unknown;
    try {
      return await handler(parsed.data);
    } catch (e) {
      if (e instanceof ApiError) throw e;
      // A write the project refused (damaged, or locked by another process): say which and why.
      const refused = this.session?.store.refusedWrite(e);
      if (refused) throw refused;
      throw new ApiError('internal', e instanceof Error ? e.message : String(e));
    }
  }

  /** Typed convenience for in-process callers (CLI, tests). */
  call<M extends Method>(method: M, request: ParsedRequest<M> | Record<string, unknown>): Promise<Response<M>> {
    return this.dispatch(method, request) as Promise<Response<M>>;
  }

  onEvent(handler: (event: ApiEvent) => void): () => void {
    return this.events.on(handler);
  }

  /** Resolves when the job reaches a final state (CLI commands wait on their job). */
  whenJobSettled(id: number): Promise<JobInfo> {
    const session = this.requireSession();
    return session.runner.settled(id);
  }

  async close(): Promise<void> {
    await this.session?.close();
    this.session = null;
    await Promise.all([this.pool.destroy(), this.pools.interactive?.destroy()]);
  }
}

export async function createAppServices(opts: AppServicesOptions): Promise<AppServices> {
  return new AppServices(opts);
}

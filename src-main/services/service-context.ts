/**
 * What the handler and service modules share of the host (AppServices implements it). It has a
 * module of its own that imports only types, so a service can name it without importing
 * app-services.ts — which imports every handler, and through them every service, back.
 */
import type { Piscina } from 'piscina';
import type { WorkerPools } from '../jobs/lanes';
import type { Method, ParsedRequest, Response, AppInfo } from '../api/contract';
import type { EventBus } from './event-bus';
import type { RecentProjects } from './recent-projects';
import type { ProjectSession } from './project-session';

export interface AppServicesOptions {
  shell: AppInfo['shell'];
  /** Thicket's own folder (recent projects); THICKET_HOME or ~/.thicket by default. */
  homeDir?: string;
  workers?: number;
}

export type Handlers = { [M in Method]: (req: ParsedRequest<M>) => Promise<Response<M>> | Response<M> };

/** What the handler modules share: kept as an interface so each module stays small. */
export interface ServiceContext {
  readonly events: EventBus;
  readonly recent: RecentProjects;
  /** The job pool. */
  readonly pool: Piscina;
  /** Both pools: the job pool and the interactive lane (jobs/lanes.ts picks one per task). */
  readonly pools: WorkerPools;
  readonly options: Required<AppServicesOptions> & { defaultProjectDir: string };
  session: ProjectSession | null;
  /** The open project, or an ApiError('no_project'). */
  requireSession(): ProjectSession;
}

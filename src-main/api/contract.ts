/**
 * ThicketApi: the one contract between the renderer (or any client) and the host.
 *
 * Every method has a runtime schema for its request (validated at the boundary by
 * `dispatch`, so a bad request changes nothing) and a TypeScript type for its response.
 * The same contract is bound twice: Electron IPC (src-main/electron) and a WebSocket on
 * 127.0.0.1 (src-main/host). This folder is environment-neutral (zod only): the renderer
 * imports it, so nothing here may import Node, Electron or another src-main folder.
 */
import { z } from 'zod';

// ---------- shared field schemas ----------

export const Id = z.number().int().positive();

/** A project is one SQLite file; the extension keeps users from opening arbitrary files as projects. */
export const ProjectPath = z
  .string()
  .min(1, 'a project path is required')
  .max(4096)
  .refine((p) => p.endsWith('.thicket'), { message: 'a project file name ends in .thicket' })
  .refine((p) => !p.includes('\0'), { message: 'a path may not contain NUL' });

export const LOG_FORMATS = ['kitti-bin', 'pcd'] as const;
export const LogFormat = z.enum(LOG_FORMATS);
export type LogFormat = z.infer<typeof LogFormat>;

export const JOB_STATES = ['queued', 'running', 'done', 'failed', 'cancelled', 'interrupted'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const COLOR_MODES = ['height', 'intensity', 'class', 'time'] as const;
export type ColorMode = (typeof COLOR_MODES)[number];

// ---------- request schemas, one per method ----------

const empty = z.object({}).strict();

export const requestSchemas = {
  'app.info': empty,
  'project.create': z.object({ path: ProjectPath }).strict(),
  'project.open': z.object({ path: ProjectPath }).strict(),
  'project.close': empty,
  /** The open project, or null. */
  'project.current': empty,
  'project.recent': empty,
  'logs.list': empty,
  'logs.get': z.object({ id: Id }).strict(),
  'logs.delete': z.object({ id: Id }).strict(),
  /** A decimated cloud for display: at most `budget` points, evenly strided over the log. */
  'logs.cloud': z
    .object({ id: Id, budget: z.number().int().min(1_000).max(20_000_000).default(2_000_000) })
    .strict(),
  /** Import a file the user chose on the host machine (Electron dialog or typed path). */
  'logs.importFile': z
    .object({ path: z.string().min(1).max(4096), format: LogFormat.optional(), name: z.string().min(1).max(255).optional() })
    .strict(),
  /** Import bytes the user picked in a browser file input (browser mode). In-process callers:
   * the array's buffer is transferred to the worker, so it is detached afterwards. */
  'logs.importBytes': z
    .object({
      name: z.string().min(1).max(255),
      bytes: z.instanceof(Uint8Array).refine((b) => b.byteLength > 0, { message: 'the file is empty' }),
      format: LogFormat.optional(),
    })
    .strict(),
  'jobs.list': z.object({ limit: z.number().int().min(1).max(1000).default(100) }).strict(),
  'jobs.get': z.object({ id: Id }).strict(),
  'jobs.cancel': z.object({ id: Id }).strict(),
} as const;

export type Method = keyof typeof requestSchemas;
/** What a caller passes (defaults optional). */
export type Request<M extends Method> = z.input<(typeof requestSchemas)[M]>;
/** What a handler receives (defaults applied). */
export type ParsedRequest<M extends Method> = z.output<(typeof requestSchemas)[M]>;

// ---------- response types ----------

export interface AppInfo {
  name: 'Thicket';
  version: string;
  /** 'electron', 'web' (browser mode against the headless host) or 'cli'. */
  shell: 'electron' | 'web' | 'cli';
  schemaVersion: number;
  workers: number;
  /** Where new projects go by default (the user's documents folder or THICKET_HOME). */
  defaultProjectDir: string;
}

export type EntityName =
  | 'sensorProfiles'
  | 'driveLogs'
  | 'annotations'
  | 'models'
  | 'primitives'
  | 'scenes'
  | 'runs'
  | 'evaluations'
  | 'studies'
  | 'jobs';

export interface ProjectInfo {
  path: string;
  name: string;
  schemaVersion: number;
  counts: Record<EntityName, number>;
}

export interface RecentProject {
  path: string;
  name: string;
  openedAt: string;
  exists: boolean;
}

export interface Bounds {
  min: [number, number, number];
  max: [number, number, number];
}

export interface DriveLogInfo {
  id: number;
  name: string;
  format: LogFormat;
  sourcePath: string | null;
  profileId: string | null;
  packets: number;
  points: number;
  hits: number;
  misses: number;
  durationS: number;
  bounds: Bounds | null;
  createdAt: string;
}

/** Decimated display cloud; arrays are typed and travel as binary frames / structured clones. */
export interface CloudData {
  logId: number;
  totalPoints: number;
  /** x,y,z world coordinates, 3 per point. */
  positions: Float32Array;
  intensity: Float32Array;
  /** Seconds since the log's start. */
  time: Float32Array;
  /** Class id per point (0 = unlabeled). */
  classId: Uint8Array;
  bounds: Bounds | null;
}

export interface JobInfo {
  id: number;
  kind: string;
  state: JobState;
  progress: number;
  message: string;
  error: string | null;
  params: Record<string, unknown>;
  result: Record<string, unknown> | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface ImportStarted {
  job: JobInfo;
}

export interface Responses {
  'app.info': AppInfo;
  'project.create': ProjectInfo;
  'project.open': ProjectInfo;
  'project.close': { closed: boolean };
  'project.current': ProjectInfo | null;
  'project.recent': RecentProject[];
  'logs.list': DriveLogInfo[];
  'logs.get': DriveLogInfo;
  'logs.delete': { deleted: boolean };
  'logs.cloud': CloudData;
  'logs.importFile': ImportStarted;
  'logs.importBytes': ImportStarted;
  'jobs.list': JobInfo[];
  'jobs.get': JobInfo;
  'jobs.cancel': JobInfo;
}

export type Response<M extends Method> = Responses[M];

// ---------- events (host → clients) ----------

export type ApiEvent =
  | { type: 'job'; job: JobInfo }
  | { type: 'project'; entity: EntityName | 'project'; id?: number };

// ---------- errors ----------

export const ERROR_CODES = [
  'invalid_request',
  'unknown_method',
  'no_project',
  'not_found',
  'bad_input',
  'conflict',
  'cancelled',
  'unauthorized',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ApiErrorData {
  code: ErrorCode;
  message: string;
}

/** Thrown by services and re-thrown by clients so callers can switch on `code`. */
export class ApiError extends Error implements ApiErrorData {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
  }
  toJSON(): ApiErrorData {
    return { code: this.code, message: this.message };
  }
}

/** The client side of the contract, implemented by the IPC and WebSocket clients. */
export interface ThicketClient {
  call<M extends Method>(method: M, request: Request<M>): Promise<Response<M>>;
  /** Subscribe to host events; returns the unsubscribe function. */
  onEvent(handler: (event: ApiEvent) => void): () => void;
}

export function isMethod(name: unknown): name is Method {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(requestSchemas, name);
}

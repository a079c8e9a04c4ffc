/**
 * The host's services in-process for a test file, the same dispatch the IPC and WebSocket bindings
 * use: a temporary THICKET_HOME, optionally a fresh project, every event recorded, all closed and
 * removed after the file's tests.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { join } from 'node:path';
import { createAppServices, type AppServices } from '../../src-main/services/app-services';
import { ApiError, type ApiEvent } from '../../src-main/api/contract';
import { tempDir } from './temp';

export interface AppServicesFixture {
  /** The live services (from the file's beforeAll on). */
  readonly services: AppServices;
  /** The temporary folder: THICKET_HOME is its `home/`; projects and generated inputs go beside it. */
  readonly dir: string;
  /** Every event the services emitted, in order. */
  readonly events: ApiEvent[];
}

export interface AppServicesOptions {
  workers: number;
  /** The temporary folder's name prefix. */
  prefix?: string;
  /** A project file to create in the temporary folder once the services are up. */
  project?: string;
}

/** Registers the hooks that start the services before the file's (or block's) tests and close them after. */
export function useAppServices(options: AppServicesOptions): AppServicesFixture {
  const tmp = tempDir(options.prefix);
  const events: ApiEvent[] = [];
  let services: AppServices | undefined;
  beforeAll(async () => {
    services = await createAppServices({ shell: 'web', homeDir: join(tmp.dir, 'home'), workers: options.workers });
    services.onEvent((e) => events.push(e));
    if (options.project) await services.call('project.create', { path: join(tmp.dir, options.project) });
  });
  afterAll(async () => {
    await services?.close();
    tmp.cleanup();
  });
  return {
    get services() {
      if (!services) throw new Error('useAppServices: the services are not started yet (use them in a test or a later hook)');
      return services;
    },
    dir: tmp.dir,
    events,
  };
}

/** Awaits a call that must fail with an ApiError of `code` (and, when given, a message containing or matching `text`); returns the error. */
export async function expectApiError(p: Promise<unknown>, code: string, text?: string | RegExp): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).code).toBe(code);
  if (typeof text === 'string') expect((err as ApiError).message).toContain(text);
  else if (text) expect((err as ApiError).message).toMatch(text);
  return err as ApiError;
}

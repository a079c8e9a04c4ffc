import { ApiError, type CloudData } from '../../api/contract';
import type { Handlers, ServiceContext } from '../app-services';
import { startImport } from '../import-service';
import type { DisplayCloud } from '../../../src-worker/tasks/display-cloud';
import { chunkBuffers } from '../../../src-worker/formats/packets';

type LogMethods = 'logs.list' | 'logs.get' | 'logs.delete' | 'logs.cloud' | 'logs.importFile' | 'logs.importBytes';

export function logHandlers(ctx: ServiceContext): Pick<Handlers, LogMethods> {
  const get = (id: number) => {
    const log = ctx.requireSession().store.logs.get(id);
    if (!log) throw new ApiError('not_found', `no drive log ${id} in this project`);
    return log;
  };
  return {
    'logs.list': () => ctx.requireSession().store.logs.list(),
    'logs.get': ({ id }) => get(id),
    'logs.delete': ({ id }) => {
      get(id);
      ctx.requireSession().store.logs.delete(id);
      ctx.events.emit({ type: 'project', entity: 'driveLogs', id });
      return { deleted: true };
    },
    'logs.cloud': async ({ id, budget }): Promise<CloudData> => {
      const session = ctx.requireSession();
      get(id);
      const chunks = [...session.store.logs.chunks(id)];
      // The transform and decimation run in a worker: a large log would block the host's event loop.
      const { outputs } = await session.runner.runTransient('display-cloud', { chunks, budget }, chunks.flatMap(chunkBuffers));
      const cloud = outputs.get('cloud') as DisplayCloud;
      return { source: { kind: 'log', id }, ...cloud };
    },
    'logs.importFile': ({ path, format, name }) => {
      const { job } = startImport(ctx.requireSession(), ctx.events, { path, format, name });
      return { job };
    },
    'logs.importBytes': ({ name, bytes, format }) => {
      const { job } = startImport(ctx.requireSession(), ctx.events, { name, bytes, format });
      return { job };
    },
  };
}

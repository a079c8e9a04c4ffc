import { ApiError } from '../../api/contract';
import type { Handlers, ServiceContext } from '../service-context';
import { startImport } from '../import-service';
import { startSplit } from '../split-service';
import { loadCloud, loadTimeline, logSource } from '../cloud-views';
import { formatCatalogue } from '../format-catalogue';

type LogMethods = 'logs.list' | 'logs.get' | 'logs.delete' | 'logs.cloud' | 'logs.timeline' | 'logs.split' | 'logs.importFile' | 'logs.importBytes' | 'formats.list';

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
    'logs.cloud': (req) => loadCloud(ctx.requireSession(), logSource(ctx.requireSession(), req.id, get(req.id).createdAt), req),
    'logs.timeline': ({ id, maxPoses }) => loadTimeline(ctx.requireSession(), logSource(ctx.requireSession(), id, get(id).createdAt), maxPoses),
    'logs.split': async ({ id, at }) => {
      const { job } = await startSplit(ctx.requireSession(), ctx.events, { logId: id, at });
      return { job };
    },
    'logs.importFile': async (req) => {
      const { job } = await startImport(ctx.requireSession(), ctx.events, req);
      return { job };
    },
    'logs.importBytes': async (req) => {
      const { job } = await startImport(ctx.requireSession(), ctx.events, req);
      return { job };
    },
    'formats.list': () => formatCatalogue(ctx.pools),
  };
}

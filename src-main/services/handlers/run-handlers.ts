import { ApiError } from '../../api/contract';
import type { Handlers, ServiceContext } from '../service-context';
import { startSimulation } from '../simulation';
import { loadCloud, loadTimeline, runSource } from '../cloud-views';

type RunMethods = 'runs.list' | 'runs.get' | 'runs.delete' | 'runs.cloud' | 'runs.timeline' | 'simulate.start';

export function runHandlers(ctx: ServiceContext): Pick<Handlers, RunMethods> {
  const get = (id: number) => {
    const run = ctx.requireSession().store.runs.get(id);
    if (!run) throw new ApiError('not_found', `no simulation run ${id} in this project`);
    return run;
  };
  return {
    'runs.list': () => ctx.requireSession().store.runs.list(),
    'runs.get': ({ id }) => get(id),
    'runs.delete': ({ id }) => {
      get(id);
      ctx.requireSession().store.runs.delete(id);
      ctx.events.emit({ type: 'project', entity: 'runs', id });
      return { deleted: true };
    },
    'runs.cloud': (req) => loadCloud(ctx.requireSession(), runSource(ctx.requireSession(), req.id, get(req.id).createdAt), req),
    'runs.timeline': ({ id, maxPoses }) => loadTimeline(ctx.requireSession(), runSource(ctx.requireSession(), id, get(id).createdAt), maxPoses),
    'simulate.start': async (req) => ({ job: (await startSimulation(ctx, req)).job }),
  };
}

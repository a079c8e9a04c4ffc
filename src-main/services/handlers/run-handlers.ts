import { ApiError, type CloudData } from '../../api/contract';
import type { Handlers, ServiceContext } from '../app-services';
import { startSimulation } from '../simulation';
import type { DisplayCloud } from '../../../src-worker/tasks/display-cloud';
import { chunkBuffers } from '../../../src-worker/formats/packets';

type RunMethods = 'runs.list' | 'runs.get' | 'runs.delete' | 'runs.cloud' | 'simulate.start';

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
    'runs.cloud': async ({ id, budget }): Promise<CloudData> => {
      const session = ctx.requireSession();
      get(id);
      const chunks = [...session.store.runs.chunks(id)];
      const { outputs } = await session.runner.runTransient('display-cloud', { chunks, budget }, chunks.flatMap(chunkBuffers));
      return { source: { kind: 'run', id }, ...(outputs.get('cloud') as DisplayCloud) };
    },
    'simulate.start': (req) => ({ job: startSimulation(ctx, req).job }),
  };
}

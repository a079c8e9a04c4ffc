import { ApiError } from '../../api/contract';
import type { Handlers, ServiceContext } from '../service-context';

type JobMethods = 'jobs.list' | 'jobs.get' | 'jobs.cancel' | 'jobs.clear';

export function jobHandlers(ctx: ServiceContext): Pick<Handlers, JobMethods> {
  const get = (id: number) => {
    const job = ctx.requireSession().store.jobs.get(id);
    if (!job) throw new ApiError('not_found', `no job ${id} in this project`);
    return job;
  };
  return {
    'jobs.list': ({ limit }) => ctx.requireSession().store.jobs.list(limit),
    'jobs.get': ({ id }) => get(id),
    'jobs.cancel': ({ id }) => {
      const job = get(id);
      return ctx.requireSession().runner.cancel(id) ?? job;
    },
    'jobs.clear': ({ states }) => {
      const cleared = ctx.requireSession().store.jobs.clear(states);
      if (cleared.length) ctx.events.emit({ type: 'project', entity: 'jobs' });
      return { cleared };
    },
  };
}

import { ApiError } from '../../api/contract';
import type { Handlers, ServiceContext } from '../service-context';
import { startFit } from '../fit-service';

type FitMethods = 'models.list' | 'models.get' | 'models.delete' | 'fit.start';

export function fitHandlers(ctx: ServiceContext): Pick<Handlers, FitMethods> {
  const get = (id: number) => {
    const model = ctx.requireSession().store.models.get(id);
    if (!model) throw new ApiError('not_found', `no fitted model ${id} in this project`);
    return model;
  };
  return {
    'models.list': () => ctx.requireSession().store.models.list(),
    'models.get': ({ id }) => get(id),
    'models.delete': ({ id }) => {
      get(id);
      ctx.requireSession().store.models.delete(id);
      ctx.events.emit({ type: 'project', entity: 'models', id });
      return { deleted: true };
    },
    'fit.start': async (req) => ({ job: (await startFit(ctx, req)).job }),
  };
}

import { ApiError } from '../../api/contract';
import type { Handlers, ServiceContext } from '../service-context';
import { generateMeshLibrary, startComposition, startExtraction } from '../primitives-service';

type PrimitiveMethods = 'primitives.list' | 'primitives.get' | 'primitives.delete' | 'primitives.extract' | 'primitives.generateMesh' | 'scenes.compose';

export function primitiveHandlers(ctx: ServiceContext): Pick<Handlers, PrimitiveMethods> {
  return {
    'primitives.list': () => ctx.requireSession().store.primitives.list(),
    'primitives.get': ({ id }) => {
      const store = ctx.requireSession().store.primitives;
      const info = store.get(id);
      if (!info) throw new ApiError('not_found', `no primitive ${id} in this project`);
      return store.data(info);
    },
    'primitives.delete': ({ ids }) => {
      const deleted = ctx.requireSession().store.primitives.deleteMany(ids);
      if (deleted === 0) throw new ApiError('not_found', `none of the primitives ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ' …' : ''} is in this project`);
      ctx.events.emit({ type: 'project', entity: 'primitives', id: ids[0]! });
      return { deleted };
    },
    'primitives.extract': async (req) => ({ job: (await startExtraction(ctx, req)).job }),
    'primitives.generateMesh': (req) => generateMeshLibrary(ctx, req),
    'scenes.compose': async (req) => ({ job: (await startComposition(ctx, req)).job }),
  };
}

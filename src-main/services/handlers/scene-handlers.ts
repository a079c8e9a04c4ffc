import { ApiError } from '../../api/contract';
import type { Handlers, ServiceContext } from '../app-services';
import { startSceneGeneration } from '../scene-generation';

type SceneMethods = 'scenes.list' | 'scenes.delete' | 'scenes.generate';

export function sceneHandlers(ctx: ServiceContext): Pick<Handlers, SceneMethods> {
  return {
    'scenes.list': () => ctx.requireSession().store.scenes.list(),
    'scenes.delete': ({ id }) => {
      const deleted = ctx.requireSession().store.scenes.delete(id);
      if (!deleted) throw new ApiError('not_found', `no scene ${id} in this project`);
      ctx.events.emit({ type: 'project', entity: 'scenes', id });
      return { deleted };
    },
    'scenes.generate': (req) => ({ job: startSceneGeneration(ctx.requireSession(), ctx.events, req).job }),
  };
}

import { ApiError } from '../../api/contract';
import type { Handlers, ServiceContext } from '../service-context';
import { startSceneGeneration } from '../scene-generation';
import { scenePreview } from '../../../src-worker/scene/scene-preview';
import type { SceneData } from '../../../src-worker/scene/scene-data';

type SceneMethods = 'scenes.list' | 'scenes.delete' | 'scenes.generate' | 'scenes.preview';

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
    // In the host: one pass over the placed elements (≈ 10 ms per 100 k triangles), no job needed.
    'scenes.preview': ({ id, budget, gaussianBudget }) => {
      const scene = ctx.requireSession().store.scenes.get(id);
      if (!scene) throw new ApiError('not_found', `no scene ${id} in this project`);
      if (scene.data.format !== 'thicket-scene/1') throw new ApiError('bad_input', `scene ${id} (${scene.info.name}) is not a thicket-scene/1 scene: it cannot be shown`);
      return scenePreview(scene.data as unknown as SceneData, { maxTriangles: budget, maxGaussians: gaussianBudget });
    },
  };
}

import { ApiError, type ScenePreviewData } from '../../api/contract';
import type { Handlers, ServiceContext } from '../service-context';
import { startSceneGeneration } from '../scene-generation';
import type { PreviewSceneInput } from '../../../src-worker/tasks/preview-scene';
import { transferList } from '../../../src-common/shared-memory';

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
    // A pass over every placed element (≈ 10 ms per 100 k triangles): in a worker, no job needed.
    'scenes.preview': async ({ id, budget, gaussianBudget }) => {
      const session = ctx.requireSession();
      const scene = await session.store.scenes.readInTurns(id);
      if (!scene) throw new ApiError('not_found', `no scene ${id} in this project`);
      if (scene.data.format !== 'thicket-scene/1') throw new ApiError('bad_input', `scene ${id} (${scene.info.name}) is not a thicket-scene/1 scene: it cannot be shown`);
      const input: PreviewSceneInput = { scene: scene.data as unknown as PreviewSceneInput['scene'], options: { maxTriangles: budget, maxGaussians: gaussianBudget } };
      const { outputs } = await session.runner.runTransient('preview-scene', input, transferList(input.scene));
      return outputs.get('preview') as ScenePreviewData;
    },
  };
}

import type { Handlers, ServiceContext } from '../service-context';
import { editorTerrain, startAuthoring } from '../scene-authoring';
import { sensorPreview } from '../sensor-preview-service';

type SceneEditorMethods = 'scenes.terrain' | 'scenes.author' | 'scenes.sensorPreview';

/** The scene editor's methods (docs/design.md, *Scene editor*). */
export function sceneEditorHandlers(ctx: ServiceContext): Pick<Handlers, SceneEditorMethods> {
  return {
    'scenes.terrain': ({ terrain }) => editorTerrain(ctx, terrain),
    'scenes.author': async (req) => ({ job: (await startAuthoring(ctx, req)).job }),
    'scenes.sensorPreview': (req) => sensorPreview(ctx, req),
  };
}

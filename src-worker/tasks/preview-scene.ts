/**
 * A stored scene in display form for the Scenes page (scene/scene-preview.ts): every placed
 * element walked into world space and evenly decimated to the budgets. A scene of millions of
 * placed triangles takes a while to walk, so it runs here; the preview's arrays are transferred
 * back through the port (output 'preview').
 */
import type { TaskContext } from './task-context';
import type { SceneData } from '../../src-common/scene-data';
import { scenePreview, type ScenePreviewOptions } from '../scene/scene-preview';
import { transferList } from '../../src-common/shared-memory';

export interface PreviewSceneInput {
  /** The scene as read from the store (transferred). */
  scene: SceneData;
  options: ScenePreviewOptions;
}

export function previewSceneTask(input: PreviewSceneInput, ctx: TaskContext): { triangles: number; gaussians: number } {
  const preview = scenePreview(input.scene, input.options);
  ctx.post({ type: 'output', name: 'preview', value: preview }, transferList(preview));
  return { triangles: preview.triangles.total, gaussians: preview.gaussians.total };
}

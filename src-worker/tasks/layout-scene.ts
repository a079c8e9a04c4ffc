/**
 * A stored scene made ready for the tasks of a run or a study: its arrays moved into shared
 * memory and laid out once for the WebAssembly ray kernel (scene/kernel/kernel-scene.ts), in a
 * shared WebAssembly.Memory that every worker's kernel imports — so N workers cost one layout,
 * and posting the scene back to the host and on to the batches copies nothing.
 */
import type { TaskContext } from './task-context';
import type { SceneData } from '../../src-common/scene-data';
import { layoutKernelScene } from '../scene/kernel/kernel-scene';
import { toShared } from '../../src-common/shared-memory';

export interface LayoutSceneInput {
  /** The scene as read from the store (transferred). */
  scene: SceneData;
}

export function layoutSceneTask(input: LayoutSceneInput, ctx: TaskContext): SceneData {
  const shared = toShared(input.scene);
  ctx.checkCancelled();
  if (!shared.kernel) {
    const kernel = layoutKernelScene(shared);
    if (kernel) shared.kernel = kernel;
  }
  return shared;
}

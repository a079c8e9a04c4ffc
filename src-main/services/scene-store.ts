/**
 * Stored scenes made ready for the workers. A scene read from the store is handed to a worker
 * (task layout-scene), which moves its arrays into SharedArrayBuffers and lays it out once for the
 * WebAssembly ray kernel in a shared memory every worker's kernel imports; what comes back is
 * shared, so every batch of a run or study reads the same bytes. The host copies nothing and
 * lays out nothing: both grow with the scene.
 */
import type { Piscina } from 'piscina';
import { runTransient } from '../jobs/job-runner';
import type { LayoutSceneInput } from '../../src-worker/tasks/layout-scene';
import { toShared, transferList } from '../../src-common/shared-memory';
import type { SceneData } from '../../src-common/scene-data';


export { toShared };

/** A scene ready for workers: its arrays shared, its kernel layout made once for all of them. Moves `data`'s arrays. */
export async function shareScene(pool: Piscina, data: SceneData): Promise<SceneData> {
  const input: LayoutSceneInput = { scene: data };
  return (await runTransient(pool, 'layout-scene', input, transferList(data))).result as SceneData;
}

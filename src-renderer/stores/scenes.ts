/**
 * Scenes of the open project. Generating one starts a host job; the list refreshes on
 * `project` events (entity 'scenes') and when a 'generate-scene' job is done (live-sync.ts).
 * `selectedId` is the scene the Simulate form uses (chosen by clicking a row).
 */
import { defineStore } from 'pinia';
import type { Request, SceneInfo } from '../../src-main/api/contract';
import { api } from '../api';
import { useEntityList } from './entity-list';
import { startJob } from './start-job';

export const useScenesStore = defineStore('scenes', () => {
  const scenes = useEntityList<SceneInfo>({
    list: () => api.call('scenes.list', {}),
    listError: 'Cannot list scenes',
    remove: (id) => api.call('scenes.delete', { id }),
    removeError: () => 'Cannot delete the scene',
  });

  const generate = (req: Request<'scenes.generate'>) => startJob(() => api.call('scenes.generate', req), 'Cannot generate the scene');

  /** Save the scene editor's document as a new scene (a job). */
  const author = (req: Request<'scenes.author'>) => startJob(() => api.call('scenes.author', req), 'Cannot save the scene');

  return { ...scenes, generate, author };
});

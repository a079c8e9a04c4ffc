import { ApiError, type ParsedRequest } from '../api/contract';
import { checkSceneParams } from '../../src-common/scene-params';
import type { RunningJob } from '../jobs/job-runner';
import type { GenerateSceneInput, GeneratedScene } from '../../src-worker/tasks/generate-scene';
import type { ProjectSession } from './project-session';
import type { EventBus } from './event-bus';

/**
 * Build a procedural scene in a worker (the bench's off-road scene, the composed hybrid strip,
 * or a validation fixture) and store it with its acceleration structure, in one transaction.
 */
export function startSceneGeneration(session: ProjectSession, events: EventBus, req: ParsedRequest<'scenes.generate'>): RunningJob {
  try {
    checkSceneParams(req.kind, req.params); // before a job: an unknown parameter is the request's fault
  } catch (e) {
    throw new ApiError('bad_input', (e as Error).message);
  }
  const name = req.name ?? `${req.kind} (seed ${req.seed})`;
  const input: GenerateSceneInput = { kind: req.kind, seed: req.seed, params: req.params };
  let generated: GeneratedScene | null = null;
  return session.runner.submit({
    kind: 'generate-scene',
    params: { kind: req.kind, seed: req.seed, params: req.params, name },
    task: 'generate-scene',
    input,
    onMessage: (m) => {
      if (m.type === 'output' && m.name === 'scene') generated = m.value as GeneratedScene;
    },
    onSuccess: async (_output, job) => {
      if (!generated) throw new Error('the scene generator returned no scene');
      // Written a chunk per turn of the event loop: a scene of millions of triangles is hundreds of MB.
      const info = await session.store.scenes.createInTurns(name, { kind: req.kind, seed: req.seed, params: req.params, ...generated.meta }, generated.data as unknown as Record<string, unknown>, job.id);
      events.emit({ type: 'project', entity: 'scenes', id: info.id });
      return { scene: info.id, name, ...generated.meta };
    },
  });
}

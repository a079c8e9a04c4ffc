/**
 * The scene editor's sensor preview (docs/design.md, *Scene editor*): the request's terrain and
 * placements are checked and read as a save would read them (scene-authoring.ts), and one
 * revolution is simulated on the interactive lane (src-worker/tasks/sensor-preview.ts). The
 * worker keeps the newest scene it built under a key of the terrain, placements and mode; the host
 * sends the scene only when that key is new to it, and again when the worker answers that it does
 * not hold it (another worker, or its scene replaced).
 */
import { ApiError, type ParsedRequest, type SensorPreview } from '../api/contract';
import type { ServiceContext } from './service-context';
import type { ProjectSession } from './project-session';
import { authoredSceneSpec } from './scene-authoring';
import { resolveProfileForUse } from './profiles-service';
import type { SensorPreviewInput } from '../../src-worker/tasks/sensor-preview';
import { SENSOR_PREVIEW_NOT_HELD } from '../../src-common/scene-authoring';
import { transferList } from '../../src-common/shared-memory';

/** The key the session's worker was last sent a scene under. */
const sentKey = new WeakMap<ProjectSession, string>();

/** FNV-1a over the scene's JSON: equal scenes, equal keys (a collision would only show a stale preview). */
function sceneKey(req: ParsedRequest<'scenes.sensorPreview'>): string {
  const text = JSON.stringify([req.mode, req.terrain, req.placements]);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return `${(h >>> 0).toString(16)}:${text.length}`;
}

export async function sensorPreview(ctx: ServiceContext, req: ParsedRequest<'scenes.sensorPreview'>): Promise<SensorPreview> {
  const session = ctx.requireSession();
  const profile = resolveProfileForUse(session.store, req.profileId);
  const key = sceneKey(req);
  const base: SensorPreviewInput = {
    key,
    profile,
    mount: req.mount,
    vehicle: { x: req.vehicle.x, y: req.vehicle.y, yaw: (req.vehicle.yawDeg * Math.PI) / 180, length: req.vehicle.length, width: req.vehicle.width },
    seed: req.seed,
  };
  const withScene = async (): Promise<SensorPreviewInput> => {
    const spec = await authoredSceneSpec(ctx, { ...req, name: undefined, editedFrom: undefined });
    return { ...base, scene: { terrain: req.terrain, placements: req.placements, mode: req.mode, ...spec } };
  };
  const run = async (input: SensorPreviewInput) => {
    const { outputs } = await session.runner.runTransient('sensor-preview', input, input.scene ? transferList([input.scene.library, input.scene.model ?? {}]) : []);
    return outputs.get('preview') as SensorPreview;
  };
  if (sentKey.get(session) === key) {
    try {
      return await run(base);
    } catch (e) {
      if (!(e instanceof Error) || !e.message.includes(SENSOR_PREVIEW_NOT_HELD)) throw asApiError(e);
    }
  }
  const input = await withScene();
  sentKey.set(session, key);
  try {
    return await run(input);
  } catch (e) {
    throw asApiError(e);
  }
}

/** A worker's refusal (the vehicle off the terrain, a placement off a model's ground) is the request's problem. */
function asApiError(e: unknown): unknown {
  if (e instanceof Error && /off the terrain|off the ground|placement \d+/.test(e.message)) return new ApiError('bad_input', e.message.replace(/^Error: /, ''));
  return e;
}

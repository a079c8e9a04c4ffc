/**
 * What a sensor sees while a scene is being authored (docs/design.md, *Scene editor*): one
 * revolution (or one LMS sweep) of a profile at a mount on a vehicle standing at (x, y, yaw) on
 * the authored terrain — pitched and rolled to the ground under its footprint, as in a study —
 * simulated over the editor's placements as they are, saved or not.
 *
 * Building the scene (its BVHs) is the slow part and the vehicle is dragged far more often than
 * the scene changes, so the worker keeps the newest scene it built under the host's key: a
 * request with a known key carries no scene, and one with an unknown key and no scene fails with
 * NOT_HELD, on which the host sends the scene again (another worker, or the cache was replaced).
 */
import type { TaskContext } from './task-context';
import type { SensorProfile } from '../../src-common/sensor-profile';
import type { SceneSimulationMode } from '../../src-common/modes';
import type { Primitive } from '../../src-common/primitive';
import { SENSOR_PREVIEW_NOT_HELD, type AuthoredPlacement, type TerrainSpec } from '../../src-common/scene-authoring';
import { authoredTerrain, buildAuthoredScene, type AuthoredTerrain, type ModelGround } from '../primitives/author';
import { createSceneQuery, type BvhSceneQuery } from '../scene/scene-bvh';
import { createTrajectory, applyPose } from '../geometry/trajectory';
import { packetRays, revolutionPattern } from '../sensors/scan-pattern';
import { Simulator } from '../simulate/simulate';
import { mountPose, vehiclePose, type MountSpec } from '../plan/vehicle';
import { transferList } from '../../src-common/shared-memory';
import type { SensorPreview } from '../../src-common/sensor-preview';


export interface PreviewSceneSpec {
  terrain: TerrainSpec;
  model?: ModelGround;
  placements: AuthoredPlacement[];
  library: Primitive[];
  mode: SceneSimulationMode;
  mahalanobisThreshold: number;
  voxelTau: number;
  ellipsoidHitFalloff: boolean;
}

export interface SensorPreviewInput {
  /** The scene's identity: the same key, the same placements, terrain and mode. */
  key: string;
  /** The scene, when the host does not know this worker holds `key`. */
  scene?: PreviewSceneSpec;
  profile: SensorProfile;
  mount: MountSpec;
  vehicle: { x: number; y: number; yaw: number; length: number; width: number };
  seed: number;
}

export type SensorPreviewOutput = SensorPreview;

interface Held {
  key: string;
  terrain: AuthoredTerrain;
  query: BvhSceneQuery;
  mode: SceneSimulationMode;
}
let held: Held | null = null;

/** The engine's mode for a scene of each kind: mesh scenes are simulated as 003's physics. */
const SIM_MODE: Record<SceneSimulationMode, 'hybrid' | 'voxel' | 'physics' | 'mesh'> = { hybrid: 'hybrid', voxel: 'voxel', physics: 'physics', mesh: 'physics' };

/** Posts the preview as the 'preview' output (its arrays transferred); returns the counts. */
export function sensorPreviewTask(input: SensorPreviewInput, ctx: TaskContext): { hits: number } {
  let built = false, buildMs = 0;
  if (!held || held.key !== input.key) {
    const s = input.scene;
    if (!s) throw new Error(SENSOR_PREVIEW_NOT_HELD);
    const t0 = performance.now();
    const terrain = authoredTerrain(s.terrain, s.model);
    const scene = buildAuthoredScene(s.placements, s.library, terrain, { mode: s.mode === 'physics' ? 'mesh' : s.mode, mahalanobisThreshold: s.mahalanobisThreshold, voxelTau: s.voxelTau, ellipsoidHitFalloff: s.ellipsoidHitFalloff });
    held = { key: input.key, terrain, query: createSceneQuery(scene.data), mode: s.mode };
    built = true;
    buildMs = performance.now() - t0;
  }
  ctx.checkCancelled();
  const { terrain, query, mode } = held;
  const v = input.vehicle;
  const groundZ = terrain.heightAt(v.x, v.y);
  if (!Number.isFinite(groundZ)) throw new Error(`sensor preview: the vehicle at (${v.x.toFixed(1)}, ${v.y.toFixed(1)}) is off the terrain (${terrain.describe})`);
  // Off the terrain's edge the vehicle's wheels stand level with its centre.
  const ground = { heightAt: (x: number, y: number) => (terrain.inside(x, y) ? terrain.heightAt(x, y) : groundZ) };
  const t0 = performance.now();
  const pattern = revolutionPattern(input.profile);
  const pose = new Float64Array(14);
  vehiclePose(v.x, v.y, v.yaw, ground, v, pose, 0);
  pose.copyWithin(7, 0, 7);
  const trajectory = createTrajectory(Float64Array.from([0, pattern.revolutionDuration]), pose);
  const mount = mountPose(input.mount);
  const sim = new Simulator({ scene: query, profile: input.profile, rays: (p) => packetRays(pattern, p), trajectory, mount, seed: input.seed, mode: SIM_MODE[mode] });
  const chunk = sim.simulatePackets(0, pattern.packetsPerRevolution);
  const range = chunk.rayRange, dir = chunk.rayDir;
  let hits = 0;
  for (let i = 0; i < chunk.rayCount; i++) if (range[i] === range[i]) hits++;
  const xyz = new Float32Array(3 * hits), classId = new Uint8Array(hits), world = new Float64Array(3);
  let h = 0;
  for (let p = 0; p < chunk.packetCount; p++) {
    for (let i = chunk.rayStart[p]!; i < chunk.rayStart[p + 1]!; i++) {
      const r = range[i]!;
      if (r !== r) continue;
      applyPose(chunk.packetPose, 7 * p, r * dir[3 * i]!, r * dir[3 * i + 1]!, r * dir[3 * i + 2]!, world, 0);
      xyz[3 * h] = world[0]!;
      xyz[3 * h + 1] = world[1]!;
      xyz[3 * h + 2] = world[2]!;
      classId[h++] = chunk.rayClass[i]!;
    }
  }
  const sensorWorld = new Float64Array(3);
  applyPose(pose, 0, mount[0], mount[1], mount[2], sensorWorld, 0);
  const out: SensorPreviewOutput = {
    xyz,
    classId,
    sensor: [sensorWorld[0]!, sensorWorld[1]!, sensorWorld[2]!],
    groundZ,
    rays: chunk.rayCount,
    hits,
    built,
    buildMs: Math.round(buildMs),
    simulateMs: Math.round(performance.now() - t0),
  };
  ctx.post({ type: 'output', name: 'preview', value: out }, transferList([xyz, classId]));
  return { hits };
}

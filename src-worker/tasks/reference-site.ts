/**
 * Builds the reference off-road site (src-worker/site/reference-site.ts) in a worker and hands
 * it to the host: the scene in SharedArrayBuffers (so the drives' simulation batches read the
 * same bytes, and the host stores them without a copy), the annotations, the scene's trail, and
 * the two drives' vehicle poses with the ids of the objects within sensor range of each.
 */
import type { TaskContext } from './task-context';
import type { SceneData } from '../../src-common/scene-data';
import { buildReferenceSite } from '../site/reference-site';
import { objectsInRange, type ObjectAnnotation } from '../site/reference-annotations';
import type { Pose7 } from '../site/offroad';

export interface ReferenceSiteInput {
  seed: number;
  small: boolean;
  /** The sensor's reach (m) and height above the vehicle's origin (m): which objects a drive can see. */
  rangeM: number;
  sensorHeightM: number;
}

export interface ReferenceSiteDrive {
  name: 'training' | 'test';
  startX: number;
  seconds: number;
  speed: number;
  /** Vehicle poses (world ← vehicle) at 100 Hz. */
  times: Float64Array;
  poses: Float64Array;
  /** Objects whose box comes within rangeM of the sensor during the drive. */
  objectIds: number[];
}

export interface ReferenceSiteOutput {
  data: SceneData;
  annotations: ObjectAnnotation[];
  counts: Record<string, number>;
  trail: Pose7[];
  drives: ReferenceSiteDrive[];
  meta: { lengthM: number; widthM: number; triangles: number; uniqueTriangles: number; instances: number; memoryBytes: number; buildMs: number; bounds: { min: number[]; max: number[] } };
}

export function referenceSiteTask(input: ReferenceSiteInput, ctx: TaskContext): { objects: number; triangles: number } {
  ctx.progress(0.02, input.small ? 'building the small reference site' : 'building the reference site', true);
  ctx.checkCancelled();
  const site = buildReferenceSite({ seed: input.seed, small: input.small, shared: true });
  ctx.checkCancelled();
  ctx.progress(0.9, 'annotating the drives', true);
  const drives: ReferenceSiteDrive[] = site.drives.map((d) => ({
    name: d.name,
    startX: d.startX,
    seconds: d.seconds,
    speed: d.speed,
    times: d.times,
    poses: d.poses,
    objectIds: objectsInRange(site.annotations, d.poses, input.rangeM, input.sensorHeightM),
  }));
  const b = site.data.bounds;
  const output: ReferenceSiteOutput = {
    data: site.data,
    annotations: site.annotations,
    counts: site.counts,
    trail: site.trail,
    drives,
    meta: {
      lengthM: site.lengthM,
      widthM: site.widthM,
      triangles: site.stats.instancedTriangles,
      uniqueTriangles: site.stats.uniqueTriangles,
      instances: site.stats.instances,
      memoryBytes: site.stats.memoryBytes,
      buildMs: Math.round(site.data.buildMs),
      bounds: { min: [b[0]!, b[1]!, b[2]!], max: [b[3]!, b[4]!, b[5]!] },
    },
  };
  // The scene's arrays are shared (not transferred); the drives' pose arrays move.
  const transfer = drives.flatMap((d) => [d.times.buffer, d.poses.buffer]).filter((buf): buf is ArrayBuffer => buf instanceof ArrayBuffer);
  ctx.post({ type: 'output', name: 'site', value: output }, transfer);
  return { objects: site.annotations.length, triangles: site.stats.instancedTriangles };
}

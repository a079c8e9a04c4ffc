/**
 * Automatic label proposals for a drive log (docs/labeling.md), to correct rather than label from
 * nothing: returns within `minHeight` of the local ground (label-cloud.ts) are ground; the rest
 * are grouped by Euclidean clustering and each cluster gets the class its box's size proposes
 * (primitives/classify.ts: the thesis's shrub and tree sizes), as `primitives extract --auto` does.
 *
 * Confidence per return: ground, 0.5 at the height threshold rising to 1 on the ground; a
 * cluster, how close its height is to its class's mean height (1 at the mean, 0.5 a factor √2
 * away, floored at 0.2); a cluster too low to be a shrub or a tree, and a return in no cluster,
 * stay unlabelled with confidence 0.
 */
import type { TaskContext } from './task-context';
import type { PacketChunk } from '../../src-common/packets';
import { SiteClass, THESIS_HEIGHT_M } from '../../src-common/classes';
import { buildLabelCloud } from './label-cloud';
import { segmentsFromClusters, segmentEntry } from '../primitives/segments';
import type { SegmentCloud } from '../primitives/segment-cloud';

export interface LabelProposeInput {
  chunks: PacketChunk[];
  /** Returns higher than this above the local ground are not ground (m). */
  minHeight: number;
  /** Clustering: neighbour distance (m) and smallest cluster. */
  tolerance?: number;
  minPoints?: number;
}

export interface LabelProposeOutput {
  rays: number;
  rayClass: Uint8Array<ArrayBuffer>;
  rayObject: Uint32Array<ArrayBuffer>;
  confidence: Float32Array<ArrayBuffer>;
  hit: Uint8Array<ArrayBuffer>;
  entries: ReturnType<typeof segmentEntry>[];
  ground: number;
  objects: number;
  unclassified: number;
}

export function proposeLabels(input: LabelProposeInput, ctx?: TaskContext): LabelProposeOutput {
  const cloud = buildLabelCloud({ chunks: input.chunks }, ctx);
  const n = cloud.points;
  const rayClass = new Uint8Array(cloud.rays), rayObject = new Uint32Array(cloud.rays), confidence = new Float32Array(cloud.rays), hit = new Uint8Array(cloud.rays);
  const world = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) world[3 * i + a] = cloud.positions[3 * i + a]! + cloud.origin[a]!;
  const mask = new Uint8Array(n);
  let ground = 0;
  for (let i = 0; i < n; i++) {
    const ray = cloud.rayIndex[i]!;
    hit[ray] = 1;
    const h = cloud.heightAboveGround[i]!;
    if (h <= input.minHeight) {
      rayClass[ray] = SiteClass.ground;
      confidence[ray] = 1 - 0.5 * (h / Math.max(1e-6, input.minHeight));
      ground++;
    } else {
      mask[i] = 1;
    }
  }
  ctx?.checkCancelled();
  ctx?.progress(0.9, 'clustering what stands above the ground');
  const seg: SegmentCloud = {
    count: n, positions: world, objectId: new Uint32Array(n), classId: new Uint8Array(n), travel: new Float32Array(2 * n),
    hasObjectIds: false, hits: n, dropped: 0,
  };
  const { segments, unclassified } = segmentsFromClusters(seg, mask, { tolerance: input.tolerance ?? 0.5, minPoints: input.minPoints ?? 10 });
  for (const s of segments) {
    const mean = THESIS_HEIGHT_M[s.class] ?? s.box.size[2];
    const c = Math.max(0.2, 1 - Math.abs(Math.log2(s.box.size[2] / mean)));
    for (const i of s.indices) {
      const ray = cloud.rayIndex[i]!;
      rayClass[ray] = s.class;
      rayObject[ray] = s.id;
      confidence[ray] = c;
    }
  }
  return { rays: cloud.rays, rayClass, rayObject, confidence, hit, entries: segments.map(segmentEntry), ground, objects: segments.length, unclassified };
}

export function labelProposeTask(input: LabelProposeInput, ctx: TaskContext): LabelProposeOutput {
  const out = proposeLabels(input, ctx);
  ctx.post({ type: 'output', name: 'labels', value: out }, [out.rayClass.buffer, out.rayObject.buffer, out.confidence.buffer, out.hit.buffer]);
  return { ...out, rayClass: new Uint8Array(0), rayObject: new Uint32Array(0), confidence: new Float32Array(0), hit: new Uint8Array(0) };
}

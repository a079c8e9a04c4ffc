/**
 * Primitives from a fitted model and its log (docs/methods.md §3; src-worker/primitives): the
 * log's hits thinned into a segment cloud, the points off the model's ground surface split into
 * segments — by an annotation (the rays' object ids where the log carries them, else the
 * entries' boxes) or, without one, by Euclidean clustering with a size-based class proposal —
 * and each segment's ellipsoids and voxels moved to its own frame. One task: the work is a few
 * seconds of single-threaded passes over the thinned cloud.
 */
import type { TaskContext } from './task-context';
import type { ModelArrays } from '../../src-common/fitted-model';
import {
  GroundIndex,
  SegmentCloudBuilder,
  extractPrimitives,
  nonGroundMask,
  segmentEntry,
  segmentsFromAnnotation,
  segmentsFromClusters,
  type EntryLike,
  type Segment,
  type SegmentLogChunk,
} from '../primitives';
import type { Primitive } from '../../src-common/primitive';

export interface ExtractPrimitivesInput {
  chunks: SegmentLogChunk[];
  model: Pick<ModelArrays, 'groundPositions' | 'ellipsoidMeans' | 'ellipsoidCovariances' | 'ellipsoidPHit' | 'voxelMeans' | 'voxelCovariances' | 'voxelPermeability'>;
  /** Annotation entries to label segments with; null: cluster. */
  entries: EntryLike[] | null;
  patchCell: number;
  /** Annotation classes to model (default the shrub and tree classes, PRIMITIVE_CLASSES). */
  classes?: number[];
}

export interface ExtractPrimitivesOutput {
  labels: 'annotation' | 'ground-truth' | 'clustering';
  primitives: Primitive[];
  segments: number;
  skipped: { segment: number; reason: string }[];
  /** Annotation entries with too few points in the log to model. */
  unseen: number[];
  /** Clustering only: the segments as annotation entries (to store as the log's labels). */
  autoEntries: ReturnType<typeof segmentEntry>[] | null;
  cloudPoints: number;
}

/** Fewer labelled points than this make no segment (a shrub seen by a handful of rays). */
const MIN_SEGMENT_POINTS = 20;

export function extractPrimitivesTask(input: ExtractPrimitivesInput, ctx: TaskContext): ExtractPrimitivesOutput {
  ctx.progress(0, 'collecting the log\'s hits', true);
  const builder = new SegmentCloudBuilder({ cellSize: 0.1 });
  input.chunks.forEach((c, i) => {
    ctx.checkCancelled();
    builder.addChunk(c);
    ctx.progress((0.5 * (i + 1)) / input.chunks.length, 'collecting the log\'s hits');
  });
  const cloud = builder.finish();
  if (cloud.count === 0) throw new Error('the log has no hits to segment');
  const ground = new GroundIndex(input.model.groundPositions);
  const mask = nonGroundMask(cloud, ground);
  ctx.checkCancelled();
  ctx.progress(0.55, 'segmenting', true);
  let segments: Segment[];
  let unseen: number[] = [];
  let labels: ExtractPrimitivesOutput['labels'];
  let autoEntries: ExtractPrimitivesOutput['autoEntries'] = null;
  if (input.entries) {
    const r = segmentsFromAnnotation(cloud, input.entries, { nonGround: mask, minPoints: MIN_SEGMENT_POINTS, ...(input.classes ? { classes: input.classes } : {}) });
    segments = r.segments;
    unseen = r.unseen;
    labels = cloud.hasObjectIds ? 'ground-truth' : 'annotation';
  } else {
    segments = segmentsFromClusters(cloud, mask, { tolerance: 0.5, minPoints: MIN_SEGMENT_POINTS }).segments;
    labels = 'clustering';
    autoEntries = segments.map(segmentEntry);
  }
  ctx.checkCancelled();
  ctx.progress(0.8, `modelling ${segments.length} segments`, true);
  const { primitives, skipped } = extractPrimitives(segments, cloud, input.model, { ground, patchCellSize: input.patchCell, firstId: 1 });
  ctx.progress(1, `${primitives.length} primitives`, true);
  // Returned (structured-cloned): a library is a few MB at most.
  return {
    labels,
    primitives,
    segments: segments.length,
    skipped: skipped.map((s) => ({ segment: s.segmentId, reason: s.cell ? `cell ${s.cell.join(',')}: ${s.reason}` : s.reason })),
    unseen,
    autoEntries,
    cloudPoints: cloud.count,
  };
}


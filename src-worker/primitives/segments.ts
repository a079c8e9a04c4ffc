/**
 * Labelled segments of a drive log's cloud (docs/methods.md §3): which points belong to which
 * object, from an annotation or from automatic segmentation.
 *
 *   nonGroundMask(cloud, ground, opts)                     1 = above the ground surface
 *   labelFromAnnotation(cloud, entries, opts)               entry index per point (−1 none)
 *   segmentsFromAnnotation(cloud, entries, opts)            one Segment per entry with points
 *   segmentsFromClusters(cloud, mask, opts)                 clustering + size-based classes
 *   segmentEntry(segment)                                   a segment as an annotation entry
 *
 * Labels from an annotation: when the log carries ground-truth object ids (reference and
 * simulated drives: rayObject), a point belongs to the entry with its ray's object id; otherwise
 * to the entry whose box contains it (nearest box centre among several, then the lower id),
 * counting only non-ground points so the ground under an object stays out of its segment.
 */
import { boxDistance, type AnnotationBox, type Pose7, type Vec3 } from '../site/reference-annotations';
import { referenceClassName, SHRUB_CLASSES, TREE_CLASSES } from '../../src-common/classes';
import { euclideanClusters, type ClusterOptions } from './cluster';
import { proposeClass, type ClassProposalOptions } from './classify';
import type { GroundIndex } from './ground-index';
import { meanTravel, objectPose } from './object-pose';
import type { SegmentCloud } from './segment-cloud';

/** What an annotation entry must have here: contract AnnotationEntry and ObjectAnnotation both fit. */
export interface EntryLike {
  id: number;
  class: number;
  label?: string;
  patch?: boolean;
  pose?: readonly number[];
  box: AnnotationBox;
}

export interface Segment {
  /** The annotation entry's id, or the cluster's number (1, 2, … in cluster order). */
  id: number;
  class: number;
  label: string;
  patch: boolean;
  source: 'annotation' | 'cluster';
  /** Indices into the cloud, ascending. */
  indices: Uint32Array;
  centroid: Vec3;
  /** Unit direction of travel when the segment was seen (mean over its points). */
  travel: [number, number];
  /** World ← object: centroid + yaw from the principal axis nearest travel. */
  pose: Pose7;
  /** Oriented box of the points in the object frame. */
  box: AnnotationBox;
}

/** The classes primitives are made of by default: the four shrub and three tree sizes (docs/methods.md §3). */
export const PRIMITIVE_CLASSES: readonly number[] = [...SHRUB_CLASSES, ...TREE_CLASSES];

export interface NonGroundOptions {
  /** Points higher than this above the ground surface are non-ground (m); default 0.25. */
  minHeight?: number;
  /** Points with no ground triangle below: non-ground (true) or left out (false, default: a far
   * ground return outside the mesh would otherwise join whatever stands near the mesh's edge). */
  keepUncovered?: boolean;
}

/** 1 for points more than minHeight above the ground surface. */
export function nonGroundMask(cloud: SegmentCloud, ground: GroundIndex, opts: NonGroundOptions = {}): Uint8Array {
  const minH = opts.minHeight ?? 0.25;
  const out = new Uint8Array(cloud.count);
  const p = cloud.positions;
  for (let i = 0; i < cloud.count; i++) {
    const g = ground.heightAt(p[3 * i]!, p[3 * i + 1]!);
    out[i] = g === g ? (p[3 * i + 2]! - g > minH ? 1 : 0) : opts.keepUncovered ? 1 : 0;
  }
  return out;
}

export interface AnnotationLabelOptions {
  /** Only entries of these classes get points; default PRIMITIVE_CLASSES. */
  classes?: readonly number[];
  /** Use the rays' object ids: 'auto' (default) when the cloud has any. */
  useObjectIds?: boolean | 'auto';
  /** Box mode: only points with mask 1 (nonGroundMask) can be labelled; default all points. */
  nonGround?: Uint8Array;
  /** Box mode: grow every box by this much on each side (m); default 0.1. */
  boxMargin?: number;
}

/** Entry index (into `entries`) per cloud point, −1 for none. */
export function labelFromAnnotation(cloud: SegmentCloud, entries: readonly EntryLike[], opts: AnnotationLabelOptions = {}): Int32Array {
  const classes = new Set(opts.classes ?? PRIMITIVE_CLASSES);
  const labels = new Int32Array(cloud.count).fill(-1);
  const useIds = opts.useObjectIds === 'auto' || opts.useObjectIds === undefined ? cloud.hasObjectIds : opts.useObjectIds;
  if (useIds) {
    const byId = new Map<number, number>();
    entries.forEach((e, k) => {
      if (classes.has(e.class) && !byId.has(e.id)) byId.set(e.id, k);
    });
    for (let i = 0; i < cloud.count; i++) labels[i] = byId.get(cloud.objectId[i]!) ?? -1;
    return labels;
  }
  const margin = opts.boxMargin ?? 0.1;
  const mask = opts.nonGround;
  // x-y grid of the boxes' footprints (4 m cells), so a point tests only the boxes near it.
  const cell = 4;
  const grid = new Map<string, number[]>();
  entries.forEach((e, k) => {
    if (!classes.has(e.class)) return;
    const r = Math.hypot(e.box.size[0], e.box.size[1]) / 2 + margin;
    for (let i = Math.floor((e.box.center[0] - r) / cell); i <= Math.floor((e.box.center[0] + r) / cell); i++) {
      for (let j = Math.floor((e.box.center[1] - r) / cell); j <= Math.floor((e.box.center[1] + r) / cell); j++) {
        const key = `${i},${j}`;
        let list = grid.get(key);
        if (!list) grid.set(key, (list = []));
        list.push(k);
      }
    }
  });
  const p = cloud.positions;
  for (let i = 0; i < cloud.count; i++) {
    if (mask && !mask[i]) continue;
    const x = p[3 * i]!, y = p[3 * i + 1]!, z = p[3 * i + 2]!;
    const list = grid.get(`${Math.floor(x / cell)},${Math.floor(y / cell)}`);
    if (!list) continue;
    let best = -1, bestD = Infinity;
    for (const k of list) {
      const e = entries[k]!;
      if (boxDistance(e.box, x, y, z) > margin) continue;
      const d = Math.hypot(x - e.box.center[0], y - e.box.center[1], z - e.box.center[2]);
      if (d < bestD || (d === bestD && e.id < entries[best]!.id)) {
        bestD = d;
        best = k;
      }
    }
    labels[i] = best;
  }
  return labels;
}

export interface SegmentOptions {
  /** Segments with fewer points are dropped; default 10. */
  minPoints?: number;
}

/** A segment of the points `indices`, with its pose and box. */
export function makeSegment(cloud: SegmentCloud, indices: Uint32Array, meta: { id: number; class: number; label?: string; patch: boolean; source: Segment['source'] }): Segment {
  let travel = meanTravel(cloud.travel, indices);
  if (travel[0] === 0 && travel[1] === 0) travel = [1, 0];
  const p = objectPose(cloud.positions, indices, travel);
  return {
    id: meta.id, class: meta.class, label: meta.label ?? referenceClassName(meta.class), patch: meta.patch, source: meta.source,
    indices, centroid: p.centroid, travel, pose: p.pose, box: p.box,
  };
}

export interface AnnotationSegments {
  segments: Segment[];
  labels: Int32Array;
  /** Entries (of the classes asked for) with fewer than minPoints points: ids. */
  unseen: number[];
}

/** One segment per entry (in entry order) with at least minPoints labelled points. */
export function segmentsFromAnnotation(cloud: SegmentCloud, entries: readonly EntryLike[], opts: AnnotationLabelOptions & SegmentOptions = {}): AnnotationSegments {
  const labels = labelFromAnnotation(cloud, entries, opts);
  const minPoints = opts.minPoints ?? 10;
  const classes = new Set(opts.classes ?? PRIMITIVE_CLASSES);
  const counts = new Int32Array(entries.length);
  for (let i = 0; i < cloud.count; i++) if (labels[i]! >= 0) counts[labels[i]!]!++;
  const lists = entries.map((_, k) => new Uint32Array(counts[k]!));
  const fill = new Int32Array(entries.length);
  for (let i = 0; i < cloud.count; i++) {
    const k = labels[i]!;
    if (k >= 0) lists[k]![fill[k]!++] = i;
  }
  const segments: Segment[] = [];
  const unseen: number[] = [];
  entries.forEach((e, k) => {
    if (!classes.has(e.class)) return;
    if (counts[k]! < minPoints) {
      unseen.push(e.id);
      return;
    }
    segments.push(makeSegment(cloud, lists[k]!, { id: e.id, class: e.class, label: e.label, patch: !!e.patch, source: 'annotation' }));
  });
  return { segments, labels, unseen };
}

export interface ClusterSegments {
  segments: Segment[];
  /** Clusters without a class (too low: grass, debris), by number of points. */
  unclassified: number;
  smallPoints: number;
}

/**
 * Automatic segmentation: Euclidean clusters of the points with mask 1, each with a size-based
 * class proposal (classify.ts); ids 1, 2, … in cluster order (by smallest point index).
 */
export function segmentsFromClusters(cloud: SegmentCloud, mask: Uint8Array | null, opts: ClusterOptions & ClassProposalOptions = {}): ClusterSegments {
  const subset: number[] = [];
  for (let i = 0; i < cloud.count; i++) if (!mask || mask[i]) subset.push(i);
  const { clusters, smallPoints } = euclideanClusters(cloud.positions, subset, opts);
  const segments: Segment[] = [];
  let unclassified = 0;
  for (const indices of clusters) {
    const probe = makeSegment(cloud, indices, { id: 0, class: 0, patch: false, source: 'cluster' });
    const prop = proposeClass(probe.box.size, opts);
    if (!prop) {
      unclassified++;
      continue;
    }
    segments.push({ ...probe, id: segments.length + 1, class: prop.class, label: referenceClassName(prop.class), patch: prop.patch });
  }
  return { segments, unclassified, smallPoints };
}

/** A segment as an annotation entry (contract AnnotationEntry's shape): labels a log that had none. */
export function segmentEntry(s: Segment): { id: number; class: number; label: string; patch?: boolean; pose: Pose7; box: AnnotationBox } {
  return { id: s.id, class: s.class, label: s.label, ...(s.patch ? { patch: true } : {}), pose: s.pose, box: s.box };
}

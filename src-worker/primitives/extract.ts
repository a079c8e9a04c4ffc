/**
 * Primitives from labelled segments (thesis 004 §4.3.1.4, docs/methods.md §3): for each segment the
 * fitted model's elements inside its oriented box (ellipsoids and voxel Gaussians, by their
 * mean), moved to the identity pose — means into the primitive frame, covariances rotated
 * (Σ' = R Σ Rᵀ with R = Rz(−yaw)) — with the box extents and the segment's raw points (capped).
 * Shrub patches are split into cells (patch.ts), each cell its own primitive of the class.
 *
 *   const lib = extractPrimitives(segments, cloud, fit.arrays, { ground: new GroundIndex(fit.arrays.groundPositions) });
 *   lib.primitives   // Primitive[] (primitive.ts), ids firstId, firstId + 1, … in segment order
 *   lib.skipped      // segments or cells that gave no primitive, and why
 *
 * Voxel Gaussians model the ground too (seed 000 models everything with voxels): those whose
 * mean is within `groundClearance` of the ground surface stay out of primitives (the composed
 * scene's ground supplies them), so a primitive's voxels are the object's only.
 */
import type { ModelArrays } from '../../src-common/fitted-model';
import { SHRUB_CLASSES } from '../../src-common/classes';
import { boxDistance, type AnnotationBox } from '../site/reference-annotations';
import { SHRUB_WIDTH_M } from './classify';
import { frameOfBox, framePose, rotateCovariance, toFrame, yawMatrix, type YawFrame } from './frame';
import type { GroundIndex } from './ground-index';
import { boxAtYaw } from './object-pose';
import { patchCellIndex, patchCells } from './patch';
import type { Primitive, PrimitiveSource } from '../../src-common/primitive';
import type { SegmentCloud } from './segment-cloud';
import type { Segment } from './segments';

/** The model arrays extraction reads (a fitted model as stored, or FitResult.arrays). */
export type ModelElements = Pick<ModelArrays, 'ellipsoidMeans' | 'ellipsoidCovariances' | 'ellipsoidPHit' | 'voxelMeans' | 'voxelCovariances' | 'voxelPermeability'>;

export interface ExtractOptions {
  /** The ground surface (GroundIndex of the model's ground triangles): ground voxels stay out. null: keep every voxel. */
  ground?: GroundIndex | null;
  /** Voxels whose mean is at most this high above the ground are the ground's (m); default 0.25. */
  groundClearance?: number;
  /** Elements whose mean lies within this distance of the box count as inside (m); default 0.1. */
  boxMargin?: number;
  /** Raw points kept per primitive (evenly strided); default 20,000. */
  maxPoints?: number;
  /** Patch cell side (m); default 2. */
  patchCellSize?: number;
  /** Cells with fewer points give no primitive; default 20. */
  minCellPoints?: number;
  /** Treat a shrub segment longer than patchFactor × its class's typical width as a patch even
   * without the patch flag (classify.ts); default 1.6, 0 = only flagged segments. */
  patchFactor?: number;
  /** Id of the first primitive; default 1. */
  firstId?: number;
}

export interface ExtractSkip {
  segmentId: number;
  cell?: [number, number];
  reason: string;
}

export interface ExtractResult {
  primitives: Primitive[];
  skipped: ExtractSkip[];
}

/** Indices of Gaussians by the x-y cell (2 m) of their mean: a box tests only the elements near it. */
class MeanGrid {
  private readonly cells = new Map<string, number[]>();
  constructor(means: Float64Array, private readonly size = 2) {
    for (let i = 0; i < means.length / 3; i++) {
      const key = `${Math.floor(means[3 * i]! / size)},${Math.floor(means[3 * i + 1]! / size)}`;
      let list = this.cells.get(key);
      if (!list) this.cells.set(key, (list = []));
      list.push(i);
    }
  }

  /** Elements whose mean can lie within `margin` of the box, ascending. */
  near(box: AnnotationBox, margin: number): number[] {
    const r = Math.hypot(box.size[0], box.size[1]) / 2 + margin;
    const out: number[] = [];
    for (let i = Math.floor((box.center[0] - r) / this.size); i <= Math.floor((box.center[0] + r) / this.size); i++) {
      for (let j = Math.floor((box.center[1] - r) / this.size); j <= Math.floor((box.center[1] + r) / this.size); j++) {
        const list = this.cells.get(`${i},${j}`);
        if (list) for (const k of list) out.push(k);
      }
    }
    return out.sort((a, b) => a - b);
  }
}

/** One primitive's worth of work: a frame, the box elements are taken from, and the points. */
interface Piece {
  segment: Segment;
  frame: YawFrame;
  extents: [number, number, number];
  box: AnnotationBox;
  indices: ArrayLike<number>;
  source: PrimitiveSource;
  cell?: [number, number];
}

/** Whether a segment is treated as a shrub patch. */
export function isPatchSegment(s: Segment, patchFactor = 1.6): boolean {
  if (!(SHRUB_CLASSES as readonly number[]).includes(s.class)) return false;
  if (s.patch) return true;
  return patchFactor > 0 && Math.max(s.box.size[0], s.box.size[1]) > patchFactor * SHRUB_WIDTH_M[s.class]!;
}

export function extractPrimitives(segments: readonly Segment[], cloud: SegmentCloud, model: ModelElements, opts: ExtractOptions = {}): ExtractResult {
  const margin = opts.boxMargin ?? 0.1;
  const clearance = opts.groundClearance ?? 0.25;
  const cellSize = opts.patchCellSize ?? 2;
  const minCell = opts.minCellPoints ?? 20;
  const maxPoints = opts.maxPoints ?? 20_000;
  const ground = opts.ground ?? null;
  const eGrid = new MeanGrid(model.ellipsoidMeans);
  const vGrid = new MeanGrid(model.voxelMeans);
  const primitives: Primitive[] = [];
  const skipped: ExtractSkip[] = [];
  let nextId = opts.firstId ?? 1;

  for (const s of segments) {
    for (const piece of piecesOf(s, cloud, cellSize, minCell, opts.patchFactor ?? 1.6, skipped)) {
      const ell = inside(eGrid, model.ellipsoidMeans, piece.box, margin, null, 0);
      const vox = inside(vGrid, model.voxelMeans, piece.box, margin, ground, clearance);
      if (ell.length === 0 && vox.length === 0) {
        skipped.push({ segmentId: s.id, ...(piece.cell ? { cell: piece.cell } : {}), reason: 'no ellipsoid or voxel of the model lies in its box' });
        continue;
      }
      const f = piece.frame;
      const rot = yawMatrix(-f.yaw);
      const moveGaussians = (idx: number[], means: Float64Array, covs: Float64Array) => {
        const m = new Float64Array(3 * idx.length), c = new Float64Array(6 * idx.length);
        idx.forEach((e, k) => {
          toFrame(f, means[3 * e]!, means[3 * e + 1]!, means[3 * e + 2]!, m, 3 * k);
          rotateCovariance(rot, covs, 6 * e, c, 6 * k);
        });
        return { means: m, covariances: c };
      };
      const e = moveGaussians(ell, model.ellipsoidMeans, model.ellipsoidCovariances);
      const v = moveGaussians(vox, model.voxelMeans, model.voxelCovariances);
      const n = piece.indices.length, keep = Math.min(n, maxPoints);
      const points = new Float32Array(3 * keep);
      const p = cloud.positions;
      const tmp = [0, 0, 0];
      for (let k = 0; k < keep; k++) {
        const i = piece.indices[Math.floor((k * n) / keep)]!;
        toFrame(f, p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!, tmp, 0);
        points[3 * k] = tmp[0]!; points[3 * k + 1] = tmp[1]!; points[3 * k + 2] = tmp[2]!;
      }
      primitives.push({
        id: nextId++,
        class: s.class,
        extents: piece.extents,
        source: piece.source,
        ...(ell.length ? { ellipsoids: { ...e, pHit: Float32Array.from(ell, (i) => model.ellipsoidPHit[i]!) } } : {}),
        ...(vox.length ? { voxels: { ...v, permeability: Float32Array.from(vox, (i) => model.voxelPermeability[i]!) } } : {}),
        points,
        origin: { pose: framePose(f), segmentId: s.id, ...(piece.cell ? { cell: piece.cell } : {}) },
      });
    }
  }
  return { primitives, skipped };
}

/** The segment whole, or its patch cells with points. */
function piecesOf(s: Segment, cloud: SegmentCloud, cellSize: number, minCell: number, patchFactor: number, skipped: ExtractSkip[]): Piece[] {
  const box = s.box;
  if (!isPatchSegment(s, patchFactor)) {
    return [{ segment: s, frame: frameOfBox(box), extents: [box.size[0], box.size[1], box.size[2]], box, indices: s.indices, source: 'object' }];
  }
  const cells = patchCells(box, cellSize);
  const members: number[][] = cells.map(() => []);
  const p = cloud.positions;
  for (const i of s.indices) {
    const k = patchCellIndex(box, cellSize, p[3 * i]!, p[3 * i + 1]!);
    if (k >= 0) members[k]!.push(i);
  }
  const pieces: Piece[] = [];
  cells.forEach((c, k) => {
    const idx = members[k]!;
    if (idx.length < minCell) {
      skipped.push({ segmentId: s.id, cell: [c.i, c.j], reason: `${idx.length} points (fewer than ${minCell})` });
      return;
    }
    // The cell's footprint, and the height of its own points: a cell stands on the ground under it.
    const own = boxAtYaw(p, idx, box.yaw);
    const zLo = own.center[2] - own.size[2] / 2;
    const cellBox: AnnotationBox = { center: [c.box.center[0], c.box.center[1], own.center[2]], size: [c.box.size[0], c.box.size[1], own.size[2]], yaw: box.yaw };
    pieces.push({
      segment: s,
      frame: { x: c.box.center[0], y: c.box.center[1], z: zLo, yaw: box.yaw },
      extents: [c.box.size[0], c.box.size[1], own.size[2]],
      box: cellBox,
      indices: idx,
      source: 'patch-cell',
      cell: [c.i, c.j],
    });
  });
  return pieces;
}

/** Elements near the box whose mean is inside it (grown by margin) and, with a ground, above the clearance. */
function inside(grid: MeanGrid, means: Float64Array, box: AnnotationBox, margin: number, ground: GroundIndex | null, clearance: number): number[] {
  const out: number[] = [];
  for (const e of grid.near(box, margin)) {
    const x = means[3 * e]!, y = means[3 * e + 1]!, z = means[3 * e + 2]!;
    if (boxDistance(box, x, y, z) > margin) continue;
    if (ground) {
      const g = ground.heightAt(x, y);
      if (g === g && z - g <= clearance) continue;
    }
    out.push(e);
  }
  return out;
}

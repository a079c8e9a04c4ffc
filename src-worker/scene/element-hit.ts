/**
 * The record traverse() hands its visitor (SceneQuery's ElementHit plus where the element came
 * from), and filling it from what a walk measured — one way for the kernel, the reference walk
 * and the brute-force oracle.
 */
import { GAUSS_STRIDE, INST_INTS, PRIM_FLOATS, PRIM_INTS, PrimFloat } from './scene-data';
import { type SceneData } from '../../src-common/scene-data';
import { ElementKind, type ElementHit } from './scene-query';
import { worldGaussian } from './instance-frame';
import { falloffHitProbability, meanFalloffWeight } from './ellipsoid-falloff';
import { cellHitProbability, sceneGaussCell, sceneTriangleCell } from './hit-cells';

/** The hit record traverse() hands to its visitor: the interface's fields plus where it came from. */
export interface SceneElementHit extends ElementHit {
  /** Instance index (addInstance order). */
  instance: number;
  /** Primitive index (addX order). */
  primitive: number;
  /** Element index in SceneData's triVerts (triangle kinds) or gauss (Gaussian kinds). */
  element: number;
  /** Index of the element in the primitive's builder input (triSource / gaussSource). */
  sourceIndex: number;
}

export function newSceneElementHit(): SceneElementHit {
  return {
    kind: ElementKind.Surface, t: 0, mahalanobis: 0, pHit: 0, objectId: 0, classId: 0, muT: 0, varT: 0,
    mean: new Float64Array(3), chol: new Float64Array(6), instance: -1, primitive: -1, element: -1, sourceIndex: -1,
  };
}

/**
 * Fills `hit` for element `element` of instance `inst` met at t; for a Gaussian `mahalanobis` is
 * its minimum distance along the ray and `varT` σ_t² (a triangle's come from its primitive).
 * `sigma` is 6 doubles of scratch. `ray` (world origin and direction) places the ray on an
 * ellipsoid's hit cells where the scene has them (ellipsoid-cells.ts).
 */
export function fillElementHit(
  data: SceneData, hit: SceneElementHit, inst: number, element: number, t: number, mahalanobis: number, varT: number, sigma: Float64Array,
  ray?: Float64Array,
): void {
  const ii = data.instInts, p = ii[inst * INST_INTS]!;
  const kind = data.primInts[p * PRIM_INTS]! as ElementKind;
  hit.kind = kind;
  hit.instance = inst;
  hit.primitive = p;
  hit.element = element;
  hit.objectId = ii[inst * INST_INTS + 1]!;
  hit.classId = ii[inst * INST_INTS + 2]!;
  hit.t = t;
  hit.muT = t;
  if (kind === ElementKind.Surface || kind === ElementKind.Ground) {
    hit.sourceIndex = data.triSource[element]!;
    hit.mahalanobis = 0;
    const ground = kind === ElementKind.Ground;
    hit.pHit = ground ? data.triValues[element]! : 1;
    const cells = data.groundCells;
    if (ground && cells && ray) {
      const row = cells.row[element]!;
      if (row >= 0) hit.pHit = cellHitProbability(cells, row, sceneTriangleCell(data, inst, element, ray[0]!, ray[1]!, ray[2]!, ray[3]!, ray[4]!, ray[5]!, t, cells.grid), hit.pHit);
    }
    hit.varT = ground ? data.primFloats[p * PRIM_FLOATS + PrimFloat.param]! : 0;
    hit.mean.fill(0);
    hit.chol.fill(0);
    return;
  }
  hit.sourceIndex = data.gaussSource[element]!;
  hit.mahalanobis = mahalanobis;
  hit.varT = varT;
  const stored = data.gauss[element * GAUSS_STRIDE + 15]!;
  hit.pHit = kind === ElementKind.Ellipsoid && data.ellipsoidHitFalloff === true
    ? falloffHitProbability(stored, mahalanobis * mahalanobis, meanFalloffWeight(data.mahalanobisThreshold))
    : stored;
  const cells = data.ellipsoidCells;
  if (cells && ray && kind === ElementKind.Ellipsoid && hit.pHit > 0) {
    const row = cells.row[element]!;
    if (row >= 0) {
      const cell = sceneGaussCell(data, inst, element, ray[0]!, ray[1]!, ray[2]!, ray[3]!, ray[4]!, ray[5]!, t, cells.grid);
      hit.pHit = cellHitProbability(cells, row, cell, hit.pHit);
    }
  }
  worldGaussian(data, element, inst, hit.mean, hit.chol, sigma);
}

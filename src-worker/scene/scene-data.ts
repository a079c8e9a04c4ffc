/**
 * SceneData: the whole two-level acceleration structure as a plain object of typed arrays and a
 * few numbers. With `build({ shared: true })` every array lives in a SharedArrayBuffer, so the
 * object can be posted to piscina workers (structured clone shares SABs: no copy) and turned
 * into a query there with createSceneQuery(data). Nothing in it is a class instance.
 *
 * Layout (all per-record strides are the constants below):
 *
 *  primitives (BLAS), P = primitiveCount
 *    primInts    Int32Array   P × PRIM_INTS   [kind, firstElement, elementCount, rootNode, nodeCount]
 *                kind is an ElementKind (0 mesh surface, 1 ground, 2 ellipsoid, 3 voxel);
 *                elements of triangle kinds index triVerts/triValues, of Gaussian kinds `gauss`;
 *                rootNode is −1 for an empty primitive.
 *    primFloats  Float64Array P × PRIM_FLOATS [minx, miny, minz, maxx, maxy, maxz (local frame),
 *                param, groundReflectance]: param = σ²_ground for ground, the Mahalanobis
 *                threshold for ellipsoids, τ for voxels, 0 for meshes.
 *  triangles (mesh and ground kinds), T = triangleCount, in BVH leaf order per primitive
 *    triVerts    Float32Array T × 9           v0, v1, v2 (local frame of the primitive)
 *    triValues   Float32Array T               reflectance (mesh) or p_hit (ground)
 *    triSource   Int32Array   T               index of the triangle in its addMesh/addGround input
 *  Gaussians (ellipsoid and voxel kinds), G = gaussianCount, in BVH leaf order per primitive
 *    gauss       Float64Array G × GAUSS_STRIDE
 *                [μx, μy, μz, P00, P01, P02, P11, P12, P22, L00, L10, L11, L20, L21, L22, pHit]
 *                P = Σ⁻¹ (upper entries), L = Cholesky factor of Σ (row-major lower), pHit
 *                (for voxels pHit = 1 − ρ, the permeability ρ = 1 − pHit).
 *    gaussSource Int32Array   G               index of the Gaussian in its addEllipsoids/addVoxels input
 *  BVH nodes of every primitive and of both instance trees, N = nodeCount
 *    nodeBounds  Float32Array N × 6           minx, miny, minz, maxx, maxy, maxz (outward-rounded)
 *    nodeLinks   Int32Array   N × 2           [first, count]: count 0 → inner node with children
 *                first and first+1; count > 0 → leaf over elements first..first+count−1
 *                (triangles, Gaussians or, for instance trees, entries of tlasRefs).
 *  instances (TLAS), I = instanceCount
 *    instInts    Int32Array   I × INST_INTS   [primitive, objectId, classId, flags]
 *                flags bit 0: rotation is the identity (the ray is only translated).
 *    instXform   Float64Array I × INST_FLOATS [r00, r01, r02, r10, r11, r12, r20, r21, r22, tx, ty, tz]
 *                world ← local: x_w = R x_l + t (rigid). A ray goes to the primitive's frame as
 *                o_l = Rᵀ(o − t), d_l = Rᵀ d; t along the ray is unchanged.
 *    tlasRefs    Int32Array                   instance indices referenced by instance-tree leaves
 *    rootAll     node index of the tree over every instance (−1: none)
 *    rootSurface node index of the tree over instances of mesh and ground primitives (−1: none)
 *
 * A thousand instances of one tree cost one BLAS plus about 1000 × 250 bytes (instance
 * record 16 + 96, tlasRefs 8, and up to 4 instance-tree nodes of 32: instance trees have one
 * instance per leaf, so a leaf's box is the instance's world box).
 */
import { ElementKind } from './scene-query';
import type { SceneData } from '../../src-common/scene-data';


export const PRIM_INTS = 5;
export const PRIM_FLOATS = 8;
export const PrimInt = { kind: 0, first: 1, count: 2, root: 3, nodes: 4 } as const;
export const PrimFloat = { bounds: 0, param: 6, groundReflectance: 7 } as const;
export const GAUSS_STRIDE = 16;
export const GaussField = { mean: 0, precision: 3, chol: 9, pHit: 15 } as const;
export const INST_INTS = 4;
export const INST_FLOATS = 12;
export const InstInt = { primitive: 0, objectId: 1, classId: 2, flags: 3 } as const;
export const INST_IDENTITY_ROTATION = 1;


const ARRAY_KEYS = ['primInts', 'primFloats', 'triVerts', 'triValues', 'triSource', 'gauss', 'gaussSource', 'nodeBounds', 'nodeLinks', 'instInts', 'instXform', 'tlasRefs', 'bounds'] as const;

/** Bytes held by the scene's arrays (what a worker shares, not a copy per worker). */
export function sceneMemoryBytes(data: SceneData): number {
  let bytes = 0;
  for (const k of ARRAY_KEYS) bytes += data[k].byteLength;
  return bytes;
}

export interface SceneStats {
  primitives: number;
  instances: number;
  /** Triangles stored once (mesh + ground primitives). */
  uniqueTriangles: number;
  /** Triangles as placed: Σ over instances of their primitive's triangles. */
  instancedTriangles: number;
  uniqueEllipsoids: number;
  instancedEllipsoids: number;
  uniqueVoxels: number;
  instancedVoxels: number;
  /** Elements as placed, all kinds. */
  instancedElements: number;
  nodes: number;
  memoryBytes: number;
}

export function sceneStats(data: SceneData): SceneStats {
  const unique = [0, 0, 0, 0];
  const placed = [0, 0, 0, 0];
  for (let p = 0; p < data.primitiveCount; p++) {
    unique[data.primInts[p * PRIM_INTS + PrimInt.kind]!]! += data.primInts[p * PRIM_INTS + PrimInt.count]!;
  }
  for (let i = 0; i < data.instanceCount; i++) {
    const p = data.instInts[i * INST_INTS + InstInt.primitive]!;
    placed[data.primInts[p * PRIM_INTS + PrimInt.kind]!]! += data.primInts[p * PRIM_INTS + PrimInt.count]!;
  }
  return {
    primitives: data.primitiveCount,
    instances: data.instanceCount,
    uniqueTriangles: unique[ElementKind.Surface]! + unique[ElementKind.Ground]!,
    instancedTriangles: placed[ElementKind.Surface]! + placed[ElementKind.Ground]!,
    uniqueEllipsoids: unique[ElementKind.Ellipsoid]!,
    instancedEllipsoids: placed[ElementKind.Ellipsoid]!,
    uniqueVoxels: unique[ElementKind.Voxel]!,
    instancedVoxels: placed[ElementKind.Voxel]!,
    instancedElements: placed[0]! + placed[1]! + placed[2]! + placed[3]!,
    nodes: data.nodeCount,
    memoryBytes: sceneMemoryBytes(data),
  };
}

/**
 * Every placed triangle of the mesh and ground primitives in world coordinates (9 floats per
 * triangle) — for exporting, viewing, or handing the same triangles to another ray caster.
 * `kinds` selects which triangle kinds (default both). Optionally also the per-triangle values.
 */
export function flattenSceneTriangles(
  data: SceneData,
  kinds: readonly ElementKind[] = [ElementKind.Surface, ElementKind.Ground],
): { positions: Float32Array; values: Float32Array } {
  let total = 0;
  for (let i = 0; i < data.instanceCount; i++) {
    const p = data.instInts[i * INST_INTS]!;
    if (kinds.includes(data.primInts[p * PRIM_INTS] as ElementKind)) total += data.primInts[p * PRIM_INTS + PrimInt.count]!;
  }
  const positions = new Float32Array(total * 9);
  const values = new Float32Array(total);
  let w = 0;
  for (let i = 0; i < data.instanceCount; i++) {
    const p = data.instInts[i * INST_INTS]!;
    if (!kinds.includes(data.primInts[p * PRIM_INTS] as ElementKind)) continue;
    const first = data.primInts[p * PRIM_INTS + PrimInt.first]!;
    const count = data.primInts[p * PRIM_INTS + PrimInt.count]!;
    const x = data.instXform, xo = i * INST_FLOATS;
    for (let t = first; t < first + count; t++) {
      for (let v = 0; v < 3; v++) {
        const s = 9 * t + 3 * v;
        const lx = data.triVerts[s]!, ly = data.triVerts[s + 1]!, lz = data.triVerts[s + 2]!;
        positions[9 * w + 3 * v] = x[xo]! * lx + x[xo + 1]! * ly + x[xo + 2]! * lz + x[xo + 9]!;
        positions[9 * w + 3 * v + 1] = x[xo + 3]! * lx + x[xo + 4]! * ly + x[xo + 5]! * lz + x[xo + 10]!;
        positions[9 * w + 3 * v + 2] = x[xo + 6]! * lx + x[xo + 7]! * ly + x[xo + 8]! * lz + x[xo + 11]!;
      }
      values[w] = data.triValues[t]!;
      w++;
    }
  }
  return { positions, values };
}

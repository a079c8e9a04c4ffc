/**
 * A built scene as every layer holds it (docs/design.md, "Scenes and the ray kernel"): the whole
 * two-level acceleration structure as a plain object of typed arrays and a few numbers, which the
 * store keeps, the host shares with workers and the engine casts rays through. Its layout (record
 * strides, field offsets) is documented, and read, in src-worker/scene/scene-data.ts.
 */

/** A scene in kernel memory (SceneData.kernel). */
export interface KernelScene {
  /** Shared memory holding the layout; every thread's kernel instance imports it. */
  memory: WebAssembly.Memory;
  /** Address of the Scene record (kernel.h) to pass to rk_init. */
  record: number;
  /** Bytes of the layout (shared by all threads). */
  bytes: number;
  /** Milliseconds the layout took. */
  buildMs: number;
}

/**
 * Per element of a fitted model (ellipsoids, or ground triangles), hit and pass counts by cell
 * (src-worker/scene/hit-cells.ts), in compressed rows: element r's cells are
 * key/hits/passes[start[r] … start[r + 1]), keys ascending.
 */
export interface HitCells {
  /** Cells per axis: of the cube [−k, k]³ (ellipsoids, k the Mahalanobis threshold), of the barycentric square (triangles). */
  grid: number;
  /** s: pseudo-rays of the element's own hit probability mixed into each cell's counts. */
  prior: number;
  /** Per element of the scene (`gauss` order for ellipsoids, `triVerts` order for triangles): its row below, −1 for none. */
  row: Int32Array;
  start: Uint32Array;
  key: Uint16Array;
  hits: Uint32Array;
  passes: Uint32Array;
}

export interface SceneData {
  format: 'thicket-scene/1';
  primitiveCount: number;
  triangleCount: number;
  gaussianCount: number;
  nodeCount: number;
  instanceCount: number;
  primInts: Int32Array;
  primFloats: Float64Array;
  triVerts: Float32Array;
  triValues: Float32Array;
  triSource: Int32Array;
  gauss: Float64Array;
  gaussSource: Int32Array;
  nodeBounds: Float32Array;
  nodeLinks: Int32Array;
  instInts: Int32Array;
  instXform: Float64Array;
  tlasRefs: Int32Array;
  rootAll: number;
  rootSurface: number;
  /** World bounds of every instance: minx, miny, minz, maxx, maxy, maxz (empty scene: zeros). */
  bounds: Float64Array;
  mahalanobisThreshold: number;
  voxelTau: number;
  /**
   * true: an ellipsoid's p_hit is its hit probability at the mean weight and falls off with the
   * ray's Mahalanobis distance (src-worker/scene/ellipsoid-falloff.ts); false or absent (scenes
   * from before it existed): one constant p_hit per ellipsoid.
   */
  ellipsoidHitFalloff?: boolean;
  /**
   * A fitted model's hit cells (src-worker/scene/hit-cells.ts): where on each ellipsoid, and on
   * each ground triangle, its training rays returned or passed. Absent: every ray meeting an
   * element alike (at the same Mahalanobis distance, for ellipsoids).
   */
  ellipsoidCells?: HitCells;
  groundCells?: HitCells;
  /** Wall-clock milliseconds the build took (all BVHs, copies included). */
  buildMs: number;
  /**
   * Identifies this build wherever the object travels: every structured clone of a SceneData (each
   * task posted to a worker) is a new object, even over the same SharedArrayBuffers, so per-thread
   * caches of derived structures (the ray kernel's copy) key on this. Random, never reused.
   * Absent in scenes from before it existed; caches then key on the object.
   */
  uid?: number;
  /**
   * The scene laid out for the WebAssembly ray kernel in a shared memory (src-worker/scene/kernel/kernel-scene.ts),
   * attached by the thread that shares the scene with workers (the layout-scene task) so that
   * every worker casts over one copy. Never stored; absent, each thread lays one out for itself.
   */
  kernel?: KernelScene;
}

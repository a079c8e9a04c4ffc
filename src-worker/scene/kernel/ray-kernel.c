/*
 * The engine's ray kernel, compiled to WebAssembly with SIMD (scripts/build-ray-kernel.mjs →
 * ray-kernel-wasm.ts; ray-kernel.ts is the JS side): the product path of every BvhSceneQuery
 * (scene-bvh.ts) query. It walks the same two-level structure as the JS reference walk
 * (scene/reference-walk.ts, the fallback and the oracle) and gives the same answers:
 *
 *  - ray-closest.c: the closest surface (mesh and ground triangles) — closestSurface, used by
 *    the mesh and physics modes;
 *  - ray-traverse.c: every element (triangles and Gaussians) along the ray in increasing t, one
 *    at a time, so the caller can stop — traverse, used by the hybrid and voxel modes;
 *  - ray-beam.c: the closest surfaces of up to 32 rays from one origin in one walk —
 *    closestSurfaceBeam, the physics mode's 9-ray stencil (the reference casts them one by one);
 *  - ray-collect.c: every element along a ray in no order, to an imported sink — collect, the
 *    fit's replay (fit/replay.ts).
 * kernel.h holds what they share: the descent (DESCEND), the box test, the instance transform,
 * the element tests.
 *
 * An instance tree leads to instances; each moves the ray into its primitive's frame
 * (o_l = Rᵀ(o − t), d_l = Rᵀ d) and descends that primitive's tree. The difference from the
 * reference is the tree shape: each binary SAH tree is collapsed into a 4-wide one
 * (wide-bvh.ts), whose four child boxes are tested at once with f32x4 SIMD, conservatively
 * (kernel.h test4 says how), so the kernel visits every box the reference visits. Elements are
 * tested in double precision with the same operations in the same order as the reference
 * (two-sided Möller–Trumbore; for Gaussians Deschaud et al. 2012, eq. 1), and records are filled
 * the same way, so both give the same elements at the same t, bit for bit
 * (test/unit/scene/ray-kernel.test.ts). The one freedom: where two elements are met at exactly
 * the same t (a ray along a shared edge), the visiting order decides which the closest-surface
 * query reports and in which order the traversal hands them over; the kernel's order is fixed,
 * so its answers depend only on the ray and the scene (the same for any number of workers).
 * A new kind of scene element is written here once (kernel.h) and once in the reference; see
 * docs/design.md, "Scenes and the ray kernel".
 *
 * No libc. The module imports a shared memory: ray-kernel.ts lays a scene out in it once (after
 * __heap_base, with a Scene record, kernel.h) and every worker thread instantiates the module
 * over that same memory. What a thread changes while casting (stacks, heap, hit records, the
 * current ray) is thread-local (THREAD: wasm TLS, one block per instance, which ray-kernel.ts
 * places in a region the thread grows the memory by, with its C stack); the scene is read-only.
 */
#include "kernel.h"

THREAD Scene g_scene;

/* Bytes of the scratch block rk_init wants (the stacks and the traversal heap, 16-aligned). */
EXPORT int rk_scratch_bytes(void) {
  return closest_scratch_bytes() + traverse_scratch_bytes() + beam_scratch_bytes() + collect_scratch_bytes();
}

/* Starts this thread's instance: its copy of the Scene record and its scratch block. */
EXPORT void rk_init(const Scene* scene, char* scratch) {
  g_scene = *scene;
  traverse_bind(scratch);
  closest_bind(scratch + traverse_scratch_bytes());
  scratch += traverse_scratch_bytes() + closest_scratch_bytes();
  beam_bind(scratch);
  collect_bind(scratch + beam_scratch_bytes());
}

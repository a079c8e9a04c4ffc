/*
 * The engine's ray kernel, compiled to WebAssembly with SIMD (scripts/build-ray-kernel.mjs →
 * ray-kernel-wasm.ts; ray-kernel.ts is the JS side). It runs the two traversals of
 * BvhSceneQuery (scene-bvh.ts) over the same two-level structure and gives the same answers:
 *
 *  - ray-closest.c: the closest surface (mesh and ground triangles) — closestSurface, used by
 *    the mesh and physics modes;
 *  - ray-traverse.c: every element (triangles and Gaussians) along the ray in increasing t, one
 *    at a time, so the caller can stop — traverse, used by the hybrid and voxel modes.
 *
 * An instance tree leads to instances; each moves the ray into its primitive's frame
 * (o_l = Rᵀ(o − t), d_l = Rᵀ d) and descends that primitive's tree. The difference from the JS
 * query is the tree shape: each binary SAH tree is collapsed into a 4-wide one (wide-bvh.ts),
 * whose four child boxes are tested at once with f32x4 SIMD, conservatively (kernel.h test4
 * says how), so the kernel visits every box the JS query visits. Elements are tested in double
 * precision with the same operations in the same order as the JS query (two-sided
 * Möller–Trumbore, seed 000 eq. 1 for Gaussians), and records are filled the same way, so both
 * paths give the same elements at the same t, bit for bit (test/unit/scene/ray-kernel.test.ts).
 * The one freedom: where two elements are met at exactly the same t (a ray along a shared
 * edge), the visiting order decides which the closest-surface query reports and in which order
 * the traversal hands them over; the kernel's order is fixed, so its answers depend only on the
 * ray and the scene (the same for any number of workers).
 *
 * No libc: the module imports its memory; ray-kernel.ts lays the scene out in it after
 * __heap_base, writes a Scene record (kernel.h) and passes its address to rk_init.
 */
#include "kernel.h"

Scene g_scene;

EXPORT void rk_init(const Scene* scene) { g_scene = *scene; }

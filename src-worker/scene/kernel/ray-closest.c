/*
 * Closest surface along a ray (BvhSceneQuery.closestSurface), in the kernel. See ray-kernel.c.
 */
#include "kernel.h"

/* The last hit (inst −1 after a ray that met nothing). */
static THREAD HitRecord g_hit;

/* The descent stacks: instance tree, primitive tree. */
static THREAD StackArrays s_stacks[2];

int closest_scratch_bytes(void) { return stacks_bytes(2); }

void closest_bind(char* scratch) { bind_stacks(scratch, s_stacks, 2); }

EXPORT void* rk_hit(void) { return &g_hit; }
EXPORT int rk_stack_size(void) { return DESCENT_STACK; }

/* The nearest triangle of instance inst's primitive tree (root) along the local ray l = {o, d},
 * t in (tmin, best->t]: updates best. */
static void blas_closest(int root, int inst, const double* l, double tmin, double reach, Nearest* best_io) {
  /* Local copies: the compiler keeps them in registers across the leaf loops. */
  const double o[3] = { l[0], l[1], l[2] }, d[3] = { l[3], l[4], l[5] };
  Nearest best = *best_io;
  Slabs s;
  slabs_of(&s, o, d, reach);
  const v128_t vmin = wasm_f32x4_splat(down(tmin));
  DESCEND(root, s_stacks[1], test4, &s, vmin, best.t, order, {
    for (int tri = leaf.first; tri < leaf.end; tri++) nearer_triangle(g_scene.tv + 9 * tri, tri, inst, o, d, tmin, &best);
  });
  *best_io = best;
}

/* The hit record of triangle `tri` of instance `inst` met at t by world direction d: as
 * instance-frame.ts fillSurfaceHit computes it (same operations, same order). */
void fill_hit(HitRecord* rec, double t, int inst, int tri, double u, double v, double dx, double dy, double dz) {
  const double* t9 = g_scene.tv + 9 * tri;
  const double* x = g_scene.inst_xform + inst * INST_FLOATS;
  const int* ii = g_scene.inst_ints + inst * INST_INTS;
  double e1x = t9[3], e1y = t9[4], e1z = t9[5];
  double e2x = t9[6], e2y = t9[7], e2z = t9[8];
  double lx = e1y * e2z - e1z * e2y, ly = e1z * e2x - e1x * e2z, lz = e1x * e2y - e1y * e2x;
  double nx = x[0] * lx + x[1] * ly + x[2] * lz;
  double ny = x[3] * lx + x[4] * ly + x[5] * lz;
  double nz = x[6] * lx + x[7] * ly + x[8] * lz;
  double len = __builtin_sqrt(nx * nx + ny * ny + nz * nz);
  if (len == 0) len = 1;
  if (nx * dx + ny * dy + nz * dz > 0) len = -len;
  double refl = g_scene.prim_refl[ii[0]];
  rec->t = t;
  rec->nx = nx / len;
  rec->ny = ny / len;
  rec->nz = nz / len;
  rec->reflectance = refl < 0 ? (double)g_scene.tval[tri] : refl;
  rec->u = u;
  rec->v = v;
  rec->inst = inst;
  rec->tri = tri;
  rec->object_id = ii[1];
  rec->class_id = ii[2];
}

/* Closest surface along the world ray, t in (tmin, tmax]: returns 1 and fills g_hit (rk_hit),
 * or returns 0 and sets g_hit.inst to −1 where there is none. */
EXPORT int rk_closest(double ox, double oy, double oz, double dx, double dy, double dz, double tmin, double tmax) {
  g_hit.inst = -1;
  if (g_scene.root_surface < 0 || !(tmax > tmin)) return 0;
  const double reach = reach_of(tmin, tmax);
  const double w[6] = { ox, oy, oz, dx, dy, dz };
  Slabs s;
  slabs_of(&s, w, w + 3, reach);
  const v128_t vmin = wasm_f32x4_splat(down(tmin));
  Nearest best = { tmax, 0, 0, -1, -1 };
  DESCEND(g_scene.root_surface, s_stacks[0], test4, &s, vmin, best.t, order, {
    Range r = leaf;
    for (int inst, root; (inst = next_instance(&r, &root)) >= 0;) {
      double l[6];
      instance_ray(inst, w, l);
      blas_closest(root, inst, l, tmin, reach, &best);
    }
  });
  if (best.inst < 0) return 0;
  fill_hit(&g_hit, best.t, best.inst, best.tri, best.u, best.v, dx, dy, dz);
  return 1;
}

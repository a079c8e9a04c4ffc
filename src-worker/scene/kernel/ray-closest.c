/*
 * Closest surface along a ray (BvhSceneQuery.closestSurface), in the kernel. See ray-kernel.c.
 */
#include "kernel.h"

enum { STACK = 1024 };

/* The last hit (inst −1 after a ray that met nothing). */
static THREAD HitRecord g_hit;

/* The two descent stacks (instance tree, primitive tree): node and entry distance, STACK each,
 * in the thread's scratch block (closest_bind), not in TLS, which would put their zeros into the
 * module's TLS image. */
static THREAD int* s_tlas;
static THREAD float* s_tlas_t;
static THREAD int* s_blas;
static THREAD float* s_blas_t;

int closest_scratch_bytes(void) { return 4 * STACK * 4; }

void closest_bind(char* scratch) {
  s_tlas = (int*)scratch;
  s_tlas_t = (float*)(scratch + 4 * STACK);
  s_blas = (int*)(scratch + 8 * STACK);
  s_blas_t = (float*)(scratch + 12 * STACK);
}

EXPORT void* rk_hit(void) { return &g_hit; }
EXPORT int rk_stack_size(void) { return STACK; }

/* Closest triangle of one primitive's tree (local frame), t in (tmin, best]; updates best and
 * g_hit.tri/u/v, returns whether it found one. */
static int blas_closest(int root, double ox, double oy, double oz, double dx, double dy, double dz, double tmin, double reach, double* best_io) {
  Slabs s;
  slabs_of(&s, ox, oy, oz, dx, dy, dz, reach);
  const v128_t vmin = wasm_f32x4_splat(down(tmin));
  double best = *best_io;
  float tn[4];
  int found = 0, sp = 0, n = root;
  for (;;) {
    if (n >= 0) {
      const Node4* nd = g_scene.nodes + n;
      int mask = test4(nd, &s, vmin, wasm_f32x4_splat(up(best)), tn);
      if (mask) {
        n = order(nd, mask, tn, s_blas, s_blas_t, &sp);
        continue;
      }
    } else {
      int code = -n - 1, first = code >> 4, end = first + (code & 15);
      for (int tri = first; tri < end; tri++) {
        double t, u, v;
        if (!ray_triangle(g_scene.tv + 9 * tri, ox, oy, oz, dx, dy, dz, &t, &u, &v)) continue;
        if (t > tmin && t <= best) {
          best = t;
          found = 1;
          g_hit.tri = tri;
          g_hit.u = u;
          g_hit.v = v;
        }
      }
    }
    /* Next: the nearest pending node that can still beat the best hit. */
    for (;;) {
      if (sp == 0) {
        *best_io = best;
        return found;
      }
      sp--;
      if ((double)s_blas_t[sp] <= best) {
        n = s_blas[sp];
        break;
      }
    }
  }
}

/* The hit record of triangle `tri` of instance `inst` met at t by world direction d: as
 * BvhSceneQuery.fillSurfaceHit computes it (same operations, same order). */
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
  Slabs s;
  slabs_of(&s, ox, oy, oz, dx, dy, dz, reach);
  const v128_t vmin = wasm_f32x4_splat(down(tmin));
  double best = tmax;
  float tn[4];
  int best_inst = -1, best_tri = -1;
  double best_u = 0, best_v = 0;
  int sp = 0, n = g_scene.root_surface;
  for (;;) {
    if (n >= 0) {
      const Node4* nd = g_scene.nodes + n;
      int mask = test4(nd, &s, vmin, wasm_f32x4_splat(up(best)), tn);
      if (mask) {
        n = order(nd, mask, tn, s_tlas, s_tlas_t, &sp);
        continue;
      }
    } else {
      int code = -n - 1, first = code >> 4, end = first + (code & 15);
      const double w[6] = { ox, oy, oz, dx, dy, dz };
      for (int k = first; k < end; k++) {
        int inst = g_scene.tlas_refs[k];
        int root = g_scene.prim_root[g_scene.inst_ints[inst * INST_INTS]];
        if (root < 0) continue;
        double l[6];
        instance_ray(inst, w, l);
        int found = blas_closest(root, l[0], l[1], l[2], l[3], l[4], l[5], tmin, reach, &best);
        if (found) {
          best_inst = inst;
          best_tri = g_hit.tri;
          best_u = g_hit.u;
          best_v = g_hit.v;
        }
      }
    }
    for (;;) {
      if (sp == 0) goto done;
      sp--;
      if ((double)s_tlas_t[sp] <= best) {
        n = s_tlas[sp];
        break;
      }
    }
  }
done:
  if (best_inst < 0) return 0;
  fill_hit(&g_hit, best, best_inst, best_tri, best_u, best_v, dx, dy, dz);
  return 1;
}

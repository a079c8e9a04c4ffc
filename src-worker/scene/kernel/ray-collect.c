/*
 * Every element a ray meets within (tmin, tmax], in no particular order, handed to the host one
 * by one (the imported rk_sink) — what the fit's replay counts (fit/replay.ts; the JS walk it
 * replaces is fit/replay-walk.ts). See ray-kernel.c.
 *
 * A plain depth-first walk of the instance tree over every instance and of each primitive's tree:
 * no order, no culling by a best hit, no heap. Elements are tested as the ordered traversal
 * tests them (ray-traverse.c, the same double operations), so a ray meets the same elements as
 * in traverse(), and rk_sink gets, for a Gaussian, its squared minimum Mahalanobis distance
 * (clamped at 0) and σ_t² = 1/dᵀPd, for a triangle zeros.
 */
#include "kernel.h"

enum { COLLECT_STACK = 1024 };

/* The host's receiver: ray (the caller's tag), primitive, element (index into triVerts or gauss),
 * t, m², σ_t². */
__attribute__((import_module("env"), import_name("rk_sink")))
void rk_sink(int ray, int prim, int elem, double t, double m2, double var_t);

static THREAD int* c_tlas;
static THREAD int* c_blas;

int collect_scratch_bytes(void) { return 2 * COLLECT_STACK * 4; }

void collect_bind(char* scratch) {
  c_tlas = (int*)scratch;
  c_blas = (int*)(scratch + 4 * COLLECT_STACK);
}

/* Pushes every met child but the first, which it returns (−1: none met; children are wide nodes
 * or leaf codes, never −1). */
static inline int descend(const Node4* nd, int mask, int* stack, int* sp) {
  int first = -1;
  for (; mask; mask &= mask - 1) {
    int c = nd->child[__builtin_ctz(mask)];
    if (first == -1) first = c;
    else stack[(*sp)++] = c;
  }
  return first;
}

static void collect_primitive(int p, int root, double ox, double oy, double oz, double dx, double dy, double dz,
                              double tmin, double tmax, double reach, int ray) {
  Slabs s;
  slabs_of(&s, ox, oy, oz, dx, dy, dz, reach);
  const v128_t vmin = wasm_f32x4_splat(down(tmin)), vmax = wasm_f32x4_splat(up(tmax));
  const int kind = g_scene.prim_kind[p];
  const double limit = g_scene.prim_param[p], thr2 = limit * limit;
  float tn[4];
  int sp = 0, n = root;
  for (;;) {
    if (n >= 0) {
      const Node4* nd = g_scene.nodes + n;
      int next = descend(nd, test4(nd, &s, vmin, vmax, tn), c_blas, &sp);
      if (next != -1) {
        n = next;
        continue;
      }
    } else {
      int code = -n - 1, first = code >> 4, end = first + (code & 15);
      if (kind == KIND_SURFACE || kind == KIND_GROUND) {
        for (int tri = first; tri < end; tri++) {
          double t, u, v;
          if (!ray_triangle(g_scene.tv + 9 * tri, ox, oy, oz, dx, dy, dz, &t, &u, &v)) continue;
          if (!(t > tmin && t <= tmax)) continue;
          rk_sink(ray, p, tri, t, 0, 0);
        }
      } else {
        for (int e = first; e < end; e++) {
          double dPd, dPe, ePe;
          gaussian_forms(g_scene.gauss + e * GAUSS_STRIDE, ox, oy, oz, dx, dy, dz, &dPd, &dPe, &ePe);
          double t = dPe / dPd;
          double m2 = ePe - dPe * t;
          if (m2 >= thr2) continue;
          if (!(t > tmin && t <= tmax)) continue;
          rk_sink(ray, p, e, t, m2 > 0 ? m2 : 0, 1 / dPd);
        }
      }
    }
    if (sp == 0) return;
    n = c_blas[--sp];
  }
}

/* Hands every element the ray meets within (tmin, tmax] to rk_sink, tagged `ray`. */
EXPORT void rk_collect(double ox, double oy, double oz, double dx, double dy, double dz, double tmin, double tmax, int ray) {
  if (g_scene.root_all < 0 || !(tmax > tmin)) return;
  const double reach = reach_of(tmin, tmax);
  Slabs s;
  slabs_of(&s, ox, oy, oz, dx, dy, dz, reach);
  const v128_t vmin = wasm_f32x4_splat(down(tmin)), vmax = wasm_f32x4_splat(up(tmax));
  float tn[4];
  int sp = 0, n = g_scene.root_all;
  for (;;) {
    if (n >= 0) {
      const Node4* nd = g_scene.nodes + n;
      int next = descend(nd, test4(nd, &s, vmin, vmax, tn), c_tlas, &sp);
      if (next != -1) {
        n = next;
        continue;
      }
    } else {
      int code = -n - 1, first = code >> 4, end = first + (code & 15);
      const double w[6] = { ox, oy, oz, dx, dy, dz };
      for (int q = first; q < end; q++) {
        int inst = g_scene.tlas_refs[q];
        int p = g_scene.inst_ints[inst * INST_INTS], root = g_scene.prim_root[p];
        if (root < 0) continue;
        double l[6];
        instance_ray(inst, w, l);
        collect_primitive(p, root, l[0], l[1], l[2], l[3], l[4], l[5], tmin, tmax, reach, ray);
      }
    }
    if (sp == 0) return;
    n = c_tlas[--sp];
  }
}

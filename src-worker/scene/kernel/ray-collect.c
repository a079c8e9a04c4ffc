/*
 * Every element a ray meets within (tmin, tmax], in no particular order, handed to the host one
 * by one (the imported rk_sink) — what the fit's replay counts (fit/replay.ts; in the reference,
 * scene/reference-walk.ts with WalkOrder.Any). See ray-kernel.c.
 *
 * A plain depth-first descent (kernel.h DESCEND with first_met) of the instance tree over every
 * instance and of each primitive's tree: no order, no culling by a best hit, no heap. Elements are tested as the
 * ordered traversal tests them (kernel.h element_met), so a ray meets the same elements as in
 * traverse(), and rk_sink gets, for a Gaussian, its squared minimum Mahalanobis distance
 * (clamped at 0) and σ_t² = 1/dᵀPd, for a triangle zeros.
 */
#include "kernel.h"

/* The host's receiver: ray (the caller's tag), primitive, element (index into triVerts or gauss),
 * t, m², σ_t². */
__attribute__((import_module("env"), import_name("rk_sink")))
void rk_sink(int ray, int prim, int elem, double t, double m2, double var_t);

/* The descent stacks: instance tree, primitive tree. */
static THREAD StackArrays c_stacks[2];

int collect_scratch_bytes(void) { return stacks_bytes(2); }

void collect_bind(char* scratch) { bind_stacks(scratch, c_stacks, 2); }

/* Every element of primitive p's tree (root) that the local ray l = {o, d} meets, to rk_sink. */
static void collect_primitive(int p, int root, const double* l, double tmin, double tmax, double reach, int ray) {
  const double o[3] = { l[0], l[1], l[2] }, d[3] = { l[3], l[4], l[5] };
  Slabs s;
  slabs_of(&s, o, d, reach);
  const v128_t vmin = wasm_f32x4_splat(down(tmin));
  const int triangle = triangle_kind(p);
  const double limit = g_scene.prim_param[p], limit2 = limit * limit;
  DESCEND(root, c_stacks[1], test4, &s, vmin, tmax, first_met, {
    for (int e = leaf.first; e < leaf.end; e++) {
      Measure m;
      if (!element_met(triangle, e, o, d, tmin, tmax, limit2, &m)) continue;
      if (triangle) rk_sink(ray, p, e, m.t, 0, 0);
      else rk_sink(ray, p, e, m.t, m.a > 0 ? m.a : 0, m.b);
    }
  });
}

/* Hands every element the ray meets within (tmin, tmax] to rk_sink, tagged `ray`. */
EXPORT void rk_collect(double ox, double oy, double oz, double dx, double dy, double dz, double tmin, double tmax, int ray) {
  if (g_scene.root_all < 0 || !(tmax > tmin)) return;
  const double reach = reach_of(tmin, tmax);
  const double w[6] = { ox, oy, oz, dx, dy, dz };
  Slabs s;
  slabs_of(&s, w, w + 3, reach);
  const v128_t vmin = wasm_f32x4_splat(down(tmin));
  DESCEND(g_scene.root_all, c_stacks[0], test4, &s, vmin, tmax, first_met, {
    Range r = leaf;
    for (int inst, root; (inst = next_instance(&r, &root)) >= 0;) {
      double l[6];
      instance_ray(inst, w, l);
      collect_primitive(instance_primitive(inst), root, l, tmin, tmax, reach, ray);
    }
  });
}

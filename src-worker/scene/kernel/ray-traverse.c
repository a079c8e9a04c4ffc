/*
 * Every element along a ray in increasing t (BvhSceneQuery.traverse), in the kernel, one element
 * per call so the caller's visitor (Bernoulli pass-through, range sampling: JS) can stop early:
 *
 *   rk_trav_begin(ray, tmin, tmax) → 1 with the first element in g_elem, 0 if none
 *   rk_trav_next()                 → 1 with the next element in g_elem, 0 when there are no more
 *   (−1: more than 65,536 items were pending at once and some were lost; never seen in practice,
 *   reported rather than answered wrongly)
 *
 * As in the JS traversal: one binary min-heap of pending items (instance-tree nodes,
 * primitive-tree nodes, elements) keyed by entry distance (a lower bound of everything inside)
 * or element t, so an element leaves the heap only when nothing pending can be nearer. The
 * nearest item produced while processing one is kept out of the heap when nothing pending is
 * nearer (the common descent costs no heap operations). Elements are tested exactly as the JS
 * traversal tests them (same double operations): triangles by two-sided Möller–Trumbore,
 * Gaussians by the minimum Mahalanobis distance along the ray (seed 000 eq. 1) against the
 * primitive's limit, each kept when its t is in (tmin, tmax].
 *
 * Item codes (b) as in scene-bvh.ts: (instance + 1) · 4 + type, type T_TLAS / T_BLAS / T_TRI /
 * T_GAUSS; a is the wide node or the element.
 */
#include "kernel.h"

enum { T_TLAS = 0, T_BLAS = 1, T_TRI = 2, T_GAUSS = 3, HEAP = 1 << 16 };

/* The element handed to the caller: t, for a Gaussian its minimum Mahalanobis distance along the
 * ray and the variance of t (ray-primitives.ts rayGaussian: out[1], out[2]); element index
 * (triVerts or gauss), instance, type. */
static THREAD struct {
  double t, mahalanobis, var_t;
  int element, inst, type;
} g_elem;

/* The heap's arrays live in the thread's scratch block (traverse_bind), not in TLS (ray-closest.c
 * says why). */
static THREAD double* h_key;
static THREAD int *h_a, *h_b;
static THREAD int h_size, h_overflow;

int traverse_scratch_bytes(void) { return HEAP * 16; }

void traverse_bind(char* scratch) {
  h_key = (double*)scratch;
  h_a = (int*)(scratch + 8 * HEAP);
  h_b = (int*)(scratch + 12 * HEAP);
}

/* The ray, its world slabs and interval, the current instance's local ray and slabs. */
static THREAD double w_ox, w_oy, w_oz, w_dx, w_dy, w_dz, t_min, t_max, t_reach;
static THREAD Slabs w_slabs, l_slabs;
static THREAD v128_t v_tmin, v_tmax;
static THREAD int l_inst;
static THREAD double l_ox, l_oy, l_oz, l_dx, l_dy, l_dz;

/* The item to process next (c_b < 0: take the heap's top). */
static THREAD double c_key;
static THREAD int c_a, c_b;

EXPORT void* rk_elem(void) { return &g_elem; }

static void push(double key, int a, int b) {
  if (h_size == HEAP) {
    h_overflow = 1;
    return;
  }
  int i = h_size++;
  while (i > 0) {
    int parent = (i - 1) >> 1;
    double pk = h_key[parent];
    if (pk <= key) break;
    h_key[i] = pk;
    h_a[i] = h_a[parent];
    h_b[i] = h_b[parent];
    i = parent;
  }
  h_key[i] = key;
  h_a[i] = a;
  h_b[i] = b;
}

static void pop_top(void) {
  int n = --h_size;
  if (n == 0) return;
  double key = h_key[n];
  int a = h_a[n], b = h_b[n], i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && h_key[c + 1] < h_key[c]) c++;
    double ck = h_key[c];
    if (ck >= key) break;
    h_key[i] = ck;
    h_a[i] = h_a[c];
    h_b[i] = h_b[c];
    i = c;
  }
  h_key[i] = key;
  h_a[i] = a;
  h_b[i] = b;
}

/* The nearest item produced while processing the current one (n_b < 0: none yet). */
static THREAD double n_key;
static THREAD int n_a, n_b;

static inline void produce(double key, int a, int b) {
  if (n_b < 0) {
    n_key = key;
    n_a = a;
    n_b = b;
  } else if (key < n_key) {
    push(n_key, n_a, n_b);
    n_key = key;
    n_a = a;
    n_b = b;
  } else {
    push(key, a, b);
  }
}

/* Moves the ray into instance inst's frame (as scene-bvh.ts setLocalRay). */
static void local_ray(int inst) {
  const double w[6] = { w_ox, w_oy, w_oz, w_dx, w_dy, w_dz };
  double l[6];
  instance_ray(inst, w, l);
  l_ox = l[0]; l_oy = l[1]; l_oz = l[2];
  l_dx = l[3]; l_dy = l[4]; l_dz = l[5];
  slabs_of(&l_slabs, l_ox, l_oy, l_oz, l_dx, l_dy, l_dz, t_reach);
  l_inst = inst;
}

/* Triangles first..end of instance inst (local ray): those met in (tmin, tmax]. */
static void leaf_triangles(int first, int end, int inst) {
  const double ox = l_ox, oy = l_oy, oz = l_oz, dx = l_dx, dy = l_dy, dz = l_dz;
  const int b = (inst + 1) * 4 + T_TRI;
  for (int tri = first; tri < end; tri++) {
    double t, u, v;
    if (!ray_triangle(g_scene.tv + 9 * tri, ox, oy, oz, dx, dy, dz, &t, &u, &v)) continue;
    if (!(t > t_min && t <= t_max)) continue;
    produce(t, tri, b);
  }
}

/* Gaussians first..end of instance inst (local ray): those whose minimum Mahalanobis distance
 * along the ray is below the primitive's limit, at their t* in (tmin, tmax]. */
static void leaf_gaussians(int first, int end, int inst, double limit) {
  const double ox = l_ox, oy = l_oy, oz = l_oz, dx = l_dx, dy = l_dy, dz = l_dz;
  const double thr2 = limit * limit;
  const int b = (inst + 1) * 4 + T_GAUSS;
  for (int e = first; e < end; e++) {
    double dPd, dPe, ePe;
    gaussian_forms(g_scene.gauss + e * GAUSS_STRIDE, ox, oy, oz, dx, dy, dz, &dPd, &dPe, &ePe);
    double t = dPe / dPd;
    if (ePe - dPe * t >= thr2) continue;
    if (!(t > t_min && t <= t_max)) continue;
    produce(t, e, b);
  }
}

/* Mahalanobis distance and variance of t of Gaussian e along the current local ray, with the
 * operations of ray-primitives.ts rayGaussian (its mean t is the element's key already). */
static void gaussian_along(int e) {
  double dPd, dPe, ePe;
  gaussian_forms(g_scene.gauss + e * GAUSS_STRIDE, l_ox, l_oy, l_oz, l_dx, l_dy, l_dz, &dPd, &dPe, &ePe);
  double var_t = 1 / dPd;
  double m2 = ePe - dPe * dPe * var_t;
  g_elem.mahalanobis = m2 > 0 ? __builtin_sqrt(m2) : 0;
  g_elem.var_t = var_t;
}

/* Processes the current item (a node): its met children and elements become pending items. */
static void expand(int a, int b) {
  float tn[4];
  const Node4* nd = g_scene.nodes + a;
  if ((b & 3) == T_TLAS) {
    int mask = test4(nd, &w_slabs, v_tmin, v_tmax, tn);
    for (; mask; mask &= mask - 1) {
      int lane = __builtin_ctz(mask), c = nd->child[lane];
      if (c >= 0) {
        produce(tn[lane], c, T_TLAS);
        continue;
      }
      /* An instance leaf: its box bounds everything in the instance, so its primitive's root
       * waits under the same key. */
      int code = -c - 1, first = code >> 4, end = first + (code & 15);
      for (int k = first; k < end; k++) {
        int inst = g_scene.tlas_refs[k];
        int root = g_scene.prim_root[g_scene.inst_ints[inst * INST_INTS]];
        if (root >= 0) produce(tn[lane], root, (inst + 1) * 4 + T_BLAS);
      }
    }
    return;
  }
  int inst = (b >> 2) - 1;
  if (inst != l_inst) local_ray(inst);
  int mask = test4(nd, &l_slabs, v_tmin, v_tmax, tn);
  if (!mask) return;
  int p = g_scene.inst_ints[inst * INST_INTS];
  int kind = g_scene.prim_kind[p];
  for (; mask; mask &= mask - 1) {
    int lane = __builtin_ctz(mask), c = nd->child[lane];
    if (c >= 0) {
      produce(tn[lane], c, b);
      continue;
    }
    int code = -c - 1, first = code >> 4, end = first + (code & 15);
    if (kind == KIND_SURFACE || kind == KIND_GROUND) leaf_triangles(first, end, inst);
    else leaf_gaussians(first, end, inst, g_scene.prim_param[p]);
  }
}

EXPORT int rk_trav_next(void) {
  for (;;) {
    if (h_overflow) return -1;
    if (c_b < 0) {
      if (h_size == 0) return 0;
      c_key = h_key[0];
      c_a = h_a[0];
      c_b = h_b[0];
      pop_top();
    }
    int type = c_b & 3;
    if (type == T_TRI || type == T_GAUSS) {
      int inst = (c_b >> 2) - 1;
      g_elem.t = c_key;
      g_elem.element = c_a;
      g_elem.inst = inst;
      g_elem.type = type;
      if (type == T_GAUSS) {
        if (inst != l_inst) local_ray(inst);
        gaussian_along(c_a);
      }
      c_b = -1;
      return 1;
    }
    n_b = -1;
    expand(c_a, c_b);
    /* Next: the nearest item just produced if nothing pending is nearer, else the heap's top. */
    if (n_b >= 0 && (h_size == 0 || n_key <= h_key[0])) {
      c_key = n_key;
      c_a = n_a;
      c_b = n_b;
    } else {
      if (n_b >= 0) push(n_key, n_a, n_b);
      c_b = -1;
    }
  }
}

EXPORT int rk_trav_begin(double ox, double oy, double oz, double dx, double dy, double dz, double tmin, double tmax) {
  h_size = 0;
  h_overflow = 0;
  c_b = -1;
  l_inst = -1;
  if (g_scene.root_all < 0 || !(tmax > tmin)) return 0;
  w_ox = ox; w_oy = oy; w_oz = oz;
  w_dx = dx; w_dy = dy; w_dz = dz;
  t_min = tmin;
  t_max = tmax;
  t_reach = reach_of(tmin, tmax);
  slabs_of(&w_slabs, ox, oy, oz, dx, dy, dz, t_reach);
  v_tmin = wasm_f32x4_splat(down(tmin));
  v_tmax = wasm_f32x4_splat(up(tmax));
  c_key = tmin;
  c_a = g_scene.root_all;
  c_b = T_TLAS;
  return rk_trav_next();
}

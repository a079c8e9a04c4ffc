/*
 * Every element along a ray in increasing t (BvhSceneQuery.traverse), in the kernel, one element
 * per call so the caller's visitor (Bernoulli pass-through, range sampling: JS) can stop early:
 *
 *   rk_trav_begin(ray, tmin, tmax) → 1 with the first element in g_elem, 0 if none
 *   rk_trav_next()                 → 1 with the next element in g_elem, 0 when there are no more
 *   (−1: more than 65,536 items were pending at once and some were lost; never seen in practice,
 *   reported rather than answered wrongly)
 *
 * As in the reference walk (scene/reference-walk.ts, WalkOrder.Nearest): one binary min-heap of
 * pending items (instance-tree nodes, primitive-tree nodes, elements) keyed by entry distance (a
 * lower bound of everything inside) or element t, so an element leaves the heap only when nothing
 * pending can be nearer. The nearest item produced while processing one is kept out of the heap
 * when nothing pending is nearer (the common descent costs no heap operations). Elements are
 * tested exactly as the reference walk tests them (kernel.h element_met, the same double
 * operations): triangles by two-sided Möller–Trumbore, Gaussians by the minimum Mahalanobis
 * distance along the ray (Deschaud et al. 2012, eq. 1) against the primitive's limit, each kept
 * when its t is in (tmin, tmax].
 *
 * Item codes (b) as in reference-walk.ts: (instance + 1) · 4 + type, type T_TLAS / T_BLAS / T_TRI /
 * T_GAUSS; a is the wide node or the element.
 */
#include "kernel.h"

enum { T_TLAS = 0, T_BLAS = 1, T_TRI = 2, T_GAUSS = 3, HEAP = 1 << 16 };

/* The element handed to the caller: t, for a Gaussian its minimum Mahalanobis distance along the
 * ray (√m², kernel.h ray_gaussian) and the variance of t; element index
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

/* The ray {o, d}, its world slabs and interval, the current instance's local ray and slabs. */
static THREAD double w_ray[6], t_min, t_max, t_reach;
static THREAD Slabs w_slabs, l_slabs;
static THREAD v128_t v_tmin, v_tmax;
static THREAD int l_inst;
static THREAD double l_ray[6];

/* The item to process next (c_b < 0: take the heap's top). */
static THREAD double c_key;
static THREAD int c_a, c_b;

EXPORT void* rk_elem(void) { return &g_elem; }

/* Heap slot i := (key, a, b). */
static inline void heap_put(int i, double key, int a, int b) {
  h_key[i] = key;
  h_a[i] = a;
  h_b[i] = b;
}

/* Adds an item, sifting it up from the end. */
static void push(double key, int a, int b) {
  if (h_size == HEAP) {
    h_overflow = 1;
    return;
  }
  int i = h_size++;
  for (int parent; i > 0 && h_key[parent = (i - 1) >> 1] > key; i = parent) heap_put(i, h_key[parent], h_a[parent], h_b[parent]);
  heap_put(i, key, a, b);
}

/* Removes the top (the caller has read it), sifting the last item down from the top. */
static void pop_top(void) {
  int n = --h_size, i = 0;
  if (n == 0) return;
  const double key = h_key[n];
  const int a = h_a[n], b = h_b[n];
  for (int c; (c = 2 * i + 1) < n; i = c) {
    if (c + 1 < n && h_key[c + 1] < h_key[c]) c++;
    if (h_key[c] >= key) break;
    heap_put(i, h_key[c], h_a[c], h_b[c]);
  }
  heap_put(i, key, a, b);
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

/* Moves the ray into instance inst's frame (as reference-walk.ts enterInstance). */
static void local_ray(int inst) {
  instance_ray(inst, w_ray, l_ray);
  slabs_of(&l_slabs, l_ray, l_ray + 3, t_reach);
  l_inst = inst;
}

/* Elements first..end of instance inst (local ray) met in (tmin, tmax] become pending items. */
static void leaf_elements(Range r, int inst) {
  const double o[3] = { l_ray[0], l_ray[1], l_ray[2] }, d[3] = { l_ray[3], l_ray[4], l_ray[5] };
  const int p = instance_primitive(inst), triangle = triangle_kind(p);
  const double limit = g_scene.prim_param[p], limit2 = limit * limit;
  const int b = (inst + 1) * 4 + (triangle ? T_TRI : T_GAUSS);
  for (int e = r.first; e < r.end; e++) {
    Measure m;
    if (element_met(triangle, e, o, d, t_min, t_max, limit2, &m)) produce(m.t, e, b);
  }
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
      Range r = leaf_range(c);
      for (int inst, root; (inst = next_instance(&r, &root)) >= 0;) produce(tn[lane], root, (inst + 1) * 4 + T_BLAS);
    }
    return;
  }
  int inst = (b >> 2) - 1;
  if (inst != l_inst) local_ray(inst);
  int mask = test4(nd, &l_slabs, v_tmin, v_tmax, tn);
  for (; mask; mask &= mask - 1) {
    int lane = __builtin_ctz(mask), c = nd->child[lane];
    if (c >= 0) produce(tn[lane], c, b);
    else leaf_elements(leaf_range(c), inst);
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
        /* Its m² and σ_t² along the ray (the key is its t already). */
        Measure m;
        if (inst != l_inst) local_ray(inst);
        ray_gaussian(g_scene.gauss + c_a * GAUSS_STRIDE, l_ray, l_ray + 3, &m);
        g_elem.mahalanobis = m.a > 0 ? __builtin_sqrt(m.a) : 0;
        g_elem.var_t = m.b;
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
  w_ray[0] = ox; w_ray[1] = oy; w_ray[2] = oz;
  w_ray[3] = dx; w_ray[4] = dy; w_ray[5] = dz;
  t_min = tmin;
  t_max = tmax;
  t_reach = reach_of(tmin, tmax);
  slabs_of(&w_slabs, w_ray, w_ray + 3, t_reach);
  v_tmin = wasm_f32x4_splat(down(tmin));
  v_tmax = wasm_f32x4_splat(up(tmax));
  c_key = tmin;
  c_a = g_scene.root_all;
  c_b = T_TLAS;
  return rk_trav_next();
}

/*
 * What the kernel's C files share (see ray-kernel.c for the whole picture): the scene as laid
 * out by ray-kernel.ts, the 4-wide node, the conservative SIMD box test, the instance transform,
 * the element tests and the depth-first descent (DESCEND: nearest first, or in lane order) that
 * the walks are built from.
 *
 * Each element test here has a twin in the JS reference walk (scene/reference-walk.ts, built from
 * geometry/ray-primitives.ts and scene/instance-frame.ts) doing the same double operations in the
 * same order, which is why the two answer bit for bit alike. A new kind of scene element is
 * written once here (its test beside ray_triangle / ray_gaussian, and element_met) and once in
 * the reference (ReferenceWalk.met); see docs/design.md, "Scenes and the ray kernel".
 */
#ifndef THICKET_RAY_KERNEL_H
#define THICKET_RAY_KERNEL_H

#include <wasm_simd128.h>

#define EXPORT __attribute__((visibility("default")))
/* Per-thread state: each instance over the shared memory has its own (ray-kernel.c). */
#define THREAD _Thread_local
/* The helpers below are forced inline: left to clang's judgement, the walks built from them kept
 * their rays and nearest hits in linear memory (an address taken across a call) and the closest
 * surface query ran ≈ 20 % slower (engine benchmark, 2.4 against 3.0 M rays/s). */

/* A 4-wide node (wide-bvh.ts): the children's boxes as structure of arrays, then the children.
 * child ≥ 0: a wide node; child < 0: leaf −(1 + (first << 4 | count)), count ≤ 15, over
 * triangles or Gaussians (primitive trees) or tlasRefs entries (instance trees). Empty lanes
 * have inverted boxes (min +3.4e38, max −3.4e38: finite, so a zero inverse direction times a
 * plane stays 0, never NaN; ray-beam.c relies on that). */
typedef struct {
  float minx[4], miny[4], minz[4], maxx[4], maxy[4], maxz[4];
  int child[4];
} Node4;

/* Record strides and codes of scene-data.ts / scene-query.ts. */
enum { INST_INTS = 4, INST_FLOATS = 12, INST_IDENTITY_ROTATION = 1, GAUSS_STRIDE = 16 };
enum { KIND_SURFACE = 0, KIND_GROUND = 1, KIND_ELLIPSOID = 2, KIND_VOXEL = 3 };

/* The scene in the kernel's memory, as ray-kernel.ts writes it (thirteen 32-bit words, in this
 * order: keep kernel-scene.ts in step). */
typedef struct {
  const Node4* nodes;        /* every wide tree */
  const double* tv;          /* per triangle v0, v1 − v0, v2 − v0 in double (as ray_triangle computes them from triVerts) */
  const float* tval;         /* triValues: reflectance (mesh) or p_hit (ground) */
  const int* inst_ints;      /* instInts */
  const double* inst_xform;  /* instXform */
  const int* tlas_refs;      /* tlasRefs */
  const int* prim_root;      /* per primitive: wide root of its tree, −1: none */
  const double* prim_refl;   /* per primitive: −1 mesh (reflectance per triangle), else the ground's */
  const int* prim_kind;      /* per primitive: KIND_* */
  const double* prim_param;  /* per primitive: the Mahalanobis limit (Gaussian kinds) */
  const double* gauss;       /* gauss (GAUSS_STRIDE doubles each) */
  int root_surface;          /* wide root of the surface instance tree, −1: none */
  int root_all;              /* wide root of the tree over every instance, −1: none */
} Scene;

extern THREAD Scene g_scene;

/* A closest-surface answer, laid out for ray-kernel.ts (HitF / HitI): what a SurfaceHit holds
 * (t, unit normal facing the ray in the world frame, reflectance, object and class ids) and where
 * it came from (instance, triangle index into triVerts, barycentrics); inst −1: nothing met. */
typedef struct {
  double t, nx, ny, nz, reflectance, u, v;
  int inst, tri, object_id, class_id;
} HitRecord;

/* Fills rec for triangle tri of instance inst met at t by world direction d (ray-closest.c). */
void fill_hit(HitRecord* rec, double t, int inst, int tri, double u, double v, double dx, double dy, double dz);

/* One ray's closest surface and its record (ray-closest.c; exported to JS too). */
int rk_closest(double ox, double oy, double oz, double dx, double dy, double dz, double tmin, double tmax);
void* rk_hit(void);

/* Each traversal's per-thread scratch (arrays too large for TLS): its size, and binding it. */
int closest_scratch_bytes(void);
void closest_bind(char* scratch);
int traverse_scratch_bytes(void);
void traverse_bind(char* scratch);
int beam_scratch_bytes(void);
void beam_bind(char* scratch);
int collect_scratch_bytes(void);
void collect_bind(char* scratch);

/* Inverse direction that is finite for a zero component (no NaN from 0·∞ in the slab test). */
static inline __attribute__((always_inline)) double inv(double d) { return d != 0 ? 1.0 / d : 1e300; }

/* Float bounds of a double: down(x) ≤ x ≤ up(x) (two float ulps of slack). */
static inline __attribute__((always_inline)) float down(double x) {
  float f = (float)x;
  return f - (f < 0 ? -f : f) * 2.4e-7f - 1e-30f;
}
static inline __attribute__((always_inline)) float up(double x) {
  float f = (float)x;
  return f + (f < 0 ? -f : f) * 2.4e-7f + 1e-30f;
}

/*
 * Box tests in float, four boxes at once, made conservative: a box the reference walk's double
 * test (ray-primitives.ts slabEntry) meets is always met here (more may be, which costs a few
 * extra visits and changes nothing: elements are tested in double precision, so the answers are
 * the same).
 *
 * Each slab distance is B·I − K with I = float(1/d) (clamped to ±1e30) and K = float(o·I) ± (c + m)
 * rounded outward. Against the exact (B − o)/d its rounding error is at most 3 float ulps of |t|
 * plus 2 of |o·I| (the origin's own rounding and the cancellation in B·I − o·I). The shifts
 * cover both: c = 2⁻²⁰·|o·I| per axis (16 ulps; a ray parallel to an axis has |o·I| huge there,
 * but that axis's distances are huge too) and m = 2⁻²⁰·reach with reach = max(|tmin|, |tmax|),
 * which bounds |t| wherever the decision can go either way (a distance beyond reach decides the
 * same in both precisions). So no per-node scaling is needed; callers keep reach ≤ 1e9.
 * Empty lanes are inverted to ±3.4e38 and give distances beyond any tmax (or ±∞), never NaN.
 */
typedef struct {
  v128_t ix, iy, iz;      /* float(1/d), splatted */
  v128_t knx, kny, knz;   /* float(o/d) + c + m: subtracted for entry distances */
  v128_t kfx, kfy, kfz;   /* float(o/d) − c − m: subtracted for exit distances */
  int nx, ny, nz;         /* 0: near plane is the min plane, 1: the max plane */
} Slabs;

static inline __attribute__((always_inline)) float clamp_inv(double i) { return i > 1e30 ? 1e30f : i < -1e30 ? -1e30f : (float)i; }

static inline __attribute__((always_inline)) void slab_axis(double o, double d, double m, v128_t* iv, v128_t* kn, v128_t* kf, int* near) {
  double i = inv(d);
  float fi = clamp_inv(i);
  double k = o * (double)fi, ak = k < 0 ? -k : k;
  double shift = ak * 9.5367431640625e-07 + m; /* 2^-20 |o·I| + m */
  *iv = wasm_f32x4_splat(fi);
  *kn = wasm_f32x4_splat(up(k + shift));
  *kf = wasm_f32x4_splat(down(k - shift));
  *near = fi >= 0 ? 0 : 1;
}

/* The slabs of a ray (origin o, direction d) whose distances of interest lie within ±reach. */
static inline __attribute__((always_inline)) void slabs_of(Slabs* s, const double* o, const double* d, double reach) {
  double m = reach * 9.5367431640625e-07 + 1e-30;
  slab_axis(o[0], d[0], m, &s->ix, &s->knx, &s->kfx, &s->nx);
  slab_axis(o[1], d[1], m, &s->iy, &s->kny, &s->kfy, &s->ny);
  slab_axis(o[2], d[2], m, &s->iz, &s->knz, &s->kfz, &s->nz);
}

/* max(|tmin|, |tmax|): what the margin of slabs_of must cover. */
static inline __attribute__((always_inline)) double reach_of(double tmin, double tmax) {
  double a = tmin < 0 ? -tmin : tmin, b = tmax < 0 ? -tmax : tmax;
  return a > b ? a : b;
}

/* Entry distances (lower bounds) of the ray into the four child boxes of `nd` within
 * [tmin, tmax]; returns the mask of boxes met and stores the entry distances in tn[4]. */
static inline __attribute__((always_inline)) int test4(const Node4* nd, const Slabs* s, v128_t tmin, v128_t tmax, float* tn_out) {
  v128_t tn = wasm_f32x4_sub(wasm_f32x4_mul(wasm_v128_load(s->nx ? nd->maxx : nd->minx), s->ix), s->knx);
  v128_t tf = wasm_f32x4_sub(wasm_f32x4_mul(wasm_v128_load(s->nx ? nd->minx : nd->maxx), s->ix), s->kfx);
  tn = wasm_f32x4_pmax(tn, wasm_f32x4_sub(wasm_f32x4_mul(wasm_v128_load(s->ny ? nd->maxy : nd->miny), s->iy), s->kny));
  tf = wasm_f32x4_pmin(tf, wasm_f32x4_sub(wasm_f32x4_mul(wasm_v128_load(s->ny ? nd->miny : nd->maxy), s->iy), s->kfy));
  tn = wasm_f32x4_pmax(tn, wasm_f32x4_sub(wasm_f32x4_mul(wasm_v128_load(s->nz ? nd->maxz : nd->minz), s->iz), s->knz));
  tf = wasm_f32x4_pmin(tf, wasm_f32x4_sub(wasm_f32x4_mul(wasm_v128_load(s->nz ? nd->minz : nd->maxz), s->iz), s->kfz));
  tn = wasm_f32x4_pmax(tn, tmin);
  tf = wasm_f32x4_pmin(tf, tmax);
  wasm_v128_store(tn_out, tn);
  return wasm_i32x4_bitmask(wasm_f32x4_le(tn, tf));
}

/* Instance inst's primitive and the wide root of its tree (−1: none). */
static inline __attribute__((always_inline)) int instance_primitive(int inst) { return g_scene.inst_ints[inst * INST_INTS]; }
static inline __attribute__((always_inline)) int instance_root(int inst) { return g_scene.prim_root[instance_primitive(inst)]; }
static inline __attribute__((always_inline)) int instance_rotated(int inst) { return !(g_scene.inst_ints[inst * INST_INTS + 3] & INST_IDENTITY_ROTATION); }

/* A point into instance inst's frame, o_l = Rᵀ(o − t), and a direction, d_l = Rᵀ d (only
 * translated / unchanged where the rotation is the identity): instance-frame.ts instanceRay's
 * operations. */
static inline __attribute__((always_inline)) void instance_point(int inst, const double* o, double* l) {
  const double* x = g_scene.inst_xform + inst * INST_FLOATS;
  double px = o[0] - x[9], py = o[1] - x[10], pz = o[2] - x[11];
  if (!instance_rotated(inst)) {
    l[0] = px; l[1] = py; l[2] = pz;
    return;
  }
  l[0] = x[0] * px + x[3] * py + x[6] * pz;
  l[1] = x[1] * px + x[4] * py + x[7] * pz;
  l[2] = x[2] * px + x[5] * py + x[8] * pz;
}
static inline __attribute__((always_inline)) void instance_dir(int inst, const double* d, double* l) {
  const double* x = g_scene.inst_xform + inst * INST_FLOATS;
  if (!instance_rotated(inst)) {
    l[0] = d[0]; l[1] = d[1]; l[2] = d[2];
    return;
  }
  l[0] = x[0] * d[0] + x[3] * d[1] + x[6] * d[2];
  l[1] = x[1] * d[0] + x[4] * d[1] + x[7] * d[2];
  l[2] = x[2] * d[0] + x[5] * d[1] + x[8] * d[2];
}
/* A ray r = {o, d} into instance inst's frame, l = {o_l, d_l}. */
static inline __attribute__((always_inline)) void instance_ray(int inst, const double* r, double* l) {
  instance_point(inst, r, l);
  instance_dir(inst, r + 3, l + 3);
}

/* What a test measures of an element met: t, then u, v (triangle) or m², σ_t² (Gaussian). */
typedef struct {
  double t, a, b;
} Measure;

/* Two-sided Möller–Trumbore (ray-primitives.ts rayTriangle: the same operations in the same
 * order, for bit-identical answers). Returns 1 with t, u, v where the ray's line meets triangle
 * t9 (v0, e1, e2: 9 doubles), 0 where it does not; the caller checks t's interval. */
static inline __attribute__((always_inline)) int ray_triangle(const double* t9, const double* o, const double* d, Measure* m) {
  double ox = o[0], oy = o[1], oz = o[2], dx = d[0], dy = d[1], dz = d[2];
  double ax = t9[0], ay = t9[1], az = t9[2];
  double e1x = t9[3], e1y = t9[4], e1z = t9[5];
  double e2x = t9[6], e2y = t9[7], e2z = t9[8];
  double px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
  double det = e1x * px + e1y * py + e1z * pz;
  if (det == 0) return 0;
  double idet = 1 / det;
  double sx = ox - ax, sy = oy - ay, sz = oz - az;
  double u = (sx * px + sy * py + sz * pz) * idet;
  if (u < 0 || u > 1) return 0;
  double qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
  double v = (dx * qx + dy * qy + dz * qz) * idet;
  if (v < 0 || u + v > 1) return 0;
  m->t = (e2x * qx + e2y * qy + e2z * qz) * idet;
  m->a = u;
  m->b = v;
  return 1;
}

/* P v for the symmetric P = (xx, xy, xz, yy, yz, zz); a · b. */
static inline __attribute__((always_inline)) void sym3_times(const double* p, const double* v, double* out) {
  out[0] = p[0] * v[0] + p[1] * v[1] + p[2] * v[2];
  out[1] = p[1] * v[0] + p[3] * v[1] + p[4] * v[2];
  out[2] = p[2] * v[0] + p[4] * v[1] + p[5] * v[2];
}
static inline __attribute__((always_inline)) double dot3(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
/* A Gaussian (mean g[0..2], precision P = g[3..8]) along a ray, as ray-primitives.ts rayGaussian
 * computes it (Deschaud et al. 2012, eq. 1): t* = dPe / dPd with e = μ − o, m² = ePe − dPe·t*
 * (the squared minimum Mahalanobis distance; rounding may leave it a hair below 0),
 * σ_t² = 1 / dPd. */
static inline __attribute__((always_inline)) void ray_gaussian(const double* g, const double* o, const double* d, Measure* m) {
  const double e[3] = { g[0] - o[0], g[1] - o[1], g[2] - o[2] };
  double pd[3], pe[3];
  sym3_times(g + 3, d, pd);
  sym3_times(g + 3, e, pe);
  double dPd = dot3(d, pd), dPe = dot3(e, pd), ePe = dot3(e, pe);
  double t = dPe / dPd;
  m->t = t;
  m->a = ePe - dPe * t;
  m->b = 1 / dPd;
}

/* Whether the ray (o, d, in the element's frame) meets element e with t in (tmin, tmax] — a
 * triangle it crosses, a Gaussian it passes with m² below limit2 — with its measure in m
 * (reference-walk.ts met). */
static inline __attribute__((always_inline)) int element_met(int triangle, int e, const double* o, const double* d, double tmin, double tmax, double limit2, Measure* m) {
  if (triangle) {
    if (!ray_triangle(g_scene.tv + 9 * e, o, d, m)) return 0;
  } else {
    ray_gaussian(g_scene.gauss + e * GAUSS_STRIDE, o, d, m);
    if (m->a >= limit2) return 0;
  }
  return m->t > tmin && m->t <= tmax;
}

/* Whether primitive p's elements are triangles (mesh, ground) rather than Gaussians. */
static inline __attribute__((always_inline)) int triangle_kind(int p) {
  int kind = g_scene.prim_kind[p];
  return kind == KIND_SURFACE || kind == KIND_GROUND;
}

/* The nearest triangle met so far along one ray (inst −1: none yet; t: the bound). */
typedef struct {
  double t, u, v;
  int inst, tri;
} Nearest;

/* Triangle tri (t9) of instance inst against one ray: replaces best where met with t in
 * (tmin, best->t] (of equal t the later: the order the walks visit in decides ties). */
static inline __attribute__((always_inline)) int nearer_triangle(const double* t9, int tri, int inst, const double* o, const double* d, double tmin, Nearest* best) {
  Measure m;
  if (!ray_triangle(t9, o, d, &m) || !(m.t > tmin && m.t <= best->t)) return 0;
  best->t = m.t;
  best->u = m.a;
  best->v = m.b;
  best->inst = inst;
  best->tri = tri;
  return 1;
}

/* A leaf code's elements (or tlas_refs entries): first ≤ i < end. */
typedef struct {
  int first, end;
} Range;
static inline __attribute__((always_inline)) Range leaf_range(int n) {
  int code = -n - 1;
  Range r = { code >> 4, (code >> 4) + (code & 15) };
  return r;
}

/* Pushes the met children farthest first and returns the nearest (visited next, no push).
 * A full sort pays: far children popped last are mostly culled by the best hit by then
 * (pushing in lane order instead measured 15% slower; special cases for one or two children
 * met, 15% slower too). */
static inline __attribute__((always_inline)) int order(const Node4* nd, int mask, const float* tn, int* stack, float* stack_t, int* sp) {
  float cd[4];
  int ci[4], m = 0;
  for (int i = 0; i < 4; i++) {
    if (!(mask & (1 << i))) continue;
    int j = m++;
    while (j > 0 && cd[j - 1] < tn[i]) {
      cd[j] = cd[j - 1];
      ci[j] = ci[j - 1];
      j--;
    }
    cd[j] = tn[i];
    ci[j] = nd->child[i];
  }
  for (int i = 0; i < m - 1; i++) {
    stack[*sp] = ci[i];
    stack_t[*sp] = cd[i];
    (*sp)++;
  }
  return ci[m - 1];
}

/* The arrays of a descent's stack (DESCENT_STACK entries each), in the thread's scratch block
 * (a walk's *_bind), not in TLS, which would put their zeros into the module's TLS image. */
enum { DESCENT_STACK = 1024 };
typedef struct {
  int* node;
  float* entry;
} StackArrays;

/* Bytes of n stacks; binding n stacks at `scratch` (returns the bytes after them). */
static inline __attribute__((always_inline)) int stacks_bytes(int n) { return n * DESCENT_STACK * 8; }
static inline __attribute__((always_inline)) char* bind_stacks(char* scratch, StackArrays* stacks, int n) {
  for (int i = 0; i < n; i++, scratch += 8 * DESCENT_STACK) {
    stacks[i].node = (int*)scratch;
    stacks[i].entry = (float*)(scratch + 4 * DESCENT_STACK);
  }
  return scratch;
}

/* Pushes every met child but the first, which it returns (lane order: no sorting, for a walk
 * that wants every element anyway). */
static inline __attribute__((always_inline)) int first_met(const Node4* nd, int mask, const float* tn, int* stack, float* stack_t, int* sp) {
  int first = nd->child[__builtin_ctz(mask)];
  for (mask &= mask - 1; mask; mask &= mask - 1) {
    int lane = __builtin_ctz(mask);
    stack[*sp] = nd->child[lane];
    stack_t[*sp] = tn[lane];
    (*sp)++;
  }
  return first;
}

/*
 * The depth-first descent every walk but the ordered traversal is made of. It runs LEAF (a
 * statement) for every leaf of the tree at `root` (a wide node) that it reaches, with `leaf` the
 * leaf's Range. The children of a node that TEST(node, slabs, vmin, vmax, tn) meets are taken
 * by TAKE: `order` visits the nearest next and pushes the others farthest first (closest
 * surface, beam), `first_met` visits them in lane order (collect). Popped nodes whose entry
 * distance lies beyond BOUND are skipped: BOUND is an lvalue that LEAF may lower (the best hit
 * so far), or tmax.
 *
 * A macro rather than a function: written out in each walk, the stack pointer, the bound and
 * the leaf's state stay in locals (the same descent as a forced-inline function taking them by
 * pointer, or as a leaf iterator, measured 10–12% slower on the engine bench).
 */
#define DESCEND(root, stacks, TEST, slabs, vmin, BOUND, TAKE, LEAF)          \
  do {                                                                     \
    int* const node_ = (stacks).node;                                      \
    float* const entry_ = (stacks).entry;                                  \
    float tn_[4];                                                          \
    int sp_ = 0, n_ = (root), more_ = 1;                                   \
    while (more_) {                                                        \
      if (n_ >= 0) {                                                       \
        const Node4* nd_ = g_scene.nodes + n_;                             \
        int mask_ = TEST(nd_, (slabs), (vmin), wasm_f32x4_splat(up(BOUND)), tn_); \
        if (mask_) {                                                       \
          n_ = TAKE(nd_, mask_, tn_, node_, entry_, &sp_);                 \
          continue;                                                        \
        }                                                                  \
      } else {                                                             \
        const Range leaf = leaf_range(n_);                                 \
        LEAF;                                                              \
      }                                                                    \
      /* Next: the latest pending node that can still beat the bound. */   \
      for (more_ = 0; sp_ > 0;) {                                          \
        sp_--;                                                             \
        if ((double)entry_[sp_] <= (BOUND)) {                              \
          n_ = node_[sp_];                                                 \
          more_ = 1;                                                       \
          break;                                                           \
        }                                                                  \
      }                                                                    \
    }                                                                      \
  } while (0)

/* The next instance with a tree in an instance-tree leaf's range (advancing it): its index and
 * *root, the wide root of its primitive's tree; −1 when the range is done. */
static inline __attribute__((always_inline)) int next_instance(Range* r, int* root) {
  while (r->first < r->end) {
    int inst = g_scene.tlas_refs[r->first++];
    *root = instance_root(inst);
    if (*root >= 0) return inst;
  }
  return -1;
}

#endif

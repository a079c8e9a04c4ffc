/*
 * What the kernel's C files share (see ray-kernel.c for the whole picture): the scene as laid
 * out by ray-kernel.ts, the 4-wide node, and the conservative SIMD box test.
 */
#ifndef THICKET_RAY_KERNEL_H
#define THICKET_RAY_KERNEL_H

#include <wasm_simd128.h>

#define EXPORT __attribute__((visibility("default")))
/* Per-thread state: each instance over the shared memory has its own (ray-kernel.c). */
#define THREAD _Thread_local

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
static inline double inv(double d) { return d != 0 ? 1.0 / d : 1e300; }

/* Float bounds of a double: down(x) ≤ x ≤ up(x) (two float ulps of slack). */
static inline float down(double x) {
  float f = (float)x;
  return f - (f < 0 ? -f : f) * 2.4e-7f - 1e-30f;
}
static inline float up(double x) {
  float f = (float)x;
  return f + (f < 0 ? -f : f) * 2.4e-7f + 1e-30f;
}

/*
 * Box tests in float, four boxes at once, made conservative: a box the JS query's double test
 * meets is always met here (more may be, which costs a few extra visits and changes nothing:
 * elements are tested in double precision, so the answers are the same).
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

static inline float clamp_inv(double i) { return i > 1e30 ? 1e30f : i < -1e30 ? -1e30f : (float)i; }

static inline void slab_axis(double o, double d, double m, v128_t* iv, v128_t* kn, v128_t* kf, int* near) {
  double i = inv(d);
  float fi = clamp_inv(i);
  double k = o * (double)fi, ak = k < 0 ? -k : k;
  double shift = ak * 9.5367431640625e-07 + m; /* 2^-20 |o·I| + m */
  *iv = wasm_f32x4_splat(fi);
  *kn = wasm_f32x4_splat(up(k + shift));
  *kf = wasm_f32x4_splat(down(k - shift));
  *near = fi >= 0 ? 0 : 1;
}

/* The slabs of a ray whose distances of interest lie within ±reach. */
static inline void slabs_of(Slabs* s, double ox, double oy, double oz, double dx, double dy, double dz, double reach) {
  double m = reach * 9.5367431640625e-07 + 1e-30;
  slab_axis(ox, dx, m, &s->ix, &s->knx, &s->kfx, &s->nx);
  slab_axis(oy, dy, m, &s->iy, &s->kny, &s->kfy, &s->ny);
  slab_axis(oz, dz, m, &s->iz, &s->knz, &s->kfz, &s->nz);
}

/* max(|tmin|, |tmax|): what the margin of slabs_of must cover. */
static inline double reach_of(double tmin, double tmax) {
  double a = tmin < 0 ? -tmin : tmin, b = tmax < 0 ? -tmax : tmax;
  return a > b ? a : b;
}

/* Entry distances (lower bounds) of the ray into the four child boxes of `nd` within
 * [tmin, tmax]; returns the mask of boxes met and stores the entry distances in tn[4]. */
static inline int test4(const Node4* nd, const Slabs* s, v128_t tmin, v128_t tmax, float* tn_out) {
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

/* A ray in instance inst's frame: o_l = Rᵀ(o − t), d_l = Rᵀ d (only translated where the
 * rotation is the identity), as scene-bvh.ts moves it — the same operations. r = {o, d}. */
static inline void instance_ray(int inst, const double* r, double* l) {
  const double* x = g_scene.inst_xform + inst * INST_FLOATS;
  double px = r[0] - x[9], py = r[1] - x[10], pz = r[2] - x[11];
  if (g_scene.inst_ints[inst * INST_INTS + 3] & INST_IDENTITY_ROTATION) {
    l[0] = px; l[1] = py; l[2] = pz;
    l[3] = r[3]; l[4] = r[4]; l[5] = r[5];
    return;
  }
  l[0] = x[0] * px + x[3] * py + x[6] * pz;
  l[1] = x[1] * px + x[4] * py + x[7] * pz;
  l[2] = x[2] * px + x[5] * py + x[8] * pz;
  l[3] = x[0] * r[3] + x[3] * r[4] + x[6] * r[5];
  l[4] = x[1] * r[3] + x[4] * r[4] + x[7] * r[5];
  l[5] = x[2] * r[3] + x[5] * r[4] + x[8] * r[5];
}

/* Two-sided Möller–Trumbore (ray-primitives.ts rayTriangle, scene-bvh.ts: the same operations in
 * the same order, for bit-identical answers). Returns 1 with t, u, v where the ray's line meets
 * triangle t9 (9 floats), 0 where it does not; the caller checks t's interval. */
static inline int ray_triangle(const double* t9, double ox, double oy, double oz, double dx, double dy, double dz,
                               double* t_out, double* u_out, double* v_out) {
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
  *t_out = (e2x * qx + e2y * qy + e2z * qz) * idet;
  *u_out = u;
  *v_out = v;
  return 1;
}

/* The quadratic forms of a Gaussian (mean g[0..2], precision P = g[3..8]) along a ray, as
 * ray-primitives.ts rayGaussian computes them: d·Pd, d·Pe and e·Pe with e = μ − o (seed 000
 * eq. 1: t* = dPe / dPd, minimum squared Mahalanobis distance ePe − dPe²/dPd). */
static inline void gaussian_forms(const double* g, double ox, double oy, double oz, double dx, double dy, double dz,
                                  double* dPd, double* dPe, double* ePe) {
  double ex = g[0] - ox, ey = g[1] - oy, ez = g[2] - oz;
  double p00 = g[3], p01 = g[4], p02 = g[5], p11 = g[6], p12 = g[7], p22 = g[8];
  double pdx = p00 * dx + p01 * dy + p02 * dz;
  double pdy = p01 * dx + p11 * dy + p12 * dz;
  double pdz = p02 * dx + p12 * dy + p22 * dz;
  *dPd = dx * pdx + dy * pdy + dz * pdz;
  *dPe = ex * pdx + ey * pdy + ez * pdz;
  *ePe = ex * (p00 * ex + p01 * ey + p02 * ez) + ey * (p01 * ex + p11 * ey + p12 * ez) + ez * (p02 * ex + p12 * ey + p22 * ez);
}

/* Pushes the met children farthest first and returns the nearest (visited next, no push).
 * A full sort pays: far children popped last are mostly culled by the best hit by then
 * (pushing in lane order instead measured 15% slower; special cases for one or two children
 * met, 15% slower too). */
static inline int order(const Node4* nd, int mask, const float* tn, int* stack, float* stack_t, int* sp) {
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

#endif

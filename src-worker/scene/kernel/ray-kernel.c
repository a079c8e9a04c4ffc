/*
 * The engine's closest-surface ray kernel, compiled to WebAssembly with SIMD
 * (scripts/build-ray-kernel.mjs → ray-kernel-wasm.ts; see ray-kernel.ts for the JS side).
 *
 * It answers exactly what BvhSceneQuery.closestSurface (scene-bvh.ts) answers, over the same
 * two-level structure: an instance tree over the surface instances (mesh and ground), each leaf
 * instance moving the ray into its primitive's frame (o_l = Rᵀ(o − t), d_l = Rᵀ d) and descending
 * that primitive's triangle BVH with the same shrinking tmax. The difference is the tree shape:
 * each binary SAH tree is collapsed into a 4-wide one (wide-bvh.ts), whose four child boxes are
 * tested at once with f32x4 SIMD, conservatively (test4 says how), so the kernel visits every box
 * the JS query visits. Triangles are tested in double precision with the same operations in the
 * same order as the JS query (the two-sided Möller–Trumbore test), and the hit record is filled
 * the same way, so both paths answer the same triangle at the same t, bit for bit
 * (test/unit/scene/ray-kernel.test.ts checks this on every field).
 *
 * No libc: the module imports its memory; ray-kernel.ts lays the scene out in it after
 * __heap_base and passes the addresses to rk_init.
 */
#include <wasm_simd128.h>

#define EXPORT __attribute__((visibility("default")))

/* A 4-wide node: the children's boxes as structure of arrays, then the children.
 * child ≥ 0: a wide node; child < 0: leaf −(1 + (first << 4 | count)), count ≤ 15, over
 * triangles (BLAS) or tlasRefs entries (instance tree). Empty lanes have inverted boxes. */
typedef struct {
  float minx[4], miny[4], minz[4], maxx[4], maxy[4], maxz[4];
  int child[4];
} Node4;

enum { INST_INTS = 4, INST_FLOATS = 12, INST_IDENTITY_ROTATION = 1, STACK = 1024 };

static const Node4* g_nodes;
static const float* g_tv;
static const float* g_tval;    /* per triangle: reflectance (mesh) or p_hit (ground) */
static const int* g_inst_ints;
static const double* g_inst_xform;
static const int* g_tlas_refs;
static const int* g_prim_root; /* wide root of each primitive's triangle tree, −1: none */
static const double* g_prim_refl; /* per primitive: −1 mesh (reflectance per triangle), else the ground's reflectance */
static int g_root_surface;     /* wide root of the surface instance tree, −1: none */

/* The last hit, laid out for ray-kernel.ts: what a SurfaceHit holds (t, unit normal facing the
 * ray in the world frame, reflectance, object and class ids) and where it came from (instance,
 * triangle index into triVerts, barycentrics). inst is −1 after a ray that met nothing. */
static struct {
  double t, nx, ny, nz, reflectance, u, v;
  int inst, tri, object_id, class_id;
} g_hit;

static int s_tlas[STACK];
static float s_tlas_t[STACK];
static int s_blas[STACK];
static float s_blas_t[STACK];

EXPORT void rk_init(const Node4* nodes, const float* tv, const float* tval, const int* inst_ints, const double* inst_xform,
                    const int* tlas_refs, const int* prim_root, const double* prim_refl, int root_surface) {
  g_nodes = nodes;
  g_tv = tv;
  g_tval = tval;
  g_prim_refl = prim_refl;
  g_inst_ints = inst_ints;
  g_inst_xform = inst_xform;
  g_tlas_refs = tlas_refs;
  g_prim_root = prim_root;
  g_root_surface = root_surface;
}

EXPORT void* rk_hit(void) { return &g_hit; }
EXPORT int rk_stack_size(void) { return STACK; }

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
 * triangles are tested in double precision, so the closest one is the same).
 *
 * Each slab distance is B·I − K with I = float(1/d) (clamped to ±1e30) and K = float(o·I) ± c.
 * Its rounding error is at most a few float ulps of |t| plus a few of |o·I| (the origin's own
 * rounding and the cancellation in B·I − o·I): c = 2⁻²⁰·|o·I| + 1e−30 covers the second, per axis
 * (a ray parallel to an axis has |o·I| huge there, but that axis's distances are huge too), and
 * the first is covered by scaling the reduced entry and exit by 1 ∓ 2⁻²⁰ (keeping the smaller /
 * larger of the two products, so signs need no branch and ±∞ stays ±∞: empty lanes, whose boxes
 * are inverted to ±∞, give no NaN).
 */
typedef struct {
  v128_t ix, iy, iz;      /* float(1/d), splatted */
  v128_t knx, kny, knz;   /* float(o/d) + c: subtracted for entry distances */
  v128_t kfx, kfy, kfz;   /* float(o/d) − c: subtracted for exit distances */
  int nx, ny, nz;         /* 0: near plane is the min plane, 1: the max plane */
} Slabs;

static inline float clamp_inv(double i) { return i > 1e30 ? 1e30f : i < -1e30 ? -1e30f : (float)i; }

static inline void slab_axis(double o, double d, v128_t* iv, v128_t* kn, v128_t* kf, int* near) {
  double i = inv(d);
  float fi = clamp_inv(i);
  double k = o * (double)fi, ak = k < 0 ? -k : k;
  float c = (float)(ak * 9.5367431640625e-07) + 1e-30f; /* 2^-20 */
  *iv = wasm_f32x4_splat(fi);
  *kn = wasm_f32x4_splat(up(k) + c);
  *kf = wasm_f32x4_splat(down(k) - c);
  *near = fi >= 0 ? 0 : 1;
}

static inline void slabs_of(Slabs* s, double ox, double oy, double oz, double dx, double dy, double dz) {
  slab_axis(ox, dx, &s->ix, &s->knx, &s->kfx, &s->nx);
  slab_axis(oy, dy, &s->iy, &s->kny, &s->kfy, &s->ny);
  slab_axis(oz, dz, &s->iz, &s->knz, &s->kfz, &s->nz);
}

/* Entry distances (lower bounds) of the ray into the four child boxes of `nd` within
 * [tmin, tmax]; returns the mask of boxes met and stores the entry distances in tn[4]. */
static inline int test4(const Node4* nd, const Slabs* s, v128_t tmin, v128_t tmax, float* tn_out) {
  const v128_t lo = wasm_f32x4_splat(1.0f - 9.5367431640625e-07f), hi = wasm_f32x4_splat(1.0f + 9.5367431640625e-07f);
  v128_t tn = wasm_f32x4_sub(wasm_f32x4_mul(wasm_v128_load(s->nx ? nd->maxx : nd->minx), s->ix), s->knx);
  v128_t tf = wasm_f32x4_sub(wasm_f32x4_mul(wasm_v128_load(s->nx ? nd->minx : nd->maxx), s->ix), s->kfx);
  tn = wasm_f32x4_pmax(tn, wasm_f32x4_sub(wasm_f32x4_mul(wasm_v128_load(s->ny ? nd->maxy : nd->miny), s->iy), s->kny));
  tf = wasm_f32x4_pmin(tf, wasm_f32x4_sub(wasm_f32x4_mul(wasm_v128_load(s->ny ? nd->miny : nd->maxy), s->iy), s->kfy));
  tn = wasm_f32x4_pmax(tn, wasm_f32x4_sub(wasm_f32x4_mul(wasm_v128_load(s->nz ? nd->maxz : nd->minz), s->iz), s->knz));
  tf = wasm_f32x4_pmin(tf, wasm_f32x4_sub(wasm_f32x4_mul(wasm_v128_load(s->nz ? nd->minz : nd->maxz), s->iz), s->kfz));
  tn = wasm_f32x4_pmin(wasm_f32x4_mul(tn, lo), wasm_f32x4_mul(tn, hi));
  tf = wasm_f32x4_pmax(wasm_f32x4_mul(tf, lo), wasm_f32x4_mul(tf, hi));
  tn = wasm_f32x4_pmax(tn, tmin);
  tf = wasm_f32x4_pmin(tf, tmax);
  wasm_v128_store(tn_out, tn);
  return wasm_i32x4_bitmask(wasm_f32x4_le(tn, tf));
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

/* Closest triangle of one primitive's tree (local frame), t in (tmin, best]; updates best and
 * g_hit.tri/u/v, returns whether it found one. */
static int blas_closest(int root, double ox, double oy, double oz, double dx, double dy, double dz, double tmin, double* best_io) {
  Slabs s;
  slabs_of(&s, ox, oy, oz, dx, dy, dz);
  const v128_t vmin = wasm_f32x4_splat(down(tmin));
  double best = *best_io;
  float tn[4];
  int found = 0, sp = 0, n = root;
  for (;;) {
    if (n >= 0) {
      const Node4* nd = g_nodes + n;
      int mask = test4(nd, &s, vmin, wasm_f32x4_splat(up(best)), tn);
      if (mask) {
        n = order(nd, mask, tn, s_blas, s_blas_t, &sp);
        continue;
      }
    } else {
      int code = -n - 1, first = code >> 4, end = first + (code & 15);
      for (int tri = first; tri < end; tri++) {
        /* Two-sided Möller–Trumbore, as ray-primitives.ts rayTriangle and scene-bvh.ts. */
        const float* t9 = g_tv + 9 * tri;
        double ax = t9[0], ay = t9[1], az = t9[2];
        double e1x = t9[3] - ax, e1y = t9[4] - ay, e1z = t9[5] - az;
        double e2x = t9[6] - ax, e2y = t9[7] - ay, e2z = t9[8] - az;
        double px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
        double det = e1x * px + e1y * py + e1z * pz;
        if (det == 0) continue;
        double idet = 1 / det;
        double sx = ox - ax, sy = oy - ay, sz = oz - az;
        double u = (sx * px + sy * py + sz * pz) * idet;
        if (u < 0 || u > 1) continue;
        double qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
        double v = (dx * qx + dy * qy + dz * qz) * idet;
        if (v < 0 || u + v > 1) continue;
        double t = (e2x * qx + e2y * qy + e2z * qz) * idet;
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
static void fill_hit(double t, int inst, int tri, double u, double v, double dx, double dy, double dz) {
  const float* t9 = g_tv + 9 * tri;
  const double* x = g_inst_xform + inst * INST_FLOATS;
  const int* ii = g_inst_ints + inst * INST_INTS;
  double ax = t9[0], ay = t9[1], az = t9[2];
  double e1x = t9[3] - ax, e1y = t9[4] - ay, e1z = t9[5] - az;
  double e2x = t9[6] - ax, e2y = t9[7] - ay, e2z = t9[8] - az;
  double lx = e1y * e2z - e1z * e2y, ly = e1z * e2x - e1x * e2z, lz = e1x * e2y - e1y * e2x;
  double nx = x[0] * lx + x[1] * ly + x[2] * lz;
  double ny = x[3] * lx + x[4] * ly + x[5] * lz;
  double nz = x[6] * lx + x[7] * ly + x[8] * lz;
  double len = __builtin_sqrt(nx * nx + ny * ny + nz * nz);
  if (len == 0) len = 1;
  if (nx * dx + ny * dy + nz * dz > 0) len = -len;
  double refl = g_prim_refl[ii[0]];
  g_hit.t = t;
  g_hit.nx = nx / len;
  g_hit.ny = ny / len;
  g_hit.nz = nz / len;
  g_hit.reflectance = refl < 0 ? (double)g_tval[tri] : refl;
  g_hit.u = u;
  g_hit.v = v;
  g_hit.inst = inst;
  g_hit.tri = tri;
  g_hit.object_id = ii[1];
  g_hit.class_id = ii[2];
}

/* Closest surface along the world ray, t in (tmin, tmax]: returns 1 and fills g_hit (rk_hit),
 * or returns 0 and sets g_hit.inst to −1 where there is none. */
EXPORT int rk_closest(double ox, double oy, double oz, double dx, double dy, double dz, double tmin, double tmax) {
  g_hit.inst = -1;
  if (g_root_surface < 0 || !(tmax > tmin)) return 0;
  Slabs s;
  slabs_of(&s, ox, oy, oz, dx, dy, dz);
  const v128_t vmin = wasm_f32x4_splat(down(tmin));
  double best = tmax;
  float tn[4];
  int best_inst = -1, best_tri = -1;
  double best_u = 0, best_v = 0;
  int sp = 0, n = g_root_surface;
  for (;;) {
    if (n >= 0) {
      const Node4* nd = g_nodes + n;
      int mask = test4(nd, &s, vmin, wasm_f32x4_splat(up(best)), tn);
      if (mask) {
        n = order(nd, mask, tn, s_tlas, s_tlas_t, &sp);
        continue;
      }
    } else {
      int code = -n - 1, first = code >> 4, end = first + (code & 15);
      for (int k = first; k < end; k++) {
        int inst = g_tlas_refs[k];
        const int* ii = g_inst_ints + inst * INST_INTS;
        const double* x = g_inst_xform + inst * INST_FLOATS;
        int root = g_prim_root[ii[0]];
        if (root < 0) continue;
        double px = ox - x[9], py = oy - x[10], pz = oz - x[11];
        int found;
        if (ii[3] & INST_IDENTITY_ROTATION) {
          found = blas_closest(root, px, py, pz, dx, dy, dz, tmin, &best);
        } else {
          found = blas_closest(root,
                               x[0] * px + x[3] * py + x[6] * pz, x[1] * px + x[4] * py + x[7] * pz, x[2] * px + x[5] * py + x[8] * pz,
                               x[0] * dx + x[3] * dy + x[6] * dz, x[1] * dx + x[4] * dy + x[7] * dz, x[2] * dx + x[5] * dy + x[8] * dz,
                               tmin, &best);
        }
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
  fill_hit(best, best_inst, best_tri, best_u, best_v, dx, dy, dz);
  return 1;
}

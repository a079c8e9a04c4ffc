/*
 * Closest surfaces of a beam — up to 32 rays from one origin, a few mrad apart (the physics
 * stencil's sub-rays) — in one walk of the trees instead of one per ray
 * (BvhSceneQuery.closestSurfaceBeam). See ray-kernel.c.
 *
 *   write the unit directions to rk_beam_dirs() (3 doubles each), then
 *   rk_closest_beam(origin, count, tmin, tmax) → mask of rays that hit; ray k's answer is
 *   rk_beam_out()[k], the HitRecord closestSurface would give it.
 *
 * Nodes are tested once for the whole beam against the union of its rays: per axis the rays'
 * inverse directions span [i_a, i_b] (one sign), and a plane's slab distances (B − o)·i over that
 * span are bounded by their values at the two ends, so the union's entry into a box is at least
 * the smallest of the near planes' end values and its exit at most the largest of the far
 * planes'. The same conservative float shifts as the single ray's test (kernel.h) apply to each
 * end. An axis the rays cross both ways bounds the entry only (beam_slabs says how).
 * Culling uses the largest best hit of any ray; the entry bound orders the children. Leaves test
 * every ray with the closest-surface arithmetic, so each ray's answer equals its own
 * rk_closest's (save for two triangles at exactly the same t).
 */
#include "kernel.h"

enum { BEAM_MAX = 32 };

static THREAD double* b_dirs;    /* 3 × BEAM_MAX: the caller's directions (world) */
static THREAD HitRecord* b_out;  /* BEAM_MAX answers */
static THREAD StackArrays b_stacks[2]; /* descent stacks: instance tree, then primitive tree */

int beam_scratch_bytes(void) { return 3 * BEAM_MAX * 8 + BEAM_MAX * (int)sizeof(HitRecord) + stacks_bytes(2); }

void beam_bind(char* scratch) {
  b_dirs = (double*)scratch;
  b_out = (HitRecord*)(scratch + 3 * BEAM_MAX * 8);
  bind_stacks(scratch + 3 * BEAM_MAX * 8 + BEAM_MAX * sizeof(HitRecord), b_stacks, 2);
}

EXPORT void* rk_beam_dirs(void) { return b_dirs; }
EXPORT void* rk_beam_out(void) { return b_out; }

/* One walk's state: every ray's best so far and where it came from. */
typedef struct {
  int count;
  double tmin, reach;
  Nearest ray[BEAM_MAX];
  double far; /* the largest best: no ray's hit can improve beyond it */
} Beam;

static inline double largest_best(const Beam* b) {
  double m = b->ray[0].t;
  for (int k = 1; k < b->count; k++) m = b->ray[k].t > m ? b->ray[k].t : m;
  return m;
}

/* The union's slabs. An axis along which every ray goes one way (mode 0) gets both ends of the
 * inverse-direction span with their shifted origin terms (as slab_axis, kernel.h): entry and
 * exit bounds. An axis the rays cross both ways or lie flat along (mode 1: a level scanner's z)
 * bounds only the entry, but still tightly: a box beyond the origin on that axis is entered no
 * sooner than by the steepest ray heading to it, at (B − o)/d of that ray — from above at the
 * max plane with the most negative d, from below at the min plane with the most positive d (no
 * such ray: ±1e30, i.e. never); inside, both terms are ≤ 0 and tmin (≥ 0, rk_closest_beam)
 * decides. Empty lanes (planes ±3.4e38) come out beyond any tmax either way. */
typedef struct {
  v128_t ia[3], ib[3], kna[3], knb[3], kfa[3], kfb[3];
  int near[3], mode[3];
} BeamSlabs;

/* Slab terms of inverse direction i (a float value) for origin coordinate o: i, and o·i shifted
 * up (entry) and down (exit) by the rounding bound. */
static inline void slab_terms(double o, double i, double m, v128_t* iv, v128_t* kn, v128_t* kf) {
  float fi = (float)i;
  double k = o * (double)fi, ak = k < 0 ? -k : k;
  double shift = ak * 9.5367431640625e-07 + m;
  *iv = wasm_f32x4_splat(fi);
  *kn = wasm_f32x4_splat(up(k + shift));
  *kf = wasm_f32x4_splat(down(k - shift));
}

/* Fills the slabs of origin o and directions d (3 each). */
static void beam_slabs(BeamSlabs* s, const double* o, const double* d, int count, double reach) {
  double m = reach * 9.5367431640625e-07 + 1e-30;
  for (int a = 0; a < 3; a++) {
    double dmin = d[a], dmax = d[a];
    for (int k = 1; k < count; k++) {
      double x = d[3 * k + a];
      if (x < dmin) dmin = x;
      if (x > dmax) dmax = x;
    }
    if (dmin > 0 || dmax < 0) {
      /* One way: 1/d spans [1/dmax, 1/dmin] (either sign), clamped as the single ray's. */
      s->mode[a] = 0;
      s->near[a] = dmin > 0 ? 0 : 1;
      slab_terms(o[a], clamp_inv(inv(dmax)), m, &s->ia[a], &s->kna[a], &s->kfa[a]);
      slab_terms(o[a], clamp_inv(inv(dmin)), m, &s->ib[a], &s->knb[a], &s->kfb[a]);
    } else {
      s->mode[a] = 1;
      s->near[a] = 0;
      slab_terms(o[a], dmin < 0 ? clamp_inv(inv(dmin)) : -1e30, m, &s->ia[a], &s->kna[a], &s->kfa[a]);
      slab_terms(o[a], dmax > 0 ? clamp_inv(inv(dmax)) : 1e30, m, &s->ib[a], &s->knb[a], &s->kfb[a]);
    }
  }
}

/* Lower bounds of the union's entry into the four child boxes within [tmin, tmax]; returns the
 * mask of boxes it may meet and stores the entry bounds in tn[4]. */
static inline int beam_test4(const Node4* nd, const BeamSlabs* s, v128_t tmin, v128_t tmax, float* tn_out) {
  const float* planes[3][2] = { { nd->minx, nd->maxx }, { nd->miny, nd->maxy }, { nd->minz, nd->maxz } };
  v128_t tn = tmin, tf = tmax;
  for (int a = 0; a < 3; a++) {
    if (s->mode[a]) {
      /* Entry only: from above through the max plane, from below through the min plane. */
      v128_t above = wasm_f32x4_sub(wasm_f32x4_mul(wasm_v128_load(planes[a][1]), s->ia[a]), s->kna[a]);
      v128_t below = wasm_f32x4_sub(wasm_f32x4_mul(wasm_v128_load(planes[a][0]), s->ib[a]), s->knb[a]);
      tn = wasm_f32x4_pmax(tn, wasm_f32x4_pmax(above, below));
      continue;
    }
    v128_t bn = wasm_v128_load(planes[a][s->near[a]]), bf = wasm_v128_load(planes[a][1 - s->near[a]]);
    v128_t na = wasm_f32x4_sub(wasm_f32x4_mul(bn, s->ia[a]), s->kna[a]);
    v128_t nb = wasm_f32x4_sub(wasm_f32x4_mul(bn, s->ib[a]), s->knb[a]);
    v128_t fa = wasm_f32x4_sub(wasm_f32x4_mul(bf, s->ia[a]), s->kfa[a]);
    v128_t fb = wasm_f32x4_sub(wasm_f32x4_mul(bf, s->ib[a]), s->kfb[a]);
    tn = wasm_f32x4_pmax(tn, wasm_f32x4_pmin(na, nb));
    tf = wasm_f32x4_pmin(tf, wasm_f32x4_pmax(fa, fb));
  }
  wasm_v128_store(tn_out, tn);
  return wasm_i32x4_bitmask(wasm_f32x4_le(tn, tf));
}

/* One primitive's tree for the whole beam, in instance inst's frame: origin o, directions d (3
 * each). Updates the rays' bests (ties: the later triangle, as rk_closest). */
static void beam_blas(Beam* b, int root, int inst, const double* o, const double* d) {
  BeamSlabs s;
  beam_slabs(&s, o, d, b->count, b->reach);
  const v128_t vmin = wasm_f32x4_splat(down(b->tmin));
  DESCEND(root, b_stacks[1], beam_test4, &s, vmin, b->far, order, {
    int improved = 0;
    for (int tri = leaf.first; tri < leaf.end; tri++) {
      const double* t9 = g_scene.tv + 9 * tri;
      for (int k = 0; k < b->count; k++) improved |= nearer_triangle(t9, tri, inst, o, d + 3 * k, b->tmin, &b->ray[k]);
    }
    if (improved) b->far = largest_best(b);
  });
}

EXPORT int rk_closest_beam(double ox, double oy, double oz, int count, double tmin, double tmax) {
  if (count <= 0 || count > BEAM_MAX || g_scene.root_surface < 0 || !(tmax > tmin)) return 0;
  Beam b;
  b.count = count;
  b.tmin = tmin;
  b.reach = reach_of(tmin, tmax);
  b.far = tmax;
  for (int k = 0; k < count; k++) {
    b.ray[k].t = tmax;
    b.ray[k].inst = -1;
  }
  /* One walk pays for a narrow beam (within 20° of its mean direction); the entry bounds of
   * two-way axes need tmin ≥ 0 (beam_slabs). */
  double ax = 0, ay = 0, az = 0;
  for (int k = 0; k < count; k++) {
    ax += b_dirs[3 * k];
    ay += b_dirs[3 * k + 1];
    az += b_dirs[3 * k + 2];
  }
  double len = __builtin_sqrt(ax * ax + ay * ay + az * az);
  int narrow = len > 0 && tmin >= 0;
  /* A beam that crosses a world axis both ways (a level scanner's z) walks ray by ray too: the
   * entry-only bound lets so much through that nine single walks are faster (LMS-291 physics:
   * 3.6× against 7.3× real time on one thread). Instance frames may still have such an axis. */
  for (int a = 0; a < 3 && narrow; a++) {
    double dmin = b_dirs[a], dmax = b_dirs[a];
    for (int k = 1; k < count; k++) {
      double x = b_dirs[3 * k + a];
      if (x < dmin) dmin = x;
      if (x > dmax) dmax = x;
    }
    if (!(dmin > 0 || dmax < 0)) narrow = 0;
  }
  for (int k = 0; k < count && narrow; k++) {
    const double* d = b_dirs + 3 * k;
    if (d[0] * ax + d[1] * ay + d[2] * az < 0.94 * len) narrow = 0; /* cos 20° */
  }
  int mask = 0;
  if (!narrow) {
    /* Each ray walks alone. */
    for (int k = 0; k < count; k++) {
      const double* d = b_dirs + 3 * k;
      if (rk_closest(ox, oy, oz, d[0], d[1], d[2], tmin, tmax)) {
        b_out[k] = *(const HitRecord*)rk_hit();
        mask |= 1 << k;
      } else {
        b_out[k].inst = -1;
      }
    }
    return mask;
  }
  BeamSlabs s;
  const double o[3] = { ox, oy, oz };
  beam_slabs(&s, o, b_dirs, count, b.reach);
  const v128_t vmin = wasm_f32x4_splat(down(tmin));
  double lo[3], ld[3 * BEAM_MAX];
  DESCEND(g_scene.root_surface, b_stacks[0], beam_test4, &s, vmin, b.far, order, {
    Range r = leaf;
    for (int inst, root; (inst = next_instance(&r, &root)) >= 0;) {
      /* The origin and every direction into the instance's frame (as rk_closest). */
      instance_point(inst, o, lo);
      for (int k = 0; k < count; k++) instance_dir(inst, b_dirs + 3 * k, ld + 3 * k);
      beam_blas(&b, root, inst, lo, ld);
    }
  });
  for (int k = 0; k < count; k++) {
    const Nearest* h = &b.ray[k];
    if (h->inst < 0) {
      b_out[k].inst = -1;
      continue;
    }
    const double* d = b_dirs + 3 * k;
    fill_hit(&b_out[k], h->t, h->inst, h->tri, h->u, h->v, d[0], d[1], d[2]);
    mask |= 1 << k;
  }
  return mask;
}

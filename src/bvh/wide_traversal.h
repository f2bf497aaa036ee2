#pragma once
// Private to the bvh module: the helpers of the triangle tree's 4-wide float
// traversals (rays and closest points), shared by
// triangle_mesh_ray_queries.cpp and triangle_mesh_point_queries.cpp. Each
// query is compiled twice (SSE2 and AVX2, see TriangleMeshBvh::intersect):
// the helpers are forced inline so that both copies get them in their own
// instruction set.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "drape/bvh/bvh.h"
#include "drape/bvh/wide_bvh.h"
#include "drape/geometry/triangle_queries.h"
#include "simd4.h"

#if defined(__GNUC__) && defined(__x86_64__)
#define DRAPE_BVH_AVX2 1
#define DRAPE_BVH_F8_PAIRS true
#define DRAPE_TARGET_AVX2 [[gnu::target("avx2")]]
#define DRAPE_INLINE_ALWAYS [[gnu::always_inline]] inline
#define DRAPE_LAMBDA_INLINE __attribute__((always_inline))
#else
#define DRAPE_INLINE_ALWAYS inline
#define DRAPE_LAMBDA_INLINE
#endif
namespace drape::bvh_detail {

inline constexpr double kEps = 1.1102230246251565e-16;

// Per-ray constants of the slab test, in double against the float boxes
// (exact conversion), so the test is conservative up to a few ulps of slack.
// Used by the binary-tree fallback (rays or trees outside the float range).
struct SlabRay {
  double o[3], inv[3];
  int neg[3];
  explicit SlabRay(const Ray& r) {
    for (int a = 0; a < 3; ++a) {
      o[a] = r.origin[a];
      inv[a] = 1.0 / r.direction[a];  // +-inf for a zero component
      neg[a] = std::signbit(inv[a]) ? 1 : 0;
    }
  }
  // Entry parameter, or +inf when the box is missed within [t0, t1].
  inline double enter(const BvhNode& n, double t0, double t1) const {
    const float* lo = n.lo;
    const float* hi = n.hi;
    double tn = t0, tf = t1;
    for (int a = 0; a < 3; ++a) {
      const double bn = neg[a] ? hi[a] : lo[a];
      const double bf = neg[a] ? lo[a] : hi[a];
      const double e = (bn - o[a]) * inv[a];
      const double x = (bf - o[a]) * inv[a];
      if (e > tn) tn = e;  // NaN (origin on a plane of a parallel slab) is ignored: conservative
      if (x < tf) tf = x;
    }
    const double slack = 8 * kEps * (std::abs(tn) + std::abs(tf));
    return tn <= tf + slack ? tn : std::numeric_limits<double>::infinity();
  }
};

struct StackEntry {
  int node;
  double key;
};

// ---------------------------------------------------------------------------
// Float SIMD tests against four boxes of a wide node, conservative: a box is
// rejected only when the exact (real-number) test rejects it.
//
// Ray: the direction is scaled by a power of two (exact) so that its largest
// component lies in [1, 2); t' = t * 2^s. A component below 2^-60 of the
// largest (but not 0), an origin beyond 2^60 or a tree beyond 2^60 use the
// double binary traversal instead. Per axis the slab parameter (b - o) / d is
// bracketed with a float below / above the origin (the one that makes
// it smaller for the entry, larger for the exit), so origin rounding cannot
// lose a box; the remaining error is relative (the subtraction, 1/d rounded to
// float and the product: at most 3 float roundings, 3 * 2^-24 relative). It
// is folded into the inverses, once per ray: the entry uses 1/d shrunk by
// 2^-20 relative, the exit 1/d grown by 2^-20, so an entry parameter >= 0 is
// never raised and an exit parameter >= 0 never lowered, and a negative one
// keeps its sign. With t_min >= 0 (other rays use the double traversal) a
// negative entry only loses to t_min, and a negative exit means the box is
// behind the ray anyway, so max(t_min, entries) <= min(t_max, exits) holds
// for the computed values whenever it holds exactly, up to float underflow
// (half the smallest subnormal per product), covered by adding 2^-140 to the
// exit before the comparison. Max and min over the axes are monotone. A zero
// component gives
// inv = +-inf exactly; (b - o) * inf is +-inf with the right sign, or NaN when
// the origin lies on the plane: NaN lanes are dropped by max/min (the
// dominant axis, whose inverse is finite, is the accumulator), i.e. treated
// as "inside the slab", which is conservative. Empty lanes (lo = +inf,
// hi = -inf) give entry +inf and exit -inf, and fail the comparison.
//
// Point: the squared distance to a box from the float bracket of the point,
// lowered by 2^-20 relative plus 2^-120 (5 float roundings at most).

constexpr float kRelSlack = 0x1p-20f;
constexpr float kAbsSlack = 0x1p-120f;
constexpr double kFloatRange = 0x1p60;

// A float <= x and a float >= x (x not NaN, |x| < 2^127), branch-free: the
// nearest float moved by |f| 2^-23 (at least one ulp of f) plus the smallest
// subnormal (for f = 0 and subnormals), so one or two ulps below / above x.
// Branches on whether the conversion rounded up would be mispredicted half
// of the time (several per ray).
inline float float_down(double x) {
  const float f = static_cast<float>(x);
  return f - (std::abs(f) * 0x1p-23f + std::numeric_limits<float>::denorm_min());
}
inline float float_up(double x) {
  const float f = static_cast<float>(x);
  return f + (std::abs(f) * 0x1p-23f + std::numeric_limits<float>::denorm_min());
}

struct WideRay {
  bool ok = false;
  double t_scale = 1;  // t' = t * t_scale
  float t_min = 0, t_max = 0;
  // Offsets (in floats) of the entry / exit rows in a node's bounds, dominant
  // axis first: precomputed so the per-node loads need no index arithmetic.
  std::ptrdiff_t near_off[3], far_off[3];
  simd::F4 o_near[3], o_far[3], inv_near[3], inv_far[3];
  // Loop constants kept in the ray (memory operands, not rebuilt per node).
  simd::F4 tiny = simd::splat(0x1p-140f), t_min4;

  // Branch-free apart from the rare rejections: a ray's axis order and
  // signs are random, so per-axis branches would be mispredicted (about five
  // per ray, measured with callgrind's branch model).
  explicit WideRay(const Ray& r) {
    const double d[3] = {r.direction.x, r.direction.y, r.direction.z};
    const double org[3] = {r.origin.x, r.origin.y, r.origin.z};
    const double dx = std::abs(d[0]), dy = std::abs(d[1]), dz = std::abs(d[2]);
    const double abs_d[3] = {dx, dy, dz};
    // The largest component (the first of equals) as an index, then loaded:
    // a select of the value on the same comparisons compiles to a branch.
    static constexpr int kLargest[4] = {0, 1, 2, 2};  // [2 (dz > max(dx, dy)) + (dy > dx)]
    const int ax =
        kLargest[2 * (static_cast<int>(dz > dx) & static_cast<int>(dz > dy)) + static_cast<int>(dy > dx)];
    const double dmax = abs_d[ax];
    if (!(dmax > 0) || !std::isfinite(dmax) || !(r.t_min >= 0)) return;
    // d_scale = 2^-floor(log2(dmax)) so that dmax * d_scale is in [1, 2); t_scale = 1 / d_scale.
    const int eb = static_cast<int>(std::bit_cast<std::uint64_t>(dmax) >> 52);  // biased exponent
    double d_scale;
    if (eb > 0 && eb < 2046) {
      d_scale = std::bit_cast<double>(static_cast<std::uint64_t>(2046 - eb) << 52);
      t_scale = std::bit_cast<double>(static_cast<std::uint64_t>(eb) << 52);
    } else {  // subnormal or the largest binade: libm
      int e = 0;
      std::frexp(dmax, &e);  // dmax = m 2^e, m in [0.5, 1)
      d_scale = std::ldexp(1.0, 1 - e);
      t_scale = std::ldexp(1.0, e - 1);
    }
    static constexpr int kAxis[3][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}};  // dominant axis first
    int in_range = 1;                                                      // int and &: no branches
    for (int k = 0; k < 3; ++k) {
      const int a = kAxis[ax][k];
      const double o = org[a];
      // A zero component gives 1 / +-0 = +-inf, the inverse wanted; a
      // nonzero one below 2^-60 of the largest is out of range.
      const double dp = d[a] * d_scale;  // exact unless it underflows, and then below 2^-60
      in_range &= static_cast<int>(std::abs(o) <= kFloatRange) &
                  (static_cast<int>(d[a] == 0) | static_cast<int>(std::abs(dp) >= 0x1p-60));
      const double id = 1.0 / dp;
      const float iv_near = static_cast<float>(id * (1 - 0x1p-20));  // |1/d| (1 - 2^-20) (1 + 2^-24) at most
      const float iv_far = static_cast<float>(id * (1 + 0x1p-20));   // |1/d| (1 + 2^-20) (1 - 2^-24) at least
      const int neg = std::signbit(iv_near) ? 1 : 0;
      const float o_bracket[2] = {float_up(o), float_down(o)};  // [neg]: the entry's, [1 - neg]: the exit's
      o_near[k] = simd::splat(o_bracket[neg]);
      o_far[k] = simd::splat(o_bracket[1 - neg]);
      inv_near[k] = simd::splat(iv_near);
      inv_far[k] = simd::splat(iv_far);
      near_off[k] = 4 * (a + 3 * neg);
      far_off[k] = 4 * (a + 3 - 3 * neg);
    }
    if (!in_range) return;
    t_min = float_down(r.t_min * t_scale);
    t_min4 = simd::splat(t_min);
    t_max = float_up(r.t_max * t_scale);
    ok = true;
  }

  float scaled_up(double t) const { return float_up(t * t_scale); }

  /// Bit l set when box l may meet the segment [t_min, t_max_now] (scaled);
  /// `key` gets lower bounds of the entry parameters.
  DRAPE_INLINE_ALWAYS int test(const BvhWideNode& n, simd::F4 t_max_now, simd::F4& key) const {
    using namespace simd;
    const float* b = &n.bounds[0][0];
    F4 tn = (load(b + near_off[0]) - o_near[0]) * inv_near[0];
    F4 tf = (load(b + far_off[0]) - o_far[0]) * inv_far[0];
    tn = max((load(b + near_off[1]) - o_near[1]) * inv_near[1], tn);
    tf = min((load(b + far_off[1]) - o_far[1]) * inv_far[1], tf);
    tn = max((load(b + near_off[2]) - o_near[2]) * inv_near[2], tn);
    tf = min((load(b + far_off[2]) - o_far[2]) * inv_far[2], tf);
    const F4 lo = max(t_min4, tn);
    key = lo;
    return le_mask(lo, min(t_max_now, tf) + tiny);
  }
};

struct WidePoint {
  bool ok = false;
  simd::F4 q_lo[3], q_hi[3];
  explicit WidePoint(const Vec3& q) {
    for (int a = 0; a < 3; ++a) {
      if (!(std::abs(q[a]) <= kFloatRange)) return;
      q_lo[a] = simd::splat(float_down(q[a]));
      q_hi[a] = simd::splat(float_up(q[a]));
    }
    ok = true;
  }
  /// Bit l set when the squared distance to box l may be <= best; `key` gets lower bounds of it.
  DRAPE_INLINE_ALWAYS int test(const BvhWideNode& n, float best, simd::F4& key) const {
    return test(n.bounds, best, key);
  }
  /// The same for boxes stored as rows lo x, y, z, hi x, y, z of four lanes.
  DRAPE_INLINE_ALWAYS int test(const float (*bounds)[4], float best, simd::F4& key) const {
    using namespace simd;
    const F4 zero = splat(0.0f);
    F4 d2 = zero;
    for (int a = 0; a < 3; ++a) {
      const F4 below = load(bounds[a]) - q_hi[a];      // > 0 when the point is below the box
      const F4 above = q_lo[a] - load(bounds[3 + a]);  // > 0 when above
      const F4 x = max(max(below, above), zero);
      d2 = d2 + x * x;
    }
    const F4 lb = d2 - (d2 * splat(kRelSlack) + splat(kAbsSlack));  // NaN for empty lanes
    key = lb;
    return le_mask(lb, splat(best));
  }
};

// Float pre-test of up to four triangles (a TriangleBlock) against the watertight
// ray, conservative: a lane is dropped only when the exact test would reject
// it because its edge functions certainly have mixed strict signs (one > 0,
// one < 0; the exact test's symbolic tie-break only decides zeros, so such a
// triangle is missed for every perturbation too).
//
// Error bound. Let S bound every |coordinate| of the triangle and of the ray
// origin, e = 2^-24. The float sheared coordinates x_f (a - o in float from
// float-rounded a and o, minus sx_f (a - o)_z with |sx| <= 1) differ from the
// exact test's doubles x_d by at most 17 e S (4 e S for a - o, 8 e S for the
// product, 4 e S for the subtraction, plus the doubles' own 2^-53 roundings);
// d = 2^-19 S = 32 e S. Then |cx_f by_f - cx_d by_d| <= d (|cx_f| + |by_f|)
// + d^2, so an edge function U = cx by - cy bx differs from the exact value of
// the doubles' expression by at most d (|bx| + |by| + |cx| + |cy| + 2 d) plus
// the float roundings of U, 2.01 e (|cx by| + |cy bx|) (2^-21 used), plus
// 2^-120 for underflow. The margins (32 e for 17 e, 8 e for 2 e) cover the
// roundings of the bound itself.
struct TrianglePretest {
  std::ptrdiff_t row[3];  // rows (x, y, z of vertex a) of the sheared axes kx, ky, kz
  simd::F4 o[3], sx, sy, omax;

  explicit TrianglePretest(const WatertightRay& wr) {
    const int k[3] = {wr.kx, wr.ky, wr.kz};
    const double org[3] = {wr.origin.x, wr.origin.y, wr.origin.z};  // indexed: no branches on the axes
    float m = 0;
    for (int i = 0; i < 3; ++i) {
      row[i] = 4 * k[i];
      const float f = static_cast<float>(org[k[i]]);
      o[i] = simd::splat(f);
      m = std::max(m, std::abs(f));
    }
    sx = simd::splat(static_cast<float>(wr.sx));
    sy = simd::splat(static_cast<float>(wr.sy));
    omax = simd::splat(m);
  }

  /// Bit l set when triangle l of a block may be hit (bits 0-3, empty lanes
  /// included): `v` rows a x, y, z, b x, y, z, c x, y, z of four lanes, `s`
  /// the lanes' largest |coordinate|.
  DRAPE_INLINE_ALWAYS int test(const float* v, const float* s) const {
    using namespace simd;
    F4 x[3], y[3];
    for (int k = 0; k < 3; ++k) {  // vertices a, b, c: rows 3k .. 3k + 2
      const float* r = v + 12 * k;
      const F4 z = load(r + row[2]) - o[2];
      x[k] = (load(r + row[0]) - o[0]) - sx * z;
      y[k] = (load(r + row[1]) - o[1]) - sy * z;
    }
    const F4 d = max(load(s), omax) * splat(0x1p-19f);
    // One bound for the three edge functions: with T = max over the vertices
    // of |x| + |y|, |cx| + |by| + |cy| + |bx| <= 2 T and |cx by| + |cy bx| <= T^2.
    const F4 t = max(max(abs(x[0]) + abs(y[0]), abs(x[1]) + abs(y[1])), abs(x[2]) + abs(y[2]));
    const F4 e = t * (d + d + splat(0x1p-21f) * t) + (d * (d + d) + splat(0x1p-120f));
    // U = cx by - cy bx, V = ax cy - ay cx, W = bx ay - by ax (as in intersect_ray_triangle).
    const F4 U = x[2] * y[1] - y[2] * x[1];
    const F4 V = x[0] * y[2] - y[0] * x[2];
    const F4 W = x[1] * y[0] - y[1] * x[0];
    // Mixed strict signs: the smallest below -e and the largest above e. No
    // NaN or infinity can occur: every coordinate is within 2^60 (the wide
    // traversal's range), so every product is below 2^126.
    const int neg = lt_mask(min(min(U, V), W), splat(0.0f) - e);
    const int pos = lt_mask(e, max(max(U, V), W));
    return ~(neg & pos) & 15;
  }
};

// Float lower bound of the distance from a point to each of the four
// triangles of a TriangleBlock, rigorous: the exact closest-point test of a lane
// can be skipped when its bound exceeds the current best distance.
//
// Any vector n gives a lower bound of the distance from q to a triangle T:
// |x - q| >= n.(x - q) / |n| for every x of T, and n.(x - q) is smallest at a
// vertex, so D(q, T) >= min over the vertices v of n.(v - q) / |n|; when
// q + n is the closest point (T is convex) the bound is the distance itself.
// So n is taken from a branch-free float Ericson walk (the regions of
// closest_point_on_triangle blended by masks): its rounding only loosens
// the bound, never invalidates it. What must be bounded is the float
// evaluation of the bound itself. With S the largest |coordinate| of the
// triangle and q, and u = 2^-24:
//  * q and the vertices rounded to float move D by at most 2 sqrt(3) u S
//    (D is 1-Lipschitz in q and in the vertices);
//  * w = q_f - v_f is rounded once (u 2S per coordinate) and the dot product
//    n.w adds gamma_3 sum |n_i||w_i| <= 3.01 u |n| 2 sqrt(3) S, so
//    m = -max n.w is within 14 u S |n| < 2^-20 S |n| of the exact value;
//  * |n| from sqrt(n.n) and the division: relative 4 u at most.
// Hence D >= (m_f / sqrt_f(n.n)) (1 - 2^-20) - 2^-20 S - 2^-21 S. The bound
// used is (m_f / sqrt_f) (1 - 2^-19) - 2^-18 S - 2^-90: the margins cover the
// roundings of the bound itself and the double rounding of the exact test's
// point and squared distance (relative 2^-50, absolute 2^-48 S), so a lane
// is skipped only when the exact test would compute a larger squared
// distance than the best. Lanes with n.n < 2^-100 (float underflow of the
// products: 2^-150 absolute each, 2^-100 relative to |n|, the 2^-90) or
// m_f <= 0 get no bound; NaN and infinities (coordinates up to 2^60 make
// the Voronoi products overflow) compare false and are never skipped.
//
// Upper bound. The clamped walk's v, w make x = a_f + ab v + ac w a point
// of the float triangle T_f (v + w exceeds 1 by at most one rounding, u |ac|
// away), so D(q_f, T_f) <= |x - q_f|. The computed n differs from x - q_f by
// at most about 30 u S per coordinate (ab, ac and ap rounded once, the
// products and sums: 52 u S in norm), |n| = sqrt_f(n.n) is within 3 u
// relative (plus sqrt(3 2^-149) < 2^-73 when n.n underflows), the float
// inputs move D by 2 sqrt(3) u S, and the exact test computes its distance
// within 2^-50 relative and 2^-48 S absolute (the premise above). Hence the
// exact test's distance is at most |n|_f (1 + 2^-18) + 2^-16 S + 2^-70 (the
// margins about four times what is needed). NaN and infinities cannot
// occur in it: v and w are finite after the clamp and every coordinate is
// within 2^60.
template <class V>
V splat_as(float x);
template <>
DRAPE_INLINE_ALWAYS simd::F4 splat_as<simd::F4>(float x) {
  return simd::splat(x);
}
#ifdef DRAPE_BVH_F8
template <>
DRAPE_INLINE_ALWAYS simd::F8 splat_as<simd::F8>(float x) {
  return simd::splat8(x);
}
#endif

struct PointPretest {
  float q[3], qmax = 0;
  simd::F4 q4[4];  // q x, y, z and qmax splat, memory operands of the 4-lane bound

  explicit PointPretest(const Vec3& p) {
    for (int a = 0; a < 3; ++a) {
      q[a] = static_cast<float>(p[a]);
      qmax = std::max(qmax, std::abs(q[a]));
      q4[a] = simd::splat(q[a]);
    }
    q4[3] = simd::splat(qmax);
  }

  /// Lower bounds of the distances to the four triangles of a block (rows
  /// a x, y, z, b x, ..., c z; `s` the lanes' largest |coordinate|); NaN or a
  /// negative value where there is none. `upper` gets upper bounds of the
  /// distances the exact test computes (see "Upper bound" above). Empty lanes
  /// (all vertices zero) get bounds for a point triangle at the origin:
  /// callers ignore them.
  DRAPE_INLINE_ALWAYS simd::F4 bound(const float* v, const float* s, simd::F4& upper) const {
    return bound_rows<simd::F4>([&](int r) DRAPE_LAMBDA_INLINE { return simd::load(v + 4 * r); },
                                simd::load(s), upper);
  }
#ifdef DRAPE_BVH_F8
  /// The same for two blocks at once (lanes 0-3: `v0`, 4-7: `v1`), for the
  /// AVX2 code only (256-bit instructions there).
  DRAPE_INLINE_ALWAYS simd::F8 bound2(const float* v0, const float* s0, const float* v1, const float* s1,
                                      simd::F8& upper) const {
    return bound_rows<simd::F8>([&](int r)
                                    DRAPE_LAMBDA_INLINE { return simd::load2(v0 + 4 * r, v1 + 4 * r); },
                                simd::load2(s0, s1), upper);
  }
#endif

  /// q x, y, z (k = 0-2) and qmax (k = 3) in every lane.
  template <class V>
  DRAPE_INLINE_ALWAYS V q_as(int k) const {
    if constexpr (std::is_same_v<V, simd::F4>) {
      return q4[k];
    } else {
      return splat_as<V>(k < 3 ? q[k] : qmax);
    }
  }

  /// The bounds from the rows a x, y, z, b x, ..., c z (`row(0..8)`) and the
  /// lanes' largest |coordinate| `s`, for vectors of 4 or 8 lanes.
  template <class V, class Row>
  DRAPE_INLINE_ALWAYS V bound_rows(Row row, const V& s, V& upper) const {
    using namespace simd;
    auto splat = [](float x) DRAPE_LAMBDA_INLINE { return splat_as<V>(x); };
    V ap[3], bp[3], cp[3], ab[3], ac[3];
    for (int k = 0; k < 3; ++k) {
      const V a = row(k), b = row(3 + k), c = row(6 + k), qk = q_as<V>(k);
      ap[k] = qk - a;
      bp[k] = qk - b;
      cp[k] = qk - c;
      ab[k] = b - a;
      ac[k] = c - a;
    }
    auto dot = [](const V* x, const V* y)
                   DRAPE_LAMBDA_INLINE { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]; };
    const V d1 = dot(ab, ap), d2 = dot(ac, ap), d3 = dot(ab, bp), d4 = dot(ac, bp), d5 = dot(ab, cp),
            d6 = dot(ac, cp);
    const V va = d3 * d6 - d5 * d4, vb = d5 * d2 - d1 * d6, vc = d1 * d4 - d3 * d2;
    const V zero = splat(0.0f), one = splat(1.0f);
    // Face region first, then the regions of closest_point_on_triangle in
    // reverse order of its tests, so the first test that holds wins.
    const V inv = one / (va + vb + vc);
    V bv = vb * inv, bw = vc * inv;
    const V e43 = d4 - d3, e56 = d5 - d6;
    {  // edge bc
      const auto m = le(va, zero) & ge(e43, zero) & ge(e56, zero);
      const V t = e43 / (e43 + e56);
      bv = select(m, one - t, bv);
      bw = select(m, t, bw);
    }
    {  // edge ac
      const auto m = le(vb, zero) & ge(d2, zero) & le(d6, zero);
      const V t = d2 / (d2 - d6);
      bv = select(m, zero, bv);
      bw = select(m, t, bw);
    }
    {  // vertex c
      const auto m = ge(d6, zero) & le(d5, d6);
      bv = select(m, zero, bv);
      bw = select(m, one, bw);
    }
    {  // edge ab
      const auto m = le(vc, zero) & ge(d1, zero) & le(d3, zero);
      const V t = d1 / (d1 - d3);
      bv = select(m, t, bv);
      bw = select(m, zero, bw);
    }
    {  // vertex b
      const auto m = ge(d3, zero) & le(d4, d3);
      bv = select(m, one, bv);
      bw = select(m, zero, bw);
    }
    {  // vertex a
      const auto m = le(d1, zero) & le(d2, zero);
      bv = select(m, zero, bv);
      bw = select(m, zero, bw);
    }
    // Clamped to the triangle (v, w >= 0, v + w <= 1 up to one rounding), so
    // that a + ab v + ac w is a point of it and |n| bounds the distance from
    // above too. max/min return their second operand for NaN: NaN becomes 0.
    bv = min(max(bv, zero), one);
    bw = min(max(bw, zero), one - bv);
    // n = (a + ab v + ac w) - q; m = min over the vertices of n.(vertex - q) = -max n.(q - vertex).
    V n[3];
    for (int k = 0; k < 3; ++k) n[k] = (ab[k] * bv + ac[k] * bw) - ap[k];
    const V m = zero - max(max(dot(n, ap), dot(n, bp)), dot(n, cp));
    const V nn = dot(n, n);
    const V len = sqrt(nn);
    const V scale = max(s, q_as<V>(3));
    upper = len * splat(1 + 0x1p-18f) + (scale * splat(0x1p-16f) + splat(0x1p-70f));
    const auto ok = ge(nn, splat(0x1p-100f)) & gt(m, zero);
    const V lb = (m / len) * splat(1 - 0x1p-19f) - (scale * splat(0x1p-18f) + splat(0x1p-90f));
    return select(ok, lb, splat(-1.0f));
  }
};

struct WideEntry {
  std::int32_t child;  // wide node (count == 0) or first primitive in leaf order
  std::int32_t count;
  float key;
};
constexpr int kWideStack = 3 * Bvh::kMaxDepth + 8;

// Pushes the lanes of `mask` on the stack, farthest first, and returns the
// nearest one (which the caller visits next, so its key is not needed). mask != 0.
DRAPE_INLINE_ALWAYS WideEntry push_sorted(const BvhWideNode& n, int mask, const simd::F4& key,
                                          WideEntry* stack, int& sp) {
  const int l0 = std::countr_zero(static_cast<unsigned>(mask));
  mask &= mask - 1;
  if (mask == 0) return {n.child[l0], n.count[l0], 0.0f};  // one lane: the common case for rays
  alignas(16) float k[4];
  simd::store(k, key);
  const int l1 = std::countr_zero(static_cast<unsigned>(mask));
  mask &= mask - 1;
  if (mask == 0) {  // two lanes
    const WideEntry a{n.child[l0], n.count[l0], k[l0]}, b{n.child[l1], n.count[l1], k[l1]};
    if (a.key <= b.key) {
      stack[sp++] = b;
      return a;
    }
    stack[sp++] = a;
    return b;
  }
  // Three or four lanes: each lane's position in descending key order, ties
  // with the lower lane first (the order an insertion sort in lane order
  // gives), from comparisons only: no data-dependent branches (an insertion
  // sort mispredicted about 18 times per closest-point query). Lanes not in
  // the mask get key -inf, so they land in the unused slots >= m.
  constexpr float kNegInf = -std::numeric_limits<float>::infinity();
  const int full = mask | (1 << l0) | (1 << l1);
  // Lanes l0 and l1 are out of `mask`, which holds one or two more
  // (std::popcount is a libgcc call without -mpopcnt: about 20 instructions).
  const int m = (mask & (mask - 1)) ? 4 : 3;
  alignas(16) std::int32_t pos[4];
#ifdef DRAPE_BVH_SSE2
  // pos_i = #{j : k_j > k_i} + #{j < i : k_j == k_i}, against the three
  // rotations of the key vector (j = i + r mod 4, so j < i iff i >= 4 - r).
  alignas(16) static const std::int32_t kLaneBit[4] = {1, 2, 4, 8};
  alignas(16) static const std::int32_t kTie[3][4] = {{0, 0, 0, -1}, {0, 0, -1, -1}, {0, -1, -1, -1}};
  const __m128 valid = _mm_castsi128_ps(_mm_cmpeq_epi32(
      _mm_and_si128(_mm_set1_epi32(full), _mm_load_si128(reinterpret_cast<const __m128i*>(kLaneBit))),
      _mm_load_si128(reinterpret_cast<const __m128i*>(kLaneBit))));
  const __m128 kk = _mm_or_ps(_mm_and_ps(valid, key.v), _mm_andnot_ps(valid, _mm_set1_ps(kNegInf)));
  const __m128 r1 = _mm_shuffle_ps(kk, kk, _MM_SHUFFLE(0, 3, 2, 1));
  const __m128 r2 = _mm_shuffle_ps(kk, kk, _MM_SHUFFLE(1, 0, 3, 2));
  const __m128 r3 = _mm_shuffle_ps(kk, kk, _MM_SHUFFLE(2, 1, 0, 3));
  auto before = [&](__m128 r, int t) DRAPE_LAMBDA_INLINE {
    return _mm_castps_si128(
        _mm_or_ps(_mm_cmpgt_ps(r, kk),
                  _mm_and_ps(_mm_cmpeq_ps(r, kk), _mm_load_ps(reinterpret_cast<const float*>(kTie[t])))));
  };
  const __m128i p = _mm_sub_epi32(_mm_sub_epi32(_mm_setzero_si128(), before(r1, 0)),
                                  _mm_add_epi32(before(r2, 1), before(r3, 2)));
  _mm_store_si128(reinterpret_cast<__m128i*>(pos), p);
#else
  float kk[4];
  for (int l = 0; l < 4; ++l) kk[l] = (full >> l) & 1 ? k[l] : kNegInf;
  for (int i = 0; i < 4; ++i) {
    pos[i] = 0;
    for (int j = 0; j < 4; ++j) pos[i] += (kk[j] > kk[i]) + (j < i && kk[j] == kk[i]);
  }
#endif
  WideEntry e[4];
  for (int i = 0; i < 4; ++i) e[pos[i]] = {n.child[i], n.count[i], k[i]};
  // m - 1 is 2 or 3: copy three entries unconditionally (the stack has room)
  // rather than a loop the compiler turns into a slow `rep movs`.
  stack[sp] = e[0];
  stack[sp + 1] = e[1];
  stack[sp + 2] = e[2];
  sp += m - 1;
  return e[m - 1];
}

DRAPE_INLINE_ALWAYS void prefetch(const char* p) {  // forced inline: GCC drops a wrapped prefetch as pure
#if defined(__GNUC__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

}  // namespace drape::bvh_detail

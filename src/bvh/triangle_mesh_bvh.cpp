#include "drape/bvh/triangle_mesh_bvh.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <numbers>
#include <string>
#include <type_traits>

#include "drape/core/exceptions.h"
#include "drape/geometry/mesh_adjacency.h"
#include "simd4.h"

// The traversals below are compiled twice (SSE2 and AVX2, see
// TriangleMeshBvh::intersect): their helpers are forced inline so that both
// copies get them in their own instruction set.
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

namespace drape {
namespace {

constexpr double kEps = 1.1102230246251565e-16;

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

double cone_angle_between(const Vec3& a, const Vec3& b) {
  return std::acos(std::clamp(dot(a, b), -1.0, 1.0));
}

}  // namespace

TriangleMeshBvh::TriangleMeshBvh(const TriangleMesh& mesh, const BvhBuildOptions& options,
                                 const Executor& executor)
    : mesh_(&mesh) {
  faces_.resize(mesh.face_count());
  for (std::size_t f = 0; f < faces_.size(); ++f) faces_[f] = static_cast<int>(f);
  init(options, executor);
}

TriangleMeshBvh::TriangleMeshBvh(const TriangleMesh& mesh, std::span<const int> faces,
                                 const BvhBuildOptions& options, const Executor& executor)
    : mesh_(&mesh), faces_(faces.begin(), faces.end()) {
  for (std::size_t i = 0; i < faces_.size(); ++i)
    if (faces_[i] < 0 || static_cast<std::size_t>(faces_[i]) >= mesh.face_count())
      throw InvalidInput("TriangleMeshBvh: face id " + std::to_string(faces_[i]) + " (entry " +
                         std::to_string(i) + ") out of range for a mesh of " +
                         std::to_string(mesh.face_count()) + " faces");
  init(options, executor);
}

void TriangleMeshBvh::init(const BvhBuildOptions& options, const Executor& executor) {
  const TriangleMesh& m = *mesh_;
  m.validate("TriangleMeshBvh mesh");
  const std::size_t n = faces_.size();
  std::vector<Aabb> boxes(n);
  std::vector<Vec3> centroids(n);
  executor.for_each(
      0, n,
      [&](std::size_t i) {
        const Triangle& t = m.faces[faces_[i]];
        Aabb b;
        for (int v : t) b.expand(m.positions[v]);
        boxes[i] = b;
        centroids[i] = (m.positions[t[0]] + m.positions[t[1]] + m.positions[t[2]]) / 3.0;
      },
      4096);
  tree_ = Bvh::build(boxes, centroids, options, executor);
  // The wide tree is collapsed here, from the boxes the binary tree was built
  // with, and only refitted afterwards: the collapse picks lanes by box area,
  // so collapsing at the first query would make the layout, and with it the
  // traversal order, depend on where the mesh was when that query came (a
  // resumed simulation would then differ from an uninterrupted one).
  lazy_->wide = BvhWide(tree_);
  lazy_->wide_fresh.store(true, std::memory_order_relaxed);
  const auto order = tree_.primitive_order();
  leaf_tris_.resize(n);
  leaf_faces_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    leaf_faces_[i] = faces_[order[i]];
    leaf_tris_[i] = m.faces[leaf_faces_[i]];
  }
}

void TriangleMeshBvh::refit(double margin) {
  const Vec3* p = mesh_->positions.data();
  auto boxes = tree_.primitive_boxes_mutable();
#ifdef DRAPE_BVH_SSE2
  // The scalar loop below, two coordinates per instruction: the same
  // operations in the same order (min/max operand order as std::min/max,
  // down(d) = (d - |d| 2^-22) - 1e-30), so the boxes are bit-identical.
  static_assert(sizeof(Vec3) == 3 * sizeof(double) && sizeof(BvhBox) == 6 * sizeof(float));
  const __m128d sign = _mm_set1_pd(-0.0), rel = _mm_set1_pd(0x1p-22), tiny = _mm_set1_pd(1e-30);
  const __m128d m = _mm_set1_pd(margin);
  // Lanes (z min, z max): negate the rounding terms of the min.
  const __m128d z_sign = _mm_set_pd(0.0, -0.0);
  for (std::size_t i = 0; i < leaf_tris_.size(); ++i) {
    const Triangle& t = leaf_tris_[i];
    const double *a = &p[t[0]].x, *b = &p[t[1]].x, *c = &p[t[2]].x;
    const __m128d axy = _mm_loadu_pd(a), bxy = _mm_loadu_pd(b), cxy = _mm_loadu_pd(c);
    const __m128d az = _mm_load_sd(a + 2), bz = _mm_load_sd(b + 2), cz = _mm_load_sd(c + 2);
    const __m128d lo_xy = _mm_sub_pd(_mm_min_pd(_mm_min_pd(cxy, bxy), axy), m);
    const __m128d hi_xy = _mm_add_pd(_mm_max_pd(_mm_max_pd(cxy, bxy), axy), m);
    const __m128d lo_z = _mm_sub_sd(_mm_min_sd(_mm_min_sd(cz, bz), az), m);
    const __m128d hi_z = _mm_add_sd(_mm_max_sd(_mm_max_sd(cz, bz), az), m);
    const __m128d zz = _mm_unpacklo_pd(lo_z, hi_z);
    // down: (d - |d| rel) - tiny; up: (d + |d| rel) + tiny.
    const __m128d dlo = _mm_sub_pd(_mm_sub_pd(lo_xy, _mm_mul_pd(_mm_andnot_pd(sign, lo_xy), rel)), tiny);
    const __m128d dhi = _mm_add_pd(_mm_add_pd(hi_xy, _mm_mul_pd(_mm_andnot_pd(sign, hi_xy), rel)), tiny);
    const __m128d dz =
        _mm_add_pd(_mm_add_pd(zz, _mm_xor_pd(_mm_mul_pd(_mm_andnot_pd(sign, zz), rel), z_sign)),
                   _mm_xor_pd(tiny, z_sign));
    const __m128 flo = _mm_cvtpd_ps(dlo), fhi = _mm_cvtpd_ps(dhi), fz = _mm_cvtpd_ps(dz);
    // lo x, lo y, lo z | hi x, hi y, hi z
    float* out = boxes[i].lo;
    _mm_storel_pi(reinterpret_cast<__m64*>(out), flo);
    _mm_store_ss(out + 2, fz);
    _mm_storel_pi(reinterpret_cast<__m64*>(out + 3), fhi);
    _mm_store_ss(out + 5, _mm_shuffle_ps(fz, fz, 1));
  }
#else
  for (std::size_t i = 0; i < leaf_tris_.size(); ++i) {
    const Triangle& t = leaf_tris_[i];
    const Vec3 &a = p[t[0]], &b = p[t[1]], &c = p[t[2]];
    BvhBox& box = boxes[i];
    for (int k = 0; k < 3; ++k) {
      box.lo[k] = BvhBox::down(std::min(a[k], std::min(b[k], c[k])) - margin);
      box.hi[k] = BvhBox::up(std::max(a[k], std::max(b[k], c[k])) + margin);
    }
  }
#endif
  tree_.refit_from_leaf_boxes();
  lazy_->wide_fresh.store(false, std::memory_order_relaxed);
  lazy_->blocks_fresh.store(false, std::memory_order_relaxed);
}

void TriangleMeshBvh::transform(const RigidTransform& t) {
  tree_.transform(t);
  lazy_->wide_fresh.store(false, std::memory_order_relaxed);
  lazy_->blocks_fresh.store(false, std::memory_order_relaxed);
}

const BvhWide& TriangleMeshBvh::update_wide() const {
  Lazy& l = *lazy_;
  {
    const std::lock_guard<std::mutex> lock(l.wide_mutex);
    if (!l.wide_fresh.load(std::memory_order_relaxed)) {
      l.wide.refit(tree_);  // collapsed in init()
      l.wide_fresh.store(true, std::memory_order_release);
    }
  }
  return l.wide;
}

void TriangleMeshBvh::update_blocks() const {
  Lazy& l = *lazy_;
  const std::lock_guard<std::mutex> lock(l.wide_mutex);
  if (l.blocks_fresh.load(std::memory_order_relaxed)) return;
  if (l.block_of.size() != leaf_tris_.size()) {  // first time: one block per 4 primitives of each leaf
    l.block_of.assign(leaf_tris_.size(), -1);
    int blocks = 0;
    for (const BvhNode& n : tree_.nodes())
      if (n.is_leaf() && n.count > 1) {  // single triangles go straight to the exact test
        l.block_of[n.index] = blocks;
        blocks += (n.count + 3) / 4;
      }
    l.tri_blocks.assign(blocks, TriangleBlock{});  // empty lanes stay zero: only used lanes are written below
  }
  const Vec3* p = mesh_->positions.data();
  for (const BvhNode& n : tree_.nodes()) {
    if (!n.is_leaf() || n.count <= 1) continue;
    const int first_block = l.block_of[n.index];
    for (int q = 0; 4 * q < n.count; ++q) {
      TriangleBlock& rb = l.tri_blocks[first_block + q];
      const int lanes = std::min(4, n.count - 4 * q);
      for (int lane = 0; lane < lanes; ++lane) {
        const Triangle& t = leaf_tris_[n.index + 4 * q + lane];
        float m = 0;
        for (int k = 0; k < 3; ++k) {
          const Vec3& v = p[t[k]];
          const float x = static_cast<float>(v.x), y = static_cast<float>(v.y), z = static_cast<float>(v.z);
          rb.v[3 * k][lane] = x;
          rb.v[3 * k + 1][lane] = y;
          rb.v[3 * k + 2][lane] = z;
          m = std::max(m, std::max(std::abs(x), std::max(std::abs(y), std::abs(z))));
        }
        rb.s[lane] = m;  // the 2^-19 relative bound of the pre-test covers |x| <= m (1 + 2^-24)
      }
    }
  }
  l.blocks_fresh.store(true, std::memory_order_release);
}

std::optional<RayHit> TriangleMeshBvh::intersect_binary(const Ray& ray, WatertightRay& wr) const {
  const SlabRay sr(ray);
  const auto nodes = tree_.nodes();
  const Vec3* p = mesh_->positions.data();
  RayHit best;
  double best_t = ray.t_max;
  StackEntry stack[Bvh::kMaxDepth + 2];
  int sp = 0;
  const double t_root = sr.enter(nodes[0], ray.t_min, best_t);
  if (t_root == std::numeric_limits<double>::infinity()) return std::nullopt;
  stack[sp++] = {0, t_root};
  while (sp > 0) {
    const StackEntry e = stack[--sp];
    if (e.key > best_t) continue;
    const BvhNode& n = nodes[e.node];
    if (n.is_leaf()) {
      for (int i = n.index; i < n.index + n.count; ++i) {
        const Triangle& t = leaf_tris_[i];
        double tt, u, v;
        wr.t_max = best_t;
        if (intersect_ray_triangle(wr, p[t[0]], p[t[1]], p[t[2]], tt, u, v)) {
          best_t = tt;
          best = {leaf_faces_[i], tt, u, v};
        }
      }
      continue;
    }
    const double t0 = sr.enter(nodes[n.index], ray.t_min, best_t);
    const double t1 = sr.enter(nodes[n.index + 1], ray.t_min, best_t);
    constexpr double kInf = std::numeric_limits<double>::infinity();
    if (t0 != kInf && t1 != kInf) {
      // Nearer child on top of the stack: ordered traversal.
      if (t0 <= t1) {
        stack[sp++] = {n.index + 1, t1};
        stack[sp++] = {n.index, t0};
      } else {
        stack[sp++] = {n.index, t0};
        stack[sp++] = {n.index + 1, t1};
      }
    } else if (t0 != kInf) {
      stack[sp++] = {n.index, t0};
    } else if (t1 != kInf) {
      stack[sp++] = {n.index + 1, t1};
    }
  }
  if (best.face < 0) return std::nullopt;
  return best;
}

namespace {
// Binary fallback of visit_ray_leaves: visits every leaf the ray's segment passes; `leaf(n)` returns true to
// stop.
template <class F>
void visit_ray_leaves_binary(const Bvh& tree, const Ray& ray, F&& leaf) {
  if (tree.empty()) return;
  const SlabRay sr(ray);
  const auto nodes = tree.nodes();
  int stack[Bvh::kMaxDepth + 2];
  int sp = 0;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (sr.enter(nodes[0], ray.t_min, ray.t_max) == kInf) return;
  stack[sp++] = 0;
  while (sp > 0) {
    const BvhNode& n = nodes[stack[--sp]];
    if (n.is_leaf()) {
      if (leaf(n.index, n.count)) return;
      continue;
    }
    if (sr.enter(nodes[n.index + 1], ray.t_min, ray.t_max) != kInf) stack[sp++] = n.index + 1;
    if (sr.enter(nodes[n.index], ray.t_min, ray.t_max) != kInf) stack[sp++] = n.index;
  }
}

// Visits every leaf the ray's segment may pass; `leaf(first, count)` returns true to stop.
template <class F>
void visit_ray_leaves(const Bvh& tree, const BvhWide& wide, const Ray& ray, F&& leaf) {
  if (tree.empty()) return;
  const WideRay wr(ray);
  if (!wr.ok || !wide.in_float_range()) return visit_ray_leaves_binary(tree, ray, leaf);
  const BvhWideNode* nodes = wide.nodes().data();
  int stack[Bvh::kMaxDepth * 3 + 8];
  int sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const BvhWideNode& n = nodes[stack[--sp]];
    simd::F4 key;
    int mask = wr.test(n, simd::splat(wr.t_max), key);
    while (mask) {
      const int l = std::countr_zero(static_cast<unsigned>(mask));
      mask &= mask - 1;
      if (n.count[l] > 0) {
        if (leaf(n.child[l], n.count[l])) return;
      } else {
        stack[sp++] = n.child[l];
      }
    }
  }
}
}  // namespace

// Run-time choice of the code for rays and closest points: the same source
// compiled for SSE2 (the x86-64 baseline) and, through a function target
// attribute, for AVX2 (VEX encoding: three-operand instructions, fewer
// register copies; no FMA, so every rounding is the same and the answers are
// bit-identical). Chosen by the CPU at start-up; force_sse2() for tests.
#ifdef DRAPE_BVH_AVX2
namespace {
const bool kCpuAvx2 = [] {
  __builtin_cpu_init();  // needed before __builtin_cpu_supports during static initialisation
  return __builtin_cpu_supports("avx2") != 0;
}();
std::atomic<bool> g_force_sse2{false};
}  // namespace
void TriangleMeshBvh::force_sse2(bool on) { g_force_sse2.store(on, std::memory_order_relaxed); }
bool TriangleMeshBvh::uses_avx2() { return kCpuAvx2 && !g_force_sse2.load(std::memory_order_relaxed); }
#else
void TriangleMeshBvh::force_sse2(bool) {}
bool TriangleMeshBvh::uses_avx2() { return false; }
#endif

std::optional<RayHit> TriangleMeshBvh::intersect(const Ray& ray) const {
#ifdef DRAPE_BVH_AVX2
  if (uses_avx2()) return intersect_avx2(ray);
#endif
  return intersect_wide(ray);
}

TriangleMeshBvh::PointQuery TriangleMeshBvh::closest_point(const Vec3& q, double max_distance) const {
#ifdef DRAPE_BVH_AVX2
  if (uses_avx2()) return closest_point_avx2(q, max_distance);
#endif
  return closest_point_wide<false>(q, max_distance);
}

DRAPE_INLINE_ALWAYS std::optional<RayHit> TriangleMeshBvh::intersect_wide(const Ray& ray) const {
  WatertightRay wr(ray);
  if (!wr.valid || tree_.empty() || !(ray.t_min <= ray.t_max)) return std::nullopt;
  const WideRay sr(ray);
  const BvhWide& wide = fresh_wide_blocks();
  if (!sr.ok || !wide.in_float_range()) return intersect_binary(ray, wr);
  const BvhWideNode* nodes = wide.nodes().data();
  const Vec3* p = mesh_->positions.data();
  const TriangleBlock* blocks = lazy_->tri_blocks.data();
  const std::int32_t* block_of = lazy_->block_of.data();
  const TrianglePretest pre(wr);
  RayHit best;
  double best_t = ray.t_max;
  float t_max = sr.t_max;
  simd::F4 t_max4 = simd::splat(t_max);
  WideEntry stack[kWideStack];
  int sp = 0;
  WideEntry cur{0, 0, sr.t_min};
  for (;;) {
    if (cur.count > 0) {
      auto exact = [&](int i) DRAPE_LAMBDA_INLINE {
        const Triangle& t = leaf_tris_[i];
        double tt, u, v;
        wr.t_max = best_t;
        if (intersect_ray_triangle(wr, p[t[0]], p[t[1]], p[t[2]], tt, u, v)) {
          best_t = tt;
          best = {leaf_faces_[i], tt, u, v};
          t_max = sr.scaled_up(tt);
          t_max4 = simd::splat(t_max);
        }
      };
      if (cur.count == 1) {
        // One triangle: its box was the lane's, so straight to the exact test
        // (a pre-test block per triangle cost more memory traffic than it saved).
        exact(cur.child);
      } else {
        // Float pre-test of four triangles at a time, then the exact test on
        // the candidates, in primitive order (so the answer is the exact one).
        const TriangleBlock* b = blocks + block_of[cur.child];
        for (int j = 0; j < cur.count; j += 4, ++b) {
          int mask = pre.test(&b->v[0][0], b->s) & ((1 << std::min(4, cur.count - j)) - 1);
          while (mask) {
            exact(cur.child + j + std::countr_zero(static_cast<unsigned>(mask)));
            mask &= mask - 1;
          }
        }
      }
    } else {
      const BvhWideNode& n = nodes[cur.child];
      simd::F4 key;
      const int mask = sr.test(n, t_max4, key);
      if (mask) {
        cur = push_sorted(n, mask, key, stack, sp);  // nearest child next, the others on the stack
        continue;
      }
    }
    do {
      if (sp == 0) return best.face < 0 ? std::nullopt : std::optional<RayHit>(best);
      cur = stack[--sp];
    } while (cur.key > t_max);
  }
}

bool TriangleMeshBvh::intersects_any(const Ray& ray) const {
  const WatertightRay wr(ray);
  if (!wr.valid || !(ray.t_min <= ray.t_max)) return false;
  const Vec3* p = mesh_->positions.data();
  bool hit = false;
  visit_ray_leaves(tree_, fresh_wide(), ray, [&](int first, int count) {
    for (int i = first; i < first + count; ++i) {
      const Triangle& t = leaf_tris_[i];
      double tt, u, v;
      if (intersect_ray_triangle(wr, p[t[0]], p[t[1]], p[t[2]], tt, u, v)) return hit = true;
    }
    return false;
  });
  return hit;
}

int TriangleMeshBvh::count_hits(const Ray& ray) const {
  const WatertightRay wr(ray);
  if (!wr.valid || !(ray.t_min <= ray.t_max)) return 0;
  const Vec3* p = mesh_->positions.data();
  int hits = 0;
  visit_ray_leaves(tree_, fresh_wide(), ray, [&](int first, int count) {
    for (int i = first; i < first + count; ++i) {
      const Triangle& t = leaf_tris_[i];
      double tt, u, v;
      hits += intersect_ray_triangle(wr, p[t[0]], p[t[1]], p[t[2]], tt, u, v);
    }
    return false;
  });
  return hits;
}

void TriangleMeshBvh::intersect(std::span<const Ray> rays, std::span<std::optional<RayHit>> hits,
                                const Executor& executor) const {
  if (hits.size() != rays.size())
    throw InvalidInput("TriangleMeshBvh::intersect: " + std::to_string(hits.size()) + " results for " +
                       std::to_string(rays.size()) + " rays");
  fresh_wide_blocks();  // once here rather than under the lock in every task
  executor.for_each(
      0, rays.size(), [&](std::size_t i) { hits[i] = intersect(rays[i]); }, 64);
}

TriangleMeshBvh::PointQuery TriangleMeshBvh::closest_point_binary(const Vec3& q, double max_distance) const {
  PointQuery best;
  const auto nodes = tree_.nodes();
  const Vec3* p = mesh_->positions.data();
  double best_d2 = max_distance * max_distance;
  const auto pboxes = tree_.primitive_boxes();
  StackEntry stack[Bvh::kMaxDepth + 2];
  int sp = 0;
  const double d_root = nodes[0].box().squared_distance(q);
  if (d_root > best_d2) return best;
  stack[sp++] = {0, d_root};
  while (sp > 0) {
    const StackEntry e = stack[--sp];
    if (e.key > best_d2) continue;
    const BvhNode& n = nodes[e.node];
    if (n.is_leaf()) {
      for (int i = n.index; i < n.index + n.count; ++i) {
        if (pboxes[i].squared_distance(q) > best_d2) continue;  // cheap reject before the exact test
        const Triangle& t = leaf_tris_[i];
        const ClosestPoint cp = closest_point_on_triangle(q, p[t[0]], p[t[1]], p[t[2]]);
        const double d2 = squared_norm(cp.point - q);
        if (d2 < best_d2 || (d2 <= best_d2 && (best.face < 0 || leaf_faces_[i] < best.face))) {
          best_d2 = d2;
          best.face = leaf_faces_[i];
          best.point = cp.point;
          best.u = cp.u;
          best.v = cp.v;
          best.w = cp.w;
        }
      }
      continue;
    }
    const double d0 = nodes[n.index].box().squared_distance(q);
    const double d1 = nodes[n.index + 1].box().squared_distance(q);
    if (d0 <= d1) {
      if (d1 <= best_d2) stack[sp++] = {n.index + 1, d1};
      if (d0 <= best_d2) stack[sp++] = {n.index, d0};
    } else {
      if (d0 <= best_d2) stack[sp++] = {n.index, d0};
      if (d1 <= best_d2) stack[sp++] = {n.index + 1, d1};
    }
  }
  if (best.face >= 0) best.distance = std::sqrt(best_d2);
  return best;
}

template <bool kPairs>
DRAPE_INLINE_ALWAYS TriangleMeshBvh::PointQuery TriangleMeshBvh::closest_point_wide(
    const Vec3& q, double max_distance) const {
  PointQuery best;
  if (tree_.empty() || !is_finite(q) || !(max_distance >= 0)) return best;
  const WidePoint wq(q);
  const BvhWide& wide = fresh_wide_blocks();
  if (!wq.ok || !wide.in_float_range()) return closest_point_binary(q, max_distance);
  const BvhWideNode* nodes = wide.nodes().data();
  const Vec3* p = mesh_->positions.data();
  const TriangleBlock* blocks = lazy_->tri_blocks.data();
  const std::int32_t* block_of = lazy_->block_of.data();
  const PointPretest pre(q);
  double best_d2 = max_distance * max_distance;
  float best_f = float_up(best_d2);
  float best_r = float_up(std::sqrt(best_d2));  // >= the best distance, for the pre-test's bounds
  WideEntry stack[kWideStack];
  int sp = 0;
  WideEntry cur{0, 0, 0.0f};
  auto exact = [&](int i) DRAPE_LAMBDA_INLINE {
    const Triangle& t = leaf_tris_[i];
    const ClosestPoint cp = closest_point_on_triangle(q, p[t[0]], p[t[1]], p[t[2]]);
    const double d2 = squared_norm(cp.point - q);
    // Equally near faces (a shared vertex or edge): the smallest face id, so
    // that the answer does not depend on the traversal order (a wide tree
    // collapsed after a refit orders its lanes differently from one refitted).
    if (d2 < best_d2 || (d2 <= best_d2 && (best.face < 0 || leaf_faces_[i] < best.face))) {
      best_d2 = d2;
      best_f = std::min(best_f, float_up(d2));  // the radius may already be below (upper bounds)
      best_r = std::min(best_r, float_up(std::sqrt(d2)));
      best.face = leaf_faces_[i];
      best.point = cp.point;
      best.u = cp.u;
      best.v = cp.v;
      best.w = cp.w;
    }
  };
  // Exact tests are deferred: a triangle whose lower bound is within the
  // radius is kept as a candidate, and tested only if its bound is still
  // within the radius when the traversal ends (or the list is full). The
  // radius shrinks with the blocks' float upper bounds, so most candidates
  // met on the way are dropped untested (exact tests per query on the body
  // 8.95 -> 3.16). The answer is the same: every face whose computed distance
  // equals the smallest has a bound within every radius, so it is tested.
  constexpr int kCandidates = 32;
  std::int32_t cand[kCandidates + 4];
  float cand_lb[kCandidates + 4];
  int n_cand = 0;
  auto test_candidates = [&]() DRAPE_LAMBDA_INLINE {
    for (int k = 0; k < n_cand; ++k)
      if (!(cand_lb[k] > best_r)) exact(cand[k]);  // NaN bounds are tested
    n_cand = 0;
  };
  // Shrinks the radius to the smallest of the upper bounds and keeps the
  // candidates of one block of `lanes` triangles from `first`.
  auto take_bounds = [&](int first, int lanes, const float* lb, const float* ub) DRAPE_LAMBDA_INLINE {
    float r = ub[0];
    for (int l = 1; l < lanes; ++l) r = std::min(r, ub[l]);
    if (r < best_r) {
      best_r = r;
      best_f = std::min(best_f, float_up(static_cast<double>(r) * r));  // r^2 is exact in double
    }
    for (int l = 0; l < lanes; ++l) {  // branch-free append
      cand[n_cand] = first + l;
      cand_lb[n_cand] = lb[l];
      n_cand += !(lb[l] > best_r);
    }
    if (n_cand > kCandidates - 4) test_candidates();
  };
  for (;;) {
    if (cur.count == 1) {
      exact(cur.child);  // a single primitive's box is the lane's, already tested
#ifdef DRAPE_BVH_F8
    } else if (kPairs && cur.count > 1 && cur.count <= 4 && sp > 0 && stack[sp - 1].count > 1 &&
               stack[sp - 1].count <= 4 && !(stack[sp - 1].key > best_f)) {
      // Two leaves of one block each, the nearest and the next on the stack
      // (often a sibling): their bounds in one 8-lane pass.
      const WideEntry other = stack[--sp];
      const TriangleBlock* b0 = blocks + block_of[cur.child];
      const TriangleBlock* b1 = blocks + block_of[other.child];
      simd::F8 upper;
      alignas(32) float lb[8], ub[8];
      simd::store(lb, pre.bound2(&b0->v[0][0], b0->s, &b1->v[0][0], b1->s, upper));
      simd::store(ub, upper);
      take_bounds(cur.child, cur.count, lb, ub);
      take_bounds(other.child, other.count, lb + 4, ub + 4);
#endif
    } else if (cur.count > 1) {
      // Float lower and upper bounds of the distances to four triangles at a
      // time: the upper bounds shrink the radius, the lower bounds keep the
      // candidates.
      const TriangleBlock* b = blocks + block_of[cur.child];
      for (int j = 0; j < cur.count; j += 4, ++b) {
        simd::F4 upper;
        alignas(16) float lb[4], ub[4];
        simd::store(lb, pre.bound(&b->v[0][0], b->s, upper));
        simd::store(ub, upper);
        take_bounds(cur.child + j, std::min(4, cur.count - j), lb, ub);
      }
    } else {
      const BvhWideNode& n = nodes[cur.child];
      simd::F4 key;
      const int mask = wq.test(n, best_f, key);
      if (mask) {
        // Prefetch what the lanes will read (random points are bound by
        // memory latency: about 30 nodes and 15 leaf blocks per query).
        for (int m = mask; m; m &= m - 1) {
          const int l = std::countr_zero(static_cast<unsigned>(m));
          const char* addr = n.count[l] == 0  ? reinterpret_cast<const char*>(nodes + n.child[l])
                             : n.count[l] > 1 ? reinterpret_cast<const char*>(blocks + block_of[n.child[l]])
                                              : nullptr;
          if (addr) {
            prefetch(addr);
            prefetch(addr + 64);
            prefetch(addr + 128);
          }
        }
        cur = push_sorted(n, mask, key, stack, sp);
        continue;
      }
    }
    do {
      if (sp == 0) {
        test_candidates();
        if (best.face >= 0) best.distance = std::sqrt(best_d2);
        return best;
      }
      cur = stack[--sp];
    } while (cur.key > best_f);
  }
}

#ifdef DRAPE_BVH_AVX2
DRAPE_TARGET_AVX2 std::optional<RayHit> TriangleMeshBvh::intersect_avx2(const Ray& ray) const {
  return intersect_wide(ray);
}
DRAPE_TARGET_AVX2 TriangleMeshBvh::PointQuery TriangleMeshBvh::closest_point_avx2(const Vec3& q,
                                                                                  double max_distance) const {
  return closest_point_wide<DRAPE_BVH_F8_PAIRS>(q, max_distance);
}
#endif

void TriangleMeshBvh::closest_points(std::span<const Vec3> points, std::span<PointQuery> results,
                                     double max_distance, const Executor& executor) const {
  if (results.size() != points.size())
    throw InvalidInput("TriangleMeshBvh::closest_points: " + std::to_string(results.size()) +
                       " results for " + std::to_string(points.size()) + " points");
  fresh_wide_blocks();
  executor.for_each(
      0, points.size(), [&](std::size_t i) { results[i] = closest_point(points[i], max_distance); }, 64);
}

bool TriangleMeshBvh::contains(const Vec3& q) const {
  // A fixed direction with no simple ratios, so typical meshes' edges and
  // symmetry planes are rarely hit; parity is exact regardless.
  const Ray ray{q, {0.4311728093, 0.7642155361, 0.4795384227}, 0.0};
  return count_hits(ray) % 2 == 1;
}

std::vector<std::pair<int, int>> TriangleMeshBvh::intersecting_pairs(const TriangleMeshBvh& other) const {
  std::vector<std::pair<int, int>> out;
  const Vec3* pa = mesh_->positions.data();
  const Vec3* pb = other.mesh_->positions.data();
  tree_.for_each_overlapping_pair(other.tree_, [&](int a, int b) {
    const int fa = faces_[a], fb = other.faces_[b];
    const Triangle& ta = mesh_->faces[fa];
    const Triangle& tb = other.mesh_->faces[fb];
    if (triangles_intersect(pa[ta[0]], pa[ta[1]], pa[ta[2]], pb[tb[0]], pb[tb[1]], pb[tb[2]]))
      out.emplace_back(fa, fb);
  });
  std::sort(out.begin(), out.end());
  return out;
}

const std::vector<std::uint8_t>& TriangleMeshBvh::node_connected() const {
  std::call_once(lazy_->once, [&] {
    const auto nodes = tree_.nodes();
    std::vector<std::uint8_t>& connected = lazy_->connected;
    connected.assign(nodes.size(), 0);
    if (nodes.empty()) return;
    const std::vector<int> parent = tree_.parents();
    std::vector<int> depth(nodes.size(), 0);
    for (std::size_t i = 1; i < nodes.size(); ++i)
      if (parent[i] >= 0) depth[i] = depth[parent[i]] + 1;  // parents precede children
    // Leaf and leaf-order position of every mesh face in the tree.
    std::vector<int> pos_of_face(mesh_->face_count(), -1), leaf_of_pos(leaf_faces_.size(), -1);
    for (std::size_t i = 0; i < leaf_faces_.size(); ++i) pos_of_face[leaf_faces_[i]] = static_cast<int>(i);
    for (std::size_t k = 0; k < nodes.size(); ++k)
      if (nodes[k].is_leaf())
        for (int i = nodes[k].index; i < nodes[k].index + nodes[k].count; ++i)
          leaf_of_pos[i] = static_cast<int>(k);
    // Union-find over leaf positions, used inside leaves only.
    std::vector<int> uf(leaf_faces_.size());
    for (std::size_t i = 0; i < uf.size(); ++i) uf[i] = static_cast<int>(i);
    auto find = [&](int x) {
      while (uf[x] != x) x = uf[x] = uf[uf[x]];
      return x;
    };
    std::vector<int> cross(nodes.size(), 0);
    const MeshAdjacency adj = MeshAdjacency::build(*mesh_);
    for (const MeshEdge& e : adj.edges) {
      if (e.face0 < 0 || e.face1 < 0) continue;
      const int a = pos_of_face[e.face0], b = pos_of_face[e.face1];
      if (a < 0 || b < 0) continue;
      int x = leaf_of_pos[a], y = leaf_of_pos[b];
      if (x == y) {
        uf[find(a)] = find(b);
        continue;
      }
      while (depth[x] > depth[y]) x = parent[x];
      while (depth[y] > depth[x]) y = parent[y];
      while (x != y) {
        x = parent[x];
        y = parent[y];
      }
      ++cross[x];  // this edge joins the two children of their lowest common ancestor
    }
    for (int k = static_cast<int>(nodes.size()) - 1; k >= 0; --k) {
      const BvhNode& n = nodes[k];
      if (n.count < 0) continue;
      if (n.is_leaf()) {
        bool one = true;
        for (int i = n.index + 1; i < n.index + n.count; ++i) one = one && find(i) == find(n.index);
        connected[k] = one;
      } else {
        connected[k] = connected[n.index] && connected[n.index + 1] && cross[k] > 0;
      }
    }
  });
  return lazy_->connected;
}

std::vector<std::pair<int, int>> TriangleMeshBvh::self_intersecting_pairs(double normal_cone_cull_angle,
                                                                          SelfStats* stats) const {
  std::vector<std::pair<int, int>> out;
  SelfStats local;
  const TriangleMesh& m = *mesh_;
  const Vec3* p = m.positions.data();
  auto test = [&](int a, int b) {
    const Triangle& ta = m.faces[faces_[a]];
    const Triangle& tb = m.faces[faces_[b]];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        if (ta[i] == tb[j]) return;  // neighbours share a vertex: not a self-intersection
    ++local.candidate_pairs;
    if (triangles_intersect(p[ta[0]], p[ta[1]], p[ta[2]], p[tb[0]], p[tb[1]], p[tb[2]])) {
      const int fa = faces_[a], fb = faces_[b];
      out.emplace_back(std::min(fa, fb), std::max(fa, fb));
    }
  };
  if (normal_cone_cull_angle <= 0) {
    tree_.for_each_self_overlap(test);
  } else {
    const double limit = std::min(normal_cone_cull_angle, std::numbers::pi / 2);
    const auto& connected = node_connected();
    // Normal cones from the current positions, bottom-up: axis and half-angle.
    const auto nodes = tree_.nodes();
    std::vector<Vec3> axis(nodes.size());
    std::vector<double> half(nodes.size(), std::numbers::pi);
    for (int k = static_cast<int>(nodes.size()) - 1; k >= 0; --k) {
      const BvhNode& n = nodes[k];
      if (n.count < 0) continue;
      if (n.is_leaf()) {
        Vec3 sum;
        bool degenerate = false;
        for (int i = n.index; i < n.index + n.count; ++i) {
          const Triangle& t = leaf_tris_[i];
          const Vec3 nn = normalized(cross(p[t[1]] - p[t[0]], p[t[2]] - p[t[0]]));
          degenerate = degenerate || nn == Vec3{};
          sum += nn;
        }
        const Vec3 ax = normalized(sum);
        if (degenerate || ax == Vec3{}) continue;  // half stays pi: never culled
        double h = 0;
        for (int i = n.index; i < n.index + n.count; ++i) {
          const Triangle& t = leaf_tris_[i];
          h = std::max(h, cone_angle_between(ax, normalized(cross(p[t[1]] - p[t[0]], p[t[2]] - p[t[0]]))));
        }
        axis[k] = ax;
        half[k] = h;
      } else {
        const int l = n.index, r = n.index + 1;
        if (half[l] >= std::numbers::pi || half[r] >= std::numbers::pi) continue;
        const Vec3 ax = normalized(axis[l] + axis[r]);
        if (ax == Vec3{}) continue;
        axis[k] = ax;
        half[k] =
            std::max(cone_angle_between(ax, axis[l]) + half[l], cone_angle_between(ax, axis[r]) + half[r]);
      }
    }
    tree_.for_each_self_overlap(test, [&](int node) {
      const bool skip = connected[node] && half[node] < limit;
      local.culled_nodes += skip;
      return skip;
    });
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (stats) *stats = local;
  return out;
}

}  // namespace drape

// The CCD primitives (continuous_collision.h) against brute force: the exact
// distance between the moving primitives, computed here independently (long
// double, plane projection or edge distances; interior critical point or
// endpoint distances), sampled densely over the step. Thousands of random
// crossings and near misses, and the degenerate cases: parallel edges, a
// vertex moving in the triangle's plane, zero motion, grazing at the gap,
// degenerate triangles and zero-length edges. Asserted for every case:
//  - no false negative: if any sample is within the gap, a hit is reported,
//    at or before the first such sample;
//  - the reported time is at or before the first time within the gap: no
//    sample before it is within the gap, and the distance there is >= gap
//    (less rounding);
//  - a hit is within gap + tolerance at its time (a false positive only
//    reports a near miss within the tolerance);
//  - never capped at the iteration limit.
#include "drape/collision/continuous_collision.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

using namespace drape;

namespace {

using LD = long double;
struct V {
  LD x, y, z;
};
V to_v(const Vec3& a) { return {a.x, a.y, a.z}; }
V sub(V a, V b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V add(V a, V b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V mul(V a, LD s) { return {a.x * s, a.y * s, a.z * s}; }
LD dotv(V a, V b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
V crossv(V a, V b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
LD len(V a) { return std::sqrt(dotv(a, a)); }
V at(const Vec3& p0, const Vec3& p1, LD t) { return add(to_v(p0), mul(sub(to_v(p1), to_v(p0)), t)); }

LD point_segment(V p, V a, V b) {
  const V ab = sub(b, a);
  const LD l2 = dotv(ab, ab);
  LD s = l2 > 0 ? dotv(sub(p, a), ab) / l2 : 0;
  s = std::clamp<LD>(s, 0, 1);
  return len(sub(p, add(a, mul(ab, s))));
}

// Point to triangle: the plane's foot when it lies inside, else the edges.
LD point_triangle(V p, V a, V b, V c) {
  LD best = std::min({point_segment(p, a, b), point_segment(p, b, c), point_segment(p, c, a)});
  const V n = crossv(sub(b, a), sub(c, a));
  const LD n2 = dotv(n, n);
  if (n2 > 1e-30L * dotv(sub(b, a), sub(b, a)) * dotv(sub(c, a), sub(c, a))) {
    const LD h = dotv(sub(p, a), n) / n2;
    const V f = sub(p, mul(n, h));
    // Inside: the three sub-triangles' normals point the same way as n.
    const bool inside = dotv(crossv(sub(b, a), sub(f, a)), n) >= 0 &&
                        dotv(crossv(sub(c, b), sub(f, b)), n) >= 0 &&
                        dotv(crossv(sub(a, c), sub(f, c)), n) >= 0;
    if (inside) best = std::min(best, std::abs(h) * std::sqrt(n2));
  }
  return best;
}

// Segment to segment: the interior critical point when it lies inside both,
// else the four endpoint-to-segment distances.
LD segment_segment(V p0, V p1, V q0, V q1) {
  LD best = std::min({point_segment(p0, q0, q1), point_segment(p1, q0, q1), point_segment(q0, p0, p1),
                      point_segment(q1, p0, p1)});
  const V d1 = sub(p1, p0), d2 = sub(q1, q0), r = sub(p0, q0);
  const LD a = dotv(d1, d1), e = dotv(d2, d2), b = dotv(d1, d2), c = dotv(d1, r), f = dotv(d2, r);
  const LD den = a * e - b * b;
  if (den > 1e-24L * a * e) {
    const LD s = (b * f - c * e) / den, u = (a * f - b * c) / den;
    if (s > 0 && s < 1 && u > 0 && u < 1)
      best = std::min(best, len(sub(add(p0, mul(d1, s)), add(q0, mul(d2, u)))));
  }
  return best;
}

constexpr int kSamples = 2000;
constexpr double kRound = 1e-12;  // rounding allowance, m (coordinates ~0.1 m)

struct Stats {
  int cases = 0, hits = 0, reference_hits = 0;
};

// Checks one query's answer against the sampled reference distance d(t).
void check(const ContinuousContact& r, const std::function<LD(LD)>& d, double gap, double tol, Stats& st,
           const char* what, int k) {
  SCOPED_TRACE(::testing::Message() << what << " case " << k);
  ++st.cases;
  ASSERT_FALSE(r.capped);
  int first = -1;
  for (int i = 0; i <= kSamples && first < 0; ++i)
    if (d(static_cast<LD>(i) / kSamples) <= gap) first = i;
  if (first >= 0) {
    ++st.reference_hits;
    ASSERT_TRUE(r.hit) << "missed: within the gap at t = " << static_cast<double>(first) / kSamples;
    EXPECT_LE(r.t, static_cast<double>(first) / kSamples + 1e-15);
  }
  if (!r.hit) return;
  ++st.hits;
  ASSERT_GE(r.t, 0.0);
  ASSERT_LE(r.t, 1.0);
  const LD dt = d(r.t);
  EXPECT_LE(dt, gap + tol + kRound) << "a hit farther than gap + tolerance";
  EXPECT_NEAR(static_cast<double>(dt), r.distance, 1e-12);
  // At or before the first time within the gap.
  if (r.t > 0) {
    EXPECT_GE(dt, gap - kRound);
  }
  for (int i = 0; i < kSamples && static_cast<double>(i) / kSamples < r.t; ++i)
    ASSERT_GT(d(static_cast<LD>(i) / kSamples), gap - kRound) << "hit reported after contact";
}

struct Rand {
  std::mt19937 rng;
  explicit Rand(unsigned seed) : rng(seed) {}
  double u(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
  Vec3 v(double r) { return {u(-r, r), u(-r, r), u(-r, r)}; }
};

void vt_case(const Vec3& p0, const Vec3& a0, const Vec3& b0, const Vec3& c0, const Vec3& p1, const Vec3& a1,
             const Vec3& b1, const Vec3& c1, double gap, double tol, Stats& st, const char* what, int k) {
  const ContinuousContact r = vertex_triangle_ccd(p0, a0, b0, c0, p1, a1, b1, c1, gap, tol);
  check(
      r, [&](LD t) { return point_triangle(at(p0, p1, t), at(a0, a1, t), at(b0, b1, t), at(c0, c1, t)); },
      gap, tol, st, what, k);
}

void ee_case(const Vec3& p0, const Vec3& q0, const Vec3& r0, const Vec3& s0, const Vec3& p1, const Vec3& q1,
             const Vec3& r1, const Vec3& s1, double gap, double tol, Stats& st, const char* what, int k) {
  const ContinuousContact r = edge_edge_ccd(p0, q0, r0, s0, p1, q1, r1, s1, gap, tol);
  check(
      r, [&](LD t) { return segment_segment(at(p0, p1, t), at(q0, q1, t), at(r0, r1, t), at(s0, s1, t)); },
      gap, tol, st, what, k);
}

constexpr double kGap = 0.0003, kTol = 0.0003;  // a tenth of the 3 mm thickness

}  // namespace

TEST(ContinuousCollision, VertexFallingOntoTriangleHitsJustAboveTheGap) {
  // A vertex from 1 m above to 1 m below a static triangle: contact at
  // t = (1 - gap) / 2, reported within the tolerance before it.
  const Vec3 a{-1, 0, -1}, b{1, 0, -1}, c{0, 0, 1};
  const ContinuousContact r = vertex_triangle_ccd({0, 1, 0}, a, b, c, {0, -1, 0}, a, b, c, kGap, kTol);
  ASSERT_TRUE(r.hit);
  EXPECT_LE(r.t, (1 - kGap) / 2);
  EXPECT_GE(r.t, (1 - kGap - kTol) / 2);
  EXPECT_NEAR(r.direction.y, 1, 1e-12);  // from the triangle towards the vertex: the side it came from
  EXPECT_LE(r.iterations, 8);
  // The same 1 cm beside the triangle's edge plane but outside: no hit.
  EXPECT_FALSE(vertex_triangle_ccd({0, 1, -1.01}, a, b, c, {0, -1, -1.01}, a, b, c, kGap, kTol).hit);
}

TEST(ContinuousCollision, EdgesCrossingHitBeforeTheGap) {
  // Edge a along x at height 1 falls to -1; edge b along z at 0: contact at (1 - gap) / 2.
  const ContinuousContact r = edge_edge_ccd({-1, 1, 0}, {1, 1, 0}, {0, 0, -1}, {0, 0, 1}, {-1, -1, 0},
                                            {1, -1, 0}, {0, 0, -1}, {0, 0, 1}, kGap, kTol);
  ASSERT_TRUE(r.hit);
  EXPECT_LE(r.t, (1 - kGap) / 2);
  EXPECT_GE(r.t, (1 - kGap - kTol) / 2);
  EXPECT_NEAR(r.weights.x, 0.5, 1e-9);
  EXPECT_NEAR(r.weights.y, 0.5, 1e-9);
}

TEST(ContinuousCollision, RandomVertexTriangleAgainstBruteForce) {
  Rand g(17);
  Stats st;
  for (int k = 0; k < 3000; ++k) {
    // A 2 cm triangle near the origin, moving up to 1 cm; a vertex starting
    // 0-3 cm on one side and ending 0-3 cm on the other (crossings, near misses).
    const Vec3 a0 = g.v(0.02), b0 = g.v(0.02), c0 = g.v(0.02);
    const Vec3 a1 = a0 + g.v(0.01), b1 = b0 + g.v(0.01), c1 = c0 + g.v(0.01);
    const Vec3 n = normalized(cross(b0 - a0, c0 - a0));
    const Vec3 mid = (a0 + b0 + c0) / 3.0;
    const Vec3 p0 = mid + n * g.u(0, 0.03) + g.v(0.02);
    const Vec3 p1 = mid - n * g.u(-0.005, 0.03) + g.v(0.02);
    vt_case(p0, a0, b0, c0, p1, a1, b1, c1, kGap, kTol, st, "random vt", k);
  }
  // Both outcomes occur often: the cases test something.
  EXPECT_GT(st.reference_hits, 300);
  EXPECT_LT(st.reference_hits, st.cases - 300);
  // False positives (hits with no sample within the gap) are rare near misses.
  EXPECT_LT(st.hits - st.reference_hits, st.cases / 10);
}

TEST(ContinuousCollision, RandomEdgeEdgeAgainstBruteForce) {
  Rand g(18);
  Stats st;
  for (int k = 0; k < 3000; ++k) {
    const Vec3 r0 = g.v(0.02), s0 = g.v(0.02);
    const Vec3 r1 = r0 + g.v(0.01), s1 = s0 + g.v(0.01);
    const Vec3 off = g.v(0.03);
    const Vec3 p0 = g.v(0.02) + off, q0 = g.v(0.02) + off;
    const Vec3 p1 = p0 - off * g.u(1, 2.5) + g.v(0.005), q1 = q0 - off * g.u(1, 2.5) + g.v(0.005);
    ee_case(p0, q0, r0, s0, p1, q1, r1, s1, kGap, kTol, st, "random ee", k);
  }
  EXPECT_GT(st.reference_hits, 300);
  EXPECT_LT(st.reference_hits, st.cases - 300);
  EXPECT_LT(st.hits - st.reference_hits, st.cases / 10);
}

TEST(ContinuousCollision, DegenerateCasesAgainstBruteForce) {
  Rand g(19);
  Stats st;
  const Vec3 a{-0.02, 0, -0.02}, b{0.02, 0, -0.02}, c{0, 0, 0.02};
  for (int k = 0; k < 500; ++k) {
    // A vertex moving in the triangle's plane (through it, beside it, or parallel to an edge).
    const Vec3 p0{g.u(-0.04, 0.04), 0, g.u(-0.04, 0.04)}, p1{g.u(-0.04, 0.04), 0, g.u(-0.04, 0.04)};
    vt_case(p0, a, b, c, p1, a, b, c, kGap, kTol, st, "in plane", k);
    // Zero motion at a height around the gap.
    const Vec3 q{g.u(-0.03, 0.03), g.u(0, 3 * kGap), g.u(-0.03, 0.03)};
    vt_case(q, a, b, c, q, a, b, c, kGap, kTol, st, "zero motion", k);
    // Grazing: sliding across at a constant height just under or over the gap.
    const double y = kGap * g.u(0.5, 1.5);
    vt_case({-0.05, y, g.u(-0.03, 0.03)}, a, b, c, {0.05, y, g.u(-0.03, 0.03)}, a, b, c, kGap, kTol, st,
            "grazing", k);
    // Vertex and triangle moving together (zero relative motion), then with a tiny one.
    const Vec3 d = g.v(0.05), e = g.v(1e-7);
    vt_case(q, a, b, c, q + d + e, a + d, b + d, c + d, kGap, kTol, st, "common motion", k);
    // Degenerate triangles: collinear corners, and all three at one point.
    const Vec3 m = g.v(0.02), dir = g.v(0.02);
    const Vec3 pp0 = g.v(0.03), pp1 = g.v(0.03);
    vt_case(pp0, m, m + dir, m + dir * 2.0, pp1, m, m + dir, m + dir * 2.0, kGap, kTol, st, "collinear", k);
    vt_case(pp0, m, m, m, pp1, m + dir * 0.1, m + dir * 0.1, m + dir * 0.1, kGap, kTol, st, "point triangle",
            k);
    // A triangle that flattens to a segment during the step while the vertex crosses it.
    vt_case({0, 0.01, 0}, a, b, c, {0, -0.01, 0}, a, b, Vec3{0, 0, -0.02}, kGap, kTol, st, "collapsing", k);
  }
  for (int k = 0; k < 500; ++k) {
    // Parallel edges approaching (in a common plane and one above the other), overlapping or not.
    const Vec3 dir = normalized(g.v(1)) * g.u(0.005, 0.03);
    const Vec3 side = normalized(cross(dir, g.v(1)));
    const Vec3 r0 = g.v(0.01), shift = dir * g.u(-1.5, 1.5);
    const Vec3 p0 = r0 + shift + side * g.u(0.002, 0.02);
    const Vec3 p1 = r0 + shift + side * g.u(-0.02, 0.002);
    ee_case(p0, p0 + dir, r0, r0 + dir, p1, p1 + dir, r0, r0 + dir, kGap, kTol, st, "parallel", k);
    // Collinear edges sliding along their common line.
    ee_case(r0 + dir * 2.0, r0 + dir * 3.0, r0, r0 + dir, r0 - dir * g.u(0, 2), r0 + dir * g.u(0, 2), r0,
            r0 + dir, kGap, kTol, st, "collinear edges", k);
    // Zero-length edges (a point against an edge, a point against a point).
    const Vec3 q0 = g.v(0.02), q1 = g.v(0.02);
    ee_case(q0, q0, r0, r0 + dir, q1, q1, r0, r0 + dir, kGap, kTol, st, "point edge", k);
    ee_case(q0, q0, r0, r0, q1, q1, r0, r0, kGap, kTol, st, "point point", k);
    // Zero motion, at a distance around the gap.
    const Vec3 up = side * g.u(0, 3 * kGap);
    ee_case(r0 + up, r0 + up + dir, r0, r0 + dir, r0 + up, r0 + up + dir, r0, r0 + dir, kGap, kTol, st,
            "ee zero motion", k);
    // Grazing: one edge sweeping across the other at a height around the gap.
    const Vec3 other = normalized(cross(side, dir));
    const Vec3 h = side * (kGap * g.u(0.5, 1.5));
    ee_case(r0 + h - other * 0.03, r0 + h - other * 0.03 + other * 0.01 + dir * 0.2, r0, r0 + dir,
            r0 + h + other * 0.03, r0 + h + other * 0.03 + other * 0.01 + dir * 0.2, r0, r0 + dir, kGap, kTol,
            st, "ee grazing", k);
  }
  EXPECT_GT(st.reference_hits, 1000);
}

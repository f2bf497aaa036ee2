// Exact triangle primitives (geometry/triangle_queries.h) against analytic
// answers, integer-exact separating-axis tests and 128-bit integer arithmetic.

#include "drape/geometry/triangle_queries.h"

#include <gtest/gtest.h>

#include <random>

#include "test_meshes.h"

using namespace drape;
using namespace drape::test;

TEST(RayTriangle, IssueVectorHitsAtTwoThirds) {
  double t, u, v;
  const Ray ray{{0, 0, 0}, {1, 1, 1}};
  ASSERT_TRUE(intersect_ray_triangle(ray, {1, 1, 0}, {0, 1, 1}, {1, 0, 1}, t, u, v));
  const Vec3 hit = ray.origin + ray.direction * t;
  EXPECT_NEAR(hit.x, 2.0 / 3, 1e-15);
  EXPECT_NEAR(hit.y, 2.0 / 3, 1e-15);
  EXPECT_NEAR(hit.z, 2.0 / 3, 1e-15);
  EXPECT_NEAR(u, 1.0 / 3, 1e-15);
  EXPECT_NEAR(v, 1.0 / 3, 1e-15);
  // Barycentrics reproduce the hit point.
  const Vec3 bary = Vec3{1, 1, 0} * (1 - u - v) + Vec3{0, 1, 1} * u + Vec3{1, 0, 1} * v;
  EXPECT_NEAR(norm(bary - hit), 0, 1e-15);
}

TEST(RayTriangle, ZeroDirectionAndRangeMiss) {
  double t, u, v;
  EXPECT_FALSE(intersect_ray_triangle(Ray{{0, 0, 0}, {0, 0, 0}}, {1, 1, 0}, {0, 1, 1}, {1, 0, 1}, t, u, v));
  EXPECT_FALSE(
      intersect_ray_triangle(Ray{{0, 0, 0}, {1, 1, 1}, 0, 0.5}, {1, 1, 0}, {0, 1, 1}, {1, 0, 1}, t, u, v));
  EXPECT_FALSE(
      intersect_ray_triangle(Ray{{0, 0, 0}, {-1, -1, -1}}, {1, 1, 0}, {0, 1, 1}, {1, 0, 1}, t, u, v));
  EXPECT_FALSE(intersect_ray_triangle(Ray{{0, 0, 0}, {NAN, 1, 1}}, {1, 1, 0}, {0, 1, 1}, {1, 0, 1}, t, u, v));
  // Backfaces count too.
  EXPECT_TRUE(intersect_ray_triangle(Ray{{0, 0, 0}, {1, 1, 1}}, {1, 1, 0}, {1, 0, 1}, {0, 1, 1}, t, u, v));
}

namespace {
// Hits of the ray on the mesh at (almost) the same t as the first hit, and the total.
struct HitCount {
  int total = 0, at_entry = 0;
};
HitCount hits(const TriangleMesh& m, const Ray& ray) {
  std::vector<double> ts;
  for (const Triangle& f : m.faces) {
    double t, u, v;
    if (intersect_ray_triangle(ray, m.positions[f[0]], m.positions[f[1]], m.positions[f[2]], t, u, v))
      ts.push_back(t);
  }
  HitCount h;
  h.total = static_cast<int>(ts.size());
  if (!ts.empty()) {
    const double t0 = *std::min_element(ts.begin(), ts.end());
    for (double t : ts) h.at_entry += std::abs(t - t0) < 1e-9;
  }
  return h;
}

// Targets on the surface of a convex shape where several faces meet.
void expect_single_entry(const TriangleMesh& m, const std::vector<Vec3>& targets, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-0.25, 0.25);
  for (const Vec3& x : targets) {
    for (int k = 0; k < 20; ++k) {
      // Inward direction (to the centre) with a perturbation that keeps it inward;
      // the origin is placed so that the ray passes exactly through x (k == 0:
      // unperturbed, an exactly axis- or diagonal-aligned ray).
      Vec3 dir = normalized(-x);
      if (k > 0) dir = dir + Vec3{d(rng), d(rng), d(rng)};
      const Ray ray{x - dir * 3.0, dir};
      double t, u, v;
      (void)t, (void)u, (void)v;
      const HitCount h = hits(m, ray);
      EXPECT_EQ(h.total, 2) << "target " << x.x << "," << x.y << "," << x.z << " try " << k;
      EXPECT_EQ(h.at_entry, 1) << "target " << x.x << "," << x.y << "," << x.z << " try " << k;
    }
  }
}
}  // namespace

TEST(RayTriangle, WatertightThroughCubeVerticesAndEdges) {
  const TriangleMesh m = cube();
  std::vector<Vec3> targets;
  for (const Vec3& p : m.positions) targets.push_back(p);  // corners: 3 to 6 faces meet
  for (const Triangle& f : m.faces)
    for (int i = 0; i < 3; ++i) targets.push_back((m.positions[f[i]] + m.positions[f[(i + 1) % 3]]) * 0.5);
  expect_single_entry(m, targets, 1);
}

TEST(RayTriangle, WatertightThroughOctahedronVerticesAndEdges) {
  const TriangleMesh m = octahedron();
  std::vector<Vec3> targets(m.positions.begin(), m.positions.end());
  for (const Triangle& f : m.faces)
    for (int i = 0; i < 3; ++i) targets.push_back((m.positions[f[i]] + m.positions[f[(i + 1) % 3]]) * 0.5);
  expect_single_entry(m, targets, 2);
}

TEST(RayTriangle, GrazingRaysCrossAnEvenNumberOfTimes) {
  // Rays lying in the cube's face planes and along its edges: touching is not crossing.
  const TriangleMesh m = cube();
  const std::vector<Ray> rays = {{{-5, 1, 0}, {1, 0, 0}},  {{-5, 1, 1}, {1, 0, 0}},
                                 {{0, 1, -5}, {0, 0, 1}},  {{-5, -5, 1}, {1, 1, 0}},
                                 {{-5, 1, -5}, {1, 0, 1}}, {{-3, -1, 1}, {1, 1, 0}}};
  for (const Ray& r : rays) EXPECT_EQ(hits(m, r).total % 2, 0);
}

TEST(ClosestPoint, MatchesDenseSamplingOnRandomTriangles) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int it = 0; it < 200; ++it) {
    const Vec3 a{u(rng), u(rng), u(rng)}, b{u(rng), u(rng), u(rng)}, c{u(rng), u(rng), u(rng)};
    const Vec3 p{2 * u(rng), 2 * u(rng), 2 * u(rng)};
    const ClosestPoint cp = closest_point_on_triangle(p, a, b, c);
    EXPECT_GE(cp.u, -1e-12);
    EXPECT_GE(cp.v, -1e-12);
    EXPECT_GE(cp.w, -1e-12);
    EXPECT_NEAR(cp.u + cp.v + cp.w, 1, 1e-12);
    EXPECT_NEAR(norm(a * cp.u + b * cp.v + c * cp.w - cp.point), 0, 1e-12);
    const double d = norm(cp.point - p);
    double best = INFINITY;
    const int n = 150;
    for (int i = 0; i <= n; ++i)
      for (int j = 0; i + j <= n; ++j) {
        const double s = double(i) / n, t = double(j) / n;
        best = std::min(best, norm(a + (b - a) * s + (c - a) * t - p));
      }
    EXPECT_LE(d, best + 1e-12);
    EXPECT_GE(d, best - 2 * (norm(b - a) + norm(c - a)) / n);
  }
}

TEST(ClosestPoint, ZeroAreaTriangles) {
  // Collinear: closest point of the segment [(0,0,0), (2,0,0)].
  ClosestPoint cp = closest_point_on_triangle({1, 1, 0}, {0, 0, 0}, {1, 0, 0}, {2, 0, 0});
  EXPECT_NEAR(norm(cp.point - Vec3{1, 0, 0}), 0, 1e-15);
  cp = closest_point_on_triangle({3, 1, 0}, {0, 0, 0}, {2, 0, 0}, {1, 0, 0});
  EXPECT_NEAR(norm(cp.point - Vec3{2, 0, 0}), 0, 1e-15);
  EXPECT_NEAR(norm(Vec3{0, 0, 0} * cp.u + Vec3{2, 0, 0} * cp.v + Vec3{1, 0, 0} * cp.w - cp.point), 0, 1e-15);
  // A point.
  cp = closest_point_on_triangle({1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0});
  EXPECT_EQ(cp.point, (Vec3{0, 0, 0}));
}

namespace {
// Separating-axis test, exact for small integer coordinates.
bool sat_intersect(const Vec3 (&a)[3], const Vec3 (&b)[3]) {
  const Vec3 ea[3] = {a[1] - a[0], a[2] - a[1], a[0] - a[2]};
  const Vec3 eb[3] = {b[1] - b[0], b[2] - b[1], b[0] - b[2]};
  const Vec3 na = cross(ea[0], ea[1]), nb = cross(eb[0], eb[1]);
  std::vector<Vec3> axes = {na, nb};
  for (auto& x : ea)
    for (auto& y : eb) axes.push_back(cross(x, y));
  for (auto& x : ea) axes.push_back(cross(na, x));
  for (auto& y : eb) axes.push_back(cross(nb, y));
  for (const Vec3& ax : axes) {
    if (ax == Vec3{}) continue;
    double a0 = INFINITY, a1 = -INFINITY, b0 = INFINITY, b1 = -INFINITY;
    for (auto& p : a) a0 = std::min(a0, dot(p, ax)), a1 = std::max(a1, dot(p, ax));
    for (auto& p : b) b0 = std::min(b0, dot(p, ax)), b1 = std::max(b1, dot(p, ax));
    if (a1 < b0 || b1 < a0) return false;
  }
  return true;
}
}  // namespace

TEST(TriangleTriangle, MatchesExactSatOnIntegerGrid) {
  // Coordinates in {0..3}: many coplanar, touching and edge-on-edge cases.
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> g(0, 3);
  int positives = 0, coplanar = 0, n = 0;
  while (n < 20000) {
    Vec3 a[3], b[3];
    for (auto& p : a) p = {double(g(rng)), double(g(rng)), double(g(rng))};
    for (auto& p : b) p = {double(g(rng)), double(g(rng)), double(g(rng))};
    if (cross(a[1] - a[0], a[2] - a[0]) == Vec3{} || cross(b[1] - b[0], b[2] - b[0]) == Vec3{}) continue;
    ++n;
    const bool expect = sat_intersect(a, b);
    positives += expect;
    coplanar += orient3d_sign(a[0], a[1], a[2], b[0]) == 0 && orient3d_sign(a[0], a[1], a[2], b[1]) == 0 &&
                orient3d_sign(a[0], a[1], a[2], b[2]) == 0;
    ASSERT_EQ(triangles_intersect(a[0], a[1], a[2], b[0], b[1], b[2]), expect)
        << "case " << n << ": (" << a[0].x << a[0].y << a[0].z << ")(" << a[1].x << a[1].y << a[1].z << ")("
        << a[2].x << a[2].y << a[2].z << ") vs (" << b[0].x << b[0].y << b[0].z << ")(" << b[1].x << b[1].y
        << b[1].z << ")(" << b[2].x << b[2].y << b[2].z << ")";
    ASSERT_EQ(triangles_intersect(b[0], b[1], b[2], a[0], a[1], a[2]), expect);
    ASSERT_EQ(triangles_intersect(a[1], a[2], a[0], b[2], b[1], b[0]), expect);
  }
  EXPECT_GT(positives, 1000);
  EXPECT_GT(coplanar, 40);
}

TEST(TriangleTriangle, MatchesSatOnRandomDoubles) {
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> u(0, 1);
  int positives = 0;
  for (int n = 0; n < 20000; ++n) {
    Vec3 a[3], b[3];
    for (auto& p : a) p = {u(rng), u(rng), u(rng)};
    for (auto& p : b) p = {u(rng), u(rng), u(rng)};
    const bool expect = sat_intersect(a, b);
    positives += expect;
    ASSERT_EQ(triangles_intersect(a[0], a[1], a[2], b[0], b[1], b[2]), expect) << n;
  }
  EXPECT_GT(positives, 1000);
}

TEST(TriangleTriangle, DegenerateTriangles) {
  const Vec3 a{0, 0, 0}, b{2, 0, 0}, c{0, 2, 0};
  // A segment (zero-area triangle) piercing the triangle.
  EXPECT_TRUE(triangles_intersect({0.5, 0.5, -1}, {0.5, 0.5, 1}, {0.5, 0.5, 0}, a, b, c));
  EXPECT_TRUE(triangles_intersect(a, b, c, {0.5, 0.5, -1}, {0.5, 0.5, 1}, {0.5, 0.5, 0}));
  EXPECT_FALSE(triangles_intersect({3, 3, -1}, {3, 3, 1}, {3, 3, 0}, a, b, c));
  // A point on the triangle, and just off it.
  EXPECT_TRUE(triangles_intersect({1, 1, 0}, {1, 1, 0}, {1, 1, 0}, a, b, c));
  EXPECT_FALSE(triangles_intersect({1, 1, 1e-300}, {1, 1, 1e-300}, {1, 1, 1e-300}, a, b, c));
  // Coplanar segment crossing an edge, and one outside.
  EXPECT_TRUE(triangles_intersect({-1, 1, 0}, {1, 1, 0}, {0, 1, 0}, a, b, c));
  EXPECT_FALSE(triangles_intersect({-1, 3, 0}, {3, 3, 0}, {1, 3, 0}, a, b, c));
  // Two zero-area triangles: crossing segments, parallel ones, skew ones.
  EXPECT_TRUE(triangles_intersect({0, 0, 0}, {2, 2, 0}, {1, 1, 0}, {0, 2, 0}, {2, 0, 0}, {1, 1, 0}));
  EXPECT_FALSE(triangles_intersect({0, 0, 0}, {2, 2, 0}, {1, 1, 0}, {0, 1, 0}, {2, 3, 0}, {1, 2, 0}));
  EXPECT_FALSE(triangles_intersect({0, 0, 0}, {2, 2, 0}, {1, 1, 0}, {0, 2, 1}, {2, 0, 1}, {1, 1, 1}));
  EXPECT_TRUE(triangles_intersect({0, 0, 0}, {2, 0, 0}, {1, 0, 0}, {1.5, 0, 0}, {3, 0, 0}, {2, 0, 0}));
  // A sliver whose rounded normal is zero, and a coplanar point beside it
  // (found by the degenerate-mesh test: the projection must be chosen exactly).
  const double z = 0.014848302370644179;
  const Vec3 s0{0.60235591243190523, -0.0064999318062074875, z},
      s1{0.62235591243190524, 0.0035000681937925127, z}, s2{0.64235591243190526, 0.013500068193792514, z},
      pt{0.60235591243190523, 0.023500068193792512, z};
  EXPECT_FALSE(triangles_intersect(s0, s1, s2, pt, pt, pt));
  EXPECT_FALSE(triangles_intersect(pt, pt, pt, s0, s1, s2));
  EXPECT_TRUE(triangles_intersect(s0, s1, s2, s1, s1, s1));
}

TEST(ExactPredicates, Orient2dMatchesInt128) {
  // Nearly collinear points with coordinates up to 2^52 (exact doubles); the
  // reference determinant is computed in 128-bit integers.
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<long long> big(-(1LL << 50), 1LL << 50), small(-3, 3);
  int zeros = 0;
  for (int it = 0; it < 20000; ++it) {
    const long long ax = big(rng), ay = big(rng), dx = big(rng) / 4, dy = big(rng) / 4;
    const long long bx = ax + dx, by = ay + dy;
    const long long cx = ax + 2 * dx + small(rng), cy = ay + 2 * dy + small(rng);
    const __int128 det = (__int128)(ax - cx) * (by - cy) - (__int128)(ay - cy) * (bx - cx);
    const int expect = (det > 0) - (det < 0);
    zeros += expect == 0;
    ASSERT_EQ(orient2d_sign({double(ax), double(ay)}, {double(bx), double(by)}, {double(cx), double(cy)}),
              expect)
        << it;
  }
  EXPECT_GT(zeros, 100);
}

TEST(ExactPredicates, Orient3dOnNearlyCoplanarPoints) {
  // d = a + s (b - a) + t (c - a) + tiny offset along the normal, with exact
  // integer coordinates: the sign follows the offset; zero offset gives 0.
  std::mt19937_64 rng(6);
  std::uniform_int_distribution<long long> big(-(1LL << 20), 1LL << 20), st(-4, 4), off(-1, 1);
  for (int it = 0; it < 20000; ++it) {
    const long long a[3] = {big(rng), big(rng), big(rng)}, e1[3] = {big(rng), big(rng), big(rng)},
                    e2[3] = {big(rng), big(rng), big(rng)};
    const long long s = st(rng), t = st(rng);
    long long d[3];
    for (int k = 0; k < 3; ++k) d[k] = a[k] + s * e1[k] + t * e2[k];
    d[it % 3] += off(rng);
    auto v = [](const long long* p) { return Vec3{double(p[0]), double(p[1]), double(p[2])}; };
    long long b[3], c[3];
    for (int k = 0; k < 3; ++k) b[k] = a[k] + e1[k], c[k] = a[k] + e2[k];
    // det[a-d; b-d; c-d] in 128-bit integers
    __int128 m[3][3];
    for (int k = 0; k < 3; ++k) m[0][k] = a[k] - d[k], m[1][k] = b[k] - d[k], m[2][k] = c[k] - d[k];
    const __int128 det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                         m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                         m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    ASSERT_EQ(orient3d_sign(v(a), v(b), v(c), v(d)), (det > 0) - (det < 0)) << it;
  }
}

TEST(ExactPredicates, Orient3dInAnAxisPlane) {
  // Four points with one coordinate equal (a garment's and a body's vertices on
  // a symmetry plane): exactly coplanar, 0 without exact arithmetic; just off
  // the plane on either side gives opposite, non-zero signs.
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  for (int it = 0; it < 3000; ++it) {
    const int k = it % 3;
    const double plane = it % 2 ? 0.0 : u(rng);
    Vec3 p[4];
    for (Vec3& q : p) {
      q = {u(rng), u(rng), u(rng)};
      q[k] = plane;
    }
    ASSERT_EQ(orient3d_sign(p[0], p[1], p[2], p[3]), 0) << it;
    Vec3 up = p[3], down = p[3];
    // (Off 0 by 1e-200 rather than one ulp, 5e-324: the exact arithmetic's
    // products would underflow.)
    up[k] = plane == 0 ? 1e-200 : std::nextafter(plane, 1.0);
    down[k] = plane == 0 ? -1e-200 : std::nextafter(plane, -1.0);
    const int s_up = orient3d_sign(p[0], p[1], p[2], up), s_down = orient3d_sign(p[0], p[1], p[2], down);
    // Non-zero unless a, b, c are collinear in the plane (then every d is coplanar).
    if (orient2d_sign({p[0][(k + 1) % 3], p[0][(k + 2) % 3]}, {p[1][(k + 1) % 3], p[1][(k + 2) % 3]},
                      {p[2][(k + 1) % 3], p[2][(k + 2) % 3]}) == 0)
      continue;
    EXPECT_NE(s_up, 0) << it;
    EXPECT_EQ(s_up, -s_down) << it;
  }
  // Coplanar triangles in the plane y = 0.25: overlapping, then apart.
  const Vec3 a{0, 0.25, 0}, b{1, 0.25, 0}, c{0, 0.25, 1};
  EXPECT_TRUE(triangles_intersect(a, b, c, {0.2, 0.25, 0.2}, {2, 0.25, 0.2}, {0.2, 0.25, 2}));
  EXPECT_FALSE(triangles_intersect(a, b, c, {0.6, 0.25, 0.6}, {2, 0.25, 0.6}, {0.6, 0.25, 2}));
}

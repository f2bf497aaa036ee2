// BodyCollider::sweep_vertex against a brute force over every body face
// (vertex_triangle_ccd on each, the same acceptance rules): the tree's
// candidates, grown by the body's move over the step, miss no face, for a
// still and for a moving (translated and scaled) sphere; and a vertex
// leaving the body from inside is let go.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "../cloth/test_shapes.h"
#include "drape/collision/body_collider.h"
#include "drape/collision/continuous_collision.h"

using namespace drape;
using namespace drape::test;

namespace {

constexpr double kH = 0.003, kGap = 0.0003, kTol = 0.0003;

// The earliest accepted hit over all faces: from the front at the time of
// impact, ending less than kH in front of the face's plane at the step's end.
struct Brute {
  int face = -1;
  double t = 1;
};
Brute brute_force(const TriangleMesh& start, const TriangleMesh& end, const Vec3& x0, const Vec3& x1) {
  Brute b;
  for (std::size_t f = 0; f < end.face_count(); ++f) {
    const Triangle& t = end.faces[f];
    const Vec3 &a0 = start.positions[t[0]], &b0 = start.positions[t[1]], &c0 = start.positions[t[2]];
    const Vec3 &a1 = end.positions[t[0]], &b1 = end.positions[t[1]], &c1 = end.positions[t[2]];
    const ContinuousContact c = vertex_triangle_ccd(x0, a0, b0, c0, x1, a1, b1, c1, kGap, kTol);
    if (!c.hit || c.t > b.t) continue;
    const double s = c.t;
    const Vec3 at = a0 + (a1 - a0) * s, bt = b0 + (b1 - b0) * s, ct = c0 + (c1 - c0) * s;
    const Vec3 from = c.distance > 0 ? c.direction : x0 - (a0 + b0 + c0) / 3.0;
    if (!(dot(from, cross(bt - at, ct - at)) > 0)) continue;
    const Vec3 q = a1 * c.weights.x + b1 * c.weights.y + c1 * c.weights.z;
    if (dot(x1 - q, end.face_normal(f)) >= kH) continue;
    if (c.t == b.t && b.face >= 0 && static_cast<int>(f) > b.face) continue;
    b.face = static_cast<int>(f);
    b.t = c.t;
  }
  return b;
}

void compare(BodyCollider& collider, const TriangleMesh& start, const TriangleMesh& end, bool moving,
             double reach, unsigned seed, int& hits) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int k = 0; k < 400; ++k) {
    // Segments from around the sphere (radius 0.1) to a random point near it: crossings, grazes, misses.
    const Vec3 x0 = normalized(Vec3{u(rng), u(rng), u(rng)}) * (0.1 + 0.03 * u(rng));
    const Vec3 x1 = x0 + Vec3{u(rng), u(rng), u(rng)} * 0.06;
    const BodyCollider::SweptContact s = collider.sweep_vertex(
        x0, x1, 0, kGap, kTol, kH, moving ? std::span<const Vec3>(start.positions) : std::span<const Vec3>(),
        reach);
    const Brute b = brute_force(start, end, x0, x1);
    ASSERT_EQ(s.face, b.face) << "case " << k;
    if (b.face >= 0) {
      ++hits;
      EXPECT_EQ(s.t, b.t);
      EXPECT_NEAR(dot(s.normal, end.face_normal(b.face)), 1, 1e-12);
    }
  }
}

}  // namespace

TEST(BodySweep, StillBodyFindsTheBruteForceEarliestFace) {
  const TriangleMesh sphere = uv_sphere(0.1, {0, 0, 0}, 12, 24);
  BodyCollider collider(sphere, {});
  ASSERT_EQ(collider.group_for_mask(body_region::all), 0);
  int hits = 0;
  compare(collider, sphere, sphere, false, 0, 5, hits);
  EXPECT_GT(hits, 40);
}

TEST(BodySweep, MovingBodyFindsTheBruteForceEarliestFace) {
  // The sphere moves 4 cm and grows by 30 % over the step: far more than the
  // segments' box, so only the reach keeps the candidates complete.
  const TriangleMesh sphere = uv_sphere(0.1, {0, 0, 0}, 12, 24);
  TriangleMesh moved = sphere;
  double reach = 0;
  for (std::size_t v = 0; v < moved.positions.size(); ++v) {
    moved.positions[v] = moved.positions[v] * 1.3 + Vec3{0.04, 0, 0};
    reach = std::max(reach, norm(moved.positions[v] - sphere.positions[v]));
  }
  BodyCollider collider(sphere, {});
  ASSERT_EQ(collider.group_for_mask(body_region::all), 0);
  collider.move_vertices(moved.positions);
  int hits = 0;
  compare(collider, sphere, moved, true, reach, 6, hits);
  EXPECT_GT(hits, 40);
  // A still vertex in the sphere's way is hit by the growing surface.
  const BodyCollider::SweptContact s =
      collider.sweep_vertex({0.125, 0, 0}, {0.125, 0, 0}, 0, kGap, kTol, kH, sphere.positions, reach);
  EXPECT_GE(s.face, 0);
}

TEST(BodySweep, VertexLeavingTheBodyIsLetGo) {
  const TriangleMesh sphere = uv_sphere(0.1, {0, 0, 0}, 12, 24);
  BodyCollider collider(sphere, {});
  ASSERT_EQ(collider.group_for_mask(body_region::all), 0);
  // From inside out through the surface: no answer.
  EXPECT_LT(collider.sweep_vertex({0, 0.05, 0}, {0, 0.15, 0}, 0, kGap, kTol, kH, {}, 0).face, 0);
  // The reverse, from outside in: the face at the top, the vertex came from above.
  const BodyCollider::SweptContact in =
      collider.sweep_vertex({0, 0.15, 0}, {0, 0.05, 0}, 0, kGap, kTol, kH, {}, 0);
  ASSERT_GE(in.face, 0);
  EXPECT_GT(in.normal.y, 0.9);
  EXPECT_NEAR(in.t, 0.5, 0.01);  // the surface at the top, y ~ 0.1, halfway
}

// SelfCollider::resolve skips a vertex's (an edge's) candidates when a
// distance bound from an earlier call, less how far both sides can have moved
// since, shows that none can be within the thickness. Its answers must be those of a
// collider that tests every candidate, on every call.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "../cloth/test_shapes.h"
#include "drape/collision/self_collider.h"

using namespace drape;
using namespace drape::test;

TEST(SelfColliderBounds, SkippingAnswersLikeTestingEveryCandidate) {
  // Two wavy 20 x 16 sheets of 10 mm spacing, the upper one 5 mm above and
  // turned 30 degrees, waves in opposite phase (1-9 mm apart): pairs at every
  // distance from touching to the candidate radius. Every call all vertices
  // jitter a little (0.02-0.1 mm, bounds reused); every tenth call a patch of
  // the upper sheet is pressed towards the lower one by up to 1.5 mm for a
  // call (bounds near it must not be trusted); some vertices swing back and
  // forth (a vertex caught on the body does that). The reference is a collider made
  // afresh on every call: a full search, every candidate tested.
  GarmentMesh g;
  const double h = 0.01, c = std::cos(0.5236), s = std::sin(0.5236);
  add_grid_panel(g, 20, 16, h, {0, 0, 0}, {1, 0, 0}, {0, 0, 1});
  add_grid_panel(g, 20, 16, h, {0.02, 0.005, -0.02}, {c, 0, s}, {-s, 0, c});
  for (std::size_t v = 0; v < g.mesh.positions.size(); ++v) {
    Vec3& p = g.mesh.positions[v];
    const double w = 0.002 * std::sin(p.x * 40) * std::sin(p.z * 30);
    p.y += v < 320 ? w : -w;
  }
  const double thickness = 0.003, cone = 0.35;
  std::vector<Vec3> x = g.mesh.positions;
  const std::size_t n = x.size();
  const std::vector<double> w(n, 1.0);
  SelfCollider bounded(g.mesh.faces, x, thickness, cone);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> unit(-1, 1), centre(0.03, 0.17);
  std::size_t skipped = 0, contacts = 0;
  std::vector<double> press(n, 0.0);
  for (int call = 0; call < 150; ++call) {
    const std::vector<Vec3> x_prev = x;
    const double jitter = call % 3 == 0 ? 1e-4 : 2e-5;
    for (Vec3& p : x) p += Vec3{unit(rng), unit(rng), unit(rng)} * jitter;
    if (call % 10 == 9) {  // a patch of the upper sheet pressed down for one call
      const Vec3 at{centre(rng), 0, centre(rng) - 0.05};
      for (std::size_t v = 320; v < n; ++v) {
        const double r = std::hypot(x[v].x - at.x, x[v].z - at.z);
        press[v] = r < 0.03 ? 0.0015 * (1 - r / 0.03) : 0.0;
        x[v].y -= press[v];
      }
    } else if (call % 10 == 0) {
      for (std::size_t v = 320; v < n; ++v) x[v].y += press[v];
    }
    // Every twelfth vertex of the upper sheet swings 1.4 mm above and below
    // where it was: a bound taken above must not be trusted below (it moved
    // its offset then plus its offset now, twice 1.4 mm, not 1.4 mm).
    const auto swing = [](int k) { return k <= 0 ? 0.0 : k % 2 ? 0.0014 : -0.0014; };
    for (std::size_t v = 320; v < n; v += 12) x[v].y += swing(call) - swing(call - 1);
    std::vector<Vec3> y = x;
    SelfCollider fresh(g.mesh.faces, y, thickness, cone);
    const SelfCollisionStats a = bounded.resolve(x, x_prev, w, Executor::global());
    const SelfCollisionStats b = fresh.resolve(y, x_prev, w, Executor::global());
    ASSERT_EQ(b.items_skipped, 0u);
    ASSERT_EQ(a.vertex_triangle_contacts, b.vertex_triangle_contacts) << "call " << call;
    ASSERT_EQ(a.edge_edge_contacts, b.edge_edge_contacts) << "call " << call;
    for (std::size_t v = 0; v < n; ++v) ASSERT_EQ(x[v], y[v]) << "call " << call << " vertex " << v;
    skipped += a.items_skipped;
    contacts += a.vertex_triangle_contacts + a.edge_edge_contacts;
  }
  // Not an empty case: contacts every call or so, and most items skipped.
  EXPECT_GT(contacts, 150u);
  EXPECT_GT(skipped, 150u * 200u);
}

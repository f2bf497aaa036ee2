// The body's triangle pushes on a seam vertex whose pairs are joined
// (BodyCollider::push_cloth_triangles with WeldedCopies, seam_weld.h's
// welded_copies): the copies move as one, so the weld after the step keeps
// the push. Checked against a brute-force count of crossing triangle pairs
// and the tip's clearance under the pushed triangle, measured directly.

#include <gtest/gtest.h>

#include "drape/cloth/cloth_model.h"
#include "drape/cloth/seam_sewing.h"
#include "drape/cloth/seam_weld.h"
#include "drape/collision/body_collider.h"
#include "drape/core/executor.h"
#include "drape/core/union_find.h"
#include "test_shapes.h"

using namespace drape;
using namespace drape::test;

namespace {

// Cloth faces x body faces that intersect, every pair tested.
int body_crossings(const TriangleMesh& body, const std::vector<Triangle>& faces, const std::vector<Vec3>& x) {
  int n = 0;
  for (const Triangle& b : body.faces)
    for (const Triangle& c : faces)
      n += triangles_intersect(body.positions[b[0]], body.positions[b[1]], body.positions[b[2]], x[c[0]],
                               x[c[1]], x[c[2]]);
  return n;
}

// Three one-quad panels meeting at one corner, sewn there (two joined pairs:
// a shoulder tip where the front, back and sleeve meet), lying level 1.5 mm
// over a pointed body (a tetrahedron's tip at the origin). The first panel's
// quad lies over the tip, its triangle there weighting the shared corner 0.8;
// the other two reach away from the tip, over no body edge.
struct CornerOverATip {
  GarmentMesh garment;
  ClothModel model;
  TriangleMesh body = tetrahedron(0, -0.05, 0.05);
  int over_tip = -1;  // the triangle over the tip
  CornerOverATip() {
    const double side = 0.03;
    const Vec3 corner{-0.003, 0.0015, -0.006};
    const int a = add_grid_panel(garment, 2, 2, side, corner, {1, 0, 0}, {0, 0, 1});
    const int b = add_grid_panel(garment, 2, 2, side, corner, {-1, 0, 0}, {0, 0, -1});
    const int c = add_grid_panel(garment, 2, 2, side, corner, {1, 0, 0}, {0, 0, -1});
    garment.seam_pairs.push_back({a, b, 0});
    garment.seam_pairs.push_back({b, c, 1});
    garment.seam_length_ratio = {1.0, 1.0};
    model = build_cloth_model(garment, fabric_preset("cotton"));
    // Panel a's triangle (corner, far corner, (0, 1)) holds the tip.
    over_tip = 1;
  }
};

// Emulates steps at rest on the tip: the solve pulls every vertex halfway to
// where it would hang 6 mm lower, the body pushes the cloth's triangles
// (thickness h), the joined pairs are welded (the pipeline's weld). Returns
// the tip's clearance under the pushed triangle after the last step (> 0:
// under the cloth) and the crossing count then.
struct Rest {
  double clearance;
  int crossings;
};
Rest steps_on_the_tip(const CornerOverATip& s, bool with_copies, double h, int steps) {
  BodyCollider body(s.body, {});
  std::vector<Vec3> x = s.garment.mesh.positions;
  std::vector<Vec3> anchor = x;
  for (Vec3& p : anchor) p.y -= 0.006;
  const std::vector<unsigned char> joined(s.model.seam_a.size(), 1);
  WeldedCopies copies;
  UnionFind sets;
  std::vector<int> rep;
  EXPECT_TRUE(welded_copies(s.model, joined, sets, rep, copies));
  std::vector<unsigned char> moved(x.size(), 0);
  const Executor ex(1);
  for (int k = 0; k < steps; ++k) {
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += (anchor[i] - x[i]) * 0.5;
    body.push_cloth_triangles(s.model.faces, {}, x, s.model.inv_mass, h, ex, with_copies ? &copies : nullptr);
    weld_joined_pairs(s.model, joined, x, moved, ex);
  }
  const Triangle& t = s.model.faces[s.over_tip];
  Vec3 up = normalized(cross(x[t[1]] - x[t[0]], x[t[2]] - x[t[0]]));
  if (up.y < 0) up = -up;
  return {dot(x[t[0]] - s.body.positions[0], up), body_crossings(s.body, s.model.faces, x)};
}

}  // namespace

TEST(WeldedPush, CopiesOfAJoinedSeamVertexFormOneSetWithItsInverseMass) {
  const CornerOverATip s;
  const ClothModel& m = s.model;
  ASSERT_EQ(m.vertex_count, 12u);
  UnionFind sets;
  std::vector<int> rep;
  WeldedCopies c;
  // No pair joined: every vertex alone, nothing made.
  EXPECT_FALSE(welded_copies(m, {0, 0}, sets, rep, c));
  EXPECT_TRUE(c.next.empty());
  // Both pairs joined: the corner's three copies (0, 4, 8) in one cycle, in
  // vertex order; the set's inverse mass is 1 / the copies' summed mass; every
  // other vertex is its own next with its own inverse mass, bit for bit.
  ASSERT_TRUE(welded_copies(m, {1, 1}, sets, rep, c));
  EXPECT_EQ(c.next[0], 4);
  EXPECT_EQ(c.next[4], 8);
  EXPECT_EQ(c.next[8], 0);
  const double set_w = 1 / (1 / m.inv_mass[0] + 1 / m.inv_mass[4] + 1 / m.inv_mass[8]);
  for (int v : {0, 4, 8}) EXPECT_DOUBLE_EQ(c.inv_mass[v], set_w);
  for (int v = 0; v < 12; ++v) {
    if (v % 4 == 0) continue;
    EXPECT_EQ(c.next[v], v);
    EXPECT_EQ(c.inv_mass[v], m.inv_mass[v]);
  }
  // Only the first pair joined: corner 8 alone again.
  ASSERT_TRUE(welded_copies(m, {1, 0}, sets, rep, c));
  EXPECT_EQ(c.next[0], 4);
  EXPECT_EQ(c.next[4], 0);
  EXPECT_EQ(c.next[8], 8);
  EXPECT_DOUBLE_EQ(c.inv_mass[0], 1 / (1 / m.inv_mass[0] + 1 / m.inv_mass[4]));
  EXPECT_EQ(c.inv_mass[8], m.inv_mass[8]);
}

TEST(WeldedPush, ACornerOverATipStaysOffItAfterTheWeld) {
  // A push on one copy alone keeps a third of its move at the weld, while the
  // pull brings the whole cloth back down: the cloth settles through the tip
  // (the graded shirt on a thin tall body rested with one triangle through
  // the shoulder's bump). Pushing the set keeps the whole push: the tip ends
  // the thickness under the cloth and nothing crosses.
  const CornerOverATip s;
  const double h = 0.0015;
  ASSERT_EQ(body_crossings(s.body, s.model.faces, s.garment.mesh.positions), 0);
  const Rest alone = steps_on_the_tip(s, false, h, 200);
  EXPECT_LT(alone.clearance, 0);  // the scene is one the push alone loses
  EXPECT_GT(alone.crossings, 0);
  const Rest set = steps_on_the_tip(s, true, h, 200);
  EXPECT_EQ(set.crossings, 0);
  EXPECT_GE(set.clearance, h * (1 - 1e-6));
  EXPECT_LT(set.clearance, 2 * h);
}

TEST(WeldedPush, TwoCornersOfOneSetMoveAsOneParticle) {
  // A triangle whose corners 1 and 2 are copies of one welded set (a
  // triangle between two sewn edges, at a dart's tip) lying 1 mm over a tip:
  // one push puts the contact's point exactly the thickness off the tip (the
  // constraint is linear in the positions; the contact keeps its barycentrics
  // in floats: 1e-7), and the two copies move alike.
  // The set is one particle carrying both corners' weights; counted as two
  // particles, each moving the whole set, it overshoots (by 0.19 mm here).
  const TriangleMesh tet = tetrahedron(0, -0.05, 0.05);
  const Vec3 n = tet.vertex_normals()[0];
  const double h = 0.0015;
  const std::vector<Triangle> faces = {{0, 1, 2}};
  const std::vector<double> w = {1, 1, 1};
  WeldedCopies copies{{0, 2, 1}, {1, 0.5, 0.5}};
  for (const bool as_one : {true, false}) {
    BodyCollider body(tet, {});
    std::vector<Vec3> x = {{-0.02, 0.001, -0.01}, {0.02, 0.001, -0.01}, {0, 0.001, 0.03}};
    const ClosestPoint cp = closest_point_on_triangle(tet.positions[0], x[0], x[1], x[2]);
    ASSERT_GT(std::min({cp.u, cp.v, cp.w}), 0.1);
    const std::vector<Vec3> x0 = x;
    body.push_cloth_triangles(faces, {}, x, w, h, Executor(1), as_one ? &copies : nullptr);
    const Vec3 at = x[0] * cp.u + x[1] * cp.v + x[2] * cp.w;
    const double off = dot(at - tet.positions[0], n);
    if (as_one) {
      EXPECT_NEAR(off, h, 1e-7);
      EXPECT_NEAR(norm(x[1] - x0[1]), norm(x[2] - x0[2]), 1e-15);  // the set moved as one
    } else {
      EXPECT_NEAR(off, h, 1e-7);  // no sets: each corner on its own, also exact
    }
  }
}

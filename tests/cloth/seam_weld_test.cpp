// The weld of joined seam pairs after a step's body answers
// (keep_body_answers_at_welds, seam_weld.h): copies of one welded vertex
// pushed out of different planes end outside every plane, where the mean
// the weld takes (weld_joined_pairs) is inside; opposite pushes with room
// between them keep the mean, without room the weld is left as it was. The
// expected places are worked out by hand.

#include "drape/cloth/seam_weld.h"

#include <gtest/gtest.h>

#include "drape/cloth/seam_sewing.h"
#include "drape/core/executor.h"
#include "test_shapes.h"

using namespace drape;
using namespace drape::test;

namespace {

// A 2 x 2 panel whose vertex (0, 0) is at o (every such corner has the same mass).
int panel_at(GarmentMesh& g, const Vec3& o) {
  return add_grid_panel(g, 2, 2, 0.01, o, {-1, 0, 0}, {0, 1, 0});
}

void sew(GarmentMesh& g, int a, int b) {
  g.seam_pairs.push_back({a, b, static_cast<int>(g.seam_pairs.size())});
  g.seam_length_ratio.push_back(1.0);
}

}  // namespace

TEST(SeamWeld, CopiesPushedOutOfDifferentPlanesEndOutsideEveryPlane) {
  const double mm = 0.001;
  GarmentMesh g;
  // Set 0: a pair at o0; the body pushes side a out of the plane x = 2 mm
  // (along +x) and side b out of the plane y = 1 mm (along +y).
  const Vec3 o0{0, 0, 0};
  const int a0 = panel_at(g, o0), b0 = panel_at(g, o0);
  sew(g, a0, b0);
  // Set 1: four copies at o1 (a waistband's side seam meeting a skirt's waist
  // seam), one pushed 3 mm along +z.
  const Vec3 o1{1, 0, 0};
  const int q0 = panel_at(g, o1), q1 = panel_at(g, o1), q2 = panel_at(g, o1), q3 = panel_at(g, o1);
  sew(g, q0, q1);
  sew(g, q1, q2);
  sew(g, q2, q3);
  // Set 2: an armpit with room: side a pushed +x to 1 mm, side b pushed -x to 3 mm.
  const Vec3 o2{2, 0, 0};
  const int a2 = panel_at(g, o2), b2 = panel_at(g, o2 + Vec3{4 * mm, 0, 0});
  sew(g, a2, b2);
  // Set 3: an armpit without room: from one place, 2 mm each way.
  const Vec3 o3{3, 0, 0};
  const int a3 = panel_at(g, o3), b3 = panel_at(g, o3);
  sew(g, a3, b3);
  // Set 4: a pinned side; the other pushed.
  const Vec3 o4{4, 0, 0};
  const int a4 = panel_at(g, o4), b4 = panel_at(g, o4);
  sew(g, a4, b4);

  ClothModel model = build_cloth_model(g, fabric_preset("cotton"));
  ASSERT_EQ(model.seam_a.size(), 7u);
  pin_vertex(model, a4);
  const std::vector<unsigned char> joined(7, 1);
  const std::vector<Vec3> before = g.mesh.positions;
  // The body's answers: each pushed copy moved along its push to its plane,
  // which its half-space is bounded by (slot 0: a vertex response's contact
  // plane; slot 1: a feature push's plane).
  std::vector<Vec3> answered = before;
  std::vector<HalfSpace> pushes(2 * before.size());
  const auto push = [&](int v, int slot, const Vec3& d) {
    answered[v] += d;
    const Vec3 dir = d / norm(d);
    pushes[2 * v + slot] = {dir, dot(dir, answered[v])};
  };
  push(a0, 0, {2 * mm, 0, 0});
  push(b0, 1, {0, 1 * mm, 0});
  push(q2, 1, {0, 0, 3 * mm});
  push(a2, 0, {1 * mm, 0, 0});
  push(b2, 0, {-1 * mm, 0, 0});
  push(a3, 0, {2 * mm, 0, 0});
  push(b3, 0, {-2 * mm, 0, 0});
  push(b4, 0, {0, 0, 1 * mm});

  // The weld to the mean: set 0 at (1, 0.5) mm, inside both planes; set 1
  // 0.75 mm up, inside the pushed copy's plane.
  std::vector<Vec3> x = answered;
  std::vector<unsigned char> moved(x.size(), 0);
  const Executor ex(1);
  weld_joined_pairs(model, joined, x, moved, ex);
  EXPECT_LT(x[a0].x, o0.x + 2 * mm - 1e-6);
  EXPECT_LT(x[a0].y, o0.y + 1 * mm - 1e-6);
  const std::vector<Vec3> mean = x;

  std::fill(moved.begin(), moved.end(), 0);
  WeldScratch scratch;
  EXPECT_EQ(keep_body_answers_at_welds(model, joined, pushes, x, moved, scratch), 2u);
  // Set 0: the corner of the two half-spaces nearest the mean.
  for (const int v : {a0, b0}) EXPECT_LT(norm(x[v] - (o0 + Vec3{2 * mm, 1 * mm, 0})), 1e-12) << v;
  EXPECT_GE(x[a0].x - o0.x, 2 * mm - 1e-12);
  EXPECT_GE(x[a0].y - o0.y, 1 * mm - 1e-12);
  // Set 1: the whole push, on all four copies.
  for (const int v : {q0, q1, q2, q3}) EXPECT_LT(norm(x[v] - (o1 + Vec3{0, 0, 3 * mm})), 1e-12) << v;
  // Sets 2 (the mean lies between the two planes), 3 (no room) and 4 (pinned): the weld's places.
  for (const int v : {a2, b2, a3, b3, a4, b4}) EXPECT_EQ(x[v], mean[v]) << v;
  EXPECT_LT(norm(x[a2] - (o2 + Vec3{2 * mm, 0, 0})), 1e-12);
  EXPECT_EQ(x[a4], before[a4]);
  // Only the moved sets are marked; nothing else moved.
  int marked = 0;
  for (std::size_t v = 0; v < x.size(); ++v) marked += moved[v];
  EXPECT_EQ(marked, 6);
  for (std::size_t v = 0; v < x.size(); ++v) EXPECT_TRUE(moved[v] || x[v] == mean[v]) << v;

  // A pair not joined is not welded: its push alone does not move its partner.
  std::vector<Vec3> y = answered;
  std::vector<unsigned char> not0 = joined;
  not0[0] = 0;
  keep_body_answers_at_welds(model, not0, pushes, y, moved, scratch);
  EXPECT_EQ(y[a0], answered[a0]);
  EXPECT_EQ(y[b0], answered[b0]);
}

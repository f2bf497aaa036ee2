// Untangling a sewn garment at rest once no seam corner is exempt any more
// (ClothSimulation's end of frame, CornerUntangler::untangle_everywhere with a
// step filter): a crossing left in the cloth is removed, checked by brute-force
// triangle intersection over every pair of the result's faces; self-collision
// alone keeps it for good (it keeps each point on the side it is on).

#include <gtest/gtest.h>

#include "drape/cloth/cloth_simulation.h"
#include "drape/cloth/seam_corners.h"
#include "drape/geometry/triangle_queries.h"
#include "test_shapes.h"

using namespace drape;
using namespace drape::test;

namespace {

// A 0.48 m sheet held flat (pinned), with a strip sewn edge to edge onto its
// front edge (one straight seam, its pairs touching: joined in the first
// frame, no seam corner, so gravity comes on at once and no corner group
// exists), and on the sheet a 4 cm patch whose middle vertex pokes 6 mm
// through it: one closed intersection contour, as a hood's corner left folded
// through a shirt's front. The patch rests on the sheet under gravity with its
// tip held below by self-collision.
struct Sewn {
  GarmentMesh garment;
  int sheet_size = 0;
  int tip = 0;
};

Sewn sewn_sheet_with_poked_patch() {
  Sewn s;
  s.garment = horizontal_square(25, 0.02, 0.17);
  s.sheet_size = static_cast<int>(s.garment.mesh.positions.size());
  const int strip = add_grid_panel(s.garment, 25, 4, 0.02, {-0.24, 0.17, 0.24}, {1, 0, 0}, {0, 0, 1});
  for (int i = 0; i < 25; ++i) s.garment.seam_pairs.push_back({i, strip + i, 0});
  s.garment.seam_length_ratio = {1.0};
  const int base = add_grid_panel(s.garment, 5, 5, 0.01, {-0.021, 0.174, 0.019}, {1, 0, 0}, {0, 0, -1});
  s.tip = base + 2 * 5 + 2;
  s.garment.mesh.positions[s.tip].y = 0.164;
  return s;
}

DrapeResult drape_at_rest(const Sewn& sewn, int untangle_iterations) {
  ClothSettings s;
  s.threads = 1;
  s.max_frames = 30;
  s.untangle_iterations = untangle_iterations;
  for (int v = 0; v < sewn.sheet_size; ++v) s.pinned.push_back(v);
  ClothSimulation sim(sewn.garment, TriangleMesh{}, {}, fabric_preset("cotton"), s);
  return sim.run();
}

}  // namespace

TEST(ReleasedUntangle, CrossingLeftInASewnGarmentIsRemoved) {
  const Sewn g = sewn_sheet_with_poked_patch();
  ASSERT_GT(brute_force_crossings(g.garment.mesh), 0u);
  const DrapeResult kept = drape_at_rest(g, 0);  // untangling off: self-collision alone
  EXPECT_EQ(kept.report.seam_pairs_joined, kept.report.seam_pairs);
  EXPECT_GT(brute_force_crossings(kept.mesh), 0u);
  const DrapeResult r = drape_at_rest(g, 20);
  EXPECT_EQ(r.report.seam_pairs_joined, r.report.seam_pairs);
  EXPECT_EQ(brute_force_crossings(r.mesh), 0u);
  EXPECT_EQ(r.report.self_crossing_pairs, 0u);
  // The patch is back on the side it came from: its tip above the sheet.
  EXPECT_GT(r.mesh.positions[r.vertex_map[g.tip]].y, 0.17);
}

// The step filter: a step it refuses leaves that vertex where it was, the
// others move. Independent answer: with every step below the sheet's plane
// refused, no vertex ends below where it started or the plane, whichever is
// lower; with none refused, the poked tip rises above the plane.
TEST(ReleasedUntangle, RefusedStepsLeaveTheirVertexInPlace) {
  GarmentMesh g = horizontal_square(9, 0.02, 0.0);
  const int base = add_grid_panel(g, 5, 5, 0.01, {-0.021, 0.004, 0.019}, {1, 0, 0}, {0, 0, -1});
  const int tip = base + 2 * 5 + 2;
  g.mesh.positions[tip].y = -0.006;
  const ClothModel model = build_cloth_model(g, fabric_preset("cotton"));
  const std::vector<unsigned char> joined;
  CornerUntangler untangler;
  std::vector<Vec3> x = g.mesh.positions;
  const auto below = [](std::size_t, const Vec3& from, const Vec3& to) {
    return to.y < std::min(from.y, 0.0);
  };
  untangler.untangle_everywhere(model, joined, 40, 0.00075, x, below);
  for (std::size_t v = 0; v < x.size(); ++v)
    EXPECT_GE(x[v].y, std::min(g.mesh.positions[v].y, 0.0) - 1e-12) << "vertex " << v;
  std::vector<Vec3> y = g.mesh.positions;
  EXPECT_EQ(untangler.untangle_everywhere(model, joined, 40, 0.00075, y), 0u);
  EXPECT_GT(y[tip].y, y[4 * 9 + 4].y);  // the tip back above the sheet's middle
  // Unfiltered, the sheet gives way downwards: the filter above had steps to refuse.
  bool some_below = false;
  for (std::size_t v = 0; v < y.size(); ++v)
    some_below |= y[v].y < std::min(g.mesh.positions[v].y, 0.0) - 1e-9;
  EXPECT_TRUE(some_below);
}

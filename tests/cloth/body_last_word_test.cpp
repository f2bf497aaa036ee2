// The step ends with the body's push on cloth triangles (collision_response.cpp,
// ClothSimulation::Impl::collide): a self-collision answer that presses one
// layer of a pile onto a sharp body feature must not leave the feature
// through that layer. Several square sheets stacked 4 mm apart fall onto a
// tetrahedron's tip and come to rest over it; the crossings are counted by
// testing every body triangle against every cloth triangle. With the self
// pass last (the order before), these piles ended with the tip through the
// lowest sheet (3 to 5 crossing pairs for 3, 4 and 5 sheets).

#include <gtest/gtest.h>

#include <string>

#include "drape/cloth/cloth_simulation.h"
#include "test_shapes.h"

using namespace drape;
using namespace drape::test;

namespace {

constexpr double kTipY = 0.05;

// Cloth triangles x body triangles that intersect, every pair tested.
int brute_force_body_crossings(const TriangleMesh& body, const TriangleMesh& cloth) {
  int n = 0;
  for (const Triangle& b : body.faces)
    for (const Triangle& c : cloth.faces)
      n += triangles_intersect(body.positions[b[0]], body.positions[b[1]], body.positions[b[2]],
                               cloth.positions[c[0]], cloth.positions[c[1]], cloth.positions[c[2]]);
  return n;
}

// How many cloth triangles a vertical ray up from the tip meets (the sheets
// still over it).
int sheets_over_the_tip(const TriangleMesh& cloth) {
  int n = 0;
  const Vec3 tip{0, kTipY, 0};
  for (const Triangle& t : cloth.faces) {
    const Vec3 &a = cloth.positions[t[0]], &b = cloth.positions[t[1]], &c = cloth.positions[t[2]];
    // The tip's projection on the xz plane inside the triangle's, and the triangle above it there.
    const double d = (b.x - a.x) * (c.z - a.z) - (c.x - a.x) * (b.z - a.z);
    if (d == 0) continue;
    const double u = ((tip.x - a.x) * (c.z - a.z) - (c.x - a.x) * (tip.z - a.z)) / d;
    const double v = ((b.x - a.x) * (tip.z - a.z) - (tip.x - a.x) * (b.z - a.z)) / d;
    if (u < 0 || v < 0 || u + v > 1) continue;
    n += (a.y + (b.y - a.y) * u + (c.y - a.y) * v) > tip.y;
  }
  return n;
}

DrapeResult pile_on_the_tip(int sheets) {
  GarmentMesh g;
  const int n = 15;
  const double spacing = 0.03, half = 0.5 * (n - 1) * spacing;
  for (int l = 0; l < sheets; ++l)
    add_grid_panel(g, n, n, spacing, {-half, kTipY + 0.004 * (l + 1), half}, {1, 0, 0}, {0, 0, -1});
  ClothSettings s;
  s.threads = 1;
  s.max_frames = 60;
  ClothSimulation sim(g, tetrahedron(kTipY, -0.05, 0.05), {}, fabric_preset("cotton"), s);
  return sim.run();
}

}  // namespace

TEST(BodyLastWord, APileOfSheetsOnATipEndsWithTheTipUnderEverySheet) {
  const TriangleMesh tip = tetrahedron(kTipY, -0.05, 0.05);
  for (int sheets : {3, 4, 5}) {
    SCOPED_TRACE(std::to_string(sheets) + " sheets");
    const DrapeResult r = pile_on_the_tip(sheets);
    // Every sheet still lies over the tip (a pile that slid off would cross nothing).
    EXPECT_EQ(sheets_over_the_tip(r.mesh), sheets);
    EXPECT_EQ(brute_force_body_crossings(tip, r.mesh), 0);
  }
}

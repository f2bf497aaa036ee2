// The free boundary loops of a sewn pattern against lengths known from the
// outline itself: a two-panel tube whose top edges are circular arcs (a
// flared waist) has two loops, the waist (twice the arc length r * theta) and
// the hem (twice the width); a dart sewn inside one panel is not boundary;
// with one side seam left open the whole outline is one loop.

#include "drape/pattern/boundary_loops.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "drape/pattern/mesher.h"

namespace drape {
namespace {

constexpr double kW = 0.40, kH = 0.50, kR = 0.30;  // width, side height, top arc radius (metres)

PanelEdge line(int a, int b) { return PanelEdge{.start = a, .end = b}; }

// A rectangle kW x kH whose top edge (vertex 2 -> 3) is an arc of radius kR
// bulging upwards; with `dart`, the hem has a 6 cm wide, 15 cm deep V-dart in
// its middle (edges 0 and 1 to the tip, sewn to each other).
Panel flared_panel(const std::string& name, bool dart) {
  Panel p;
  p.name = name;
  p.alias = "skirt_front";
  if (!dart) {
    p.vertices = {{0, 0}, {kW, 0}, {kW, kH}, {0, kH}};
    p.edges = {line(0, 1), line(1, 2), line(2, 3), line(3, 0)};
  } else {
    p.vertices = {{0, 0}, {kW / 2 - 0.03, 0}, {kW / 2, 0.15}, {kW / 2 + 0.03, 0}, {kW, 0}, {kW, kH}, {0, kH}};
    p.edges = {line(0, 1), line(1, 2), line(2, 3), line(3, 4), line(4, 5), line(5, 6), line(6, 0)};
  }
  PanelEdge& top = p.edges[p.edges.size() - 2];
  top.curve = EdgeCurve::arc;
  top.radius = kR;
  top.right = true;  // walked right to left: its right is up, outside the panel
  return p;
}

// Front and back, sewn along both sides (or only the right one).
Pattern flared_tube(bool dart, bool both_sides) {
  Pattern pat;
  pat.name = "flared_tube";
  pat.panels = {flared_panel("front", dart), flared_panel("back", false)};
  const int fr = static_cast<int>(pat.panels[0].edges.size()) - 3;  // front's right side
  const int fl = fr + 2;                                            // front's left side
  pat.stitches.push_back({{0, fr}, {1, 3}});
  if (both_sides) pat.stitches.push_back({{0, fl}, {1, 1}});
  if (dart) pat.stitches.push_back({{0, 1}, {0, 2}});
  return pat;
}

double arc_length() { return 2 * kR * std::asin(kW / (2 * kR)); }

TEST(BoundaryLoops, FlaredTubeHasItsWaistAndHemWithTheirPatternLengths) {
  for (bool dart : {false, true}) {
    const Pattern pat = flared_tube(dart, true);
    const PatternMesh mesh = mesh_pattern(pat, {.particle_distance = 0.02});
    std::vector<BoundaryLoop> loops = boundary_loops(pat, mesh);
    ASSERT_EQ(loops.size(), 2u) << "dart " << dart;
    std::sort(loops.begin(), loops.end(),
              [](const BoundaryLoop& a, const BoundaryLoop& b) { return a.rest_length < b.rest_length; });
    const double hem = dart ? 2 * kW - 0.06 : 2 * kW;  // the dart's opening is sewn shut, not boundary
    EXPECT_NEAR(loops[0].rest_length, hem, 1e-9) << "dart " << dart;
    // Sampled chords of the arcs: within the mesher's boundary tolerance.
    EXPECT_NEAR(loops[1].rest_length, 2 * arc_length(), 2e-3) << "dart " << dart;
    EXPECT_GT(2 * arc_length(), 2 * kW + 0.01);        // the arc is measurably longer than its chord
    EXPECT_EQ(loops[0].edges.size(), dart ? 3u : 2u);  // the front hem is two edges beside the dart
    EXPECT_EQ(loops[1].edges.size(), 2u);
  }
}

TEST(BoundaryLoops, AnOpenSideSeamMakesTheWholeOutlineOneLoop) {
  const Pattern pat = flared_tube(false, false);
  const PatternMesh mesh = mesh_pattern(pat, {.particle_distance = 0.02});
  const std::vector<BoundaryLoop> loops = boundary_loops(pat, mesh);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].edges.size(), 6u);
  EXPECT_NEAR(loops[0].rest_length, 2 * kW + 2 * arc_length() + 2 * kH, 2e-3);
}

}  // namespace
}  // namespace drape

// Pattern model: curve geometry against analytic results, alias inference, validation.

#include "drape/pattern/pattern.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "drape/core/exceptions.h"
#include "drape/geometry/garment_mesh.h"
#include "drape/pattern/alias.h"
#include "drape/pattern/pattern_io.h"

using namespace drape;
constexpr double kPi = std::numbers::pi;

namespace {
PanelEdge line(int a, int b) { return {a, b}; }
PanelEdge arc(int a, int b, double r, bool large, bool right) {
  PanelEdge e{a, b, EdgeCurve::arc};
  e.radius = r;
  e.large_arc = large;
  e.right = right;
  return e;
}
}  // namespace

TEST(EdgeGeometry, ArcRightFlagBulgesToTheRightOfTheChord) {
  // GarmentCode: `right` puts the arc's control point at v < 0, i.e. right of start->end.
  Panel p;
  p.vertices = {{0, 0}, {1, 0}};
  p.edges = {arc(0, 1, 1.0, false, true), line(1, 0)};
  const EdgeGeometry g = edge_geometry(p, 0);
  EXPECT_LT(g.point(0.5).y, 0);
  EXPECT_NEAR(norm(g.point(0.5) - Vec2{0.5, 0}), 1 - std::sqrt(0.75),
              1e-12);  // sagitta r - sqrt(r^2 - c^2/4)
  p.edges[0].right = false;
  EXPECT_GT(edge_geometry(p, 0).point(0.5).y, 0);
  p.edges[0].large_arc = true;  // large arc on the left: its far point is r + d above the chord
  EXPECT_NEAR(edge_geometry(p, 0).point(0.5).y, 1 + std::sqrt(0.75), 1e-12);
  EXPECT_NEAR(edge_geometry(p, 0).length(), 1.0 * (2 * kPi - 2 * std::asin(0.5)), 1e-12);
}

TEST(EdgeGeometry, CircleFromTwoHalfArcsHasAreaPiRSquared) {
  const double r = 0.2;
  Panel p;
  p.vertices = {{-r, 0}, {r, 0}};
  // Counter-clockwise: bottom half (bulging right of -r -> r, i.e. down), then top half.
  p.edges = {arc(0, 1, r, false, true), arc(1, 0, r, false, true)};
  EXPECT_NEAR(panel_signed_area(p), kPi * r * r, 1e-12);
  EXPECT_NEAR(edge_length(p, 0) + edge_length(p, 1), 2 * kPi * r, 1e-12);
}

TEST(EdgeGeometry, QuadraticSegmentIsTwoThirdsOfItsTriangle) {
  // Archimedes: the parabolic segment has 2/3 the area of the triangle of its control polygon.
  Panel p;
  p.vertices = {{0, 0}, {1, 0}};
  PanelEdge q{1, 0, EdgeCurve::quadratic};
  q.c1 = {0.3, 0.8};
  p.edges = {line(0, 1), q};
  EXPECT_NEAR(panel_signed_area(p), 2.0 / 3.0 * 0.5 * 1.0 * 0.8, 1e-12);
}

TEST(EdgeGeometry, CubicUnderXCubedHasAreaOneQuarter) {
  // B(t) = (t, t^3) has controls (0,0), (1/3,0), (2/3,0), (1,1): area under y = x^3 on [0,1] is 1/4.
  Panel p;
  p.vertices = {{0, 0}, {1, 0}, {1, 1}};
  PanelEdge c{2, 0, EdgeCurve::cubic};
  c.c1 = {2.0 / 3.0, 0};
  c.c2 = {1.0 / 3.0, 0};
  p.edges = {line(0, 1), line(1, 2), c};
  EXPECT_NEAR(panel_signed_area(p), 0.25, 1e-12);
  // Length of y = x^3 on [0,1]: integral of sqrt(1 + 9x^4), 1.5478656 (independent value).
  EXPECT_NEAR(edge_length(p, 2), 1.547865654, 1e-8);
}

TEST(EdgeGeometry, UniformSamplesAreEquallySpacedInArcLength) {
  Panel p;
  p.vertices = {{0, 0}, {1, 0}, {1, 1}};
  PanelEdge c{2, 0, EdgeCurve::cubic};
  c.c1 = {2.0 / 3.0, 0};
  c.c2 = {1.0 / 3.0, 0};
  p.edges = {line(0, 1), line(1, 2), c};
  const EdgeGeometry g = edge_geometry(p, 2);
  const std::vector<double> ts = g.uniform_parameters(10);
  const double total = g.length();
  // Sub-curve lengths by fine chords (independent of the Gauss-Legendre table).
  for (int i = 0; i < 10; ++i) {
    double l = 0;
    for (int k = 0; k < 2000; ++k) {
      const double a = ts[i] + (ts[i + 1] - ts[i]) * k / 2000,
                   b = ts[i] + (ts[i + 1] - ts[i]) * (k + 1) / 2000;
      l += norm(g.point(b) - g.point(a));
    }
    EXPECT_NEAR(l, total / 10, 1e-6);
  }
}

TEST(Alias, InferredFromGarmentCodeNames) {
  Panel p;
  p.vertices = {{0, 0}, {1, 0}, {0, 1}};
  p.edges = {line(0, 1), line(1, 2), line(2, 0)};
  auto alias = [&](const std::string& name) {
    p.name = name;
    return infer_alias(p, SourceFrame::none);
  };
  EXPECT_EQ(alias("left_ftorso"), "left_front");
  EXPECT_EQ(alias("right_btorso"), "right_back");
  EXPECT_EQ(alias("skirt_front"), "skirt_front");
  EXPECT_EQ(alias("wb_back"), "waistband_back");
  EXPECT_EQ(alias("left_sleeve_f"), "left_sleeve_front");
  EXPECT_EQ(alias("right_sleeve_b"), "right_sleeve_back");
  EXPECT_EQ(alias("pant_f_l"), "left_leg_front");
  EXPECT_EQ(alias("pant_b_r"), "right_leg_back");
  EXPECT_EQ(alias("hood"), "hood");
  EXPECT_EQ(alias("Lfront"), "left_front");
  EXPECT_EQ(alias("mystery"), "");
  for (const std::string& a : known_aliases()) EXPECT_EQ(alias_name(parse_alias(a)), a) << a;
}

TEST(Alias, RegionsFollowTheAlias) {
  namespace br = body_region;
  EXPECT_EQ(alias_body_regions("left_sleeve_front") & br::right_arm, 0u);
  EXPECT_NE(alias_body_regions("left_sleeve_front") & br::left_arm, 0u);
  // A torso piece never meets the head; its hem may hang onto the thighs (below the crotch).
  EXPECT_EQ(alias_body_regions("front") & br::head, 0u);
  EXPECT_EQ(alias_body_regions("front") & (br::left_leg | br::right_leg), br::left_leg | br::right_leg);
  // Lower-body pieces may meet the hips' upper faces and the hanging hands, never the head.
  EXPECT_EQ(alias_body_regions("skirt_back") & br::head, 0u);
  EXPECT_NE(alias_body_regions("skirt_back") & br::left_arm, 0u);
  EXPECT_EQ(alias_body_regions(""), br::all);
  EXPECT_EQ(alias_body_regions("left_sleeve_back"), br::upper | br::left_arm);
  EXPECT_EQ(alias_body_regions("right_leg_front") & br::head, 0u);
  EXPECT_NE(alias_body_regions("right_leg_front") & br::right_leg, 0u);
}

TEST(Validate, CatchesWhatTheMesherCannotUse) {
  Pattern pat;
  pat.source = "t";
  Panel p;
  p.name = "a";
  p.vertices = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  p.edges = {line(0, 1), line(1, 2), line(2, 3), line(3, 0)};
  pat.panels = {p};
  EXPECT_NO_THROW(validate_pattern(pat));
  pat.panels[0].vertices[2] = {NAN, 1};
  EXPECT_THROW(validate_pattern(pat), InvalidInput);
  pat.panels[0].vertices[2] = {1, 1};
  pat.panels[0].edges[1].radius = -1;
  pat.panels[0].edges[1].curve = EdgeCurve::arc;
  try {
    validate_pattern(pat);
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("panel 'a' edge 1"), std::string::npos) << e.what();
  }
}

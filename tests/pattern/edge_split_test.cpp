// Splitting a sewn edge: the outline keeps its shape (checked against dense
// samples of the original curve), the halves' lengths add up, and the two
// stitches sew the same points the original one did (endpoint pairs, and
// the split points at matching length fractions).

#include "drape/pattern/edge_split.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "drape/pattern/mesher.h"
#include "drape/pattern/pattern_io.h"

using namespace drape;

namespace {

// Distance from q to the polyline of n + 1 uniform samples of g.
double distance_to_curve(const EdgeGeometry& g, Vec2 q) {
  const std::vector<Vec2> s = g.sample_uniform(4000);
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i + 1 < s.size(); ++i) {
    const Vec2 d = s[i + 1] - s[i];
    const double t = std::clamp(dot(q - s[i], d) / std::max(dot(d, d), 1e-30), 0.0, 1.0);
    best = std::min(best, norm(q - (s[i] + d * t)));
  }
  return best;
}

// Two panels sewn along a curve of each kind; edge 1 of panel "a" is sewn
// to edge 1 of panel "b" (end meets start) and so on.
Pattern two_panels(EdgeCurve kind, bool right_wrong) {
  Pattern p;
  p.source = "synthetic";
  for (const char* name : {"a", "b"}) {
    Panel panel;
    panel.name = name;
    panel.vertices = {{0, 0}, {0.3, 0}, {0.3, 0.5}, {0, 0.5}};
    panel.edges = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
    PanelEdge& e = panel.edges[1];  // the right side, bottom to top
    e.curve = kind;
    if (kind == EdgeCurve::quadratic) e.c1 = {0.38, 0.2};
    if (kind == EdgeCurve::cubic) e.c1 = {0.4, 0.1}, e.c2 = {0.25, 0.35};
    if (kind == EdgeCurve::arc) e.radius = 0.4, e.right = true;  // bulges outwards (right of bottom->top)
    p.panels.push_back(panel);
  }
  Stitch s;
  s.a = {0, 1};
  s.b = {1, 1};
  s.right_wrong = right_wrong;
  p.stitches.push_back(s);
  Stitch top;  // a later edge, renumbered by the split
  top.a = {0, 2};
  top.b = {1, 2};
  p.stitches.push_back(top);
  return p;
}

// The endpoint pairs a stitch sews, as (panel, point) pairs rounded to 1e-9.
using Key = std::pair<int, std::pair<long long, long long>>;
Key key(int panel, Vec2 p) { return {panel, {std::llround(p.x * 1e9), std::llround(p.y * 1e9)}}; }
std::set<std::pair<Key, Key>> sewn_ends(const Pattern& p) {
  std::set<std::pair<Key, Key>> out;
  for (const Stitch& s : p.stitches) {
    const EdgeGeometry a = edge_geometry(p.panels[s.a.panel], s.a.edge);
    const EdgeGeometry b = edge_geometry(p.panels[s.b.panel], s.b.edge);
    const Vec2 b_at_a0 = s.right_wrong ? b.p0 : b.p1, b_at_a1 = s.right_wrong ? b.p1 : b.p0;
    out.insert({key(s.a.panel, a.p0), key(s.b.panel, b_at_a0)});
    out.insert({key(s.a.panel, a.p1), key(s.b.panel, b_at_a1)});
  }
  return out;
}

}  // namespace

TEST(EdgeSplit, EveryCurveKindKeepsItsShapeAndItsStitchSewsTheSamePoints) {
  for (EdgeCurve kind : {EdgeCurve::line, EdgeCurve::quadratic, EdgeCurve::cubic, EdgeCurve::arc})
    for (bool rw : {false, true}) {
      SCOPED_TRACE(std::to_string(static_cast<int>(kind)) + (rw ? " right_wrong" : ""));
      const Pattern before = two_panels(kind, rw);
      Pattern after = before;
      const double s = 0.37;
      ASSERT_TRUE(split_edge(after, 0, 1, s));
      validate_pattern(after);
      ASSERT_EQ(after.panels[0].edges.size(), 5u);
      ASSERT_EQ(after.panels[1].edges.size(), 5u);
      ASSERT_EQ(after.stitches.size(), 3u);
      for (int p = 0; p < 2; ++p) {
        const EdgeGeometry orig = edge_geometry(before.panels[p], 1);
        const EdgeGeometry h1 = edge_geometry(after.panels[p], 1), h2 = edge_geometry(after.panels[p], 2);
        // Panel a is split at fraction s; b at the point sewn to it.
        const double fa = p == 0 ? s : (rw ? s : 1 - s);
        EXPECT_NEAR(h1.length(), fa * orig.length(), 1e-7);
        EXPECT_NEAR(h2.length(), (1 - fa) * orig.length(), 1e-7);
        for (const EdgeGeometry* h : {&h1, &h2})
          for (double t = 0; t <= 1.0; t += 0.05) EXPECT_LT(distance_to_curve(orig, h->point(t)), 2e-5);
        // The edge after it is the old edge 2, renumbered in its stitch.
        EXPECT_EQ(norm(edge_geometry(after.panels[p], 3).p1 - edge_geometry(before.panels[p], 2).p1), 0.0);
      }
      EXPECT_EQ(after.stitches.back().a.edge, 3);
      EXPECT_EQ(after.stitches.back().b.edge, 3);
      // The same ends sewn together, plus the two split points.
      std::set<std::pair<Key, Key>> expected = sewn_ends(before);
      const std::set<std::pair<Key, Key>> got = sewn_ends(after);
      const Vec2 split_a = after.panels[0].vertices.back(), split_b = after.panels[1].vertices.back();
      expected.insert({key(0, split_a), key(1, split_b)});
      EXPECT_EQ(got, expected);
      // Each new stitch keeps the original's length ratio (1 here).
      for (std::size_t k = 0; k < 2; ++k) {
        const Stitch& st = after.stitches[k];
        EXPECT_NEAR(edge_length(after.panels[st.a.panel], st.a.edge),
                    edge_length(after.panels[st.b.panel], st.b.edge), 1e-7);
      }
    }
}

TEST(EdgeSplit, AnEdgeSewnToAnotherOfItsOwnPanel) {
  // A tube: one panel whose left edge is sewn to its right edge.
  Pattern p;
  p.source = "synthetic";
  Panel panel;
  panel.name = "tube";
  panel.vertices = {{0, 0}, {0.6, 0}, {0.6, 0.4}, {0, 0.4}};
  panel.edges = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
  p.panels.push_back(panel);
  Stitch s;
  s.a = {0, 3};  // left edge, top to bottom
  s.b = {0, 1};  // right edge, bottom to top: end meets start sews top to top
  p.stitches.push_back(s);
  Pattern after = p;
  ASSERT_TRUE(split_edge(after, 0, 3, 0.25));
  validate_pattern(after);
  ASSERT_EQ(after.panels[0].edges.size(), 6u);
  // The left edge's split point (a quarter down from the top, y = 0.3) is
  // sewn to the right edge's point at the same height.
  std::set<std::pair<Key, Key>> expected = sewn_ends(p);
  expected.insert({key(0, {0, 0.3}), key(0, {0.6, 0.3})});
  EXPECT_EQ(sewn_ends(after), expected);
}

TEST(EdgeSplit, RefusesAnEdgeInTwoStitchesAndFractionsOutsideTheEdge) {
  Pattern p = two_panels(EdgeCurve::line, false);
  Pattern q = p;
  EXPECT_FALSE(split_edge(q, 0, 1, 0.0));
  EXPECT_FALSE(split_edge(q, 0, 1, 1.0));
  Stitch again = p.stitches[0];
  q.stitches.push_back(again);
  const Pattern before = q;
  EXPECT_FALSE(split_edge(q, 0, 1, 0.5));
  EXPECT_EQ(q.panels[0].edges.size(), before.panels[0].edges.size());
  EXPECT_EQ(q.stitches.size(), before.stitches.size());
}

TEST(EdgeSplit, ASplitJacketMeshesWithEverySeamSewn) {
  // Every stitched edge of a real pattern split at 0.4 in turn: the pattern
  // stays valid and meshes, and its seams sew as many vertex pairs per
  // metre as before (within the meshing's rounding).
  const Pattern jacket = load_pattern(std::string(DRAPE_DATA_DIR) + "/patterns/gpg/jacket.json");
  Pattern split = jacket;
  const std::size_t n = jacket.stitches.size();
  for (std::size_t k = 0, done = 0; done < n; ++done) {
    const Stitch st = split.stitches[k];
    ASSERT_TRUE(split_edge(split, st.a.panel, st.a.edge, 0.4)) << k;
    k += 2;
  }
  ASSERT_EQ(split.stitches.size(), 2 * n);
  validate_pattern(split);
  MeshingOptions mo;
  mo.particle_distance = 0.02;
  const PatternMesh a = mesh_pattern(jacket, mo), b = mesh_pattern(split, mo);
  const double ratio = static_cast<double>(b.garment.seam_pairs.size()) / a.garment.seam_pairs.size();
  EXPECT_GT(ratio, 0.97);
  EXPECT_LT(ratio, 1.15);
  // The joint of two stitches that continue one seam is sewn once: no pair
  // of vertices is listed twice (it would count both as seam corners).
  std::set<std::pair<int, int>> pairs;
  for (const SeamVertexPair& sp : b.garment.seam_pairs)
    EXPECT_TRUE(pairs.insert(std::minmax(sp.a, sp.b)).second) << sp.a << " - " << sp.b;
}

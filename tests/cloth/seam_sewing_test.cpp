// The end-of-frame seam rules (seam_sewing.h) on synthetic pairs whose
// expected outcome follows from the rules by hand: join distance, stall,
// body and cloth between the sides, seam-corner neighbourhood, corner groups,
// and the growth of a stalled pair's cap.

#include "drape/cloth/seam_sewing.h"

#include <gtest/gtest.h>

#include <limits>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/core/executor.h"
#include "test_shapes.h"

using namespace drape;
using namespace drape::test;

namespace {

// Pair k joins vertex (0, 0) of a 2 x 2 panel at (k m, 0, 0), spanning -x/+y,
// to vertex (0, 0) of a like panel `gap[k]` further along +z: the segment
// between the two sides runs along z and touches neither panel elsewhere.
struct PairFixture {
  GarmentMesh garment;
  std::vector<int> a, b;
};

PairFixture pairs_with_gaps(const std::vector<double>& gaps) {
  PairFixture f;
  for (std::size_t k = 0; k < gaps.size(); ++k) {
    const Vec3 o{static_cast<double>(k), 0, 0};
    f.a.push_back(add_grid_panel(f.garment, 2, 2, 0.01, o, {-1, 0, 0}, {0, 1, 0}));
    f.b.push_back(add_grid_panel(f.garment, 2, 2, 0.01, o + Vec3{0, 0, gaps[k]}, {-1, 0, 0}, {0, 1, 0}));
    f.garment.seam_pairs.push_back({f.a.back(), f.b.back(), static_cast<int>(k)});
    f.garment.seam_length_ratio.push_back(1.0);
  }
  return f;
}

}  // namespace

TEST(SeamSewing, EndOfFrameRulesJoinStalledClearPairsAndGrowTheCapOfTheOthers) {
  const double mm = 0.001;
  // 0: under the join distance; 1: stalled and clear; 2: still closing;
  // 3: stalled, the body between; 4: stalled, other cloth between; 5: stalled
  // but wider than the stalled join distance; 6: stalled next to a seam
  // corner; 7: as 6 but in a corner passing through itself; 8: as 5 with the
  // cap near its limit.
  PairFixture f = pairs_with_gaps({0.5 * mm, 2 * mm, 2 * mm, 2 * mm, 2 * mm, 5 * mm, 2 * mm, 2 * mm, 5 * mm});
  // Pair 4: a cloth triangle across the middle of its segment (panel at z = 1 mm).
  const int between = add_grid_panel(f.garment, 2, 2, 0.004, {3.997, -0.002, 0.001}, {1, 0, 0}, {0, 1, 0});
  (void)between;
  const ClothModel model = build_cloth_model(f.garment, fabric_preset("cotton"));
  const std::vector<Vec3>& x = f.garment.mesh.positions;
  const std::size_t n = model.vertex_count, pairs = model.seam_a.size();
  ASSERT_EQ(pairs, 9u);

  // The body: one triangle across pair 3's segment.
  TriangleMesh body;
  body.positions = {{2.99, -0.01, mm}, {3.02, -0.01, mm}, {2.99, 0.02, mm}};
  body.faces = {{0, 1, 2}};
  const TriangleMeshBvh tree(body);

  std::vector<unsigned char> near(n, 0);
  near[f.a[6]] = near[f.a[7]] = 1;
  std::vector<int> corner_group(n, -1);
  corner_group[f.a[7]] = corner_group[f.b[7]] = f.a[7];

  std::vector<double> gap_prev(pairs, 2 * mm);  // no change since the last frame: stalled
  gap_prev[2] = 2.5 * mm;                       // 2 <= 0.98 * 2.5: still closing
  gap_prev[5] = gap_prev[8] = 5 * mm;
  std::vector<double> cap(pairs, 1.0);
  cap[8] = 29;
  std::vector<unsigned char> joined(pairs, 0);
  const SeamJoinRules rules{1 * mm, 3 * mm, 1.1, 30};

  // Without the body (zero gravity): only the join distance applies.
  {
    std::vector<unsigned char> j = joined;
    std::vector<double> g = gap_prev, c = cap;
    EXPECT_EQ(join_seam_pairs(model, x, rules, nullptr, near, corner_group, j, g, c), 1);
    EXPECT_EQ(j, (std::vector<unsigned char>{1, 0, 0, 0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(g, gap_prev);
    EXPECT_EQ(c, cap);
  }

  EXPECT_EQ(join_seam_pairs(model, x, rules, &tree, near, corner_group, joined, gap_prev, cap), 3);
  EXPECT_EQ(joined, (std::vector<unsigned char>{1, 1, 0, 0, 0, 0, 0, 1, 0}));
  const std::vector<double> expected_cap{1, 1, 1, 1, 1.1, 1.1, 1.1, 1, 30};
  for (std::size_t s = 0; s < pairs; ++s) EXPECT_DOUBLE_EQ(cap[s], expected_cap[s]) << "pair " << s;
  // Open pairs remember this frame's gap; the ones joined by distance are left alone.
  EXPECT_EQ(gap_prev[0], 2 * mm);
  for (std::size_t s = 1; s < pairs; ++s)
    EXPECT_DOUBLE_EQ(gap_prev[s], norm(x[model.seam_b[s]] - x[model.seam_a[s]])) << "pair " << s;

  // The next frame, nothing moved: pair 2 now counts as stalled and is joined.
  EXPECT_EQ(join_seam_pairs(model, x, rules, &tree, near, corner_group, joined, gap_prev, cap), 1);
  EXPECT_EQ(joined[2], 1);
  EXPECT_DOUBLE_EQ(cap[4], 1.1 * 1.1);
}

// Next to a seam corner a stalled pair joins only when its sides overlap
// within the corner join distance (half the thickness in ClothSimulation) and
// no cloth lies between them.
TEST(SeamSewing, StalledPairNextToACornerJoinsOnlyWhenItsSidesOverlap) {
  const double mm = 0.001;
  // 0: 1.2 mm, clear -> joins; 1: 2 mm, clear -> stays (over 1.5 mm, and the
  // 3 mm rule skips corners); 2: 1.2 mm with cloth between -> stays.
  PairFixture f = pairs_with_gaps({1.2 * mm, 2 * mm, 1.2 * mm});
  add_grid_panel(f.garment, 2, 2, 0.004, {1.997, -0.002, 0.6 * mm}, {1, 0, 0}, {0, 1, 0});
  const ClothModel model = build_cloth_model(f.garment, fabric_preset("cotton"));
  const std::vector<Vec3>& x = f.garment.mesh.positions;
  const std::size_t pairs = model.seam_a.size();
  ASSERT_TRUE(cloth_between(model, x, model.seam_a[2], model.seam_b[2]));
  TriangleMesh body;  // far from every pair
  body.positions = {{5, 5, 5}, {5.1, 5, 5}, {5, 5.1, 5}};
  body.faces = {{0, 1, 2}};
  const TriangleMeshBvh tree(body);
  const std::vector<unsigned char> near(model.vertex_count, 1);  // every vertex next to a corner
  const std::vector<int> no_groups;
  const std::vector<double> gaps{1.2 * mm, 2 * mm, 1.2 * mm};
  SeamJoinRules rules{1 * mm, 3 * mm, 1.1, 30};
  rules.corner_join_distance = 1.5 * mm;
  std::vector<unsigned char> joined(pairs, 0);
  std::vector<double> gap_prev = gaps, cap(pairs, 1.0);
  EXPECT_EQ(join_seam_pairs(model, x, rules, &tree, near, no_groups, joined, gap_prev, cap), 1);
  EXPECT_EQ(joined, (std::vector<unsigned char>{1, 0, 0}));
  // The rule off: pair 0 stays open too.
  rules.corner_join_distance = 0;
  std::vector<unsigned char> j2(pairs, 0);
  std::vector<double> g2 = gaps, c2(pairs, 1.0);
  EXPECT_EQ(join_seam_pairs(model, x, rules, &tree, near, no_groups, j2, g2, c2), 0);
}

TEST(SeamSewing, OnlyTheEndsOfOpenPairsSlideWithoutFriction) {
  // 0 and 1: open; 2: joined.
  PairFixture f = pairs_with_gaps({0.005, 0.005, 0.0});
  const ClothModel model = build_cloth_model(f.garment, fabric_preset("cotton"));
  std::vector<unsigned char> ends;
  open_seam_ends(model, {0, 0, 1}, ends);
  ASSERT_EQ(ends.size(), model.vertex_count);
  std::vector<unsigned char> expected(model.vertex_count, 0);
  for (int s : {0, 1}) expected[model.seam_a[s]] = expected[model.seam_b[s]] = 1;
  EXPECT_EQ(ends, expected);
}

TEST(SeamSewing, ClothBetweenSeesOnlyTrianglesWithoutTheEnds) {
  PairFixture f = pairs_with_gaps({0.002, 0.002});
  add_grid_panel(f.garment, 2, 2, 0.004, {0.997, -0.002, 0.001}, {1, 0, 0}, {0, 1, 0});
  const ClothModel model = build_cloth_model(f.garment, fabric_preset("cotton"));
  const std::vector<Vec3>& x = f.garment.mesh.positions;
  EXPECT_FALSE(cloth_between(model, x, model.seam_a[0], model.seam_b[0]));
  EXPECT_TRUE(cloth_between(model, x, model.seam_a[1], model.seam_b[1]));
}

TEST(SeamSewing, JoinedPairsWeldToTheirMassWeightedMean) {
  PairFixture f = pairs_with_gaps({0.002, 0.004});
  ClothModel model = build_cloth_model(f.garment, fabric_preset("cotton"));
  pin_vertex(model, model.seam_b[1]);
  std::vector<Vec3> x = f.garment.mesh.positions;
  const std::vector<Vec3> x0 = x;
  std::vector<unsigned char> moved(x.size(), 0);
  const Executor ex(1);
  weld_joined_pairs(model, {1, 1}, x, moved, ex);
  // Pair 0: equal masses (mirror panels): the midpoint. Pair 1: the pinned side stays.
  const Vec3 mid = (x0[model.seam_a[0]] + x0[model.seam_b[0]]) * 0.5;
  EXPECT_NEAR(norm(x[model.seam_a[0]] - mid), 0, 1e-15);
  EXPECT_EQ(x[model.seam_a[0]], x[model.seam_b[0]]);
  EXPECT_EQ(x[model.seam_a[1]], x0[model.seam_b[1]]);
  EXPECT_EQ(x[model.seam_b[1]], x0[model.seam_b[1]]);
  EXPECT_EQ(moved[model.seam_a[0]] + moved[model.seam_b[0]] + moved[model.seam_a[1]], 3);
}

// A pucker (SeamJoinRules::bracketed_run_max): a short run of open pairs of
// one stitch, both its neighbours on that stitch joined, stalled at the cap's
// limit, wider than the stalled join distance. Pair k's side a is vertex (0,
// 0) of a 1 cm panel at (25 k mm, 0, 0), its side b `gap` further along +z;
// consecutive a sides are 25 mm apart, so a run's mean seam edge is 25 mm.
TEST(SeamSewing, StalledPuckerBetweenJoinedStitchesIsJoined) {
  const double mm = 0.001;
  struct P {
    int stitch;
    bool joined;
    double gap;
    double cap;
  };
  const std::vector<P> spec{
      // stitch 0: two open pairs between joined ones -> both join
      {0, true, 0, 30},
      {0, false, 10 * mm, 30},
      {0, false, 12 * mm, 30},
      {0, true, 0, 30},
      // stitch 1: three open pairs -> too long a run
      {1, true, 0, 30},
      {1, false, 10 * mm, 30},
      {1, false, 10 * mm, 30},
      {1, false, 10 * mm, 30},
      {1, true, 0, 30},
      // stitch 2: the open pair is the stitch's first, the next joined -> an end run, joins
      {2, false, 10 * mm, 30},
      {2, true, 0, 30},
      // stitch 3: wider than the 25 mm seam edge
      {3, true, 0, 30},
      {3, false, 30 * mm, 30},
      {3, true, 0, 30},
      // stitch 4: the cap not at its limit yet -> it grows instead
      {4, true, 0, 30},
      {4, false, 10 * mm, 20},
      {4, true, 0, 30},
      // stitch 5: other cloth between the two sides
      {5, true, 0, 30},
      {5, false, 10 * mm, 30},
      {5, true, 0, 30},
      // stitch 6: two open pairs at the stitch's end -> too long an end run
      {6, true, 0, 30},
      {6, false, 10 * mm, 30},
      {6, false, 10 * mm, 30},
      // stitch 7: one pair, open -> the whole stitch open, nothing holds it
      {7, false, 10 * mm, 30},
  };
  GarmentMesh g;
  for (std::size_t k = 0; k < spec.size(); ++k) {
    const Vec3 o{0.025 * static_cast<double>(k), 0, 0};
    const int a = add_grid_panel(g, 2, 2, 0.01, o, {-1, 0, 0}, {0, 1, 0});
    const int b = add_grid_panel(g, 2, 2, 0.01, o + Vec3{0, 0, spec[k].gap}, {-1, 0, 0}, {0, 1, 0});
    g.seam_pairs.push_back({a, b, spec[k].stitch});
  }
  g.seam_length_ratio.assign(8, 1.0);
  // A 4 mm patch across the middle of pair 18's segment.
  add_grid_panel(g, 2, 2, 0.004, {0.025 * 18 - 0.002, -0.002, 5 * mm}, {1, 0, 0}, {0, 1, 0});
  const ClothModel model = build_cloth_model(g, fabric_preset("cotton"));
  const std::vector<Vec3>& x = g.mesh.positions;
  const std::size_t pairs = model.seam_a.size();
  ASSERT_EQ(pairs, spec.size());

  // Mean seam edges by hand: the run {1, 2} of stitch 0 spans pairs 0..3.
  std::vector<unsigned char> joined(pairs);
  std::vector<double> gap_prev(pairs), cap(pairs);
  for (std::size_t s = 0; s < pairs; ++s) {
    joined[s] = spec[s].joined;
    gap_prev[s] = spec[s].gap;  // unchanged since the last frame: stalled
    cap[s] = spec[s].cap;
  }
  EXPECT_NEAR(bracketed_open_pairs(model, x, joined, 1, 2), 0.025, 1e-12);
  EXPECT_NEAR(bracketed_open_pairs(model, x, joined, 2, 2), 0.025, 1e-12);
  EXPECT_EQ(bracketed_open_pairs(model, x, joined, 6, 2), 0.0);  // run of 3
  EXPECT_NEAR(bracketed_open_pairs(model, x, joined, 6, 3), 0.025, 1e-12);
  EXPECT_EQ(bracketed_open_pairs(model, x, joined, 9, 2), 0.0);  // at the stitch's start: no end runs
  EXPECT_NEAR(bracketed_open_pairs(model, x, joined, 9, 2, 1), 0.025, 1e-12);  // one edge, 9 -> 10
  EXPECT_EQ(bracketed_open_pairs(model, x, joined, 7, 2, 5), 0.0);  // stitch 1's run is bracketed, over 2
  EXPECT_EQ(bracketed_open_pairs(model, x, joined, 0, 2), 0.0);     // joined itself

  // The body: one triangle far from every pair.
  TriangleMesh body;
  body.positions = {{5, 5, 5}, {5.1, 5, 5}, {5, 5.1, 5}};
  body.faces = {{0, 1, 2}};
  const TriangleMeshBvh tree(body);
  const std::vector<unsigned char> near(model.vertex_count, 0);
  const std::vector<int> no_corners;
  const SeamJoinRules rules{1 * mm, 3 * mm, 1.1, 30};
  EXPECT_EQ(join_seam_pairs(model, x, rules, &tree, near, no_corners, joined, gap_prev, cap), 3);
  for (std::size_t s = 0; s < pairs; ++s)
    EXPECT_EQ(joined[s] != 0, spec[s].joined || s == 1 || s == 2 || s == 9) << "pair " << s;
  EXPECT_DOUBLE_EQ(cap[15], 22.0);  // grown by 1.1, still open

  // The rule off: pairs 10-12 mm apart stay open (over the 3 mm stalled join distance).
  SeamJoinRules off = rules;
  off.bracketed_run_max = 0;
  off.end_run_max = 0;
  std::vector<unsigned char> j2(pairs);
  std::vector<double> g2(pairs), c2(pairs);
  for (std::size_t s = 0; s < pairs; ++s) j2[s] = spec[s].joined, g2[s] = spec[s].gap, c2[s] = spec[s].cap;
  EXPECT_EQ(join_seam_pairs(model, x, off, &tree, near, no_corners, j2, g2, c2), 0);
}

// Seam corners (seam_corners.h): which cloth passes through itself around a
// corner (checked against a breadth-first search over explicit adjacency
// lists), and the untangling that hands a closed corner back to
// self-collision (checked against brute-force triangle intersection).

#include "drape/cloth/seam_corners.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "drape/cloth/cloth_simulation.h"
#include "drape/cloth/seam_weld.h"
#include "drape/geometry/triangle_queries.h"
#include "test_shapes.h"

using namespace drape;
using namespace drape::test;

namespace {

// Three 5 x 5 panels: B sewn to A's right edge, C to A's top edge, so A's
// top-right vertex is in two pairs (a corner, like an armpit). Returns that vertex.
int add_l_corner(GarmentMesh& g, Vec3 origin) {
  const int n = 5;
  const double h = 0.01;
  const int a = add_grid_panel(g, n, n, h, origin, {1, 0, 0}, {0, 1, 0});
  const int b = add_grid_panel(g, n, n, h, origin + Vec3{0.05, 0, 0}, {1, 0, 0}, {0, 1, 0});
  const int c = add_grid_panel(g, n, n, h, origin + Vec3{0, 0.05, 0}, {1, 0, 0}, {0, 1, 0});
  const int seam = static_cast<int>(g.seam_length_ratio.size());
  for (int j = 0; j < n; ++j) g.seam_pairs.push_back({a + j * n + (n - 1), b + j * n, seam});
  for (int i = 0; i < n; ++i) g.seam_pairs.push_back({a + (n - 1) * n + i, c + i, seam + 1});
  g.seam_length_ratio.insert(g.seam_length_ratio.end(), {1.0, 1.0});
  return a + (n - 1) * n + (n - 1);
}

// The rings around `corners` by explicit adjacency: each ring adds the mesh
// neighbours of the set, then the seam partners of the grown set.
std::vector<unsigned char> rings_by_adjacency(const GarmentMesh& g, const std::vector<int>& corners,
                                              int rings) {
  const std::size_t n = g.mesh.positions.size();
  std::vector<std::set<int>> neighbours(n), partners(n);
  for (const Triangle& t : g.mesh.faces)
    for (int k = 0; k < 3; ++k) {
      neighbours[t[k]].insert(t[(k + 1) % 3]);
      neighbours[t[k]].insert(t[(k + 2) % 3]);
    }
  for (const SeamVertexPair& p : g.seam_pairs) {
    partners[p.a].insert(p.b);
    partners[p.b].insert(p.a);
  }
  std::set<int> in(corners.begin(), corners.end());
  for (int r = 0; r < rings; ++r) {
    std::set<int> grown = in;
    for (int v : in) grown.insert(neighbours[v].begin(), neighbours[v].end());
    std::set<int> sewn = grown;
    for (int v : grown) sewn.insert(partners[v].begin(), partners[v].end());
    in = sewn;
  }
  std::vector<unsigned char> out(n, 0);
  for (int v : in) out[v] = 1;
  return out;
}

// Brute force: face pairs sharing no vertex whose triangles intersect.
std::size_t crossings(const TriangleMesh& m) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < m.faces.size(); ++i)
    for (std::size_t j = i + 1; j < m.faces.size(); ++j) {
      const Triangle &a = m.faces[i], &b = m.faces[j];
      bool shared = false;
      for (int u : a)
        for (int w : b) shared |= u == w;
      const auto& x = m.positions;
      count += !shared && triangles_intersect(x[a[0]], x[a[1]], x[a[2]], x[b[0]], x[b[1]], x[b[2]]);
    }
  return count;
}

}  // namespace

TEST(SeamCorners, PassThroughGroupsAreTheRingsAroundEachCorner) {
  GarmentMesh g;
  const int first = add_l_corner(g, {0, 0, 0});
  const int second = add_l_corner(g, {1, 0, 0});  // far away: its own group
  const std::size_t per_copy = g.mesh.positions.size() / 2;
  const ClothModel model = build_cloth_model(g, fabric_preset("cotton"));
  std::vector<unsigned char> corners = seam_corner_vertices(model);
  std::vector<unsigned char> expected_corners(model.vertex_count, 0);
  expected_corners[first] = expected_corners[second] = 1;
  EXPECT_EQ(corners, expected_corners);

  for (int rings : {1, 2, 3}) {
    const std::vector<unsigned char> in = rings_by_adjacency(g, {first, second}, rings);
    EXPECT_EQ(near_seam_corners(model, rings), in) << rings << " rings";
    // Group id: the smallest vertex id of the copy's region.
    int min_first = -1, min_second = -1;
    for (std::size_t v = 0; v < in.size(); ++v) {
      if (!in[v]) continue;
      int& m = v < per_copy ? min_first : min_second;
      if (m < 0) m = static_cast<int>(v);
    }
    std::vector<int> expected(model.vertex_count, -1);
    for (std::size_t v = 0; v < in.size(); ++v)
      if (in[v]) expected[v] = v < per_copy ? min_first : min_second;
    EXPECT_EQ(corner_pass_through_groups(model, rings), expected) << rings << " rings";
  }
  // Without a vertex in two pairs there is no group at all.
  EXPECT_TRUE(corner_pass_through_groups(
                  build_cloth_model(two_sewn_panels(5, 0.01, 0.01), fabric_preset("cotton")), 3)
                  .empty());
}

namespace {

// A 22 cm sheet at y = 0 and, above it, a 4 cm patch whose middle vertex pokes
// 6 mm through the sheet; the patch's vertex (1, 1) is sewn to the sheet
// vertex 4 mm below it. The patch is one corner group.
struct PokeFixture {
  GarmentMesh g;
  ClothModel model;
  std::vector<int> group;
  int patch = 0;
};

PokeFixture poke(double tip_y) {
  PokeFixture f;
  f.g = horizontal_square(12, 0.02, 0.0);
  f.patch = add_grid_panel(f.g, 5, 5, 0.01, {-0.021, 0.004, 0.019}, {1, 0, 0}, {0, 0, -1});
  f.g.mesh.positions[f.patch + 2 * 5 + 2].y = tip_y;
  f.g.seam_pairs.push_back({f.patch + 6, 5 * 12 + 5, 0});
  f.g.seam_length_ratio = {1.0};
  f.model = build_cloth_model(f.g, fabric_preset("cotton"));
  f.group.assign(f.model.vertex_count, -1);
  for (int v = f.patch; v < f.patch + 25; ++v) f.group[v] = f.patch;
  return f;
}

TriangleMesh welded(const PokeFixture& f, const std::vector<Vec3>& x,
                    const std::vector<unsigned char>& joined) {
  std::vector<int> vertex_map, face_map;
  return weld_joined_seams(f.model, x, joined, vertex_map, face_map);
}

}  // namespace

TEST(SeamCorners, AnOpenCornerKeepsPassingThroughUntilReleased) {
  PokeFixture f = poke(-0.006);
  std::vector<Vec3> x = f.g.mesh.positions;
  const std::vector<unsigned char> open{0};
  ASSERT_GT(crossings(welded(f, x, open)), 0u);
  CornerUntangler untangler;
  std::vector<int> group = f.group;
  // Its pair is open: nothing is touched.
  EXPECT_FALSE(untangler.untangle_closed_groups(f.model, open, false, 60, 0.0005, x, group));
  EXPECT_EQ(x, f.g.mesh.positions);
  EXPECT_EQ(group, f.group);
  // Released (its time is up) but no untangling step allowed: still crossing, kept.
  EXPECT_FALSE(untangler.untangle_closed_groups(f.model, open, true, 0, 0.0005, x, group));
  EXPECT_EQ(x, f.g.mesh.positions);
  EXPECT_EQ(group, f.group);
  // With steps: untangled and released (no group left: the list is cleared).
  EXPECT_TRUE(untangler.untangle_closed_groups(f.model, open, true, 60, 0.0005, x, group));
  EXPECT_TRUE(group.empty());
  EXPECT_EQ(crossings(welded(f, x, open)), 0u);
  // Only the crossing cloth moved: the sheet's far corner stays.
  EXPECT_EQ(x[0], f.g.mesh.positions[0]);
}

TEST(SeamCorners, AClosedCornerIsUntangledAsItWillBeWelded) {
  PokeFixture f = poke(-0.006);
  std::vector<Vec3> x = f.g.mesh.positions;
  const std::vector<unsigned char> joined{1};
  ASSERT_GT(crossings(welded(f, x, joined)), 0u);
  CornerUntangler untangler;
  std::vector<int> group = f.group;
  EXPECT_TRUE(untangler.untangle_closed_groups(f.model, joined, false, 60, 0.0005, x, group));
  EXPECT_TRUE(group.empty());
  EXPECT_EQ(crossings(welded(f, x, joined)), 0u);
}

TEST(SeamCorners, AClosedCornerWithoutCrossingsIsReleasedAsItIs) {
  PokeFixture f = poke(0.004);  // the patch flat, 4 mm above the sheet
  std::vector<Vec3> x = f.g.mesh.positions;
  // A second group (the sheet's first row) with an open pair stays.
  std::vector<int> group = f.group;
  for (int v = 0; v < 12; ++v) group[v] = 0;
  f.g.seam_pairs.push_back({0, 11, 1});
  f.g.seam_length_ratio.push_back(1.0);
  f.model = build_cloth_model(f.g, fabric_preset("cotton"));
  CornerUntangler untangler;
  EXPECT_TRUE(untangler.untangle_closed_groups(f.model, {1, 0}, false, 60, 0.0005, x, group));
  EXPECT_EQ(x, f.g.mesh.positions);
  std::vector<int> expected(f.model.vertex_count, -1);
  for (int v = 0; v < 12; ++v) expected[v] = 0;
  EXPECT_EQ(group, expected);
}

TEST(SeamCorners, PairsOfAnOpenCornerSewThroughTheCornersOwnCloth) {
  // A 6 x 2 cm panel A 4 mm above a sheet C and B 4 mm below it, A's front
  // edge sewn to B's (through C), and A's first vertex also to a vertex of C:
  // a seam corner. With rings enough for its group to hold all three panels,
  // the corner passes through itself and closes, then is untangled. With the
  // pass-through off, self-collision keeps A and B on their sides of C: the
  // pairs away from the corner (beyond the two flat rings self-collision skips
  // anyway) stay open, unless the whole garment is untangled once gravity is
  // on (garment_untangle.cpp): that too lets the seam close through C, and
  // leaves no crossing.
  GarmentMesh g;
  const int a = add_grid_panel(g, 7, 3, 0.01, {0, 0.004, 0}, {1, 0, 0}, {0, 0, 1});
  const int b = add_grid_panel(g, 7, 3, 0.01, {0, -0.004, 0}, {1, 0, 0}, {0, 0, 1});
  const int c = add_grid_panel(g, 9, 5, 0.01, {-0.015, 0, -0.015}, {1, 0, 0}, {0, 0, 1});
  for (int i = 0; i < 7; ++i) g.seam_pairs.push_back({a + i, b + i, 0});
  g.seam_pairs.push_back({a, c + 9 + 1, 1});
  g.seam_length_ratio = {1.0, 1.0};
  auto run = [&](int rings, int untangle_iterations = 20) {
    ClothSettings s;
    s.threads = 1;
    s.gravity = {0, 0, 0};
    s.max_frames = 90;
    s.corner_pass_through_rings = rings;
    s.untangle_iterations = untangle_iterations;
    ClothSimulation sim(g, TriangleMesh{}, {}, fabric_preset("cotton"), s);
    return sim.run().report;
  };
  const DrapeReport on = run(12);
  EXPECT_EQ(on.seam_pairs_joined, 8u);
  EXPECT_EQ(on.self_crossing_pairs, 0u);
  const DrapeReport off = run(0, 0);
  ASSERT_EQ(off.open_seams.size(), 1u);
  EXPECT_EQ(off.open_seams[0].seam, 0);
  EXPECT_GE(off.open_seams[0].open_pairs, 3u);
  EXPECT_GT(off.max_seam_gap, 0.003);
  const DrapeReport untangled = run(0);
  EXPECT_EQ(untangled.seam_pairs_joined, 8u);
  EXPECT_EQ(untangled.self_crossing_pairs, 0u);
}

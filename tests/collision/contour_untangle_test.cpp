#include "drape/collision/contour_untangle.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "../cloth/test_shapes.h"
#include "drape/geometry/triangle_queries.h"

using namespace drape;
using namespace drape::test;

namespace {

// Brute force: every pair of faces that share no vertex and intersect.
std::vector<std::pair<int, int>> brute_force_crossings(const std::vector<Triangle>& faces,
                                                       const std::vector<Vec3>& x) {
  std::vector<std::pair<int, int>> out;
  for (std::size_t i = 0; i < faces.size(); ++i)
    for (std::size_t j = i + 1; j < faces.size(); ++j) {
      const Triangle& a = faces[i];
      const Triangle& b = faces[j];
      bool shared = false;
      for (int u : a)
        for (int w : b) shared |= u == w;
      if (!shared && triangles_intersect(x[a[0]], x[a[1]], x[a[2]], x[b[0]], x[b[1]], x[b[2]]))
        out.push_back({static_cast<int>(i), static_cast<int>(j)});
    }
  return out;
}

// A 22 cm sheet at y = 0 and, above it, a 4 cm patch whose middle vertex
// pokes 6 mm through the sheet: one closed intersection contour around the tip.
GarmentMesh sheet_with_poking_patch(int& tip) {
  GarmentMesh g = horizontal_square(12, 0.02, 0.0);
  const int base = add_grid_panel(g, 5, 5, 0.01, {-0.021, 0.004, 0.019}, {1, 0, 0}, {0, 0, -1});
  tip = base + 2 * 5 + 2;
  g.mesh.positions[tip].y = -0.006;
  return g;
}

std::vector<int> all_faces(const GarmentMesh& g) {
  std::vector<int> f(g.mesh.faces.size());
  std::iota(f.begin(), f.end(), 0);
  return f;
}

}  // namespace

TEST(ContourUntangle, CrossingPairsMatchBruteForce) {
  int tip = 0;
  GarmentMesh g = sheet_with_poking_patch(tip);
  // Crumple both layers so that many pairs cross, a few of them far from the tip.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> jitter(-0.006, 0.006);
  for (Vec3& p : g.mesh.positions) p.y += jitter(rng);
  const auto expected = brute_force_crossings(g.mesh.faces, g.mesh.positions);
  ASSERT_GT(expected.size(), 10u);
  EXPECT_EQ(crossing_face_pairs(g.mesh.faces, g.mesh.positions, all_faces(g)), expected);
  // Restricted to some faces: exactly the brute-force pairs that contain one of them.
  std::vector<int> some;
  for (int f = 0; f < static_cast<int>(g.mesh.faces.size()); f += 3) some.push_back(f);
  std::vector<std::pair<int, int>> restricted;
  for (const auto& p : expected)
    if (p.first % 3 == 0 || p.second % 3 == 0) restricted.push_back(p);
  EXPECT_EQ(crossing_face_pairs(g.mesh.faces, g.mesh.positions, some), restricted);
  // A few faces (a seam corner's group): the patch's faces (vertices past the
  // sheet's 144), searched without a tree.
  std::vector<int> patch;
  for (int f = 0; f < static_cast<int>(g.mesh.faces.size()); ++f)
    if (g.mesh.faces[f][0] >= 144) patch.push_back(f);
  ASSERT_FALSE(patch.empty());
  std::vector<std::pair<int, int>> by_patch;
  for (const auto& p : expected)
    if (g.mesh.faces[p.first][0] >= 144 || g.mesh.faces[p.second][0] >= 144) by_patch.push_back(p);
  ASSERT_FALSE(by_patch.empty());
  EXPECT_EQ(crossing_face_pairs(g.mesh.faces, g.mesh.positions, patch), by_patch);
  // Vertices with one representative count as one: the patch's faces touch
  // the sheet's when every vertex maps to 0.
  EXPECT_TRUE(
      crossing_face_pairs(g.mesh.faces, g.mesh.positions, some, std::vector<int>(g.mesh.positions.size(), 0))
          .empty());
}

TEST(ContourUntangle, AllFacesPairsFromOneRefittedTreeMatchBruteForce) {
  // crossing_face_pairs_all keeps its tree between calls and refits it: on a
  // crumpled sheet, crumpled again before each call (the faces' boxes move by
  // up to 12 mm, so a stale tree would miss pairs), every answer is the brute
  // force's, and the tree is built once.
  int tip = 0;
  GarmentMesh g = sheet_with_poking_patch(tip);
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> jitter(-0.006, 0.006);
  FaceCrossingCache cache;
  std::size_t total = 0;
  for (int call = 0; call < 6; ++call) {
    std::vector<Vec3> x = g.mesh.positions;
    for (Vec3& p : x) p.y += jitter(rng);
    const auto expected = brute_force_crossings(g.mesh.faces, x);
    total += expected.size();
    ASSERT_EQ(crossing_face_pairs_all(g.mesh.faces, x, {}, cache), expected) << call;
    ASSERT_EQ(crossing_face_pairs(g.mesh.faces, x, all_faces(g)), expected) << call;
  }
  EXPECT_GT(total, 60u);
  EXPECT_EQ(cache.builds, 1u);
  // One representative for every vertex: every face touches every other.
  EXPECT_TRUE(crossing_face_pairs_all(g.mesh.faces, g.mesh.positions,
                                      std::vector<int>(g.mesh.positions.size(), 0), cache)
                  .empty());
}

TEST(ContourUntangle, PokedThroughPatchIsPulledBack) {
  int tip = 0;
  GarmentMesh g = sheet_with_poking_patch(tip);
  std::vector<Vec3>& x = g.mesh.positions;
  const std::vector<Triangle>& faces = g.mesh.faces;
  ASSERT_FALSE(brute_force_crossings(faces, x).empty());
  std::vector<double> inv_mass(x.size(), 1.0);
  inv_mass[0] = 0;  // a pinned sheet corner never moves
  const Vec3 pinned = x[0];
  int steps = 0;
  while (steps < 100) {
    const auto pairs = crossing_face_pairs(faces, x, all_faces(g));
    if (pairs.empty()) break;
    EXPECT_GT(contour_minimization_step(faces, x, inv_mass, pairs, 0.0005), 0u);
    ++steps;
  }
  EXPECT_TRUE(brute_force_crossings(faces, x).empty());
  EXPECT_LE(steps, 30);  // 6 mm deep at 0.5 mm per side and step
  EXPECT_EQ(x[0], pinned);
  // Back on the side the patch came from: the tip lies above the sheet.
  int nearest = 0;
  for (int v = 0; v < 144; ++v)
    if (squared_norm(Vec3{x[v].x - x[tip].x, 0, x[v].z - x[tip].z}) <
        squared_norm(Vec3{x[nearest].x - x[tip].x, 0, x[nearest].z - x[tip].z}))
      nearest = v;
  EXPECT_GT(x[tip].y, x[nearest].y);
}

TEST(ContourUntangle, SeparatePairsAreLeftAlone) {
  int tip = 0;
  GarmentMesh g = sheet_with_poking_patch(tip);
  g.mesh.positions[tip].y = 0.004;  // the patch is flat again, 4 mm above the sheet
  const std::vector<Vec3> before = g.mesh.positions;
  // A stale pair list (faces that no longer intersect) moves nothing.
  const std::vector<std::pair<int, int>> stale = {{0, 250}, {10, 260}};
  EXPECT_EQ(contour_minimization_step(g.mesh.faces, g.mesh.positions, std::vector<double>(before.size(), 1.0),
                                      stale, 0.001),
            0u);
  EXPECT_EQ(g.mesh.positions, before);
}

// The self collider's candidate pairs against a brute force over every
// vertex-triangle and edge-edge pair of two crumpled sheets: right after
// a search they are exactly the pairs within the radius that the culling
// rules keep, and between searches they still hold every pair that has come
// within the thickness.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <set>

#include "../cloth/test_shapes.h"
#include "drape/collision/self_collider.h"
#include "drape/geometry/mesh_adjacency.h"
#include "drape/geometry/triangle_queries.h"

using namespace drape;
using namespace drape::test;

namespace {

// Two 20 x 16 sheets of 10 mm spacing (the shirt's at 10 mm), the upper one
// 7 mm above and turned 30 degrees so that their edges cross, both wrinkled
// in opposite phase (3-11 mm apart), the lower one with a 6 mm bump, all
// randomly perturbed by 0.3 mm: pairs between the layers at every distance,
// curved and flat neighbourhoods.
GarmentMesh crumpled_sheets(unsigned seed) {
  GarmentMesh g;
  const double h = 0.01, c = std::cos(0.5236), s = std::sin(0.5236);
  add_grid_panel(g, 20, 16, h, {0, 0, 0}, {1, 0, 0}, {0, 0, 1});
  add_grid_panel(g, 20, 16, h, {0.02, 0.007, -0.02}, {c, 0, s}, {-s, 0, c});
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> noise(-0.0003, 0.0003);
  for (std::size_t v = 0; v < g.mesh.positions.size(); ++v) {
    Vec3& p = g.mesh.positions[v];
    const double w = 0.002 * std::sin(p.x * 40) * std::sin(p.z * 30);
    p.y += v < 320 ? w : -w;
    // A bump of the lower sheet up to the upper one: a curved patch.
    if (v < 320) p.y += 0.006 * std::exp(-(std::pow(p.x - 0.1, 2) + std::pow(p.z - 0.07, 2)) / 4e-4);
    p += Vec3{noise(rng), noise(rng), noise(rng)};
  }
  return g;
}

struct BruteForce {
  std::vector<std::array<int, 2>> vt;
  std::vector<std::array<int, 4>> ee;
};

// Every pair closer than `radius`, minus those sharing a vertex and those the
// flat culling (M1 step 10) drops, reimplemented from its definition: a face
// is flat when every face sharing a vertex with it has its normal within the
// cone; a vertex is flat when all its faces are; two vertices are "near and
// flat" when both are flat and within two rings of each other. `shape` holds
// the positions the curvature was taken at.
BruteForce brute_force(const std::vector<Triangle>& faces, const std::vector<Vec3>& shape,
                       const std::vector<Vec3>& x, double radius, double cone) {
  const std::size_t n = x.size();
  std::vector<Vec3> normal(faces.size());
  std::vector<std::vector<int>> faces_of(n);
  for (std::size_t f = 0; f < faces.size(); ++f) {
    const Triangle& t = faces[f];
    normal[f] = normalized(cross(shape[t[1]] - shape[t[0]], shape[t[2]] - shape[t[0]]));
    for (int v : t) faces_of[v].push_back(static_cast<int>(f));
  }
  std::vector<char> face_flat(faces.size(), 1), vertex_flat(n, 1);
  for (std::size_t f = 0; f < faces.size(); ++f)
    for (int v : faces[f])
      for (int g : faces_of[v])
        if (dot(normal[f], normal[g]) < std::cos(cone)) face_flat[f] = 0;
  for (std::size_t v = 0; v < n; ++v)
    for (int f : faces_of[v]) vertex_flat[v] = vertex_flat[v] && face_flat[f];
  std::vector<std::set<int>> one(n), two(n);
  for (std::size_t v = 0; v < n; ++v)
    for (int f : faces_of[v]) one[v].insert(faces[f].begin(), faces[f].end());
  for (std::size_t v = 0; v < n; ++v)
    for (int u : one[v]) two[v].insert(one[u].begin(), one[u].end());
  const auto near_and_flat = [&](int a, int b) {
    return vertex_flat[a] && vertex_flat[b] && two[a].count(b) > 0;
  };

  BruteForce out;
  for (std::size_t v = 0; v < n; ++v)
    for (std::size_t f = 0; f < faces.size(); ++f) {
      const Triangle& t = faces[f];
      const int vi = static_cast<int>(v);
      if (t[0] == vi || t[1] == vi || t[2] == vi) continue;
      if (face_flat[f] && (near_and_flat(vi, t[0]) || near_and_flat(vi, t[1]) || near_and_flat(vi, t[2])))
        continue;
      const ClosestPoint cp = closest_point_on_triangle(x[v], x[t[0]], x[t[1]], x[t[2]]);
      if (norm(x[v] - cp.point) < radius) out.vt.push_back({vi, static_cast<int>(f)});
    }
  const std::vector<std::array<int, 2>> edges = unique_edges(faces);
  for (std::size_t i = 0; i < edges.size(); ++i)
    for (std::size_t j = i + 1; j < edges.size(); ++j) {
      const auto [a0, a1] = edges[i];
      const auto [b0, b1] = edges[j];
      if (a0 == b0 || a0 == b1 || a1 == b0 || a1 == b1) continue;
      if (near_and_flat(a0, b0) || near_and_flat(a0, b1) || near_and_flat(a1, b0) || near_and_flat(a1, b1))
        continue;
      // Boxes farther apart than the radius: the segments are too.
      double gap2 = 0;
      for (int k = 0; k < 3; ++k) {
        const double g = std::max({std::min(x[b0][k], x[b1][k]) - std::max(x[a0][k], x[a1][k]),
                                   std::min(x[a0][k], x[a1][k]) - std::max(x[b0][k], x[b1][k]), 0.0});
        gap2 += g * g;
      }
      if (gap2 >= radius * radius) continue;
      // Segment distance by dense sampling of one segment against the exact
      // point-segment distance (independent of the collider's closed form).
      double best = 1e9;
      const int samples = 200;
      for (int k = 0; k <= samples; ++k) {
        const Vec3 p = x[a0] + (x[a1] - x[a0]) * (static_cast<double>(k) / samples);
        const Vec3 d = x[b1] - x[b0];
        const double t = std::clamp(dot(p - x[b0], d) / dot(d, d), 0.0, 1.0);
        best = std::min(best, norm(p - (x[b0] + d * t)));
      }
      if (best < radius) out.ee.push_back({a0, a1, b0, b1});
    }
  return out;
}

// Pairs whose brute-force distance lies within `tol` of the radius may fall
// either way (the sampled segment distance overestimates slightly).
template <class Pair>
std::vector<Pair> missing(const std::vector<Pair>& want, const std::vector<Pair>& have) {
  std::vector<Pair> out;
  std::set_difference(want.begin(), want.end(), have.begin(), have.end(), std::back_inserter(out));
  return out;
}

}  // namespace

TEST(SelfColliderCandidates, SearchFindsExactlyThePairsWithinTheRadius) {
  for (unsigned seed : {1u, 2u}) {
    const GarmentMesh g = crumpled_sheets(seed);
    const std::vector<Vec3>& x = g.mesh.positions;
    const double thickness = 0.003, cone = 20 * std::numbers::pi / 180;
    SelfCollider sc(g.mesh.faces, x, thickness, cone);
    sc.update(x, Executor::global(), true);
    const BruteForce want = brute_force(g.mesh.faces, x, x, sc.radius(), cone);
    const auto vt = sc.vertex_triangle_candidates();
    const auto ee = sc.edge_edge_candidates();
    EXPECT_EQ(sc.overflow(), 0u);
    // Not an empty case: the layers bring non-adjacent cloth within the radius.
    EXPECT_GT(want.vt.size(), 500u);
    EXPECT_GT(want.ee.size(), 500u);
    EXPECT_EQ(vt, want.vt) << "seed " << seed;
    // Edge pairs: the brute force samples one segment (distance slightly
    // high), so it may miss a pair within 0.1 mm of the radius; none beyond.
    const auto lost = missing(want.ee, ee);
    EXPECT_TRUE(lost.empty()) << lost.size() << " edge pairs within the radius are not candidates";
    const BruteForce wider = brute_force(g.mesh.faces, x, x, sc.radius() + 1e-4, cone);
    const auto extra = missing(ee, wider.ee);
    EXPECT_TRUE(extra.empty()) << extra.size() << " edge candidates are farther than the radius";
  }
}

// Between searches the collider reuses its candidates. Whatever it decides,
// every pair that is within the thickness now must be among them (the
// invariant that makes reuse safe), while patches of the upper sheet move by up to
// 1.2 mm per step down onto the lower one and the whole cloth drifts.
TEST(SelfColliderCandidates, ReusedCandidatesHoldEveryPairWithinTheThickness) {
  const GarmentMesh g = crumpled_sheets(3);
  std::vector<Vec3> x = g.mesh.positions;
  const std::vector<Vec3> shape = x;  // curvature stays as taken at the start
  const double thickness = 0.003, cone = 20 * std::numbers::pi / 180;
  SelfCollider sc(g.mesh.faces, x, thickness, cone);
  sc.update(x, Executor::global(), true);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> coord(0, 0.19), dir(-1, 1);
  int steps = 0, checked_pairs = 0;
  Vec3 at, d;
  for (; steps < 24; ++steps) {
    if (steps % 4 == 0) {  // a new patch every 4 steps: its vertices pass the slack
      at = {coord(rng), 0, coord(rng) * 0.8};
      d = normalized(Vec3{dir(rng), -1.5, dir(rng)}) * 0.0012;
    }
    for (std::size_t v = 0; v < x.size(); ++v) {
      Vec3& p = x[v];
      const double r = std::hypot(p.x - at.x, p.z - at.z);
      if (v >= 320 && r < 0.04) p += d * (1 - r / 0.04);  // the upper sheet, down and sideways
      p += Vec3{0.0005, -0.0007, 0};                      // common drift: no distance changes
    }
    sc.update(x, Executor::global());
    const BruteForce within = brute_force(g.mesh.faces, shape, x, thickness, cone);
    const auto vt = sc.vertex_triangle_candidates();
    const auto ee = sc.edge_edge_candidates();
    ASSERT_TRUE(missing(within.vt, vt).empty()) << "step " << steps;
    ASSERT_TRUE(missing(within.ee, ee).empty()) << "step " << steps;
    checked_pairs += static_cast<int>(within.vt.size() + within.ee.size());
  }
  EXPECT_GT(checked_pairs, 500);
  // The reuse was exercised: fewer searches than steps.
  EXPECT_LT(sc.searches(), static_cast<std::size_t>(steps));
  EXPECT_EQ(sc.overflow(), 0u);
}

// TriangleMeshBvh::winding_number and contains() against brute force (the
// solid angles of every face summed, test_meshes.h, no rays, no tree) on the
// closed MakeHuman body, on the same body with holes cut, on open and
// overlapping random triangles, on inward and nested closed pieces, after a
// refit and on a subset of faces. The multi-piece GDQuest mannequin is
// covered in tests/body/body_inside_test.cpp.

#include <gtest/gtest.h>

#include <random>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/geometry/mesh_adjacency.h"
#include "test_meshes.h"

using namespace drape;
using namespace drape::test;

namespace {

// Fast against brute force at `points` at least `min_distance` from the
// surface; inside decisions compared where the brute-force value is clear of
// the 1/2 threshold. Returns how many points were compared.
int expect_winding_matches(const TriangleMesh& m, const TriangleMeshBvh& tree,
                           const std::vector<Vec3>& points, double min_distance, double tolerance = 1e-9) {
  int compared = 0;
  for (const Vec3& p : points) {
    if (brute_distance(m, p) < min_distance) continue;
    const double expect = winding_number(m, p);
    const double got = tree.winding_number(p);
    EXPECT_NEAR(got, expect, tolerance) << p.x << " " << p.y << " " << p.z;
    if (std::abs(std::abs(expect) - 0.5) > 1e-6) {
      EXPECT_EQ(tree.contains(p), std::abs(expect) >= 0.5);
    }
    // contains() skips far fans by a bound: it must agree with the full sum.
    if (std::abs(std::abs(got) - 0.5) > 1e-9) {
      EXPECT_EQ(tree.contains(p), std::abs(got) >= 0.5);
    }
    ++compared;
  }
  return compared;
}

// Random points in the body's box plus points 2 mm either side of random vertices.
std::vector<Vec3> body_points(const TriangleMesh& m, int n, std::uint32_t seed) {
  std::vector<Vec3> pts = random_points(m.bounds(), n, seed, 0.0);
  const std::vector<Vec3> vn = m.vertex_normals();
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> vi(0, static_cast<int>(m.vertex_count()) - 1);
  for (int i = 0; i < n; ++i) {
    const int v = vi(rng);
    pts.push_back(m.positions[v] + vn[v] * 0.002);
    pts.push_back(m.positions[v] - vn[v] * 0.002);
  }
  return pts;
}

// The body with every face within `radius` of the given vertices removed.
TriangleMesh with_holes(const TriangleMesh& m, const std::vector<int>& centres, double radius) {
  TriangleMesh out;
  out.positions = m.positions;
  for (std::size_t f = 0; f < m.face_count(); ++f) {
    bool cut = false;
    for (int c : centres) cut = cut || norm(m.face_centroid(f) - m.positions[c]) < radius;
    if (!cut) out.faces.push_back(m.faces[f]);
  }
  return out;
}

TEST(WindingNumber, ClosedBodyIsOneRayAndMatchesBruteForce) {
  const TriangleMesh& m = body_mesh();
  ASSERT_TRUE(MeshAdjacency::build(m).is_closed());
  const TriangleMeshBvh tree(m);
  EXPECT_EQ(tree.boundary_edge_count(), 0u);
  const std::vector<Vec3> pts = body_points(m, 150, 71);
  int inside = 0;
  for (const Vec3& p : pts) {
    const double w = tree.winding_number(p);
    EXPECT_TRUE(w == 0 || w == 1) << w;  // closed: an exact integer
    inside += w == 1;
  }
  EXPECT_GT(inside, 100);
  EXPECT_EQ(expect_winding_matches(m, tree, pts, 1e-4), static_cast<int>(pts.size()));
}

TEST(WindingNumber, BodyWithHolesMatchesBruteForceWhereParityFails) {
  const TriangleMesh& full = body_mesh();
  // Three holes about 8 cm across (torso front, back, a thigh).
  const Aabb box = full.bounds();
  std::vector<int> centres;
  for (const Vec3 target : {Vec3{0, 0.3, 1}, Vec3{0, 0.45, -1}, Vec3{0.5, -0.4, 1}}) {
    const Vec3 aim = box.center() + Vec3{target.x * box.extent().x / 2, target.y * box.extent().y / 2,
                                         target.z * box.extent().z / 2};
    int best = 0;
    for (std::size_t v = 0; v < full.vertex_count(); ++v)
      if (norm(full.positions[v] - aim) < norm(full.positions[best] - aim)) best = static_cast<int>(v);
    centres.push_back(best);
  }
  const TriangleMesh m = with_holes(full, centres, 0.04);
  ASSERT_LT(m.face_count(), full.face_count() - 30);
  const TriangleMeshBvh tree(m);
  EXPECT_GT(tree.boundary_edge_count(), 20u);
  std::vector<Vec3> pts = body_points(m, 100, 72);
  // Points around each hole, where the value is fractional.
  std::mt19937 rng(73);
  std::uniform_real_distribution<double> u(-0.06, 0.06);
  for (int c : centres)
    for (int i = 0; i < 40; ++i) pts.push_back(full.positions[c] + Vec3{u(rng), u(rng), u(rng)});
  EXPECT_GT(expect_winding_matches(m, tree, pts, 1e-4), 300);
  // Ray parity (what contains() was) disagrees with the winding number at
  // some of these points: the reason for the winding number.
  int parity_wrong = 0;
  for (const Vec3& p : pts) {
    const double w = winding_number(m, p);
    if (std::abs(w - 0.5) > 0.1) parity_wrong += (brute_count(m, Ray{p, {0, 0, 1}}) % 2 == 1) != (w > 0.5);
  }
  EXPECT_GT(parity_wrong, 0);
}

TEST(WindingNumber, OpenOverlappingSoupMatchesBruteForce) {
  const TriangleMesh m = random_soup(400, 0.15, 74);
  const TriangleMeshBvh tree(m, {BvhBuilder::midpoint, 1});
  EXPECT_GT(tree.boundary_edge_count(), 1000u);
  EXPECT_GT(expect_winding_matches(m, tree, random_points(m.bounds(), 300, 75), 1e-5, 1e-8), 290);
}

TEST(WindingNumber, InwardAndNestedClosedPiecesCountWithSign) {
  // An outward sphere, an inward one inside it (a cavity), and a third
  // outward one overlapping the first: w is -1 .. 2, |w| >= 1/2 is inside.
  TriangleMesh a = sphere({0, 0, 0}, 1, 10, 14), b = sphere({0, 0, 0}, 0.4, 8, 10),
               c = sphere({1, 0, 0}, 0.6, 8, 10);
  const double wa = winding_number(a, {0, 0, 0});
  ASSERT_NEAR(std::abs(wa), 1, 1e-9);
  auto orient = [&](TriangleMesh& s, double sign) {  // make the sphere's w at its centre equal `sign`
    if (winding_number(s, s.bounds().center()) * sign < 0)
      for (Triangle& t : s.faces) std::swap(t[1], t[2]);
  };
  orient(a, 1);
  orient(b, -1);
  orient(c, 1);
  TriangleMesh m = a;
  for (const TriangleMesh* s : {&b, &c}) {
    const int base = static_cast<int>(m.vertex_count());
    m.positions.insert(m.positions.end(), s->positions.begin(), s->positions.end());
    for (Triangle t : s->faces) m.faces.push_back({t[0] + base, t[1] + base, t[2] + base});
  }
  const TriangleMeshBvh tree(m);
  EXPECT_EQ(tree.boundary_edge_count(), 0u);
  EXPECT_EQ(tree.winding_number({-0.7, 0, 0}), 1);  // in a only
  EXPECT_EQ(tree.winding_number({0, 0, 0}), 0);     // in a and in the cavity b
  EXPECT_EQ(tree.winding_number({0.8, 0, 0}), 2);   // in a and c
  EXPECT_EQ(tree.winding_number({1.5, 0, 0}), 1);   // in c only
  EXPECT_EQ(tree.winding_number({3, 0, 0}), 0);
  EXPECT_TRUE(tree.contains({0.8, 0, 0}));
  EXPECT_FALSE(tree.contains({0, 0, 0}));
  EXPECT_EQ(expect_winding_matches(m, tree, random_points(m.bounds(), 200, 76), 1e-4), 200);
}

TEST(WindingNumber, FollowsARefitAndASubsetOfFaces) {
  TriangleMesh m = body_mesh();
  // A subset: the faces above the waist (an open mesh).
  const double cut = m.bounds().center().y;
  std::vector<int> upper;
  TriangleMesh upper_mesh;
  upper_mesh.positions = m.positions;
  for (std::size_t f = 0; f < m.face_count(); ++f)
    if (m.face_centroid(f).y > cut) {
      upper.push_back(static_cast<int>(f));
      upper_mesh.faces.push_back(m.faces[f]);
    }
  TriangleMeshBvh tree(m, upper);
  EXPECT_GT(tree.boundary_edge_count(), 50u);
  const std::vector<Vec3> pts = body_points(m, 60, 77);
  EXPECT_GT(expect_winding_matches(upper_mesh, tree, pts, 1e-4), 150);
  // Move and squash every vertex; the tree refits, the boundary is topological.
  for (Vec3& p : m.positions) p = Vec3{p.x * 1.1 + 0.2, p.y * 0.9, p.z - 0.1 * p.y};
  upper_mesh.positions = m.positions;
  tree.refit();
  std::vector<Vec3> moved = pts;
  for (Vec3& p : moved) p = Vec3{p.x * 1.1 + 0.2, p.y * 0.9, p.z - 0.1 * p.y};
  EXPECT_GT(expect_winding_matches(upper_mesh, tree, moved, 1e-4), 150);
}

}  // namespace

// The inside test on bodies as the loader gives them: the GDQuest mannequin
// (a glTF of many separate pieces) and MakeHuman (one closed piece). The
// tree's winding number against brute force (the solid angles of every face
// summed, no rays, no tree).

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "drape/body/body_loader.h"
#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/geometry/mesh_adjacency.h"

namespace drape {
namespace {

const std::string kData = DRAPE_DATA_DIR;

double brute_winding_number(const TriangleMesh& m, const Vec3& p) {
  double w = 0;
  for (const Triangle& t : m.faces) {
    const Vec3 a = m.positions[t[0]] - p, b = m.positions[t[1]] - p, c = m.positions[t[2]] - p;
    const double la = norm(a), lb = norm(b), lc = norm(c);
    w += 2 * std::atan2(dot(a, cross(b, c)), la * lb * lc + dot(a, b) * lc + dot(b, c) * la + dot(c, a) * lb);
  }
  return w / (4 * std::numbers::pi);
}

// Pieces: connected components of faces through shared vertices.
int piece_count(const TriangleMesh& m) {
  std::vector<int> parent(m.vertex_count());
  for (std::size_t i = 0; i < parent.size(); ++i) parent[i] = static_cast<int>(i);
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  std::vector<char> used(m.vertex_count(), 0);
  for (const Triangle& t : m.faces) {
    for (int v : t) used[v] = 1;
    parent[find(t[1])] = find(t[0]);
    parent[find(t[2])] = find(t[0]);
  }
  int n = 0;
  for (std::size_t v = 0; v < parent.size(); ++v)
    n += used[v] && find(static_cast<int>(v)) == static_cast<int>(v);
  return n;
}

void expect_matches_brute_force(const TriangleMesh& m, std::uint32_t seed) {
  const TriangleMeshBvh tree(m);
  const Aabb box = m.bounds();
  const std::vector<Vec3> vn = m.vertex_normals();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::uniform_int_distribution<int> vi(0, static_cast<int>(m.vertex_count()) - 1);
  int inside = 0, n = 0;
  for (int i = 0; i < 400; ++i) {
    Vec3 p;
    if (i % 2) {
      p = box.min + Vec3{u(rng) * box.extent().x, u(rng) * box.extent().y, u(rng) * box.extent().z};
    } else {
      const int v = vi(rng);  // 3 mm either side of the surface
      p = m.positions[v] + vn[v] * ((i % 4 ? 1 : -1) * 0.003);
    }
    if (tree.distance(p, 1e-4) < 1e-4) continue;
    const double expect = brute_winding_number(m, p);
    EXPECT_NEAR(tree.winding_number(p), expect, 1e-9) << p.x << " " << p.y << " " << p.z;
    if (std::abs(std::abs(expect) - 0.5) > 1e-6) {
      EXPECT_EQ(tree.contains(p), std::abs(expect) >= 0.5);
    }
    inside += tree.contains(p);
    ++n;
  }
  EXPECT_GT(n, 350);
  EXPECT_GT(inside, 40);
}

TEST(BodyInside, MultiPieceGltfMannequinMatchesBruteForce) {
  const Body b = load_body(kData + "/bodies/gdquest_mannequin/mannequiny-0.3.0.glb");
  EXPECT_GT(piece_count(b.mesh), 20);
  expect_matches_brute_force(b.mesh, 81);
}

TEST(BodyInside, ClosedMakeHumanMatchesBruteForce) {
  const Body b = load_body(kData + "/bodies/makehuman/base.obj");
  EXPECT_TRUE(MeshAdjacency::build(b.mesh).is_closed());
  EXPECT_EQ(TriangleMeshBvh(b.mesh).boundary_edge_count(), 0u);
  expect_matches_brute_force(b.mesh, 82);
}

}  // namespace
}  // namespace drape

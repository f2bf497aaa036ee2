// BodyCollider::move_vertices recomputes only what the moved vertices touch
// (their faces' and neighbours' normals, their boxes, the region trees that
// hold one of their faces). Its answers must be those of a collider whose
// every vertex moved, which recomputes everything.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "../cloth/test_shapes.h"
#include "drape/collision/body_collider.h"

using namespace drape;
using namespace drape::test;

namespace {

bool bitwise_equal(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3)) == 0;
}

// Two spheres side by side, the left one's faces `left`, the right one's `right`.
struct TwoSpheres {
  TriangleMesh mesh;
  std::vector<std::uint32_t> regions;
  int first_right = 0;  // the right sphere's first vertex
};

TwoSpheres two_spheres() {
  TwoSpheres s;
  s.mesh = uv_sphere(0.1, {-0.15, 0, 0}, 12, 24);
  const TriangleMesh right = uv_sphere(0.1, {0.15, 0, 0}, 12, 24);
  s.first_right = static_cast<int>(s.mesh.positions.size());
  const std::size_t left_faces = s.mesh.faces.size();
  s.mesh.positions.insert(s.mesh.positions.end(), right.positions.begin(), right.positions.end());
  for (Triangle t : right.faces)
    s.mesh.faces.push_back({t[0] + s.first_right, t[1] + s.first_right, t[2] + s.first_right});
  s.regions.assign(s.mesh.faces.size(), body_region::right);
  std::fill(s.regions.begin(), s.regions.begin() + left_faces, body_region::left);
  return s;
}

}  // namespace

TEST(BodyMove, OnlyTheMovedRegionsTreeIsRefitAndAnswersAreAFullUpdates) {
  // The right sphere's upper half is shaken (a moving arm), the rest stays.
  // `partial` goes there from rest in one move: one region tree of two is
  // refitted. `full` first moves every vertex (so its second move recomputes
  // every normal, box and tree, as the whole update did), then to the same
  // place. Queries in every group, the inside test and the pushes of a cloth
  // pressed onto both spheres (which use the body's vertex normals and its
  // vertex and edge trees) must agree bit for bit.
  const TwoSpheres s = two_spheres();
  BodyCollider partial(s.mesh, s.regions), full(s.mesh, s.regions);
  std::vector<int> groups;
  for (BodyCollider* c : {&partial, &full})
    groups = {c->group_for_mask(body_region::left), c->group_for_mask(body_region::right),
              c->group_for_mask(body_region::all)};
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::vector<Vec3> everywhere = s.mesh.positions;
  for (Vec3& p : everywhere) p += Vec3{unit(rng), unit(rng), unit(rng)} * 1e-4;
  full.move_vertices(everywhere);
  EXPECT_EQ(full.region_refits(), 2u);
  std::vector<Vec3> moved = s.mesh.positions;
  for (std::size_t v = s.first_right; v < moved.size(); ++v)  // the upper half: its rim's
    if (moved[v].y > 0.01)                                    // unmoved neighbours get new normals too
      moved[v] += Vec3{0.005 * unit(rng), 0.005 * unit(rng), 0.01 + 0.005 * unit(rng)};
  partial.move_vertices(moved);
  full.move_vertices(moved);
  EXPECT_EQ(partial.region_refits(), 1u);  // the right sphere's tree; the left one's is as it was
  EXPECT_EQ(full.region_refits(), 4u);
  ASSERT_TRUE(bitwise_equal(partial.mesh().positions, moved));

  std::normal_distribution<double> nd;
  int contacts = 0;
  for (int i = 0; i < 400; ++i) {
    const Vec3 centre = i % 2 ? Vec3{0.15, 0, 0.01} : Vec3{-0.15, 0, 0};
    const Vec3 p = centre + normalized(Vec3{nd(rng), nd(rng), nd(rng)}) * (0.1 + 0.01 * unit(rng));
    for (int g : groups) {
      const BodyContact a = partial.query(p, g, 0.02), b = full.query(p, g, 0.02);
      ASSERT_EQ(a.face, b.face) << i;
      if (a.face < 0) continue;
      ++contacts;
      ASSERT_EQ(a.point, b.point);
      ASSERT_EQ(a.normal, b.normal);
      ASSERT_EQ(a.signed_distance, b.signed_distance);
    }
    ASSERT_EQ(partial.contains(p), full.contains(p)) << i;
  }
  EXPECT_GT(contacts, 400);

  // A cloth grid over the top of both spheres, 1 mm into them.
  const GarmentMesh cloth = horizontal_square(41, 0.01, 0, 0, 0);
  std::vector<Vec3> x = cloth.mesh.positions;
  for (Vec3& p : x) {
    const double cx = p.x < 0 ? -0.15 : 0.15, dx = p.x - cx;
    const double d2 = dx * dx + p.z * p.z;
    p.y = std::sqrt(std::max(0.0, 0.099 * 0.099 - d2));
  }
  std::vector<Vec3> y = x;
  const std::vector<double> w(x.size(), 1.0);
  const std::size_t np = partial.push_cloth_triangles(cloth.mesh.faces, {}, x, w, 0.003, Executor::global());
  const std::size_t nf = full.push_cloth_triangles(cloth.mesh.faces, {}, y, w, 0.003, Executor::global());
  EXPECT_EQ(np, nf);
  EXPECT_GT(np, 50u);
  EXPECT_TRUE(bitwise_equal(x, y));
}

TEST(BodyMove, TheSameBodyAgainChangesNothing) {
  // A move to where the body already is refits no tree and keeps the pushes'
  // Verlet lists: the next push lists no triangle again.
  const TwoSpheres s = two_spheres();
  BodyCollider body(s.mesh, s.regions);
  body.group_for_mask(body_region::left);
  body.group_for_mask(body_region::right);
  const GarmentMesh cloth = horizontal_square(21, 0.01, 0.0995);
  std::vector<Vec3> x = cloth.mesh.positions;
  const std::vector<double> w(x.size(), 1.0);
  body.push_cloth_triangles(cloth.mesh.faces, {}, x, w, 0.003, Executor::global());
  const std::size_t listed = body.push_listings();
  ASSERT_GT(listed, 0u);
  body.move_vertices(s.mesh.positions);
  EXPECT_EQ(body.region_refits(), 0u);
  body.push_cloth_triangles(cloth.mesh.faces, {}, x, w, 0.003, Executor::global());
  EXPECT_EQ(body.push_listings(), listed);
}

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "../cloth/test_shapes.h"
#include "drape/collision/body_collider.h"
#include "drape/collision/intersection_count.h"
#include "drape/collision/self_collider.h"
#include "drape/core/exceptions.h"
#include "drape/geometry/triangle_queries.h"

using namespace drape;
using namespace drape::test;

TEST(BodyCollider, SignedDistanceMatchesTheSphere) {
  const double r = 0.2;
  const TriangleMesh sphere = uv_sphere(r, {0, 0, 0}, 48, 96);
  ASSERT_GT(sphere.signed_volume(), 0);
  BodyCollider body(sphere, {});
  const int g = body.group_for_mask(body_region::all);
  std::mt19937 rng(3);
  std::normal_distribution<double> nd;
  std::uniform_real_distribution<double> ud(-0.01, 0.01);
  for (int i = 0; i < 200; ++i) {
    const Vec3 dir = normalized(Vec3{nd(rng), nd(rng), nd(rng)});
    const double offset = ud(rng);
    const Vec3 p = dir * (r + offset);
    const BodyContact c = body.query(p, g, 0.02);
    ASSERT_GE(c.face, 0);
    // The facetted sphere lies within the sagitta (~r (1 - cos(pi/48))) inside the true one.
    EXPECT_NEAR(c.signed_distance, offset, 0.0006);
    EXPECT_GT(dot(c.normal, dir), 0.98);
    EXPECT_EQ(body.contains(p), c.signed_distance < 0);
  }
  // Nothing within the query distance: no contact.
  EXPECT_LT(body.query({0, 0.5, 0}, g, 0.05).face, 0);
}

TEST(BodyCollider, MovedBodyAnswersLikeTheMovedSphere) {
  // A sphere of radius 0.2 at the origin, moved (vertices only) to radius 0.25
  // around c: every tree is refitted, and queries, region trees and the inside
  // test answer for the new sphere (analytic), as a fresh collider would.
  const double r0 = 0.2, r1 = 0.25;
  const Vec3 c{0.3, -0.1, 0.05};
  const TriangleMesh sphere = uv_sphere(r0, {0, 0, 0}, 48, 96);
  std::vector<std::uint32_t> regions(sphere.face_count(), body_region::upper);
  for (std::size_t f = 0; f < regions.size(); f += 2) regions[f] = body_region::lower;
  BodyCollider body(sphere, regions);
  const int g_all = body.group_for_mask(body_region::all);
  const int g_upper = body.group_for_mask(body_region::upper);
  std::vector<Vec3> moved = sphere.positions;
  for (Vec3& p : moved) p = c + p * (r1 / r0);
  body.move_vertices(moved);
  EXPECT_EQ(body.mesh().positions[5].x, moved[5].x);
  std::mt19937 rng(5);
  std::normal_distribution<double> nd;
  std::uniform_real_distribution<double> ud(-0.01, 0.01);
  for (int i = 0; i < 200; ++i) {
    const Vec3 dir = normalized(Vec3{nd(rng), nd(rng), nd(rng)});
    const double offset = ud(rng);
    const Vec3 p = c + dir * (r1 + offset);
    for (int g : {g_all, g_upper}) {
      const BodyContact k = body.query(p, g, 0.03);
      ASSERT_GE(k.face, 0);
      if (g == g_upper) {
        EXPECT_EQ(regions[k.face], body_region::upper);
      }
      EXPECT_NEAR(k.signed_distance, offset, g == g_all ? 0.0008 : 0.01);
      if (g == g_all) {
        EXPECT_GT(dot(k.normal, dir), 0.9);
      }
    }
    if (std::abs(offset) > 0.001) {  // beyond the facets' sagitta
      EXPECT_EQ(body.contains(p), offset < 0);
    }
  }
  // The old place is empty now.
  ASSERT_GT(norm(c), r1);
  EXPECT_FALSE(body.contains({0, 0, 0}));
  EXPECT_LT(body.query({-0.2, 0, 0}, g_all, 0.01).face, 0);
  // A wrong count or a NaN is refused.
  EXPECT_THROW(body.move_vertices(std::vector<Vec3>(3)), InvalidInput);
  moved[0].x = std::nan("");
  EXPECT_THROW(body.move_vertices(moved), InvalidInput);
}

TEST(BodyCollider, RegionMaskRestrictsTheFaces) {
  // Two spheres side by side; faces of the left one are `left`, of the right one `right`.
  TriangleMesh m = uv_sphere(0.1, {-0.3, 0, 0});
  const TriangleMesh right = uv_sphere(0.1, {0.3, 0, 0});
  const int base = static_cast<int>(m.positions.size());
  const std::size_t left_faces = m.faces.size();
  m.positions.insert(m.positions.end(), right.positions.begin(), right.positions.end());
  for (Triangle t : right.faces) m.faces.push_back({t[0] + base, t[1] + base, t[2] + base});
  std::vector<std::uint32_t> regions(m.faces.size(), body_region::right);
  std::fill(regions.begin(), regions.begin() + left_faces, body_region::left);
  BodyCollider body(m, regions);
  const int gl = body.group_for_mask(body_region::left);
  const int gr = body.group_for_mask(body_region::right);
  const int ga = body.group_for_mask(body_region::all);
  EXPECT_EQ(body.group_face_count(gl), left_faces);
  EXPECT_EQ(body.group_face_count(ga), m.faces.size());
  const Vec3 near_right{0.3, 0.1005, 0};
  EXPECT_GE(body.query(near_right, gr, 0.01).face, static_cast<int>(left_faces));
  EXPECT_LT(body.query(near_right, gl, 0.01).face, 0);  // the left panel does not see the right sphere
  EXPECT_THROW(BodyCollider(m, std::vector<std::uint32_t>(3, 0)), InvalidInput);
}

TEST(BodyCollider, SharpBodyVertexPushesClothTriangleOut) {
  // A tetrahedron tip 1 mm under a large cloth triangle's interior.
  const TriangleMesh tet = tetrahedron(0.049, -0.05, 0.05);
  ASSERT_GT(tet.signed_volume(), 0);
  BodyCollider body(tet, {});
  std::vector<Vec3> x = {{-0.2, 0.05, 0.2}, {0.2, 0.05, 0.2}, {0, 0.05, -0.3}};
  const std::vector<Triangle> faces = {{0, 1, 2}};
  const std::vector<double> w = {1, 1, 1};
  // The tip, and the edges from it that lie within the thickness under the cloth.
  EXPECT_GE(body.push_cloth_triangles(faces, {}, x, w, 0.003, Executor::global()), 1u);
  const ClosestPoint cp = closest_point_on_triangle(tet.positions[0], x[0], x[1], x[2]);
  EXPECT_GE(norm(cp.point - tet.positions[0]), 0.003 - 1e-6);
}

TEST(BodyCollider, BodyEdgesThroughClothTriangleLiftItOffTheTip) {
  // A tetrahedron whose tip is 10 mm above a cloth triangle: no body vertex is
  // near the cloth and every cloth vertex is outside the body, but the three
  // edges from the tip cross the cloth's interior.
  const TriangleMesh tet = tetrahedron(0.01, -0.05, 0.03);
  ASSERT_GT(tet.signed_volume(), 0);
  BodyCollider body(tet, {});
  std::vector<Vec3> x = {{-0.1, 0, 0.1}, {0.1, 0, 0.1}, {0, 0, -0.12}};
  const std::vector<Triangle> faces = {{0, 1, 2}};
  const std::vector<double> w = {1, 1, 1};
  auto crossings = [&] {  // brute force over the body's faces
    int n = 0;
    for (const Triangle& t : tet.faces)
      n += triangles_intersect(tet.positions[t[0]], tet.positions[t[1]], tet.positions[t[2]], x[0], x[1],
                               x[2]);
    return n;
  };
  for (const Vec3& p : x) ASSERT_FALSE(body.contains(p));
  ASSERT_EQ(crossings(), 3);
  int calls = 0;
  while (crossings() > 0 && calls < 100) {
    EXPECT_GT(body.push_cloth_triangles(faces, {}, x, w, 0.0015, Executor::global()), 0u);
    ++calls;
  }
  EXPECT_EQ(crossings(), 0);
  EXPECT_LE(calls, 20);  // about 10 mm at up to 3 mm per edge end and call
  // Lifted off the tip, not dragged sideways through the body: the tip is
  // under the cloth's plane, and after one more call by the thickness.
  const Vec3 c = (x[0] + x[1] + x[2]) / 3.0;
  auto tip_height = [&] {
    Vec3 up = normalized(cross(x[1] - x[0], x[2] - x[0]));
    if (up.y < 0) up = -up;
    return dot(tet.positions[0] - x[0], up);
  };
  EXPECT_LT(tip_height(), 0);
  body.push_cloth_triangles(faces, {}, x, w, 0.0015, Executor::global());
  EXPECT_LE(tip_height(), -0.0015 * (1 - 1e-6));
  EXPECT_LT(std::abs(c.x), 0.01);
  for (const Vec3& p : x) EXPECT_FALSE(body.contains(p));
}

TEST(BodyCollider, ClothPulledOntoARidgeComesToRestAboveIt) {
  // A cloth triangle across the sharp ridge of a roof-shaped prism, each
  // vertex pulled halfway to an anchor 2 mm under the ridge before every call
  // (as the solve pulls cloth stretched over a ridge): the ridge edge's push
  // must settle where pull and push balance, the thickness above the ridge,
  // so the cloth comes to rest. A push by a fixed amount whenever the edge
  // crosses sends it up and down for ever.
  TriangleMesh roof;
  roof.positions = {{-0.2, 0, 0},        {0.2, 0, 0},         {-0.2, -0.05, -0.05},
                    {0.2, -0.05, -0.05}, {-0.2, -0.05, 0.05}, {0.2, -0.05, 0.05}};
  roof.faces = {{0, 1, 3}, {0, 3, 2}, {0, 4, 5}, {0, 5, 1}, {2, 3, 5}, {2, 5, 4}, {0, 2, 4}, {1, 5, 3}};
  if (roof.signed_volume() < 0)
    for (Triangle& t : roof.faces) std::swap(t[1], t[2]);
  BodyCollider body(roof, {});
  const double h = 0.0015;
  std::vector<Vec3> x = {{-0.05, 0.001, -0.03}, {0.05, 0.001, -0.03}, {0, 0.001, 0.04}};
  std::vector<Vec3> anchor = x;
  for (Vec3& a : anchor) a.y -= 0.003;
  const std::vector<Triangle> faces = {{0, 1, 2}};
  const std::vector<double> w = {1, 1, 1};
  auto clearance = [&] {  // the plane's height over the ridge's ends under the triangle
    const Vec3 n = normalized(cross(x[1] - x[0], x[2] - x[0]));
    double lowest = 1;
    for (double rx : {-0.05 * 4 / 7.0, 0.05 * 4 / 7.0})  // where the ridge leaves the triangle
      lowest = std::min(lowest, x[0].y - (n.x * (rx - x[0].x) + n.z * (0 - x[0].z)) / n.y);
    return lowest;
  };
  std::vector<Vec3> before;
  for (int call = 0; call < 60; ++call) {
    for (std::size_t i = 0; i < 3; ++i) x[i] += (anchor[i] - x[i]) * 0.5;
    before = x;
    body.push_cloth_triangles(faces, {}, x, w, h, Executor::global());
    if (call >= 10) {
      EXPECT_GT(clearance(), 0) << call;  // never through the ridge once settled
    }
  }
  // At rest: the previous call's end state again (to rounding), the thickness above the ridge.
  std::vector<Vec3> again = before;
  body.push_cloth_triangles(faces, {}, again, w, h, Executor::global());
  for (std::size_t i = 0; i < 3; ++i) EXPECT_LT(norm(again[i] - x[i]), 1e-9) << i;
  EXPECT_GE(clearance(), h * (1 - 1e-3));
  EXPECT_LT(clearance(), 2 * h);
}

TEST(SelfCollider, VertexCannotPassThroughTriangle) {
  // A big triangle at y = 0 and a separate small triangle whose tip moves from above to below it.
  std::vector<Vec3> x_prev = {{-0.1, 0, -0.1}, {0.1, 0, -0.1},    {0, 0, 0.1},
                              {0, 0.002, 0},   {0.05, 0.05, 0.3}, {-0.05, 0.05, 0.3}};
  const std::vector<Triangle> faces = {{0, 2, 1}, {3, 4, 5}};
  SelfCollider sc(faces, x_prev, 0.003, 0.3);
  std::vector<Vec3> x = x_prev;
  x[3].y = -0.001;  // crossed the plane in this step
  const std::vector<double> w(6, 1.0);
  sc.update(x, Executor::global(), true);
  const SelfCollisionStats st = sc.resolve(x, x_prev, w, Executor::global());
  EXPECT_GE(st.vertex_triangle_contacts, 1u);
  // Back on its own (upper) side, the thickness apart.
  const ClosestPoint cp = closest_point_on_triangle(x[3], x[0], x[1], x[2]);
  const Vec3 n = normalized(cross(x[2] - x[0], x[1] - x[0]));  // upward normal of face {0, 2, 1}
  EXPECT_GT(n.y, 0.9);
  EXPECT_GE(dot(x[3] - cp.point, n), 0.003 - 1e-6);
  EXPECT_FALSE(triangles_intersect(x[0], x[1], x[2], x[3], x[4], x[5]));
}

TEST(SelfCollider, CrossingEdgesAreSeparated) {
  // Two separate triangles whose edges cross in an X 1 mm apart (vertex-triangle does not see it).
  std::vector<Vec3> x_prev = {{-0.05, 0.001, 0},  {0.05, 0.001, 0},  {0, 0.05, 0},
                              {0, -0.001, -0.05}, {0, -0.001, 0.05}, {0, -0.05, 0}};
  const std::vector<Triangle> faces = {{0, 1, 2}, {3, 4, 5}};
  SelfCollider sc(faces, x_prev, 0.003, 0.3);
  std::vector<Vec3> x = x_prev;
  const std::vector<double> w(6, 1.0);
  sc.update(x, Executor::global(), true);
  const SelfCollisionStats st = sc.resolve(x, x_prev, w, Executor::global());
  EXPECT_GE(st.edge_edge_contacts, 1u);
  EXPECT_NEAR(x[0].y - x[3].y, 0.003, 1e-6);  // pushed to the thickness, symmetric
  EXPECT_GT(x[0].y, 0.001);
  EXPECT_LT(x[3].y, -0.001);
}

// Two free edges meeting side by side in one plane (the open front of a
// jacket whose halves start edge to edge): each boundary vertex is beside the
// other panel's free edge, in its plane. Pushed along the triangle's normal
// each edge was lifted over the other's cloth and the two interlocked; the
// answer is the separation in the plane (geometry: nothing leaves y = 0 and
// the two panels stay apart along x, the thickness between them).
TEST(SelfCollider, FreeEdgesMeetingInOnePlaneSlideApartInThatPlane) {
  GarmentMesh g;
  const double h = 0.02, thickness = 0.003;
  const int nx = 4, nz = 6;
  add_grid_panel(g, nx, nz, h, {-(nx - 1) * h, 0, 0}, {1, 0, 0}, {0, 0, 1});  // A: x in [-0.06, 0]
  add_grid_panel(g, nx, nz, h, {0.004, 0, 0}, {1, 0, 0}, {0, 0, 1});          // B: x in [0.004, 0.064]
  const std::size_t n = g.mesh.positions.size(), half = n / 2;
  SelfCollider sc(g.mesh.faces, g.mesh.positions, thickness, 0.3);
  std::vector<Vec3> x = g.mesh.positions;
  const std::vector<double> w(n, 1.0);
  std::size_t contacts = 0;
  for (int step = 0; step < 6; ++step) {  // B moves 1 mm a step towards A
    const std::vector<Vec3> x_prev = x;
    for (std::size_t v = half; v < n; ++v) x[v].x -= 0.001;
    for (int it = 0; it < 4; ++it)
      contacts += sc.resolve(x, x_prev, w, Executor::global()).vertex_triangle_contacts;
  }
  EXPECT_GT(contacts, 0u);
  double a_max = -1e9, b_min = 1e9;
  for (std::size_t v = 0; v < n; ++v) {
    EXPECT_NEAR(x[v].y, 0.0, 1e-9) << "vertex " << v << " left the plane";
    (v < half ? a_max : b_min) = v < half ? std::max(a_max, x[v].x) : std::min(b_min, x[v].x);
  }
  EXPECT_GT(b_min - a_max, 0.9 * thickness);  // apart, not overlapping
}

// The answer depends only on the positions, not on the search history: a
// collider that searched incrementally (only around the patches that moved)
// answers bit for bit like a fresh one that searched everything. A resumed
// simulation (fresh collider) must match an uninterrupted one.
TEST(SelfCollider, IncrementalSearchAnswersLikeAFullSearch) {
  // Two 16 x 16 sheets 4 mm apart, the upper one turned 45 degrees so that
  // their edges cross; patches of the upper sheet are pushed down one by one.
  GarmentMesh g;
  const double h = 0.02, half = 7.5 * h;
  add_grid_panel(g, 16, 16, h, {-half, 0, half}, {1, 0, 0}, {0, 0, -1});
  const double c = std::sqrt(0.5);
  add_grid_panel(g, 16, 16, h, {-2 * half * c, 0.004, 0}, {c, 0, c}, {c, 0, -c});  // centred
  const std::vector<Vec3> start = g.mesh.positions;
  const std::size_t n = start.size();
  const double thickness = 0.003;
  SelfCollider incremental(g.mesh.faces, start, thickness, 0.3);
  const std::vector<double> w(n, 1.0);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> centre(-0.1, 0.1);
  std::vector<Vec3> x = start;
  std::size_t contacts = 0, edge_contacts = 0;
  for (int step = 0; step < 30; ++step) {
    const std::vector<Vec3> x_prev = x;
    const Vec3 at{centre(rng), 0, centre(rng)};
    for (std::size_t v = 256; v < n; ++v) {  // the upper sheet, within 6 cm of `at`
      const double r = std::hypot(x[v].x - at.x, x[v].z - at.z);
      if (r < 0.06) x[v].y -= 0.004 * (1 - r / 0.06);
    }
    std::vector<Vec3> fresh_x = x;
    SelfCollider fresh(g.mesh.faces, start, thickness, 0.3);
    const SelfCollisionStats a = incremental.resolve(x, x_prev, w, Executor::global());
    const SelfCollisionStats b = fresh.resolve(fresh_x, x_prev, w, Executor::global());
    ASSERT_EQ(a.vertex_triangle_contacts, b.vertex_triangle_contacts) << "step " << step;
    ASSERT_EQ(a.edge_edge_contacts, b.edge_edge_contacts) << "step " << step;
    for (std::size_t v = 0; v < n; ++v) ASSERT_EQ(x[v], fresh_x[v]) << "step " << step << " vertex " << v;
    contacts += a.vertex_triangle_contacts;
    edge_contacts += a.edge_edge_contacts;
  }
  // The case is not empty: contacts of both kinds, and the incremental
  // collider searched less than once per step.
  EXPECT_GT(contacts, 50u);
  EXPECT_GT(edge_contacts, 20u);
  EXPECT_LT(incremental.searches(), 30u);
  EXPECT_EQ(incremental.overflow(), 0u);
}

TEST(IntersectionCount, MatchesBruteForce) {
  const TriangleMesh sphere = uv_sphere(0.1, {0, 0, 0}, 12, 24);
  const TriangleMeshBvh tree(sphere);
  // A crumpled random sheet through the sphere.
  GarmentMesh g;
  add_grid_panel(g, 12, 12, 0.02, {-0.11, -0.11, 0}, {1, 0, 0}, {0, 1, 0});
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-0.03, 0.03);
  for (Vec3& p : g.mesh.positions) p.z += u(rng);
  const TriangleMesh& cloth = g.mesh;
  const IntersectionCounts c = count_intersections(tree, cloth);
  std::size_t inside = 0, body_pairs = 0, self_pairs = 0;
  for (const Vec3& p : cloth.positions) inside += norm(p) < 0.1 * std::cos(3.14159265 / 12) - 1e-3 ? 1 : 0;
  std::size_t inside_exact = 0;
  for (const Vec3& p : cloth.positions) inside_exact += tree.contains(p);
  for (const Triangle& a : cloth.faces)
    for (const Triangle& b : sphere.faces)
      body_pairs +=
          triangles_intersect(cloth.positions[a[0]], cloth.positions[a[1]], cloth.positions[a[2]],
                              sphere.positions[b[0]], sphere.positions[b[1]], sphere.positions[b[2]]);
  for (std::size_t i = 0; i < cloth.faces.size(); ++i)
    for (std::size_t j = i + 1; j < cloth.faces.size(); ++j) {
      const Triangle &a = cloth.faces[i], &b = cloth.faces[j];
      bool share = false;
      for (int va : a)
        for (int vb : b) share |= va == vb;
      if (share) continue;
      self_pairs += triangles_intersect(cloth.positions[a[0]], cloth.positions[a[1]], cloth.positions[a[2]],
                                        cloth.positions[b[0]], cloth.positions[b[1]], cloth.positions[b[2]]);
    }
  EXPECT_EQ(c.vertices_inside_body, inside_exact);
  EXPECT_GE(c.vertices_inside_body, inside);  // every point well inside the inscribed ball counts
  EXPECT_GT(c.vertices_inside_body, 0u);
  EXPECT_EQ(c.body_crossing_pairs, body_pairs);
  EXPECT_GT(body_pairs, 0u);
  EXPECT_EQ(c.self_crossing_pairs, self_pairs);
}

// TriangleMeshBvh queries against brute force (no tree) on seeded random
// meshes and on the MakeHuman body, for both builders, after a refit and
// after a rigid motion.

#include "drape/bvh/triangle_mesh_bvh.h"

#include <gtest/gtest.h>

#include <random>

#include "drape/core/exceptions.h"
#include "drape/geometry/mesh_adjacency.h"
#include "test_meshes.h"

using namespace drape;
using namespace drape::test;

namespace {

const BvhBuildOptions kOptions[] = {{BvhBuilder::midpoint, 1}, {BvhBuilder::binned_sah, 4}};

std::string name(const BvhBuildOptions& o) {
  return (o.builder == BvhBuilder::midpoint ? "midpoint/" : "sah/") + std::to_string(o.max_leaf_size);
}

// Every ray and point query of `tree` against brute force over `m`.
void expect_queries_match(const TriangleMesh& m, const TriangleMeshBvh& tree, int n_rays, int n_points,
                          std::uint32_t seed, const std::string& what) {
  SCOPED_TRACE(what);
  const Aabb box = m.bounds();
  int hits = 0;
  for (const Ray& r : random_rays(box, n_rays, seed)) {
    const auto expect = brute_intersect(m, r);
    const auto got = tree.intersect(r);
    ASSERT_EQ(got.has_value(), expect.has_value());
    EXPECT_EQ(tree.intersects_any(r), expect.has_value());
    if (!got) continue;
    ++hits;
    // Same primitive test: identical t; the face may differ only at equal t.
    EXPECT_EQ(got->t, expect->t);
    const Triangle& f = m.faces[got->face];
    double t, u, v;
    ASSERT_TRUE(intersect_ray_triangle(r, m.positions[f[0]], m.positions[f[1]], m.positions[f[2]], t, u, v));
    EXPECT_EQ(t, got->t);
    EXPECT_EQ(u, got->u);
    EXPECT_EQ(v, got->v);
    // A segment ending just before the hit sees nothing.
    Ray shorter = r;
    shorter.t_max = got->t * (1 - 1e-9);
    EXPECT_FALSE(tree.intersects_any(shorter));
  }
  if (n_rays >= 200) {
    EXPECT_GT(hits, n_rays / 10);
  }
  for (const Vec3& p : random_points(box, n_points, seed + 1)) {
    const auto q = tree.closest_point(p);
    ASSERT_GE(q.face, 0);
    const double expect = brute_distance(m, p);
    EXPECT_NEAR(q.distance, expect, 1e-12 * (1 + expect));
    EXPECT_NEAR(norm(q.point - p), q.distance, 1e-12);
    const Triangle& f = m.faces[q.face];
    EXPECT_NEAR(norm(m.positions[f[0]] * q.u + m.positions[f[1]] * q.v + m.positions[f[2]] * q.w - q.point),
                0, 1e-12);
    // Bounded query: nothing within a radius smaller than the distance.
    EXPECT_EQ(tree.closest_point(p, expect * 0.999).face, expect > 0 ? -1 : q.face);
  }
}

TriangleMesh deformed(const TriangleMesh& m, double amount, std::uint32_t seed) {
  TriangleMesh d = m;
  std::mt19937 rng(seed);
  std::normal_distribution<double> g(0, amount);
  for (Vec3& p : d.positions) p += Vec3{g(rng), g(rng), g(rng)};
  return d;
}

}  // namespace

TEST(TriangleMeshBvh, RandomSoupQueriesMatchBruteForce) {
  TriangleMesh m = random_soup(3000, 0.05, 21);
  for (const auto& o : kOptions) {
    TriangleMeshBvh tree(m, o);
    expect_queries_match(m, tree, 2000, 1000, 22, "initial " + name(o));
    // Deform, refit, compare again (the tree references the mesh).
    const TriangleMesh moved = deformed(m, 0.02, 23);
    const TriangleMesh saved = m;
    m.positions = moved.positions;
    tree.refit();
    expect_queries_match(m, tree, 1000, 500, 24, "refit " + name(o));
    // Rigid motion of every position, then transform() the tree.
    const RigidTransform tr{Mat3::rotation_axis_angle(normalized(Vec3{-1, 2, 0.5}), 1.1), {2, -3, 0.5}};
    for (Vec3& p : m.positions) p = tr(p);
    tree.transform(tr);
    expect_queries_match(m, tree, 1000, 500, 25, "rigid " + name(o));
    m = saved;
  }
}

TEST(TriangleMeshBvh, BodyQueriesMatchBruteForce) {
  TriangleMesh m = body_mesh();
  for (const auto& o : kOptions) {
    TriangleMeshBvh tree(m, o);
    expect_queries_match(m, tree, 2000, 500, 31, "body " + name(o));
    const TriangleMesh saved = m;
    m = deformed(saved, 0.003, 32);
    tree.refit(0.001);
    expect_queries_match(m, tree, 300, 100, 33, "body refit " + name(o));
    const RigidTransform tr{Mat3::rotation_y(0.8), {0.1, 0.8, -0.2}};
    for (Vec3& p : m.positions) p = tr(p);
    tree.transform(tr);
    expect_queries_match(m, tree, 300, 100, 34, "body rigid " + name(o));
    m = saved;
  }
}

TEST(TriangleMeshBvh, BatchedQueriesEqualSingleOnes) {
  const TriangleMesh& m = body_mesh();
  const TriangleMeshBvh tree(m);
  const auto rays = random_rays(m.bounds(), 3000, 41);
  std::vector<std::optional<RayHit>> hits(rays.size());
  const Executor ex(3);
  tree.intersect(rays, hits, ex);
  const auto pts = random_points(m.bounds(), 3000, 42);
  std::vector<TriangleMeshBvh::PointQuery> cps(pts.size());
  tree.closest_points(pts, cps, INFINITY, ex);
  for (std::size_t i = 0; i < rays.size(); ++i) {
    const auto h = tree.intersect(rays[i]);
    ASSERT_EQ(h.has_value(), hits[i].has_value());
    if (h) {
      EXPECT_EQ(h->face, hits[i]->face);
    }
    EXPECT_EQ(tree.closest_point(pts[i]).face, cps[i].face);
  }
  EXPECT_THROW(tree.intersect(rays, std::span<std::optional<RayHit>>(hits).first(3), ex), InvalidInput);
  EXPECT_EQ(tree.closest_point(pts[0], -1.0).face, -1);
  EXPECT_EQ(tree.closest_point({NAN, 0, 0}).face, -1);
}

TEST(TriangleMeshBvh, ContainsMatchesRayParityAndWindingNumberOnBody) {
  const TriangleMesh& m = body_mesh();
  ASSERT_TRUE(MeshAdjacency::build(m).is_closed());
  const TriangleMeshBvh tree(m);
  const Vec3 dir{0.4311728093, 0.7642155361, 0.4795384227};  // contains()' documented direction
  int inside = 0, n = 0;
  // Points near the body's surface and axis, where inside and outside both occur.
  const Aabb box = m.bounds();
  for (const Vec3& p : random_points(box, 300, 51, 0.0)) {
    const bool got = tree.contains(p);
    EXPECT_EQ(got, brute_count(m, Ray{p, dir}) % 2 == 1);
    const double w = winding_number(m, p);
    EXPECT_NEAR(w, got ? 1.0 : 0.0, 0.01) << p.x << " " << p.y << " " << p.z;
    inside += got;
    ++n;
  }
  // Body centre points: a torso point is inside.
  for (int i = 0; i < 200; ++i) {
    const Vec3 p = m.positions[(i * 7919) % m.vertex_count()];
    const Vec3 c = box.center();
    const Vec3 q = c + (p - c) * 0.5;
    EXPECT_EQ(tree.contains(q), winding_number(m, q) > 0.5);
    inside += tree.contains(q);
  }
  EXPECT_GT(inside, 20);
  EXPECT_LT(inside, n + 200 - 20);
}

TEST(TriangleMeshBvh, ContainsOnShapesWithRaysThroughVertices) {
  // The fixed direction from points on the axes of a cube / octahedron, and
  // axis-aligned shapes where symmetric rays hit edges: parity stays exact.
  for (const TriangleMesh& m : {cube(), octahedron(), sphere({0, 0, 0}, 1, 12, 16)}) {
    const TriangleMeshBvh tree(m, {BvhBuilder::midpoint, 1});
    std::mt19937 rng(52);
    std::uniform_real_distribution<double> u(-1.5, 1.5);
    for (int i = 0; i < 500; ++i) {
      const Vec3 p{u(rng), u(rng), u(rng)};
      const double w = winding_number(m, p);
      if (std::abs(w - 0.5) > 0.45) {
        EXPECT_EQ(tree.contains(p), w > 0.5);
      }
    }
    EXPECT_TRUE(tree.contains({0, 0, 0}));
    EXPECT_FALSE(tree.contains({0, 0, 3}));
  }
}

TEST(TriangleMeshBvh, RayThroughSharedVerticesHitsOnce) {
  // Exactly axis-aligned and diagonal rays at the cube's and octahedron's vertices.
  for (const TriangleMesh& m : {cube(), octahedron()}) {
    const TriangleMeshBvh tree(m, {BvhBuilder::binned_sah, 1});
    for (const Vec3& v : m.positions) {
      const Ray r{v * 3.0, -v};  // through v, the centre and -v
      EXPECT_EQ(tree.count_hits(r), 2);
      EXPECT_EQ(brute_count(m, r), 2);
      const auto h = tree.intersect(r);
      ASSERT_TRUE(h);
      EXPECT_NEAR(h->t, 2.0, 1e-15);
    }
  }
}

TEST(TriangleMeshBvh, SheetThroughBodyPairsMatchBruteForce) {
  const TriangleMesh& body = body_mesh();
  const Aabb b = body.bounds();
  // A tilted cloth-like sheet cutting through the torso and arms.
  const TriangleMesh cloth = sheet({b.min.x - 0.05, b.center().y - 0.1, b.min.z - 0.05},
                                   {b.extent().x + 0.1, 0.25, 0}, {0, 0.05, b.extent().z + 0.1}, 40, 25);
  const auto expect = brute_pairs(cloth, body);
  ASSERT_GT(expect.size(), 100u);
  for (const auto& o : kOptions) {
    const TriangleMeshBvh tb(body, o), tc(cloth, o);
    EXPECT_EQ(tc.intersecting_pairs(tb), expect) << name(o);
    auto swapped = tb.intersecting_pairs(tc);
    for (auto& [x, y] : swapped) std::swap(x, y);
    std::sort(swapped.begin(), swapped.end());
    EXPECT_EQ(swapped, expect) << name(o);
  }
}

TEST(TriangleMeshBvh, RandomMeshAgainstSpherePairsMatchBruteForce) {
  const TriangleMesh soup = random_soup(2000, 0.06, 61);
  const TriangleMesh ball = sphere({0.5, 0.5, 0.5}, 0.3, 20, 32);
  const auto expect = brute_pairs(soup, ball);
  ASSERT_GT(expect.size(), 50u);
  for (const auto& o : kOptions) {
    const TriangleMeshBvh ts(soup, o), tb(ball, o);
    EXPECT_EQ(ts.intersecting_pairs(tb), expect) << name(o);
  }
}

namespace {
// A strip swept along a planar loop that crosses itself (a "fish" curve):
// curved around the loop, flat along the straight tails; it cuts through
// itself where the curve crosses.
TriangleMesh self_crossing_strip(int n_along, int n_across) {
  TriangleMesh m;
  auto curve = [](double s) {  // s in [0,1]; crosses itself at s=0.2 and s=0.8 near x = 0
    const double t = -1.3 + 2.6 * s;
    return Vec3{t * t - 1, t * (t * t - 1), 0};
  };
  for (int i = 0; i <= n_along; ++i)
    for (int j = 0; j <= n_across; ++j) {
      const Vec3 c = curve(double(i) / n_along);
      m.positions.push_back(c + Vec3{0, 0, 0.4 * j / n_across});
    }
  for (int i = 0; i < n_along; ++i)
    for (int j = 0; j < n_across; ++j) {
      const int v = i * (n_across + 1) + j;
      m.faces.push_back({v, v + n_across + 1, v + n_across + 2});
      m.faces.push_back({v, v + n_across + 2, v + 1});
    }
  return m;
}
}  // namespace

TEST(TriangleMeshBvh, SelfIntersectionsMatchBruteForceWithAndWithoutConeCulling) {
  TriangleMesh m = self_crossing_strip(200, 5);
  // Plus a flat, finely meshed sheet far away: nothing to find there.
  const TriangleMesh flat = sheet({5, 5, 5}, {2, 0, 0}, {0, 0, 2}, 20, 20);
  const int off = static_cast<int>(m.positions.size());
  m.positions.insert(m.positions.end(), flat.positions.begin(), flat.positions.end());
  for (Triangle t : flat.faces) m.faces.push_back({t[0] + off, t[1] + off, t[2] + off});
  const auto expect = brute_self_pairs(m);
  ASSERT_GT(expect.size(), 10u);
  for (const auto& o : kOptions) {
    const TriangleMeshBvh tree(m, o);
    TriangleMeshBvh::SelfStats plain, culled;
    EXPECT_EQ(tree.self_intersecting_pairs(0, &plain), expect) << name(o);
    EXPECT_EQ(tree.self_intersecting_pairs(0.5, &culled), expect) << name(o);
    EXPECT_EQ(plain.culled_nodes, 0);
    EXPECT_GT(culled.culled_nodes, 0);
    EXPECT_LT(culled.candidate_pairs, plain.candidate_pairs);
  }
}

TEST(TriangleMeshBvh, ConeCullingNeedsConnectivity) {
  // Two separate flat sheets crossing at a shallow angle: normals within a
  // narrow cone, yet they intersect. Not connected, so never culled.
  TriangleMesh a = sheet({0, 0, 0}, {1, 0, 0}, {0, 0, 1}, 12, 12);
  const TriangleMesh b = sheet({0, -0.05, 0}, {1, 0.1, 0}, {0, 0, 1}, 12, 12);
  const int off = static_cast<int>(a.positions.size());
  a.positions.insert(a.positions.end(), b.positions.begin(), b.positions.end());
  for (Triangle t : b.faces) a.faces.push_back({t[0] + off, t[1] + off, t[2] + off});
  const auto expect = brute_self_pairs(a);
  ASSERT_GT(expect.size(), 10u);
  const TriangleMeshBvh tree(a);
  EXPECT_EQ(tree.self_intersecting_pairs(0.5), expect);
}

TEST(TriangleMeshBvh, SubsetOfFacesAnswersWithMeshFaceIds) {
  const TriangleMesh& m = body_mesh();
  std::vector<int> upper;
  const double mid = m.bounds().center().y;
  for (std::size_t f = 0; f < m.face_count(); ++f)
    if (m.face_centroid(f).y > mid) upper.push_back(static_cast<int>(f));
  TriangleMesh sub;
  sub.positions = m.positions;
  for (int f : upper) sub.faces.push_back(m.faces[f]);
  const TriangleMeshBvh tree(m, upper);
  EXPECT_EQ(tree.face_count(), upper.size());
  for (const Ray& r : random_rays(m.bounds(), 500, 71)) {
    const auto e = brute_intersect(sub, r);
    const auto g = tree.intersect(r);
    ASSERT_EQ(e.has_value(), g.has_value());
    if (g) {
      EXPECT_EQ(g->t, e->t);
      EXPECT_GT(m.face_centroid(g->face).y, mid);
    }
  }
  std::vector<int> bad = {0, static_cast<int>(m.face_count())};
  EXPECT_THROW(TriangleMeshBvh(m, bad), InvalidInput);
}

TEST(TriangleMeshBvh, DegenerateEmptyAndInvalidMeshes) {
  // Zero-area triangles mixed in: queries still equal brute force.
  TriangleMesh m = random_soup(500, 0.05, 81);
  for (int i = 0; i < 100; ++i) {
    const Vec3 a = m.positions[3 * i];
    const int v = static_cast<int>(m.positions.size());
    m.positions.push_back(a);
    m.positions.push_back(a + Vec3{0.02, 0.01, 0});
    m.positions.push_back(a + Vec3{0.04, 0.02, 0});  // collinear
    m.positions.push_back(a + Vec3{0, 0.03, 0});
    m.faces.push_back({v, v + 1, v + 2});
    m.faces.push_back({v + 3, v + 3, v + 3});  // a point
  }
  for (const auto& o : kOptions) {
    const TriangleMeshBvh tree(m, o);
    expect_queries_match(m, tree, 500, 300, 82, "degenerate " + name(o));
    const auto got = tree.self_intersecting_pairs(), want = brute_self_pairs(m);
    EXPECT_EQ(got.size(), want.size());
    std::vector<std::pair<int, int>> diff;
    std::set_symmetric_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(diff));
    for (std::size_t i = 0; i < std::min<std::size_t>(diff.size(), 5); ++i)
      ADD_FAILURE() << "pair " << diff[i].first << "," << diff[i].second;
  }

  TriangleMesh empty;
  empty.positions = {{0, 0, 0}, {1, 0, 0}};
  const TriangleMeshBvh te(empty);
  EXPECT_TRUE(te.tree().empty());
  EXPECT_FALSE(te.intersect(Ray{{0, 0, -1}, {0, 0, 1}}));
  EXPECT_FALSE(te.intersects_any(Ray{{0, 0, -1}, {0, 0, 1}}));
  EXPECT_EQ(te.closest_point({0, 0, 0}).face, -1);
  EXPECT_FALSE(te.contains({0, 0, 0}));
  EXPECT_TRUE(te.self_intersecting_pairs(0.3).empty());
  const TriangleMeshBvh tc(m);
  EXPECT_TRUE(te.intersecting_pairs(tc).empty());
  EXPECT_TRUE(tc.intersecting_pairs(te).empty());

  TriangleMesh nan = random_soup(10, 0.1, 83);
  nan.positions[4].y = NAN;
  EXPECT_THROW(TriangleMeshBvh{nan}, InvalidInput);
  TriangleMesh bad_index = random_soup(10, 0.1, 84);
  bad_index.faces[2][1] = 1000;
  EXPECT_THROW(TriangleMeshBvh{bad_index}, InvalidInput);
}

namespace {

// Rays and points one by one against brute force: same t, same hit count,
// same closest distance.
void expect_rays_match(const TriangleMesh& m, const TriangleMeshBvh& tree, const std::vector<Ray>& rays) {
  for (const Ray& r : rays) {
    const auto expect = brute_intersect(m, r);
    const auto got = tree.intersect(r);
    ASSERT_EQ(got.has_value(), expect.has_value())
        << "origin " << r.origin.x << " " << r.origin.y << " " << r.origin.z << " dir " << r.direction.x
        << " " << r.direction.y << " " << r.direction.z << " t " << r.t_min << " " << r.t_max;
    if (got) {
      EXPECT_EQ(got->t, expect->t);
    }
    EXPECT_EQ(tree.intersects_any(r), expect.has_value());
    EXPECT_EQ(tree.count_hits(r), brute_count(m, r));
  }
}

void expect_points_match(const TriangleMesh& m, const TriangleMeshBvh& tree, const std::vector<Vec3>& pts) {
  for (const Vec3& p : pts) {
    const double expect = brute_distance(m, p);
    const auto q = tree.closest_point(p);
    ASSERT_GE(q.face, 0);
    EXPECT_NEAR(q.distance, expect, 1e-12 * (1 + expect));
    EXPECT_EQ(tree.closest_point(p, expect * 0.999).face, expect > 0 ? -1 : q.face);
  }
}

TriangleMesh scaled(TriangleMesh m, double s, Vec3 shift = {}) {
  for (Vec3& p : m.positions) p = p * s + shift;
  return m;
}

}  // namespace

TEST(TriangleMeshBvh, AxisParallelAndNearlyParallelRaysMatchBruteForce) {
  // Flat sheets (boxes of zero thickness in z and in x) and a cube: rays from
  // vertices (origins on box planes) along directions with zero, tiny and
  // negative-zero components, over full and bounded segments.
  TriangleMesh m = sheet({-0.3, -0.3, 0.1}, {0.6, 0, 0}, {0, 0.6, 0}, 12, 12);
  const TriangleMesh wall = sheet({0.05, -0.3, -0.3}, {0, 0.6, 0}, {0, 0, 0.6}, 7, 9);
  const TriangleMesh box = scaled(cube(), 0.25, {0.2, -0.1, 0.3});
  for (const TriangleMesh* part : {&wall, &box}) {
    const int off = static_cast<int>(m.positions.size());
    m.positions.insert(m.positions.end(), part->positions.begin(), part->positions.end());
    for (Triangle t : part->faces) m.faces.push_back({t[0] + off, t[1] + off, t[2] + off});
  }
  std::vector<Vec3> dirs;
  for (double tiny : {0.0, -0.0, 1e-300, 1e-70, -1e-19, 1e-12, 0.3})
    for (int a = 0; a < 3; ++a)
      for (double s : {1.0, -1.0}) {
        Vec3 d{tiny, -tiny, tiny};
        d[a] = s;
        dirs.push_back(d);
        d[(a + 1) % 3] = 0.5 * s;
        dirs.push_back(d);
      }
  std::mt19937 rng(81);
  std::uniform_int_distribution<std::size_t> pick(0, m.positions.size() - 1);
  std::uniform_real_distribution<double> u(-0.05, 0.05);
  std::vector<Ray> rays;
  for (int i = 0; i < 150; ++i) {
    Vec3 o = m.positions[pick(rng)];
    if (i % 3 == 1) o.x = m.positions[pick(rng)].x;  // on one plane only
    if (i % 3 == 2) o += Vec3{u(rng), u(rng), u(rng)};
    for (const Vec3& d : dirs) {
      rays.push_back({o - d * 2.0, d});
      rays.push_back({o, d});
      rays.push_back({o - d * 0.1, d, 0.05, 0.3});
    }
  }
  for (const auto& o : kOptions) {
    SCOPED_TRACE(name(o));
    const TriangleMeshBvh tree(m, o);
    expect_rays_match(m, tree, rays);
  }
}

TEST(TriangleMeshBvh, HugeAndTinyCoordinatesMatchBruteForce) {
  // Beyond 2^60 the float traversal is not used (double fallback); near the
  // float underflow range it is, with its absolute slack.
  const TriangleMesh soup = random_soup(400, 0.08, 91);
  for (double s : {1e19, 1e-33, 1.0}) {
    SCOPED_TRACE(s);
    const TriangleMesh m = scaled(soup, s);
    for (const auto& o : kOptions) {
      const TriangleMeshBvh tree(m, o);
      std::vector<Ray> rays = random_rays(m.bounds(), 300, 92);
      std::vector<Vec3> pts = random_points(m.bounds(), 200, 93);
      // Far queries: origins and points beyond 2^60 from a normal-sized mesh.
      rays.push_back({{3e19 * s + 0.5 * s, 0.5 * s, 0.5 * s}, {-1, 0.01, 0}});
      pts.push_back({-2e19 * s, 0.5 * s, 0.5 * s});
      pts.push_back({0.5 * s, 1e20, 0.5 * s});
      expect_rays_match(m, tree, rays);
      expect_points_match(m, tree, pts);
    }
  }
}

TEST(TriangleMeshBvh, RefitLeafBoxesAreTheOutwardRoundedFaceBoxes) {
  // refit(margin) writes, for every primitive, exactly BvhBox::down / up of
  // the face's box grown by the margin (bit for bit), with negative, zero and
  // positive coordinates.
  TriangleMesh m = scaled(random_soup(500, 0.1, 95), 2.0, {-1, -1, -1});
  m.positions[0] = {0, -0.0, 1e-40};
  TriangleMeshBvh tree(m, {BvhBuilder::binned_sah, 4});
  for (double margin : {0.0, 1e-3}) {
    tree.refit(margin);
    const auto boxes = tree.tree().primitive_boxes();
    const auto order = tree.tree().primitive_order();
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      const Aabb b = m.face_bounds(tree.face_of_primitive(order[i]));
      for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(boxes[i].lo[k], BvhBox::down(b.min[k] - margin));
        EXPECT_EQ(boxes[i].hi[k], BvhBox::up(b.max[k] + margin));
      }
    }
  }
}

TEST(TriangleMeshBvh, QueriesRightAfterRefitAndTransformSeeTheNewBoxes) {
  // The wide copy of the boxes is brought up to date by the first ray or
  // point query after refit() / transform(), also when that first query is a
  // parallel batch (several tasks race for the update).
  TriangleMesh m = random_soup(2000, 0.05, 101);
  TriangleMeshBvh tree(m, {BvhBuilder::binned_sah, 4});
  const Executor four(4);
  for (int step = 0; step < 3; ++step) {
    if (step == 1) {  // a rigid motion: rotate and move away
      const RigidTransform tr{Mat3::rotation_y(0.4), {0.3, -0.2, 0.1}};
      for (Vec3& p : m.positions) p = tr(p);
      tree.transform(tr);
    } else {  // a deformation far outside the old boxes
      for (Vec3& p : m.positions) p += Vec3{0.3, -0.2, 0.1} + Vec3{0, 0, 0.2 * p.x};
      tree.refit();
      if (step == 0) tree.prepare_queries();  // optional: update now instead of in the first query
    }
    const auto rays = random_rays(m.bounds(), 400, 102 + step);
    const auto pts = random_points(m.bounds(), 400, 103 + step);
    std::vector<std::optional<RayHit>> hits(rays.size());
    std::vector<TriangleMeshBvh::PointQuery> cps(pts.size());
    if (step == 2) {
      tree.closest_points(pts, cps, INFINITY, four);  // the first query after the refit
      tree.intersect(rays, hits, four);
    } else {
      tree.intersect(rays, hits, four);
      tree.closest_points(pts, cps, INFINITY, four);
    }
    for (std::size_t i = 0; i < rays.size(); ++i) {
      const auto expect = brute_intersect(m, rays[i]);
      ASSERT_EQ(hits[i].has_value(), expect.has_value());
      if (expect) {
        EXPECT_EQ(hits[i]->t, expect->t);
      }
    }
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const double expect = brute_distance(m, pts[i]);
      EXPECT_NEAR(cps[i].distance, expect, 1e-12 * (1 + expect));
    }
  }
}

TEST(TriangleMeshBvh, ClosestPointWithLargeLeavesMatchesBruteForce) {
  // Leaves of 2-16 primitives: their boxes are bounded four at a time (SoA
  // leaf blocks, several blocks per leaf above 4) before the exact tests;
  // also after a refit and a rigid motion (the blocks are refreshed), and for
  // points on vertices and edge midpoints (equal distances on several faces).
  TriangleMesh m = random_soup(2500, 0.05, 111);
  for (const BvhBuildOptions o :
       {BvhBuildOptions{BvhBuilder::midpoint, 2}, BvhBuildOptions{BvhBuilder::midpoint, 7},
        BvhBuildOptions{BvhBuilder::binned_sah, 16}}) {
    SCOPED_TRACE(name(o));
    const TriangleMesh saved = m;
    TriangleMeshBvh tree(m, o);
    auto check = [&](std::uint32_t seed) {
      std::vector<Vec3> pts = random_points(m.bounds(), 300, seed);
      for (int f = 0; f < 100; ++f) {
        const Triangle& t = m.faces[f * 7];
        pts.push_back(m.positions[t[0]]);
        pts.push_back((m.positions[t[1]] + m.positions[t[2]]) * 0.5);
      }
      for (const Vec3& p : pts) {
        const auto q = tree.closest_point(p);
        ASSERT_GE(q.face, 0);
        const double expect = brute_distance(m, p);
        EXPECT_NEAR(q.distance, expect, 1e-12 * (1 + expect));
        // Bounded just above the distance: still found (the float bounds never drop it).
        EXPECT_GE(tree.closest_point(p, expect * (1 + 1e-9) + 1e-300).face, 0);
      }
    };
    check(112);
    m = deformed(saved, 0.02, 113);
    tree.refit();
    check(114);
    const RigidTransform tr{Mat3::rotation_axis_angle(normalized(Vec3{1, 1, 0.3}), 0.7), {1, -2, 0.5}};
    for (Vec3& p : m.positions) p = tr(p);
    tree.transform(tr);
    check(115);
    m = saved;
  }
}

TEST(TriangleMeshBvh, RayPretestKeepsGrazingAndNearParallelHits) {
  // The float pre-test of a leaf's triangles may only drop triangles the exact
  // test rejects: rays aimed exactly at vertices and edge midpoints (and one
  // ulp beside them), from near and far origins, and rays nearly parallel to
  // faces, on a closed sphere plus a random soup, for leaves of 1, 4 and 7
  // triangles. Closest t against brute force; crossings counted exactly.
  TriangleMesh m = sphere({0.1, -0.2, 0.3}, 0.4, 14, 22);
  const TriangleMesh soup = random_soup(600, 0.08, 121);
  const int off = static_cast<int>(m.positions.size());
  m.positions.insert(m.positions.end(), soup.positions.begin(), soup.positions.end());
  for (Triangle t : soup.faces) m.faces.push_back({t[0] + off, t[1] + off, t[2] + off});
  std::mt19937 rng(122);
  std::normal_distribution<double> g;
  std::uniform_int_distribution<std::size_t> pick_face(0, m.faces.size() - 1);
  auto random_dir = [&] { return normalized(Vec3{g(rng), g(rng), g(rng)}); };
  std::vector<Ray> rays;
  for (int i = 0; i < 400; ++i) {
    const Triangle& f = m.faces[pick_face(rng)];
    const Vec3 a = m.positions[f[0]], b = m.positions[f[1]], c = m.positions[f[2]];
    Vec3 target = i % 2 ? a : (a + b) * 0.5;
    if (i % 5 == 3) target[i % 3] = std::nextafter(target[i % 3], i % 4 ? 1e300 : -1e300);
    const double dist = i % 7 == 0 ? 1000.0 : (i % 3 == 0 ? 0.05 : 2.0);
    const Vec3 o = target + random_dir() * dist;
    rays.push_back({o, target - o});
    rays.push_back({o, (target - o) * 1e-3, 0.0, 2000.0});
    // A negative t_min (the double traversal of the binary tree) and a segment starting inside.
    rays.push_back({target, o - target, -0.5, 0.7});
    // Nearly parallel to the face: along an edge direction, lifted off the plane by h.
    const Vec3 n = normalized(cross(b - a, c - a));
    const Vec3 e = b - a;
    for (double h : {0.0, 1e-15, 1e-9, -1e-6}) {
      const Vec3 start = (a + b + c) / 3.0 - e * 1.5 + n * (h * norm(e));
      rays.push_back({start, e - n * (h * norm(e) * 0.5)});
    }
  }
  for (const BvhBuildOptions o :
       {BvhBuildOptions{BvhBuilder::midpoint, 1}, BvhBuildOptions{BvhBuilder::binned_sah, 4},
        BvhBuildOptions{BvhBuilder::midpoint, 7}}) {
    SCOPED_TRACE(name(o));
    const TriangleMeshBvh tree(m, o);
    expect_rays_match(m, tree, rays);
    int hits = 0;
    for (const Ray& r : rays) hits += tree.intersect(r).has_value();
    EXPECT_GT(hits, static_cast<int>(rays.size()) / 4);
  }
}

TEST(TriangleMeshBvh, SimdPathsAgreeAndClosestDistanceIsBruteForceBitForBit) {
  // Rays and closest points run the AVX2 code on CPUs that have it and the
  // SSE2 code otherwise (force_sse2 covers the fallback on any machine). Both
  // must give the same answers, and the closest distance must be the brute
  // force minimum bit for bit: the float lower bound of the point-triangle
  // distance may only skip triangles the exact test would not take. A random
  // soup plus needles and slivers (nearly collinear vertices, where the float
  // walk's direction is poor), queried from random points, from vertices,
  // edge midpoints and points 1e-7 beside vertices, for leaves of 4 and 16.
  TriangleMesh m = random_soup(1500, 0.05, 121);
  std::mt19937 rng(122);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int i = 0; i < 300; ++i) {
    const Vec3 a{u(rng), u(rng), u(rng)};
    const Vec3 d = Vec3{u(rng), u(rng), u(rng)} * 0.05;
    const Vec3 side = Vec3{u(rng), u(rng), u(rng)} * (i % 2 ? 1e-9 : 1e-4);
    const int v = static_cast<int>(m.positions.size());
    m.positions.push_back(a);
    m.positions.push_back(a + d);
    m.positions.push_back(a + d * (i % 3 ? 0.5 : 2.0) + side);
    m.faces.push_back({v, v + 1, v + 2});
  }
  std::vector<Vec3> pts = random_points(m.bounds(), 400, 123);
  for (int f = 0; f < 1800; f += 9) {
    const Triangle& t = m.faces[f];
    pts.push_back(m.positions[t[0]]);
    pts.push_back((m.positions[t[1]] + m.positions[t[2]]) * 0.5);
    pts.push_back(m.positions[t[2]] + Vec3{1e-7, -1e-7, 1e-7});
  }
  const std::vector<Ray> rays = random_rays_into_box(m.bounds(), 500, 124);
  for (const BvhBuildOptions o :
       {BvhBuildOptions{BvhBuilder::binned_sah, 4}, BvhBuildOptions{BvhBuilder::binned_sah, 16}}) {
    SCOPED_TRACE(name(o));
    const TriangleMeshBvh tree(m, o);
    std::vector<TriangleMeshBvh::PointQuery> q[2];
    std::vector<std::optional<RayHit>> h[2];
    for (int sse = 0; sse < 2; ++sse) {
      TriangleMeshBvh::force_sse2(sse == 1);
      EXPECT_FALSE(sse == 1 && TriangleMeshBvh::uses_avx2());
      for (const Vec3& p : pts) q[sse].push_back(tree.closest_point(p));
      for (const Ray& r : rays) h[sse].push_back(tree.intersect(r));
    }
    TriangleMeshBvh::force_sse2(false);
    for (std::size_t i = 0; i < pts.size(); ++i) {
      EXPECT_EQ(q[0][i].distance, brute_distance(m, pts[i])) << i;
      EXPECT_EQ(q[0][i].distance, q[1][i].distance) << i;
      EXPECT_EQ(q[0][i].face, q[1][i].face) << i;
    }
    for (std::size_t i = 0; i < rays.size(); ++i) {
      ASSERT_EQ(h[0][i].has_value(), h[1][i].has_value()) << i;
      if (h[0][i]) {
        EXPECT_EQ(h[0][i]->t, h[1][i]->t) << i;
      }
    }
  }
}

// push_cloth_triangles keeps per cloth triangle a list of the body vertices
// and edges near it (a Verlet list) and traverses the body's trees again only
// for triangles that left the list's reach. Its answers must be those of a
// fresh search on every call.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "../cloth/test_shapes.h"
#include "drape/collision/body_collider.h"
#include "drape/geometry/triangle_queries.h"

using namespace drape;
using namespace drape::test;

namespace {

bool bitwise_equal(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3)) == 0;
}

}  // namespace

TEST(BodyPushLists, AnswerLikeAFreshSearchOnEveryCall) {
  // A coarse sphere (facets of about 4 cm: its vertices and edges poke
  // through a fine cloth laid on a slightly smaller shell) under a 6 mm grid.
  // Every call the cloth is shaken by a random amount, from a tenth of a
  // millimetre (lists reused) to several millimetres (lists made again), and
  // drifts sideways so that triangles leave their lists' reach. The reference
  // collider is told its body moved before every call, so it makes no lists
  // and searches its trees directly each time; both must move the cloth to
  // the same bits.
  const double r = 0.1;
  const TriangleMesh sphere = uv_sphere(r, {0, 0, 0}, 8, 16);
  BodyCollider listed(sphere, {});
  BodyCollider fresh(sphere, {});
  const GarmentMesh cloth = horizontal_square(31, 0.006, 0);
  std::vector<Vec3> x = cloth.mesh.positions;
  for (Vec3& p : x) {  // onto a shell 2 mm inside the sphere, over the top
    const double d2 = p.x * p.x + p.z * p.z;
    p.y = std::sqrt(std::max(0.0, (r - 0.002) * (r - 0.002) - d2));
  }
  const std::vector<double> w(x.size(), 1.0);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> unit(-1, 1);
  const double amplitudes[] = {1e-4, 3e-4, 1e-3, 5e-3};
  std::vector<Vec3> shifted = sphere.positions;
  for (Vec3& p : shifted) p.y += 1e-3;
  std::size_t answered = 0;
  for (int call = 0; call < 120; ++call) {
    const double a = amplitudes[(call / 7) % 4];
    const Vec3 drift{0.0004, 0, 0.0002};
    for (Vec3& p : x) p += drift + Vec3{unit(rng), unit(rng), unit(rng)} * a;
    std::vector<Vec3> y = x;
    fresh.move_vertices(shifted);  // away and back: every list is dropped
    fresh.move_vertices(sphere.positions);
    const std::size_t n_fresh =
        fresh.push_cloth_triangles(cloth.mesh.faces, {}, y, w, 0.0015, Executor::global());
    const std::size_t n_listed =
        listed.push_cloth_triangles(cloth.mesh.faces, {}, x, w, 0.0015, Executor::global());
    ASSERT_EQ(n_listed, n_fresh) << "call " << call;
    ASSERT_TRUE(bitwise_equal(x, y)) << "call " << call;
    answered += n_listed;
  }
  EXPECT_GT(answered, 500u);  // the body's features did push the cloth
  // The reference made no lists (its body moved before every call: it
  // searched the trees directly); the other reused them, and made them again
  // where the cloth moved on.
  EXPECT_EQ(fresh.push_listings(), 0u);
  EXPECT_LT(listed.push_listings(), 120 * cloth.mesh.faces.size() / 2);
  EXPECT_GT(listed.push_listings(), 2 * cloth.mesh.faces.size());
}

TEST(BodyPushLists, ABodyMovedEveryStepMakesNoListsForOneUse) {
  // A body moved before every step is pushed against twice a step (after the
  // body's vertex answer, then after the last self pass): lists made at the
  // second call would be dropped at the next move after one use, so none are
  // made until the body has stood still for a whole call; the answers are
  // the trees' own either way (the test above).
  const double r = 0.1;
  const TriangleMesh sphere = uv_sphere(r, {0, 0, 0}, 8, 16);
  std::vector<Vec3> shifted = sphere.positions;
  for (Vec3& p : shifted) p.y += 1e-3;
  BodyCollider body(sphere, {});
  const GarmentMesh cloth = horizontal_square(11, 0.01, r + 0.0005);
  std::vector<Vec3> x = cloth.mesh.positions;
  const std::vector<double> w(x.size(), 1.0);
  for (int step = 0; step < 6; ++step) {
    body.move_vertices(step % 2 ? sphere.positions : shifted);
    body.push_cloth_triangles(cloth.mesh.faces, {}, x, w, 0.003, Executor::global());
    body.push_cloth_triangles(cloth.mesh.faces, {}, x, w, 0.003, Executor::global());
  }
  EXPECT_EQ(body.push_listings(), 0u);
  // Standing still: the next call lists every triangle near the body.
  body.push_cloth_triangles(cloth.mesh.faces, {}, x, w, 0.003, Executor::global());
  EXPECT_GT(body.push_listings(), 0u);
}

TEST(BodyVertexQueries, AnswerLikeAPlainQueryOnEveryCall) {
  // Points on random walks around a sphere, from touching it to 3 cm away,
  // some steps short (a far point is not searched for again), some long (it
  // is), and the body moved in place now and then (every skip forgotten):
  // query_vertex must answer as query() does, bit for bit.
  const double r = 0.1, h = 0.003;
  const TriangleMesh sphere = uv_sphere(r, {0, 0, 0}, 16, 32);
  BodyCollider body(sphere, {});
  const int g = body.group_for_mask(body_region::all);
  std::vector<Vec3> shifted = sphere.positions;
  for (Vec3& p : shifted) p.y += 1e-3;
  std::mt19937 rng(3);
  std::normal_distribution<double> nd;
  std::uniform_real_distribution<double> unit(-1, 1), offset(-0.002, 0.03);
  std::vector<Vec3> p(300);
  for (Vec3& q : p) q = normalized(Vec3{nd(rng), nd(rng), nd(rng)}) * (r + offset(rng));
  std::size_t known_far = 0, contacts = 0;
  for (int call = 0; call < 200; ++call) {
    if (call % 50 == 49) {  // the body moves away and back: every skip is dropped
      body.move_vertices(shifted);
      body.move_vertices(sphere.positions);
    }
    body.prepare_vertex_queries(p.size());
    const double step = call % 4 == 3 ? 0.004 : 0.0003;
    for (std::size_t i = 0; i < p.size(); ++i) {
      p[i] += Vec3{unit(rng), unit(rng), unit(rng)} * step;
      known_far += body.vertex_known_far(i);
      const BodyContact a = body.query_vertex(i, p[i], g, h, h);
      const BodyContact b = body.query(p[i], g, h);
      ASSERT_EQ(a.face, b.face) << "call " << call << " point " << i;
      if (a.face < 0) continue;
      ++contacts;
      ASSERT_EQ(a.signed_distance, b.signed_distance);
      ASSERT_EQ(a.point, b.point);
      ASSERT_EQ(a.normal, b.normal);
    }
  }
  EXPECT_GT(contacts, 1000u);
  EXPECT_GT(known_far, 200u * 300u / 3);  // most far points skipped their search
}

TEST(BodyVertexQueries, ASegmentCalledClearIsClear) {
  // Points 6.1-12 mm above a box's top (2 thicknesses and a little more),
  // found far by query_vertex, then paths from each mostly downwards, 0-12 mm
  // long: segment_known_clear (the continuous sweep's skip) may call a path
  // clear only when, by brute force over every face, it stays farther than
  // the sweep's reach (0.2 thickness) from the box.
  const double h = 0.003, reach = 0.2 * h;
  const TriangleMesh block = box({-0.2, -0.2, -0.2}, {0.2, 0, 0.2});
  BodyCollider body(block, {});
  const int g = body.group_for_mask(body_region::all);
  // The distance from the segment a-b (sampled every 0.05 mm) to the box's faces.
  const auto segment_distance = [&](const Vec3& a, const Vec3& b) {
    double best = 1e9;
    const int samples = 1 + static_cast<int>(norm(b - a) / 5e-5);
    for (int k = 0; k <= samples; ++k) {
      const Vec3 q = a + (b - a) * (static_cast<double>(k) / samples);
      for (const Triangle& f : block.faces) {
        const ClosestPoint c =
            closest_point_on_triangle(q, block.positions[f[0]], block.positions[f[1]], block.positions[f[2]]);
        best = std::min(best, norm(q - c.point));
      }
    }
    return best;
  };
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> across(-0.1, 0.1), height(0.0061, 0.012), length(0, 0.012),
      unit(-1, 1);
  const std::size_t n = 1000;
  std::vector<Vec3> p(n);
  for (Vec3& q : p) q = {across(rng), height(rng), across(rng)};
  body.prepare_vertex_queries(n);
  for (std::size_t i = 0; i < n; ++i) body.query_vertex(i, p[i], g, h, h);
  std::size_t clear = 0, not_clear = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_TRUE(body.vertex_known_far(i)) << i;
    const Vec3 to = p[i] + normalized(Vec3{0.3 * unit(rng), -1, 0.3 * unit(rng)}) * length(rng);
    if (body.segment_known_clear(i, p[i], to, reach)) {
      ++clear;
      ASSERT_GT(segment_distance(p[i], to), reach) << "point " << i;
    } else {
      ++not_clear;
    }
  }
  EXPECT_GT(clear, n / 10);  // short paths are skipped
  EXPECT_GT(not_clear, n / 10);
}

// nearest_in_halfspaces against an independent answer: Dykstra's alternating
// projections (which converge to the projection onto an intersection of
// convex sets) run for many sweeps, on random feasible sets of half-spaces,
// and against hand-made cases (a corner, a slab, an empty intersection).

#include "drape/geometry/halfspace_projection.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace drape;

namespace {

// A small portable generator (the standard distributions differ between libraries).
struct Lcg {
  std::uint64_t s;
  double uniform() {  // [0, 1)
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(s >> 11) * (1.0 / 9007199254740992.0);
  }
  double symmetric() { return 2 * uniform() - 1; }
  Vec3 unit() {
    for (;;) {
      const Vec3 v{symmetric(), symmetric(), symmetric()};
      const double l = norm(v);
      if (l > 0.1 && l <= 1) return v / l;
    }
  }
};

// Dykstra's algorithm: the projection of p onto the intersection.
Vec3 dykstra(const Vec3& p, const std::vector<HalfSpace>& hs, int sweeps) {
  Vec3 x = p;
  std::vector<Vec3> inc(hs.size());
  for (int it = 0; it < sweeps; ++it)
    for (std::size_t j = 0; j < hs.size(); ++j) {
      const Vec3 y = x + inc[j];
      const double v = hs[j].offset - dot(hs[j].normal, y);
      const Vec3 z = v > 0 ? y + hs[j].normal * v : y;
      inc[j] = y - z;
      x = z;
    }
  return x;
}

}  // namespace

TEST(HalfSpaceProjection, HandMadeCornerSlabAndEmptyIntersection) {
  Vec3 out;
  // Inside already: p itself.
  const HalfSpace x_ge_0[] = {{{1, 0, 0}, 0}};
  ASSERT_TRUE(nearest_in_halfspaces({0.5, 2, 3}, x_ge_0, 1, out));
  EXPECT_EQ(out, Vec3(0.5, 2, 3));
  // The corner x >= 2, y >= 1 from the origin: (2, 1, 0); the mean of the
  // two pushed points (1, 0.5, 0) is outside both.
  const HalfSpace corner[] = {{{1, 0, 0}, 2}, {{0, 1, 0}, 1}};
  ASSERT_TRUE(nearest_in_halfspaces({0, 0, 0}, corner, 2, out));
  EXPECT_LT(norm(out - Vec3(2, 1, 0)), 1e-15);
  // Three planes through (1, 2, 3): their corner.
  const HalfSpace three[] = {{{1, 0, 0}, 1}, {{0, 1, 0}, 2}, {{0, 0, 1}, 3}};
  ASSERT_TRUE(nearest_in_halfspaces({0, 0, 0}, three, 3, out));
  EXPECT_LT(norm(out - Vec3(1, 2, 3)), 1e-15);
  // A slab 1 <= x <= 3: a point at x = 5 goes to x = 3.
  const HalfSpace slab[] = {{{1, 0, 0}, 1}, {{-1, 0, 0}, -3}};
  ASSERT_TRUE(nearest_in_halfspaces({5, 1, 1}, slab, 2, out));
  EXPECT_LT(norm(out - Vec3(3, 1, 1)), 1e-15);
  // x >= 2 and x <= -2: empty; `out` is left alone.
  const HalfSpace empty[] = {{{1, 0, 0}, 2}, {{-1, 0, 0}, 2}};
  out = {7, 7, 7};
  EXPECT_FALSE(nearest_in_halfspaces({0, 0, 0}, empty, 2, out));
  EXPECT_EQ(out, Vec3(7, 7, 7));
  // Two parallel planes, the same way: the farther one.
  const HalfSpace parallel[] = {{{0, 0, 1}, 1}, {{0, 0, 1}, 2}};
  ASSERT_TRUE(nearest_in_halfspaces({0, 0, 0}, parallel, 2, out));
  EXPECT_LT(norm(out - Vec3(0, 0, 2)), 1e-15);
}

TEST(HalfSpaceProjection, RandomFeasibleSetsMatchDykstrasProjection) {
  Lcg rng{12345};
  int moved = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t k = 1 + trial % kMaxHalfSpaces;
    // Half-spaces holding the point z (so the intersection is not empty), p near z.
    const Vec3 z{rng.symmetric(), rng.symmetric(), rng.symmetric()};
    std::vector<HalfSpace> hs(k);
    for (HalfSpace& h : hs) {
      h.normal = rng.unit();
      h.offset = dot(h.normal, z) - 0.3 * rng.uniform();
    }
    const Vec3 p = z + Vec3{rng.symmetric(), rng.symmetric(), rng.symmetric()};
    Vec3 out;
    ASSERT_TRUE(nearest_in_halfspaces(p, hs.data(), k, out)) << trial;
    const Vec3 expected = dykstra(p, hs, 20000);
    EXPECT_LT(norm(out - expected), 1e-7) << trial << " k=" << k;
    for (const HalfSpace& h : hs) EXPECT_GE(dot(h.normal, out) - h.offset, -1e-12) << trial;
    moved += !(out == p);
  }
  EXPECT_GT(moved, 100);  // most trials start outside some half-space
}

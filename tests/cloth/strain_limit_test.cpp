// Strain limiting (ClothSettings::strain_limit): once a garment's seams are
// all joined, no edge of it stays longer than (1 + limit) times its rest
// length, whatever the fabric's stiffness or the solver's iterations; an edge
// under the limit is left to the fabric.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "drape/cloth/cloth_simulation.h"
#include "drape/core/exceptions.h"
#include "test_shapes.h"

using namespace drape;
using namespace drape::test;

namespace {

// Two 20 x 20 cm panels (2 cm grid) sewn into a 40 cm strip, the seam closed
// from the start, hanging from the upper panel's pinned top row.
constexpr int kN = 11;
constexpr double kH = 0.02, kLength = 2 * (kN - 1) * kH;

struct Strip {
  GarmentMesh g;
  int lower = 0, upper = 0;
};

Strip sewn_strip() {
  Strip s;
  s.lower = add_grid_panel(s.g, kN, kN, kH, {-0.1, -0.2, 0}, {1, 0, 0}, {0, 1, 0});
  s.upper = add_grid_panel(s.g, kN, kN, kH, {-0.1, 0, 0}, {1, 0, 0}, {0, 1, 0});
  for (int i = 0; i < kN; ++i) s.g.seam_pairs.push_back({s.upper + i, s.lower + (kN - 1) * kN + i, 0});
  s.g.seam_length_ratio = {1.0};
  return s;
}

struct Hang {
  DrapeResult result;
  double length = 0;    // top row to the mean height of the bottom row, m
  double edge_max = 0;  // largest L / L0 - 1 over the triangle edges, brute force
};

Hang hang(const Fabric& fabric, double strain_limit, int frames = 240) {
  const Strip strip = sewn_strip();
  ClothSettings s;
  s.threads = 1;
  s.max_frames = frames;
  s.min_frames = frames;  // the same number of frames for every run
  s.strain_limit = strain_limit;
  for (int i = 0; i < kN; ++i) s.pinned.push_back(strip.upper + (kN - 1) * kN + i);
  ClothSimulation sim(strip.g, TriangleMesh{}, {}, fabric, s);
  Hang h;
  h.result = sim.run();
  EXPECT_EQ(h.result.report.seam_pairs_joined, static_cast<std::size_t>(kN));
  const std::vector<Vec3>& x = sim.positions();
  double bottom = 0;
  for (int i = 0; i < kN; ++i) bottom += x[strip.lower + i].y;
  h.length = 0.2 - bottom / kN;
  // Every triangle edge against its flat-pattern length (the independent
  // measure: not the report's, not the model's springs).
  for (const Triangle& f : strip.g.mesh.faces)
    for (int k = 0; k < 3; ++k) {
      const int a = f[k], b = f[(k + 1) % 3];
      const Vec2 d0 = strip.g.rest[b] - strip.g.rest[a];
      const double L0 = std::sqrt(d0.x * d0.x + d0.y * d0.y);
      h.edge_max = std::max(h.edge_max, norm(x[b] - x[a]) / L0 - 1);
    }
  return h;
}

// A fabric far softer than any cloth: under its own weight the strip's top
// would stretch rho g L / Y = 0.15 * 9.81 * 0.4 / 0.2 = 290 %.
Fabric rubber_sheet() {
  Fabric f = fabric_preset("cotton");
  f.stretch = 0.2;
  f.stretch_weft = f.stretch_bias = 0.2;
  f.stretch_curve_warp.clear();
  f.stretch_curve_weft.clear();
  f.stretch_curve_bias.clear();
  f.shear = 0.1;
  f.bending = 1e-9;  // the hinge springs (64 B / h^2) would hold the strip otherwise
  f.air_damping = 2.0;
  return f;
}

}  // namespace

TEST(StrainLimit, ASoftStripHangsAtTheLimitAndNoEdgeExceedsIt) {
  const Fabric f = rubber_sheet();
  const Hang free = hang(f, 0);
  const Hang limited = hang(f, 0.1);
  // Without the limit the strip stretches far past it (the test can fail).
  EXPECT_GT(free.edge_max, 0.5);
  EXPECT_GT(free.length, 1.3 * kLength);
  // With it, no edge is longer than 1.1 L0 but for the residual of four
  // Gauss-Seidel passes down a 20-edge chain that carries the whole weight
  // (measured 11.5 % at the top row) ...
  EXPECT_LT(limited.edge_max, 0.1 + 0.02);
  EXPECT_LT(limited.result.report.strain_max, 0.1 + 0.02);
  // ... and, the fabric being far too weak to hold any of it, every vertical
  // edge hangs at the limit: the strip is (1 + limit) times its length (the
  // fabric alone reaches 10 % only 1.4 cm above the bottom: Y eps / (rho g)).
  EXPECT_NEAR(limited.length, 1.1 * kLength, 0.004);
}

TEST(StrainLimit, EdgesUnderTheLimitAreLeftToTheFabric) {
  // Cotton hangs with well under 10 % strain: the limit never acts, and the
  // drape is the same to the last bit.
  Fabric f = fabric_preset("cotton");
  f.air_damping = 2.0;
  const Hang free = hang(f, 0, 120);
  const Hang limited = hang(f, 0.1, 120);
  ASSERT_LT(free.edge_max, 0.1);
  ASSERT_EQ(free.result.mesh.positions.size(), limited.result.mesh.positions.size());
  for (std::size_t i = 0; i < free.result.mesh.positions.size(); ++i) {
    EXPECT_EQ(free.result.mesh.positions[i].x, limited.result.mesh.positions[i].x);
    EXPECT_EQ(free.result.mesh.positions[i].y, limited.result.mesh.positions[i].y);
    EXPECT_EQ(free.result.mesh.positions[i].z, limited.result.mesh.positions[i].z);
  }
}

// The limit can be lifted during a run (drape animate does once the motion
// starts): the soft strip held at 1.1 L then stretches as its fabric says.
TEST(StrainLimit, LiftedDuringARunTheStripStretchesOnAsItsFabricSays) {
  const Strip strip = sewn_strip();
  ClothSettings s;
  s.threads = 1;
  s.max_frames = s.min_frames = 240;
  s.strain_limit = 0.1;
  for (int i = 0; i < kN; ++i) s.pinned.push_back(strip.upper + (kN - 1) * kN + i);
  ClothSimulation sim(strip.g, TriangleMesh{}, {}, rubber_sheet(), s);
  sim.run();
  auto length = [&] {
    double bottom = 0;
    for (int i = 0; i < kN; ++i) bottom += sim.positions()[strip.lower + i].y;
    return 0.2 - bottom / kN;
  };
  EXPECT_NEAR(length(), 1.1 * kLength, 0.004);
  EXPECT_THROW(sim.set_strain_limit(-1), InvalidInput);
  sim.set_strain_limit(0);
  for (int f = 0; f < 240; ++f) ASSERT_TRUE(sim.advance_frame());
  EXPECT_GT(length(), 1.3 * kLength);
}

// The sewn rubber strip laid flat over a horizontal bar: it hangs on both
// sides, and the edges over the bar carry the whole weight, pressed onto it.
// The body's push out to the thickness comes after the limit in a step, and
// lengthens what the limit shortened; the limit's rounds after the body's
// response (ClothSettings::strain_limit_body_rounds) pull them back.
TEST(StrainLimit, OverABarTheRoundsAfterTheBodyKeepTheEdgesAtTheLimit) {
  const double r = 0.03;
  auto drape_over_bar = [&](int rounds) {
    GarmentMesh g;
    const int lower = add_grid_panel(g, kN, kN, kH, {-0.1, 0.0, -0.2}, {1, 0, 0}, {0, 0, 1});
    const int upper = add_grid_panel(g, kN, kN, kH, {-0.1, 0.0, 0.0}, {1, 0, 0}, {0, 0, 1});
    for (int i = 0; i < kN; ++i) g.seam_pairs.push_back({upper + i, lower + (kN - 1) * kN + i, 0});
    g.seam_length_ratio = {1.0};
    ClothSettings s;
    s.threads = 1;
    s.max_frames = s.min_frames = 240;
    s.strain_limit = 0.1;
    s.strain_limit_body_rounds = rounds;
    const TriangleMesh bar = x_cylinder(r, 0.4, {0, -r - 0.004, 0});
    ClothSimulation sim(g, bar, {}, rubber_sheet(), s);
    const DrapeResult res = sim.run();
    EXPECT_EQ(res.report.seam_pairs_joined, static_cast<std::size_t>(kN));
    EXPECT_EQ(res.report.vertices_inside_body, 0u);
    double edge_max = 0;
    for (const Triangle& f : g.mesh.faces)
      for (int k = 0; k < 3; ++k) {
        const int a = f[k], b = f[(k + 1) % 3];
        const Vec2 d0 = g.rest[b] - g.rest[a];
        edge_max =
            std::max(edge_max, norm(sim.positions()[b] - sim.positions()[a]) / std::hypot(d0.x, d0.y) - 1);
      }
    std::printf("rounds %d: edge max %.2f %%, strain p99 %.2f %%\n", rounds, 100 * edge_max,
                100 * res.report.strain_p99);
    return edge_max;
  };
  const double none = drape_over_bar(0), one = drape_over_bar(1), two = drape_over_bar(2);
  // Measured 12.6, 10.9 and 10.8 %: without the rounds the body's push leaves
  // the edges over the bar 2.6 points over the limit; one round takes 1.7 of
  // them back, a second a little more.
  EXPECT_GT(none, 0.12);
  EXPECT_LT(one, none - 0.01);
  EXPECT_LT(one, 0.115);
  EXPECT_LE(two, one);
}

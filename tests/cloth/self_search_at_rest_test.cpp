// The step cap comes before the first self-collision pass (collision_response.cpp):
// cloth at rest pressed on the body, which the solve pulls into the body by more
// than the self-collider's slack every step and the body's answer puts back,
// then needs no new candidate search. Checked with the collider's own count
// (DrapeReport::self_searches): at rest the cloth ends every step where it
// began, within far less than the slack, so no search is needed.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "drape/cloth/cloth_simulation.h"
#include "test_shapes.h"

using namespace drape;
using namespace drape::test;

namespace {

constexpr double kRadius = 0.03;  // the sphere's, m

// A 4 x 7 strip laid over the top of a sphere (radius 3 cm), 1 mm off it, on
// an arc of 2 radians, pinned at both ends: the arc is 30 % longer than the
// strip's rest length, so the solve, which sees no body, pulls its middle
// rows into the sphere every step, by more than the thickness (1 mm, the
// self-collider's slack).
struct Wrapped {
  GarmentMesh garment;
  std::vector<int> pins;
};

Wrapped strip_over_a_sphere() {
  Wrapped w;
  const int nx = 4, ny = 7;
  const double half = 1.0;  // radians either side of the top
  const double r = kRadius + 0.001;
  const double h = 2 * half * r / (ny - 1) / 1.3;  // rest spacing
  add_grid_panel(w.garment, nx, ny, h, {-1.5 * h, 0, 0}, {1, 0, 0}, {0, 0, 1});
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      Vec3& p = w.garment.mesh.positions[j * nx + i];
      const double a = -half + 2 * half * j / (ny - 1);
      const double rx = std::sqrt(r * r + p.x * p.x);  // outside the sphere at any x
      p.y = rx * std::cos(a);
      p.z = rx * std::sin(a);
      if (j == 0 || j == ny - 1) w.pins.push_back(j * nx + i);
    }
  return w;
}

}  // namespace

TEST(SelfSearchAtRest, StretchedClothPressedOnTheBodySearchesNoMoreOnceAtRest) {
  const Wrapped w = strip_over_a_sphere();
  const TriangleMesh sphere = uv_sphere(kRadius, {0, 0, 0}, 48, 96);
  ClothSettings s;
  s.threads = 1;
  s.thickness = 0.001;
  s.pinned = w.pins;
  ClothSimulation sim(w.garment, sphere, {}, fabric_preset("cotton"), s);
  // Come to rest: no vertex moves 10 um over a frame (a hundredth of the slack).
  double moved = 1;
  int frames = 0;
  for (; frames < 300 && moved > 1e-5; ++frames) {
    const std::vector<Vec3> before = sim.positions();
    ASSERT_TRUE(sim.advance_frame());
    moved = 0;
    for (std::size_t i = 0; i < before.size(); ++i)
      moved = std::max(moved, norm(sim.positions()[i] - before[i]));
  }
  ASSERT_LE(moved, 1e-5) << "not at rest after " << frames << " frames";
  // The premise: pressed on the sphere, and the solve's pull into it from the
  // rest more than twice the slack (one step of the same cloth without
  // collisions, from the rest positions at rest).
  const std::vector<Vec3> rest = sim.positions();
  int pressed = 0;
  for (const Vec3& p : rest) pressed += norm(p) < kRadius + 1.1 * s.thickness;
  EXPECT_GE(pressed, 4);
  {
    ClothSettings free = s;
    free.body_collision = false;
    free.self_collision = false;
    ClothSimulation probe(w.garment, TriangleMesh{}, {}, fabric_preset("cotton"), free);
    probe.set_positions(rest);
    probe.set_velocities(std::vector<Vec3>(rest.size(), Vec3{}));
    probe.step(1.0 / (s.frame_rate * s.substeps));
    double pull = 0;
    for (std::size_t i = 0; i < rest.size(); ++i) pull = std::max(pull, norm(probe.positions()[i] - rest[i]));
    EXPECT_GT(pull, 2 * s.thickness);
  }
  // At rest: 5 more frames (50 steps) search no more.
  const std::size_t searches = sim.running_report().self_searches;
  for (int f = 0; f < 5; ++f) ASSERT_TRUE(sim.advance_frame());
  EXPECT_EQ(sim.running_report().self_searches, searches);
  for (std::size_t i = 0; i < rest.size(); ++i) EXPECT_LT(norm(sim.positions()[i] - rest[i]), 1e-4);
}

// ClothSettings::air_damping, the damping coarse-to-fine draping settles the
// fine mesh with (DressJob::settle_air_damping, docs/CLOTH.md "Coarse to fine"):
// it replaces the fabric's air damping exactly, and a swinging cloth reaches
// the same, analytic rest sooner with it.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "drape/cloth/cloth_simulation.h"
#include "drape/core/exceptions.h"
#include "test_shapes.h"

using namespace drape;
using namespace drape::test;

namespace {

ClothSettings free_settings() {
  ClothSettings s;
  s.body_collision = false;
  s.self_collision = false;
  s.threads = 1;
  return s;
}

}  // namespace

// A sheet translating rigidly without gravity keeps every constraint
// satisfied, so XPBD changes its velocity only by the air damping:
// v <- v (1 - c h) per step, c the settings' damping when set, else the fabric's.
TEST(SettleDamping, ReplacesTheFabricsAirDampingExactly) {
  const Fabric cotton = fabric_preset("cotton");
  ASSERT_EQ(cotton.air_damping, 1.0);
  for (const double c : {-1.0, 0.0, 5.0}) {
    ClothSettings s = free_settings();
    s.gravity = {0, 0, 0};
    s.air_damping = c;
    ClothSimulation sim(horizontal_square(5, 0.02, 1.0), TriangleMesh{}, {}, cotton, s);
    const Vec3 v0{0.3, 0, 0};
    sim.set_velocities(std::vector<Vec3>(sim.positions().size(), v0));
    const double h = 1.0 / 600;
    const int steps = 60;
    for (int k = 0; k < steps; ++k) sim.step(h);
    const double damping = c >= 0 ? c : cotton.air_damping;
    const double expected = v0.x * std::pow(1 - damping * h, steps);
    for (const Vec3& v : sim.velocities()) {
      EXPECT_NEAR(v.x, expected, 1e-9) << "damping " << c;
      EXPECT_NEAR(v.y, 0, 1e-9);
      EXPECT_NEAR(v.z, 0, 1e-9);
    }
  }
}

// A strip hung from its top row (pinned along the x axis at z = 0), let go
// 40 degrees out of the vertical, swings about the vertical plane z = 0 where
// it rests whatever the damping. Air damping c makes a linear pendulum's
// amplitude decay as exp(-c t / 2): after 2 s, 6/s leaves 0.25 % of the
// start's 14 cm, the fabric's 1/s 37 % (a 40 degree swing of a flexible
// strip is not quite linear: within 25 % of that). Given 15 s, both rest in
// the plane.
TEST(SettleDamping, SwingingStripComesToTheSameRestSooner) {
  const int nx = 6, ny = 12;
  const double h = 0.02, angle = 40 * kPi / 180;
  GarmentMesh g;
  add_grid_panel(g, nx, ny, h, {0, 1, 0}, {1, 0, 0}, {0, -std::cos(angle), std::sin(angle)});
  const double start_off = (ny - 1) * h * std::sin(angle);
  // Runs `frames` frames (no earlier stop) and returns the strip's largest distance from the plane.
  auto off_plane_after = [&](double air, int frames) {
    ClothSettings s = free_settings();
    s.air_damping = air;
    s.max_frames = frames;
    s.min_frames = frames;
    for (int i = 0; i < nx; ++i) s.pinned.push_back(i);  // the top row
    ClothSimulation sim(g, TriangleMesh{}, {}, fabric_preset("cotton"), s);
    sim.start_sewn();
    const DrapeReport r = sim.run().report;
    EXPECT_EQ(r.frames, frames);
    double off = 0;
    for (const Vec3& p : sim.positions()) off = std::max(off, std::abs(p.z));
    return off;
  };
  const double t = 2;  // s
  const double damped = off_plane_after(6, static_cast<int>(60 * t));
  const double fabric = off_plane_after(-1, static_cast<int>(60 * t));
  EXPECT_LT(damped, 1.25 * start_off * std::exp(-6 * t / 2) + 0.001);  // + the rest's own 1 mm below
  EXPECT_LT(fabric, 1.25 * start_off * std::exp(-1 * t / 2));
  EXPECT_GT(fabric, 20 * damped) << "fabric " << fabric << " m, damped " << damped << " m";
  EXPECT_LT(off_plane_after(-1, 900), 0.001);
  EXPECT_LT(off_plane_after(6, 900), 0.001);
}

// ClothSettings::rest_air_damping (the dress job's settle damping) acts only
// once the seams are sewn: two panels sewn in zero gravity, translating rigidly
// across their plane (the sewing acts within it), lose speed by the fabric's
// damping until every pair is joined (and gravity comes on), then by the rest
// damping (up to the sewn panels' small buckling across the
// plane); set_rest_air_damping(-1) hands the motion back to the fabric's.
TEST(SettleDamping, RestDampingActsOnlyOnceTheSeamsAreSewn) {
  ClothSettings s = free_settings();
  s.gravity = {0, 0, 0};
  s.zero_gravity_frames = 100;  // gravity comes on once every pair is joined
  s.rest_air_damping = 20;
  s.strain_limit = 0;
  const Fabric cotton = fabric_preset("cotton");
  ClothSimulation sim(two_sewn_panels(5, 0.02, 0.1), TriangleMesh{}, {}, cotton, s);
  sim.set_velocities(std::vector<Vec3>(sim.positions().size(), Vec3{0, 0.3, 0}));
  const double h = sim.step_size();
  const int substeps = s.substeps;
  auto mean_vy = [&] {
    double sum = 0;
    for (const Vec3& v : sim.velocities()) sum += v.y;
    return sum / static_cast<double>(sim.velocities().size());
  };
  auto frame_ratio = [&] {
    const double before = mean_vy();
    EXPECT_TRUE(sim.advance_frame());
    return mean_vy() / before;
  };
  const double fabric = std::pow(1 - cotton.air_damping * h, substeps);
  const double rest = std::pow(1 - 20 * h, substeps);
  for (int f = 0; f < 3; ++f) EXPECT_NEAR(frame_ratio(), fabric, 1e-9) << "sewing frame " << f;
  for (int f = 3; f < 8; ++f) frame_ratio();
  ASSERT_LT(sim.max_seam_gap(), 1e-4) << "the seams should be sewn by frame 8";
  for (int f = 8; f < 11; ++f) EXPECT_NEAR(frame_ratio(), rest, 1e-5) << "frame " << f;
  sim.set_rest_air_damping(-1);
  EXPECT_NEAR(frame_ratio(), fabric, 1e-5);
  EXPECT_THROW(sim.set_rest_air_damping(std::nan("")), InvalidInput);
}

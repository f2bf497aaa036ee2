// Analytic tests of the force-based integrators and the divergence guard.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "drape/cloth/cloth_simulation.h"
#include "drape/core/exceptions.h"
#include "test_shapes.h"

using namespace drape;
using namespace drape::test;

namespace {

Fabric undamped(const char* preset = "cotton") {
  Fabric f = fabric_preset(preset);
  f.air_damping = 0;
  f.spring_damping = 0;
  return f;
}

ClothSettings free_settings(Integrator integrator) {
  ClothSettings s;
  s.integrator = integrator;
  s.body_collision = false;
  s.self_collision = false;
  s.threads = 1;
  return s;
}

// One triangle: vertex 0 on a single spring (grid structural, k = Y) to pinned vertex 1;
// vertex 2 unconnected. Rest length L along x.
GarmentMesh one_spring(double L) {
  GarmentMesh g;
  g.mesh.positions = {{0, 0, 0}, {L, 0, 0}, {0, L, 0}};
  g.mesh.faces = {{0, 1, 2}};
  g.rest = {{0, 0}, {L, 0}, {0, L}};
  g.panel_of_vertex = {0, 0, 0};
  g.panel_names = {"p"};
  g.panel_regions = {body_region::all};
  g.grid_springs = {{0, 1, SpringKind::structural}};
  return g;
}

}  // namespace

TEST(Integrators, FreeFallFollowsHalfGTSquared) {
  for (Integrator in : {Integrator::explicit_euler, Integrator::paper_euler, Integrator::symplectic_euler,
                        Integrator::xpbd}) {
    GarmentMesh g;
    add_grid_panel(g, 3, 3, 0.05, {0, 1, 0}, {1, 0, 0}, {0, 0, -1});
    ClothSimulation sim(g, TriangleMesh{}, {}, undamped(), free_settings(in));
    const double dt = 1e-3, gr = 9.81;
    const int steps = 500;
    for (int k = 0; k < steps; ++k) sim.step(dt);
    const double t = steps * dt;
    const double y = sim.positions()[4].y - 1;
    // Discrete answers: forward Euler -g dt^2 n(n-1)/2, semi-implicit -g dt^2 n(n+1)/2;
    // both tend to -g t^2/2 with an O(dt) error.
    const double expected = in == Integrator::explicit_euler ? -gr * dt * dt * steps * (steps - 1) / 2
                                                             : -gr * dt * dt * steps * (steps + 1) / 2;
    EXPECT_NEAR(y, expected, 1e-9) << integrator_name(in);
    EXPECT_NEAR(y, -0.5 * gr * t * t, 0.5 * gr * dt * t + 1e-12) << integrator_name(in);
    EXPECT_NEAR(sim.velocities()[4].y, -gr * t, 1e-9) << integrator_name(in);
  }
}

TEST(Integrators, SymplecticSpringOscillatesAtSqrtKOverM) {
  const double L = 0.05;
  GarmentMesh g = one_spring(L);
  Fabric f = undamped();
  ClothSettings s = free_settings(Integrator::symplectic_euler);
  s.gravity = {0, 0, 0};
  s.pinned = {1};
  ClothSimulation sim(g, TriangleMesh{}, {}, f, s);
  const double k = f.stretch, m = sim.model().mass[0];
  ASSERT_DOUBLE_EQ(sim.model().spring_stiffness[0], k);
  const double omega = std::sqrt(k / m);
  const double dt = 0.01 / omega;
  std::vector<Vec3> x = sim.positions();
  x[0].x -= 0.001;  // stretch by 1 mm
  sim.set_positions(x);
  // Time the upward zero crossings of the displacement over 5 periods.
  std::vector<double> crossings;
  double prev = sim.positions()[0].x;
  for (int i = 1; i < 40000 && crossings.size() < 6; ++i) {
    sim.step(dt);
    const double cur = sim.positions()[0].x;
    if (prev < 0 && cur >= 0) crossings.push_back((i - 1 + (-prev) / (cur - prev)) * dt);
    prev = cur;
  }
  ASSERT_EQ(crossings.size(), 6u);
  const double period = (crossings.back() - crossings.front()) / 5;
  EXPECT_NEAR(period, 2 * kPi / omega, 1e-3 * 2 * kPi / omega);
  // Amplitude conserved (symplectic: no numerical damping or growth).
  double amax = 0;
  for (int i = 0; i < 2000; ++i) {
    sim.step(dt);
    amax = std::max(amax, std::abs(sim.positions()[0].x));
  }
  EXPECT_NEAR(amax, 0.001, 2e-5);
}

TEST(Integrators, EnergyNeverGrowsWithDamping) {
  GarmentMesh g;
  add_grid_panel(g, 8, 8, 0.02, {0, 0, 0}, {1, 0, 0}, {0, 1, 0});
  Fabric f = fabric_preset("cotton");
  f.spring_damping = 0.2;
  f.air_damping = 1;
  ClothSettings s = free_settings(Integrator::symplectic_euler);
  s.gravity = {0, 0, 0};
  ClothSimulation sim(g, TriangleMesh{}, {}, f, s);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-0.002, 0.002);
  std::vector<Vec3> x = sim.positions();
  for (Vec3& p : x) p += Vec3{u(rng), u(rng), u(rng)};
  sim.set_positions(x);
  // Stable step: well under 2/omega of the stiffest spring.
  double wmax = 0;
  for (std::size_t k = 0; k < sim.model().spring_a.size(); ++k)
    wmax = std::max(
        wmax, std::sqrt(sim.model().spring_stiffness[k] * 2 / sim.model().mass[sim.model().spring_a[k]]));
  const double dt = 0.05 / wmax;
  const double e0 = sim.kinetic_energy() + sim.potential_energy();
  double e_prev = e0;
  for (int i = 0; i < 20000; ++i) {
    sim.step(dt);
    if (i % 100 == 99) {
      const double e = sim.kinetic_energy() + sim.potential_energy();
      ASSERT_LE(e, e_prev + 1e-4 * e0) << "step " << i;
      e_prev = e;
    }
  }
  EXPECT_LT(e_prev, 0.05 * e0);
}

TEST(Integrators, PaperEulerAboveStabilityLimitIsCaught) {
  const double L = 0.05;
  GarmentMesh g = one_spring(L);
  Fabric f = undamped();
  ClothSettings s = free_settings(Integrator::paper_euler);
  s.gravity = {0, 0, 0};
  s.pinned = {1};
  s.substeps = 1;
  s.max_frames = 100;
  s.max_step_halvings = 1;
  s.min_frames = 1000;  // never stop for equilibrium: the undamped spring keeps moving
  // Choose k so that omega dt = 5 at dt = 1/60, and still 2.5 after one halving (limit: 2).
  const double m = build_cloth_model(g, f).mass[0];
  f.stretch = m * std::pow(5.0 * 60, 2);
  {
    ClothSimulation sim(g, TriangleMesh{}, {}, f, s);
    std::vector<Vec3> x = sim.positions();
    x[0].x -= 0.001;
    sim.set_positions(x);
    EXPECT_THROW(sim.run(), SolverError);
  }
  // The same spring below the limit (omega dt = 1) runs to the frame limit with a finite result.
  f.stretch = m * std::pow(1.0 * 60, 2);
  ClothSimulation sim(g, TriangleMesh{}, {}, f, s);
  std::vector<Vec3> x = sim.positions();
  x[0].x -= 0.001;
  sim.set_positions(x);
  const DrapeResult r = sim.run();
  EXPECT_EQ(r.report.stop_reason, "frame_limit");
  EXPECT_EQ(r.report.step_halvings, 0);
  for (const Vec3& p : r.mesh.positions) EXPECT_TRUE(is_finite(p));
}

TEST(Integrators, DihedralBendingFlattensAHinge) {
  // Two triangles folded 60 degrees about the shared edge flatten under bending alone.
  GarmentMesh g;
  g.mesh.positions = {{0, 0, 0}, {0.02, 0, 0}, {0.01, 0.01, 0}, {0.01, -0.005, 0.00866}};
  g.mesh.faces = {{0, 1, 2}, {1, 0, 3}};
  g.rest = {{0, 0}, {0.02, 0}, {0.01, 0.01}, {0.01, -0.01}};
  g.panel_of_vertex = {0, 0, 0, 0};
  g.panel_names = {"p"};
  g.panel_regions = {body_region::all};
  Fabric f = fabric_preset("denim");
  f.stretch = 50;  // soft in-plane, so bending dominates
  f.air_damping = 5;
  ClothSettings s = free_settings(Integrator::symplectic_euler);
  s.gravity = {0, 0, 0};
  s.model.bending = BendingModel::dihedral;
  s.pinned = {0, 1, 2};
  ClothSimulation sim(g, TriangleMesh{}, {}, f, s);
  ASSERT_EQ(sim.model().hinges.size(), 1u);
  auto angle = [&] {
    const auto& x = sim.positions();
    const Vec3 n1 = normalized(cross(x[1] - x[0], x[2] - x[0])),
               n2 = normalized(cross(x[0] - x[1], x[3] - x[1]));
    return std::acos(std::clamp(dot(n1, n2), -1.0, 1.0));
  };
  const double a0 = angle();
  EXPECT_GT(a0, 0.9);
  for (int i = 0; i < 20000; ++i) sim.step(1e-4);
  EXPECT_LT(angle(), 0.05 * a0);
}

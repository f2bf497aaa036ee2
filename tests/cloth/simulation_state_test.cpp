// The simulation state (simulation_state.h): every field survives the
// checkpoint bytes, a loaded state continues bit for bit, and a diverged
// frame is rolled back to exactly the state it started from.

#include "drape/cloth/simulation_state.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>

#include "drape/cloth/cloth_simulation.h"
#include "drape/core/exceptions.h"
#include "test_shapes.h"

using namespace drape;
using namespace drape::test;

namespace {

// A state with every field away from its default and consistent with kShape.
SimulationState filled_state() {
  SimulationState s;
  s.x = {{1, 2, 3}, {4, 5, 6}};
  s.v = {{0.1, 0.2, 0.3}, {0.4, 0.5, 0.6}};
  s.seam_joined = {1, 0, 1};
  s.seam_cap_scale = {1.5, 2, 3};
  s.seam_gap_prev = {std::numeric_limits<double>::infinity(), 0.002, 0.003};
  s.corner_group = {-1, 0};
  s.body = {{7, 8, 9}, {1, 1, 1}, {2, 2, 2}};
  s.steps = 1234567890123;
  s.gap_progress_frame = 41;
  s.fall_off_anchor = 2;
  s.dt = 1.0 / 600;
  s.gravity_scale = 0;
  s.ke_prev = 0.25;
  s.open_gap_ref = 0.125;
  s.fall_off_anchor_y = 0.75;
  s.window_lo = {{0.9, 1.9, 2.9}, {3.9, 4.9, 5.9}};
  s.window_hi = {{1.1, 2.1, 3.1}, {4.1, 5.1, 6.1}};
  s.window_frames = 4;
  s.frame = 50;
  s.gravity_on_frame = 30;
  s.substeps = 20;
  s.ke_growth = 2;
  s.run_first_frame = 10;
  s.motion_done = 3;
  s.step_halvings = 1;
  s.last_join_frame = 42;
  s.resews = 2;
  s.resew_end_frame = 48;
  s.resew_open_pairs = 3;
  s.body_crossing_frames = 7;
  return s;
}

SimulationStateShape shape() {
  SimulationStateShape sh;
  sh.vertices = 2;
  sh.seam_pairs = 3;
  sh.body_vertices = 3;
  sh.motion_frames = 5;
  return sh;
}

template <std::size_t... I>
void expect_every_field_differs(const SimulationState& a, const SimulationState& b,
                                std::index_sequence<I...>) {
  const auto fa = a.fields();
  const auto fb = b.fields();
  const bool differs[] = {(std::get<I>(fa) != std::get<I>(fb))...};
  for (std::size_t k = 0; k < sizeof...(I); ++k)
    EXPECT_TRUE(differs[k]) << "field " << k << " of fields() is left at its default";
}

}  // namespace

TEST(SimulationState, EveryFieldSurvivesTheCheckpointBytes) {
  const SimulationState s = filled_state();
  // The test covers every field only when each one differs from its default:
  // a field added to fields() must be given a value above.
  constexpr std::size_t kFields = std::tuple_size_v<decltype(s.fields())>;
  expect_every_field_differs(s, SimulationState{}, std::make_index_sequence<kFields>{});
  std::string bytes;
  write_simulation_state(s, bytes);
  std::size_t at = 0;
  const SimulationState back = read_simulation_state(bytes, at, shape(), "state");
  EXPECT_EQ(at, bytes.size());
  EXPECT_EQ(back, s);
  std::string again;
  write_simulation_state(back, again);
  EXPECT_EQ(again, bytes);
}

TEST(SimulationState, BadBytesAreRefusedNamingTheSource) {
  std::string bytes;
  write_simulation_state(filled_state(), bytes);
  // Every truncation is refused (never read past the end).
  for (std::size_t len = 0; len < bytes.size(); ++len) {
    std::size_t at = 0;
    EXPECT_THROW(read_simulation_state(bytes.substr(0, len), at, shape(), "state"), InvalidInput) << len;
  }
  auto refused = [&](SimulationState s, SimulationStateShape sh = shape()) {
    std::string b;
    write_simulation_state(s, b);
    std::size_t at = 0;
    try {
      read_simulation_state(b, at, sh, "ckpt.bin");
    } catch (const InvalidInput& e) {
      return std::string(e.what()).find("ckpt.bin") != std::string::npos;
    }
    return false;
  };
  SimulationStateShape other = shape();
  other.vertices = 3;
  EXPECT_TRUE(refused(filled_state(), other));
  other = shape();
  other.body_vertices = 0;
  EXPECT_TRUE(refused(filled_state(), other));
  SimulationState s = filled_state();
  s.run_first_frame = s.frame + 1;
  EXPECT_TRUE(refused(s));
  s = filled_state();
  s.last_join_frame = s.frame + 1;
  EXPECT_TRUE(refused(s));
  s = filled_state();
  s.motion_done = 6;  // the simulation's motion has 5 frames
  EXPECT_TRUE(refused(s));
  s = filled_state();
  s.corner_group[1] = 2;  // no such vertex
  EXPECT_TRUE(refused(s));
  s = filled_state();
  s.fall_off_anchor = 3;  // no such body vertex
  EXPECT_TRUE(refused(s));
  s.fall_off_anchor = -1;  // none: valid
  EXPECT_FALSE(refused(s));
  s = filled_state();
  s.window_hi.pop_back();  // not one per vertex
  EXPECT_TRUE(refused(s));
  s = filled_state();
  s.window_lo.clear();  // frames counted in a window that is not there
  s.window_hi.clear();
  EXPECT_TRUE(refused(s));
  s.window_frames = 0;  // before the first frame: valid
  EXPECT_FALSE(refused(s));
  s = filled_state();
  s.v[1].y = std::nan("");
  EXPECT_TRUE(refused(s));
  // No corner group left is a valid state.
  s = filled_state();
  s.corner_group.clear();
  EXPECT_FALSE(refused(s));
}

namespace {

// Three panels around a seam corner, 2 mm gaps, above a sphere: sewing,
// stalls, a corner group, gravity and body contact all change the state.
GarmentMesh corner_garment() {
  GarmentMesh g;
  const int n = 5;
  const double h = 0.02;
  const int a = add_grid_panel(g, n, n, h, {-0.04, 0.16, 0.04}, {1, 0, 0}, {0, 0, -1});
  const int b = add_grid_panel(g, n, n, h, {0.042, 0.16, 0.04}, {1, 0, 0}, {0, 0, -1});
  const int c = add_grid_panel(g, n, n, h, {-0.04, 0.16, -0.042}, {1, 0, 0}, {0, 0, -1});
  for (int j = 0; j < n; ++j) g.seam_pairs.push_back({a + j * n + (n - 1), b + j * n, 0});
  for (int i = 0; i < n; ++i) g.seam_pairs.push_back({a + (n - 1) * n + i, c + i, 1});
  g.seam_length_ratio = {1.0, 1.0};
  return g;
}

ClothSettings small_settings() {
  ClothSettings s;
  s.threads = 1;
  s.zero_gravity_frames = 4;
  s.corner_pass_through_frames = 12;
  return s;
}

BodyMotion lift(const TriangleMesh& sphere) {
  BodyMotion m;
  m.frames = 4;
  m.body_at = [sphere](int f) {
    std::vector<Vec3> p = sphere.positions;
    for (Vec3& v : p) v.y += 0.005 * f;
    return p;
  };
  m.carry_cloth = [](int, std::vector<Vec3>& x) {
    for (Vec3& v : x) v.y += 0.005;
  };
  return m;
}

}  // namespace

TEST(SimulationState, LoadedStateContinuesBitForBit) {
  const TriangleMesh sphere = uv_sphere(0.15, {0, 0, 0}, 12, 24);
  const GarmentMesh g = corner_garment();
  ClothSimulation a(g, sphere, {}, fabric_preset("cotton"), small_settings());
  for (int f = 0; f < 8; ++f) ASSERT_TRUE(a.advance_frame());
  const std::string saved = a.save_state();
  ClothSimulation b(g, sphere, {}, fabric_preset("cotton"), small_settings());
  b.load_state(saved, "state");
  EXPECT_EQ(b.save_state(), saved);
  // Both go on, through a body motion: every field (positions, seams, corner
  // groups, counters, the body) stays identical.
  a.set_body_motion(lift(sphere));
  b.set_body_motion(lift(sphere));
  for (int f = 0; f < 8; ++f) {
    ASSERT_TRUE(a.advance_frame());
    ASSERT_TRUE(b.advance_frame());
  }
  EXPECT_NE(a.save_state(), saved);
  EXPECT_EQ(a.save_state(), b.save_state());
  EXPECT_EQ(a.positions(), b.positions());
  EXPECT_EQ(a.body().positions, b.body().positions);
}

TEST(SimulationState, DivergedFrameIsRolledBackToTheWholeState) {
  const TriangleMesh sphere = uv_sphere(0.15, {0, 0, 0}, 12, 24);
  const GarmentMesh g = corner_garment();
  ClothSimulation a(g, sphere, {}, fabric_preset("cotton"), small_settings());
  for (int f = 0; f < 8; ++f) ASSERT_TRUE(a.advance_frame());
  const std::string saved = a.save_state();
  // The same cloth with a speed limit every frame exceeds: the frame runs its
  // steps (moving cloth and body), diverges, and is rolled back.
  ClothSettings strict = small_settings();
  strict.divergence_speed = 1e-9;
  ClothSimulation r(g, sphere, {}, fabric_preset("cotton"), strict);
  r.load_state(saved, "state");
  r.set_body_motion(lift(sphere));
  a.set_body_motion(lift(sphere));
  const std::string before = r.save_state();
  const std::vector<Vec3> body_before = r.body().positions;
  EXPECT_FALSE(r.advance_frame());
  EXPECT_EQ(r.save_state(), before);
  EXPECT_EQ(r.body().positions, body_before);  // the collider's body too, not only the state's copy
  // The same frame without the limit changes the state (so the rollback undid something).
  ASSERT_TRUE(a.advance_frame());
  EXPECT_NE(a.save_state(), before);
}

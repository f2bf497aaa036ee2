// The settings' JSON (report.json and the checkpoint fingerprint) holds every
// field that can change a result: changing any one field changes the text.

#include "drape/cloth/cloth_settings_json.h"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

namespace drape {
namespace {

// When this fails, a field was added to ClothSettings or ClothModelOptions:
// add it to cloth_settings_json() and a line to the list below, then update
// the size here.
static_assert(sizeof(ClothModelOptions) == 5, "ClothModelOptions changed: see cloth_settings_json_test.cpp");
static_assert(sizeof(ClothSettings) == 320, "ClothSettings changed: see cloth_settings_json_test.cpp");

TEST(ClothSettingsJson, EveryFieldThatChangesAResultChangesTheText) {
  const std::vector<std::function<void(ClothSettings&)>> changes = {
      [](ClothSettings& s) { s.integrator = Integrator::symplectic_euler; },
      [](ClothSettings& s) { s.model.mass = MassModel::uniform_per_panel; },
      [](ClothSettings& s) { s.model.bending = BendingModel::dihedral; },
      [](ClothSettings& s) { s.model.stretch = StretchMapping::uniaxial; },
      [](ClothSettings& s) { s.model.use_grid_springs = !s.model.use_grid_springs; },
      [](ClothSettings& s) { s.model.stretch_model = StretchModel::triangle; },
      [](ClothSettings& s) { s.frame_rate = 30; },
      [](ClothSettings& s) { s.substeps += 1; },
      [](ClothSettings& s) { s.solver_iterations += 1; },
      [](ClothSettings& s) { s.sewing_solver_iterations += 1; },
      [](ClothSettings& s) { s.closed_solver_iterations += 1; },
      [](ClothSettings& s) { s.compression_stiffness = 0.5; },
      [](ClothSettings& s) { s.strain_limit = 0.2; },
      [](ClothSettings& s) { s.strain_limit_iterations += 1; },
      [](ClothSettings& s) { s.strain_limit_body_rounds += 1; },
      [](ClothSettings& s) { s.max_frames += 1; },
      [](ClothSettings& s) { s.min_frames += 1; },
      [](ClothSettings& s) { s.stalled_seam_frames += 1; },
      [](ClothSettings& s) { s.stall_resews += 1; },
      [](ClothSettings& s) { s.resew_frames += 1; },
      [](ClothSettings& s) { s.air_damping = 3; },
      [](ClothSettings& s) { s.rest_air_damping = 3; },
      [](ClothSettings& s) { s.thickness *= 2; },
      [](ClothSettings& s) { s.body_collision = !s.body_collision; },
      [](ClothSettings& s) { s.self_collision = !s.self_collision; },
      [](ClothSettings& s) { s.self_cone_angle_degrees += 1; },
      [](ClothSettings& s) { s.gravity.x += 0.5; },
      [](ClothSettings& s) { s.zero_gravity_frames += 1; },
      [](ClothSettings& s) { s.seam_join_distance *= 2; },
      [](ClothSettings& s) { s.seam_cap_growth += 0.1; },
      [](ClothSettings& s) { s.seam_cap_max_scale += 1; },
      [](ClothSettings& s) { s.stalled_seam_join_distance *= 2; },
      [](ClothSettings& s) { s.corner_pass_through_rings += 1; },
      [](ClothSettings& s) { s.corner_pass_through_frames += 1; },
      [](ClothSettings& s) { s.untangle_iterations += 1; },
      [](ClothSettings& s) { s.equilibrium_distance *= 2; },
      [](ClothSettings& s) { s.equilibrium_fraction -= 0.01; },
      [](ClothSettings& s) { s.equilibrium_jitter = 0; },
      [](ClothSettings& s) { s.max_step_fraction -= 0.05; },
      [](ClothSettings& s) { s.continuous_collision = true; },
      [](ClothSettings& s) { s.divergence_speed += 1; },
      [](ClothSettings& s) { s.divergence_growth_frames += 1; },
      [](ClothSettings& s) { s.max_step_halvings += 1; },
      [](ClothSettings& s) { s.pinned.push_back(7); },
      [](ClothSettings& s) {
        s.vertex_loads.assign(3, Vec3{0.1, 0, 0});
      },
  };
  const std::string base = cloth_settings_json(ClothSettings{});
  for (std::size_t i = 0; i < changes.size(); ++i) {
    ClothSettings s;
    changes[i](s);
    EXPECT_NE(cloth_settings_json(s), base) << "change " << i << " is not in the settings' JSON";
  }
  // continuous_max_step_fraction acts (and is written) only with continuous_collision on.
  ClothSettings ccd, ccd_cap;
  ccd.continuous_collision = ccd_cap.continuous_collision = true;
  ccd_cap.continuous_max_step_fraction = 5;
  EXPECT_NE(cloth_settings_json(ccd), cloth_settings_json(ccd_cap));
  // The thread count is left out: results do not depend on it.
  ClothSettings threaded;
  threaded.threads = 2;
  EXPECT_EQ(cloth_settings_json(threaded), base);
}

}  // namespace
}  // namespace drape

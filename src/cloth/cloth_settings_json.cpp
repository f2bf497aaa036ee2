#include "drape/cloth/cloth_settings_json.h"

#include <nlohmann/json.hpp>

namespace drape {

std::string cloth_settings_json(const ClothSettings& s) {
  nlohmann::ordered_json j = {{"integrator", integrator_name(s.integrator)},
                              {"model",
                               {{"mass", static_cast<int>(s.model.mass)},
                                {"bending", static_cast<int>(s.model.bending)},
                                {"stretch", static_cast<int>(s.model.stretch)},
                                {"use_grid_springs", s.model.use_grid_springs}}},
                              {"frame_rate", s.frame_rate},
                              {"substeps", s.substeps},
                              {"solver_iterations", s.solver_iterations},
                              {"sewing_solver_iterations", s.sewing_solver_iterations},
                              {"closed_solver_iterations", s.closed_solver_iterations},
                              {"compression_stiffness", s.compression_stiffness},
                              {"strain_limit", s.strain_limit},
                              {"strain_limit_iterations", s.strain_limit_iterations},
                              {"strain_limit_body_rounds", s.strain_limit_body_rounds},
                              {"max_frames", s.max_frames},
                              {"min_frames", s.min_frames},
                              {"stalled_seam_frames", s.stalled_seam_frames},
                              {"stall_resews", s.stall_resews},
                              {"resew_frames", s.resew_frames},
                              {"thickness_m", s.thickness},
                              {"body_collision", s.body_collision},
                              {"self_collision", s.self_collision},
                              {"self_cone_angle_degrees", s.self_cone_angle_degrees},
                              {"gravity_m_s2", {s.gravity.x, s.gravity.y, s.gravity.z}},
                              {"zero_gravity_frames", s.zero_gravity_frames},
                              {"seam_join_distance_m", s.seam_join_distance},
                              {"seam_cap_growth", s.seam_cap_growth},
                              {"seam_cap_max_scale", s.seam_cap_max_scale},
                              {"stalled_seam_join_distance_m", s.stalled_seam_join_distance},
                              {"corner_pass_through_rings", s.corner_pass_through_rings},
                              {"corner_pass_through_frames", s.corner_pass_through_frames},
                              {"untangle_iterations", s.untangle_iterations},
                              {"equilibrium_distance_m", s.equilibrium_distance},
                              {"equilibrium_fraction", s.equilibrium_fraction},
                              {"equilibrium_jitter_m", s.equilibrium_jitter},
                              {"max_step_fraction", s.max_step_fraction},
                              {"divergence_speed_m_s", s.divergence_speed},
                              {"divergence_growth_frames", s.divergence_growth_frames},
                              {"max_step_halvings", s.max_step_halvings},
                              {"pinned", s.pinned}};
  // Only when set (the fabric lab's dead weights): a garment's text is unchanged.
  if (!s.vertex_loads.empty()) {
    nlohmann::ordered_json loads = nlohmann::ordered_json::array();
    for (const Vec3& f : s.vertex_loads) loads.push_back({f.x, f.y, f.z});
    j["vertex_loads_N"] = std::move(loads);
  }
  // Only when set: the settings (and checkpoint fingerprints) of runs with
  // the fabric's damping stay as they were.
  if (s.air_damping >= 0) j["air_damping_1_s"] = s.air_damping;
  if (s.rest_air_damping >= 0) j["rest_air_damping_1_s"] = s.rest_air_damping;
  // Only when on: the settings (and fingerprints) of every other run stay as they were.
  if (s.continuous_collision) {
    j["continuous_collision"] = true;
    j["continuous_max_step_fraction"] = s.continuous_max_step_fraction;
  }
  // Only when not the default springs: the settings of every other run stay as they were.
  if (s.model.stretch_model != StretchModel::springs)
    j["model"]["stretch_model"] = stretch_model_name(s.model.stretch_model);
  return j.dump();
}

}  // namespace drape

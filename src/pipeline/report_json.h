#pragma once
// JSON forms of the cloth module's plain structs, for report.json (private to
// the pipeline: nlohmann stays out of public headers).

#include <nlohmann/json.hpp>

#include "drape/cloth/cloth_settings_json.h"
#include "drape/cloth/cloth_simulation.h"
#include "drape/cloth/drape_report.h"
#include "drape/cloth/fabric.h"

namespace drape {

inline nlohmann::ordered_json fabric_to_json(const Fabric& f) {
  nlohmann::ordered_json j = {{"name", f.name},
                              {"density_kg_m2", f.density},
                              {"stretch_N_m", f.stretch},
                              {"shear_N_m", f.shear},
                              {"bending_N_m", f.bending},
                              {"spring_damping", f.spring_damping},
                              {"air_damping_1_s", f.air_damping},
                              {"friction", f.friction},
                              {"sewing_stiffness_N_m", f.sewing_stiffness},
                              {"sewing_force_max_N", f.sewing_force_max}};
  // Per direction only for an anisotropic fabric: an isotropic one reports as before.
  if (!fabric_stretch_isotropic(f)) {
    j["stretch_warp_N_m"] = f.stretch;
    j["stretch_weft_N_m"] = fabric_stretch_weft(f);
    j["stretch_bias_N_m"] = fabric_stretch_bias(f);
  }
  // The curves only for a non-linear fabric: a linear one reports as before.
  auto curve = [](const std::vector<StretchPoint>& c) {
    nlohmann::ordered_json a = nlohmann::ordered_json::array();
    for (const StretchPoint& p : c) a.push_back({p.strain, p.force});
    return a;
  };
  if (!f.stretch_curve_warp.empty()) j["stretch_curve_warp_N_m"] = curve(f.stretch_curve_warp);
  if (!f.stretch_curve_weft.empty()) j["stretch_curve_weft_N_m"] = curve(f.stretch_curve_weft);
  if (!f.stretch_curve_bias.empty()) j["stretch_curve_bias_N_m"] = curve(f.stretch_curve_bias);
  return j;
}

inline nlohmann::ordered_json cloth_settings_to_json(const ClothSettings& s) {
  return nlohmann::ordered_json::parse(cloth_settings_json(s));
}

inline nlohmann::ordered_json drape_report_to_json(const DrapeReport& r) {
  nlohmann::ordered_json j;
  j["stop_reason"] = r.stop_reason;
  j["equilibrium"] = r.equilibrium;
  j["integrator"] = r.integrator;
  j["frames"] = r.frames;
  j["steps"] = r.steps;
  j["substeps"] = r.substeps;
  j["step_halvings"] = r.step_halvings;
  j["resews"] = r.resews;
  if (r.resews > 0) j["resew_kept"] = r.resew_kept;
  j["dt_s"] = r.dt;
  j["vertices"] = r.vertices;
  j["triangles"] = r.triangles;
  j["intersections"] = {{"vertices_inside_body", r.vertices_inside_body},
                        {"body_crossing_pairs", r.body_crossing_pairs},
                        {"self_crossing_pairs", r.self_crossing_pairs}};
  j["seams"] = {{"pairs", r.seam_pairs}, {"joined", r.seam_pairs_joined}, {"max_gap_m", r.max_seam_gap}};
  nlohmann::ordered_json open = nlohmann::ordered_json::array();
  for (const DrapeReport::OpenSeam& o : r.open_seams)
    open.push_back({{"seam", o.seam},
                    {"open_pairs", o.open_pairs},
                    {"max_gap_m", o.max_gap},
                    {"widest_at_m", {o.widest_at.x, o.widest_at.y, o.widest_at.z}}});
  j["seams"]["open"] = std::move(open);
  j["strain"] = {{"max", r.strain_max},
                 {"mean", r.strain_mean},
                 {"p95", r.strain_p95},
                 {"p99", r.strain_p99},
                 {"max_at_m", {r.strain_max_at.x, r.strain_max_at.y, r.strain_max_at.z}},
                 {"compression_max", r.compression_max},
                 {"compression_p99", r.compression_p99}};
  j["kinetic_energy_J"] = r.kinetic_energy;
  j["moving_fraction"] = r.moving_fraction;
  j["stage_times_s"] = {{"forces", r.times.forces},
                        {"solve", r.times.solve},
                        {"refit", r.times.refit},
                        {"body_collision", r.times.body_collision},
                        {"self_collision", r.times.self_collision},
                        {"measure", r.times.measure},
                        {"total", r.times.total}};
  return j;
}

}  // namespace drape

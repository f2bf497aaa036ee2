#include "dress_report.h"

#include "drape/core/executor.h"
#include "fit_json.h"
#include "report_json.h"

namespace drape {

nlohmann::ordered_json dress_report_json(const DressJob& job, const DressInputs& in,
                                         const std::optional<DressRig>& rig, const PreparedGarment& garment,
                                         const DressSimulation& simulation, const DressResult& result) {
  const Body& body = in.body;
  const Pattern& pattern = garment.pattern;
  const ClothSettings& settings = simulation.settings();
  const DrapeReport& r = result.drape.report;
  nlohmann::ordered_json j;
  j["drape_version"] = DRAPE_VERSION;
  j["units"] = {{"inside", "m"}, {"outputs", unit_name(result.body_unit)}};
  j["inputs"] = {{"body",
                  {{"path", job.body_path.string()},
                   {"group", body.group},
                   {"unit", unit_name(body.file_unit)},
                   {"unit_detected", body.unit_detected},
                   {"axes", body.axes.describe()},
                   {"axes_detected", body.axes_detected},
                   {"sha256", in.hashes.of(job.body_path)},
                   {"vertices", result.body.vertex_count()},
                   {"triangles", result.body.face_count()}}},
                 {"pattern",
                  {{"path", job.pattern_path.string()},
                   {"sha256", in.hashes.of(job.pattern_path)},
                   {"panels", pattern.panels.size()},
                   {"stitches", pattern.stitches.size()}}},
                 {"fabric", fabric_to_json(in.fabric)}};
  j["settings"] = {
      {"particle_distance_m", job.particle_distance},
      {"mesh_method", job.mesh_method},
      {"cloth", cloth_settings_to_json(settings)},
      {"pose_continuous_collision", job.pose_continuous_collision},
      {"threads", settings.executor ? settings.executor->thread_count() : Executor::global().thread_count()},
      {"strict", job.strict}};
  const BodyFrame& frame = garment.frame;
  j["body_frame"] = {{"height_m", frame.height},
                     {"floor_y_m", frame.floor_y},
                     {"waist_y_m", frame.waist_y},
                     {"crotch_y_m", frame.crotch_y},
                     {"shoulder_y_m", frame.shoulder_y}};
  nlohmann::ordered_json seams = nlohmann::ordered_json::array();
  for (double ratio : garment.mesh.garment.seam_length_ratio) seams.push_back(ratio);
  j["seam_length_ratios"] = seams;
  if (rig) {
    nlohmann::ordered_json rj = {{"skeleton", rig->skeleton_path.string()},
                                 {"skeleton_sha256", in.hashes.of(rig->skeleton_path)},
                                 {"bones", rig->skeleton.size()},
                                 {"method", rig->method}};
    if (rig->motion) {
      rj["motion"] = {{"path", job.motion_path.string()},
                      {"sha256", in.hashes.of(job.motion_path)},
                      {"frame", job.motion_frame},
                      {"frames", rig->motion->frame_count()},
                      {"mapped_bones", rig->joint_map.size()},
                      {"skinning", job.skinning == SkinningMethod::linear_blend ? "lbs" : "dqs"},
                      {"transition_frames", job.pose_transition_frames}};
    }
    if (rig->dressing_pose)
      rj["dressing"] = {{"arm_angle_below_horizontal_deg", *job.dressing_arm_angle},
                        {"transition_frames", job.pose_transition_frames}};
    if (rig->moves_into_pose())
      rj["rest_drape"] = nlohmann::ordered_json::parse(simulation.rest_drape_json());
    j["rig"] = rj;
  }
  if (garment.fit) {
    j["fit"] = fit_to_json(*garment.fit);
    if (garment.grading) j["fit"]["graded"] = grading_to_json(*garment.grading, *garment.fit_before_grading);
  }
  j["result"] = drape_report_to_json(r);
  if (const auto& c2f = simulation.coarse_to_fine()) {
    // The coarse drape (sewing, draping, posing) and the fine settle that
    // "result" reports; without "carried" the fine mesh was draped from the start.
    j["coarse_to_fine"] = {{"coarse_distance_m", c2f->distance},
                           {"coarse_vertices", c2f->coarse_vertices},
                           {"carried", c2f->carried},
                           {"settle_air_damping_1_s", job.settle_air_damping},
                           {"coarse", nlohmann::ordered_json::parse(c2f->coarse_json)},
                           {"fine_settle", {{"frames", r.frames}, {"stop_reason", r.stop_reason}}}};
  }
  // Name the panels and edges of each open seam, so the user knows where to look.
  for (auto& o : j["result"]["seams"]["open"]) {
    const int seam = o["seam"].get<int>();
    if (seam < 0 || static_cast<std::size_t>(seam) >= pattern.stitches.size()) continue;
    const Stitch& st = pattern.stitches[static_cast<std::size_t>(seam)];
    o["between"] = pattern.panels[static_cast<std::size_t>(st.a.panel)].name + " edge " +
                   std::to_string(st.a.edge) + " - " +
                   pattern.panels[static_cast<std::size_t>(st.b.panel)].name + " edge " +
                   std::to_string(st.b.edge);
  }
  j["ok"] = r.vertices_inside_body == 0 && r.body_crossing_pairs == 0 && r.self_crossing_pairs == 0 &&
            r.seam_pairs_joined == r.seam_pairs;
  j["warnings"] = result.warnings;
  if (const auto& resumed = simulation.resumed())
    j["resumed"] = {
        {"checkpoint", resumed->checkpoint.string()}, {"phase", resumed->phase}, {"steps", resumed->steps}};
  return j;
}

}  // namespace drape

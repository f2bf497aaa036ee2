#include "drape/pipeline/dress_job.h"

#include <chrono>
#include <nlohmann/json.hpp>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/pipeline/dress_stages.h"
#include "drape/rig/body_rig.h"
#include "dress_report.h"

namespace drape {

namespace fs = std::filesystem;

void DressJob::Validate() const {
  if (body_path.empty()) throw InvalidInput("--body: no body mesh given");
  if (pattern_path.empty()) throw InvalidInput("--pattern: no pattern given");
  if (!fs::exists(body_path)) throw InvalidInput(body_path.string(), 0, "file not found");
  if (!fs::exists(pattern_path)) throw InvalidInput(pattern_path.string(), 0, "file not found");
  if (!(particle_distance >= 0.002 && particle_distance <= 0.2))
    throw InvalidInput("--particle-distance: must be between 2 and 200 mm");
  if (!(coarse_distance == 0 || (coarse_distance >= 0.002 && coarse_distance <= 0.2)))
    throw InvalidInput("--coarse-distance: must be 0 (off) or between 2 and 200 mm");
  if (!(settle_air_damping >= 0 && settle_air_damping <= 1000))
    throw InvalidInput("--settle-damping: must be between 0 and 1000 per second");
  if (!(drape_air_damping >= 0 && drape_air_damping <= 1000))
    throw InvalidInput("--drape-damping: must be between 0 and 1000 per second");
  if (mesh_method != "quality" && mesh_method != "grid")
    throw InvalidInput("--mesh-method: must be 'quality' or 'grid', not '" + mesh_method + "'");
  if (!(cloth.frame_rate > 0) || cloth.substeps < 1 || cloth.substeps > 1000 || cloth.max_frames < 1)
    throw InvalidInput("cloth settings: frame rate, substeps (1..1000) and frame limit must be positive");
  if (dressing_arm_angle && !(*dressing_arm_angle >= -90 && *dressing_arm_angle <= 90))
    throw InvalidInput("--arms-raised: must be between -90 and 90 degrees below the horizontal");
  if (grain_angle_deg && !(*grain_angle_deg >= -360 && *grain_angle_deg <= 360))
    throw InvalidInput("--grain-angle: must be between -360 and 360 degrees");
  for (const auto& [panel, deg] : panel_grain_deg)
    if (!(deg >= -360 && deg <= 360))
      throw InvalidInput("--grain-angle " + panel + ": must be between -360 and 360 degrees");
  if (!(grade_ease >= 0 && grade_ease <= 1))
    throw InvalidInput("--ease: must be between 0 and 1 (a fraction)");
  if (!out_dir.empty() && fs::exists(out_dir) && !fs::is_directory(out_dir))
    throw InvalidInput(out_dir.string(), 0, "output path exists and is not a folder");
  if (!skeleton_path.empty() && !fs::exists(skeleton_path))
    throw InvalidInput(skeleton_path.string(), 0, "file not found");
  if (!motion_path.empty()) {
    if (!fs::exists(motion_path)) throw InvalidInput(motion_path.string(), 0, "file not found");
    if (skeleton_path.empty() && skeleton_candidates.empty())
      throw InvalidInput("--pose: needs a skeleton (--skeleton)");
    if (motion_frame < 0) throw InvalidInput("--frame: must be 0 or more");
    if (pose_transition_frames < 1 || pose_transition_frames > 100000)
      throw InvalidInput("pose transition: frames must be between 1 and 100000");
  }
}

DressResult DressJob::Run() const {
  Validate();
  using clock = std::chrono::steady_clock;
  const auto t_start = clock::now();
  DressTimes times;
  auto timed = [&times](const std::string& stage, auto&& work) {
    const auto t0 = clock::now();
    work();
    times.emplace_back(stage, std::chrono::duration<double>(clock::now() - t0).count());
  };
  const StageStarted started = [this](const std::string& stage) {
    if (progress) progress(DressProgress{.stage = stage});
  };
  DressResult result;

  started("load");
  DressInputs in;
  timed("load", [&] { in = load_dress_inputs(*this); });
  result.body = in.body.mesh;
  result.body_unit = in.body.file_unit;
  result.body_axes = in.body.axes;
  add_warnings(result.warnings, in.warnings);

  std::optional<DressRig> rig;
  const bool rig_asked = !skeleton_path.empty() || !motion_path.empty();
  if (rig_asked || dresses_with_arms_raised(*this)) {
    started("rig");
    try {
      timed("rig", [&] { rig = rig_dress_body(*this, in); });
    } catch (const InvalidInput& e) {
      // Rigged only to raise the arms: a body the rig cannot fit is sewn as it stands.
      if (rig_asked) throw;
      result.warnings.push_back(std::string("garment sewn with the arms as they stand: the body could not be "
                                            "rigged to raise them (") +
                                e.what() + ")");
    }
    if (rig && !rig_asked && !rig->dressing_pose) rig.reset();  // the arms are raised already
  }
  if (rig) {
    result.rigged = rig_asked;
    result.skeleton = rig->skeleton;
    result.body_weights = rig->body_weights;
    result.pose = rig->pose;
  }
  // The body the garment is sewn on: the rest body, or the body with its arms raised.
  std::shared_ptr<const TriangleMeshBvh> dressing_body = in.body_tree;
  if (rig && rig->dressing_pose)
    timed("dressing_body", [&] {
      dressing_body =
          make_shared_tree(skin_mesh(in.body_tree->mesh(), rig->body_weights, *rig->dressing_pose, skinning));
    });

  const PreparedGarment garment =
      prepare_garment(*this, in.pattern, *dressing_body, body_path.string(), started,
                      dressing_body == in.body_tree ? nullptr : &in.body_tree->mesh());
  add_warnings(result.warnings, garment.warnings);
  times.insert(times.end(), garment.times.begin(), garment.times.end());
  result.fit = garment.fit;
  result.fit_before_grading = garment.fit_before_grading;

  DressSimulation simulation(*this, in, garment, rig ? &*rig : nullptr, dressing_body);
  if (!write_start_dir.empty())
    write_dress_start(write_start_dir, in.body, *simulation.simulation(), dressing_body->mesh());
  simulation.drape_at_rest();
  if (rig && rig->moves_into_pose()) simulation.pose(*rig);
  simulation.settle_fine();  // coarse to fine (nothing otherwise)
  if (rig && rig->moves_into_pose()) {
    result.rest_drape = simulation.rest_drape();
    result.body = simulation.simulation()->body();
  }
  times.insert(times.end(), simulation.times.begin(), simulation.times.end());
  result.drape = simulation.drape();
  if (keep_simulation) {
    result.simulation = simulation.simulation();
    result.garment = garment.mesh.garment;
  }
  if (result.rigged)
    result.garment_weights = rig->motion ? weights_from_nearest_body_point(result.body, result.body_weights,
                                                                           result.drape.mesh.positions)
                                         : weights_from_nearest_body_point(*in.body_tree, result.body_weights,
                                                                           result.drape.mesh.positions);
  const DrapeReport& r = result.drape.report;
  if (strict && !r.equilibrium)
    throw SolverError("no static equilibrium after " + std::to_string(r.frames) + " frames (--strict); " +
                      std::to_string(r.moving_fraction * 100) + " % of vertices still moving");

  nlohmann::ordered_json report = dress_report_json(*this, in, rig, garment, simulation, result);
  // Write the results, only now that the drape succeeded; each file atomically.
  if (!out_dir.empty()) {
    started("write");
    timed("write", [&] {
      result.written = write_dress_outputs(*this, in.body, garment.mesh.garment, garment.pattern, result);
    });
  }
  times.emplace_back("total", std::chrono::duration<double>(clock::now() - t_start).count());
  nlohmann::ordered_json times_json;
  for (const auto& [stage, seconds] : times) times_json[stage] = seconds;
  report["times_s"] = times_json;
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (const auto& f : result.written) files.push_back(f.filename().string());
  if (!out_dir.empty()) files.push_back("report.json");
  report["files"] = files;
  result.report_json = report.dump(2);
  if (!out_dir.empty()) {
    const fs::path rep = out_dir / "report.json";
    write_file_atomically(rep, result.report_json + "\n");
    result.written.push_back(rep);
    // The job is complete: its checkpoint is no longer needed.
    std::error_code ec;
    fs::remove_all(out_dir / "checkpoint", ec);
  }
  return result;
}

}  // namespace drape

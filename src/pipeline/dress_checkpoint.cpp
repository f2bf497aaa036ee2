#include "dress_checkpoint.h"

#include <cstring>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/core/sha256.h"
#include "report_json.h"

namespace drape {

namespace fs = std::filesystem;

std::string dress_settings_fingerprint(const DressJob& job, const InputHashes& hashes, const Fabric& fabric,
                                       std::size_t bones) {
  nlohmann::ordered_json f = {{"body", hashes.of(job.body_path)},
                              {"body_group", job.body_group.value_or("(auto)")},
                              {"body_up", job.body_up ? to_string(*job.body_up) : "(auto)"},
                              {"body_front", job.body_front ? to_string(*job.body_front) : "(auto)"},
                              {"body_unit", job.body_unit ? unit_name(*job.body_unit) : "(auto)"},
                              {"pattern", hashes.of(job.pattern_path)},
                              {"aliases", job.aliases},
                              {"fabric", fabric_to_json(fabric)},
                              {"particle_distance", job.particle_distance},
                              {"mesh_method", job.mesh_method},
                              {"cloth", cloth_settings_to_json(job.cloth)},
                              {"skeleton", hashes.of(job.skeleton_path)},
                              {"template_body", hashes.of(job.template_body_path)},
                              {"weights", hashes.of(job.weights_path)},
                              {"bones", bones},
                              {"motion", hashes.of(job.motion_path)},
                              {"motion_frame", job.motion_frame},
                              {"joint_map", hashes.of(job.joint_map_path)},
                              {"skinning", static_cast<int>(job.skinning)},
                              {"transition", job.pose_transition_frames},
                              {"grade", job.grade ? job.grade_ease : -1.0},
                              {"ring_held_closed_iterations", job.ring_held_closed_iterations},
                              {"dressing_arm_angle", job.dressing_arm_angle.value_or(-1000.0)}};
  // Absent when unset: the fingerprints of runs without a grain stay as they were.
  if (job.grain_angle_deg) f["grain_angle_deg"] = *job.grain_angle_deg;
  if (!job.pose_continuous_collision) f["pose_continuous_collision"] = false;
  if (!job.panel_grain_deg.empty()) f["panel_grain_deg"] = job.panel_grain_deg;
  // Only when on, so that the checkpoints of single-mesh jobs keep their fingerprint.
  if (drapes_coarse_to_fine(job)) {
    f["coarse_distance"] = job.coarse_distance;
    f["settle_air_damping"] = job.settle_air_damping;
  }
  f["drape_air_damping"] = job.drape_air_damping;
  return sha256_hex(f.dump());
}

std::string pack_checkpoint(const nlohmann::ordered_json& meta, const std::string& pose_start,
                            const std::string& state) {
  std::string out;
  for (const std::string& part : {meta.dump(), pose_start, state}) {
    const std::uint64_t n = part.size();
    out.append(reinterpret_cast<const char*>(&n), sizeof n);
    out += part;
  }
  return out;
}

Checkpoint read_checkpoint(const fs::path& where) {
  Checkpoint c;
  c.path = where;
  if (fs::is_directory(where)) c.path = fs::exists(where / "checkpoint") ? where / "checkpoint" : where;
  if (fs::is_directory(c.path)) c.path /= "checkpoint.bin";
  if (!fs::exists(c.path)) throw InvalidInput(where.string(), 0, "no checkpoint to resume from");
  const std::string bytes = read_file(c.path);
  std::size_t at = 0;
  std::string parts[3];
  for (std::string& part : parts) {
    std::uint64_t n = 0;
    if (bytes.size() - at < sizeof n) throw InvalidInput(c.path.string(), 0, "checkpoint is truncated");
    std::memcpy(&n, bytes.data() + at, sizeof n);
    at += sizeof n;
    if (bytes.size() - at < n) throw InvalidInput(c.path.string(), 0, "checkpoint is truncated");
    part = bytes.substr(at, n);
    at += n;
  }
  try {
    c.meta = nlohmann::json::parse(parts[0]);
  } catch (const nlohmann::json::exception&) {
    throw InvalidInput(c.path.string(), 0, "checkpoint header is not valid JSON");
  }
  if (!c.meta.is_object() || c.meta.value("format", "") != "drape checkpoint 1")
    throw InvalidInput(c.path.string(), 0, "not a drape checkpoint");
  c.pose_start = std::move(parts[1]);
  c.state = std::move(parts[2]);
  return c;
}

}  // namespace drape

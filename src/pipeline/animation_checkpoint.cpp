#include "animation_checkpoint.h"

#include <cstring>
#include <nlohmann/json.hpp>

#include "animation_outputs.h"
#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/core/sha256.h"
#include "dress_checkpoint.h"
#include "report_json.h"

namespace drape {

namespace fs = std::filesystem;

namespace {

constexpr const char* kFile = "animation.bin";

// The hash of a file's contents, or the text itself when it names no file
// (a fabric preset, an empty path).
std::string content_or_name(const fs::path& p) {
  std::error_code ec;
  if (!p.empty() && fs::is_regular_file(p, ec)) return sha256_hex(read_file(p));
  return p.string();
}

AnimationFrameReport frame_from_json(const nlohmann::json& j) {
  AnimationFrameReport f;
  f.motion_frame = j.at("motion_frame").get<long>();
  f.steps = j.at("steps").get<int>();
  f.body_motion_m = j.at("body_motion_m").get<double>();
  f.vertices_inside_body = j.at("vertices_inside_body").get<std::size_t>();
  f.body_crossing_pairs = j.at("body_crossing_pairs").get<std::size_t>();
  f.self_crossing_pairs = j.at("self_crossing_pairs").get<std::size_t>();
  f.seam_pairs_open = j.at("seam_pairs_open").get<std::size_t>();
  f.max_seam_gap = j.at("max_seam_gap_m").get<double>();
  f.strain_max = j.at("strain_max").get<double>();
  f.wall_s = j.at("wall_s").get<double>();
  return f;
}

// [u64 frames][u64 garment points][u64 body points] then the doubles of every
// garment frame, then of every body frame (exact: the caches are written
// from them as if the run had not stopped).
std::string pack_caches(const AnimationCaches& c) {
  const std::uint64_t head[3] = {c.garment.size(), c.garment.empty() ? 0 : c.garment[0].size(),
                                 c.body.empty() ? 0 : c.body[0].size()};
  std::string out(reinterpret_cast<const char*>(head), sizeof head);
  for (const auto* frames : {&c.garment, &c.body})
    for (const std::vector<Vec3>& f : *frames)
      for (const Vec3& v : f) {
        const double xyz[3] = {v.x, v.y, v.z};
        out.append(reinterpret_cast<const char*>(xyz), sizeof xyz);
      }
  return out;
}

AnimationCaches unpack_caches(const std::string& b, const fs::path& file) {
  std::uint64_t head[3];
  if (b.size() < sizeof head) throw InvalidInput(file.string(), 0, "checkpoint caches are truncated");
  std::memcpy(head, b.data(), sizeof head);
  const std::uint64_t per_frame = head[1] + head[2];
  if (head[0] > 1000000 || per_frame > 100000000 ||
      (b.size() - sizeof head) != head[0] * per_frame * 3 * sizeof(double))
    throw InvalidInput(file.string(), 0, "checkpoint caches are truncated or malformed");
  AnimationCaches c;
  std::size_t at = sizeof head;
  auto read_frames = [&](std::vector<std::vector<Vec3>>& frames, std::uint64_t points) {
    frames.assign(head[0], std::vector<Vec3>(points));
    for (auto& f : frames)
      for (Vec3& v : f) {
        double xyz[3];
        std::memcpy(xyz, b.data() + at, sizeof xyz);
        at += sizeof xyz;
        v = {xyz[0], xyz[1], xyz[2]};
      }
  };
  read_frames(c.garment, head[1]);
  read_frames(c.body, head[2]);
  return c;
}

}  // namespace

std::string animation_fingerprint(const AnimationJob& job) {
  const DressJob& d = job.dress;
  nlohmann::ordered_json candidates = nlohmann::ordered_json::array();
  for (const fs::path& c : d.skeleton_candidates) candidates.push_back(content_or_name(c));
  const nlohmann::ordered_json f = {{"body", content_or_name(d.body_path)},
                                    {"body_group", d.body_group.value_or("(auto)")},
                                    {"body_up", d.body_up ? to_string(*d.body_up) : "(auto)"},
                                    {"body_front", d.body_front ? to_string(*d.body_front) : "(auto)"},
                                    {"body_unit", d.body_unit ? unit_name(*d.body_unit) : "(auto)"},
                                    {"pattern", content_or_name(d.pattern_path)},
                                    {"aliases", d.aliases},
                                    {"fabric", content_or_name(d.fabric)},
                                    {"particle_distance", d.particle_distance},
                                    {"mesh_method", d.mesh_method},
                                    {"cloth", cloth_settings_to_json(d.cloth)},
                                    {"skeleton", content_or_name(d.skeleton_path)},
                                    {"skeleton_candidates", candidates},
                                    {"template_body", content_or_name(d.template_body_path)},
                                    {"weights", content_or_name(d.weights_path)},
                                    {"skinning", static_cast<int>(d.skinning)},
                                    {"grade", d.grade ? d.grade_ease : -1.0},
                                    {"motion", content_or_name(job.motion_path)},
                                    {"joint_map", content_or_name(job.joint_map_path)},
                                    {"frames", {job.first_frame, job.last_frame}},
                                    {"fps", job.fps},
                                    {"blend_frames", job.blend_frames},
                                    {"settle_frames", job.settle_frames},
                                    {"step_motion_thickness", job.step_motion_thickness},
                                    {"max_substeps", job.max_substeps},
                                    {"untangle_iterations", job.untangle_iterations},
                                    {"arm_clearance", job.arm_clearance},
                                    {"leg_clearance", job.leg_clearance}};
  return sha256_hex(f.dump());
}

void write_animation_checkpoint(const fs::path& dir, const std::string& fingerprint,
                                const AnimationCheckpoint& c) {
  nlohmann::ordered_json frames = nlohmann::ordered_json::array();
  for (const AnimationFrameReport& f : c.frames) frames.push_back(frame_json(f));
  const nlohmann::ordered_json meta = {
      {"format", "drape checkpoint 1"}, {"job", "animate"},   {"fingerprint", fingerprint},
      {"frames_done", c.frames_done},   {"capped", c.capped}, {"frames", frames}};
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw IoError(dir.string() + ": cannot create folder: " + ec.message());
  write_file_atomically(dir / kFile, pack_checkpoint(meta, pack_caches(c.caches), c.cloth_state));
}

fs::path animation_checkpoint_dir(const fs::path& where) {
  std::error_code ec;
  if (fs::is_directory(where / "checkpoint", ec)) return where / "checkpoint";
  if (fs::is_regular_file(where, ec)) return where.parent_path();
  return where;
}

std::optional<AnimationCheckpoint> read_animation_checkpoint(const fs::path& dir,
                                                             const std::string& fingerprint) {
  const fs::path file = dir / kFile;
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  const Checkpoint raw = read_checkpoint(file);
  if (raw.meta.value("job", "") != "animate")
    throw InvalidInput(file.string(), 0, "not a checkpoint of drape animate");
  if (raw.meta.value("fingerprint", "") != fingerprint)
    throw InvalidInput(file.string(), 0,
                       "checkpoint was made with other inputs or settings; run the same command to resume");
  AnimationCheckpoint c;
  try {
    c.frames_done = raw.meta.at("frames_done").get<int>();
    c.capped = raw.meta.at("capped").get<bool>();
    for (const auto& f : raw.meta.at("frames")) c.frames.push_back(frame_from_json(f));
  } catch (const nlohmann::json::exception&) {
    throw InvalidInput(file.string(), 0, "checkpoint header is malformed");
  }
  c.caches = unpack_caches(raw.pose_start, file);
  if (c.caches.garment.size() != c.frames.size() || c.frames_done < 0)
    throw InvalidInput(file.string(), 0, "checkpoint frames and caches disagree");
  c.cloth_state = raw.state;
  return c;
}

}  // namespace drape

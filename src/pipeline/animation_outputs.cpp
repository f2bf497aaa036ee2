#include "animation_outputs.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>
#include <system_error>

#include "animation_preview.h"
#include "drape/body/body_loader.h"
#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/io/mesh_io.h"
#include "drape/io/point_cache.h"
#include "drape/render/colormap.h"
#include "drape/render/image.h"
#include "drape/render/render_views.h"
#include "report_json.h"

namespace drape {

namespace fs = std::filesystem;

namespace {

// A staging folder beside the target; removed unless committed.
class StagingFolder {
 public:
  explicit StagingFolder(const fs::path& target) : target_(target) {
    if (target_.filename().empty()) target_ = target_.parent_path();  // "out/" is "out"
    const fs::path parent = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
    path_ = parent / ("." + target_.filename().string() + ".partial-" + std::to_string(::getpid()));
    std::error_code ec;
    fs::remove_all(path_, ec);
    fs::create_directories(path_, ec);
    if (ec) throw IoError(path_.string() + ": cannot create folder: " + ec.message());
  }
  ~StagingFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  StagingFolder(const StagingFolder&) = delete;
  StagingFolder& operator=(const StagingFolder&) = delete;
  const fs::path& path() const { return path_; }

  /// Moves the staged files into the target (created when missing), each by a rename.
  void commit(const std::vector<std::string>& names) {
    std::error_code ec;
    if (!fs::exists(target_)) {
      fs::rename(path_, target_, ec);
      if (!ec) return;
      ec.clear();
    }
    fs::create_directories(target_, ec);
    if (ec) throw IoError(target_.string() + ": cannot create folder: " + ec.message());
    for (const std::string& n : names) {
      fs::rename(path_ / n, target_ / n, ec);
      if (ec) throw IoError((target_ / n).string() + ": cannot move into place: " + ec.message());
    }
  }

 private:
  fs::path target_, path_;
};

// Canonical metres -> the body file's axes and unit.
std::vector<std::vector<Vec3>> in_file_frame(const std::vector<std::vector<Vec3>>& samples,
                                             const Mat3& to_file, double scale) {
  std::vector<std::vector<Vec3>> out(samples.size());
  for (std::size_t s = 0; s < samples.size(); ++s) {
    out[s].reserve(samples[s].size());
    for (const Vec3& p : samples[s]) out[s].push_back(to_file * p * scale);
  }
  return out;
}

std::size_t badness(const AnimationFrameReport& f) {
  return f.vertices_inside_body + f.body_crossing_pairs + f.self_crossing_pairs + f.seam_pairs_open;
}

}  // namespace

nlohmann::ordered_json frame_json(const AnimationFrameReport& f) {
  return {{"motion_frame", f.motion_frame},
          {"steps", f.steps},
          {"body_motion_m", f.body_motion_m},
          {"arm_turn_degrees", f.arm_turn_degrees},
          {"leg_turn_degrees", f.leg_turn_degrees},
          {"vertices_inside_body", f.vertices_inside_body},
          {"body_crossing_pairs", f.body_crossing_pairs},
          {"self_crossing_pairs", f.self_crossing_pairs},
          {"seam_pairs_open", f.seam_pairs_open},
          {"max_seam_gap_m", f.max_seam_gap},
          {"strain_max", f.strain_max},
          {"wall_s", f.wall_s}};
}

ContactCell frame_cell(const TriangleMesh& body, const TriangleMesh& garment, const Aabb& bounds,
                       const AnimationFrameReport& f, const ContactSheetOptions& sheet,
                       const Executor& executor) {
  const RenderOptions ro;
  const std::array<RenderItem, 2> items{RenderItem{&body, ro.body_color, {}},
                                        RenderItem{&garment, ro.garment_color, {}}};
  ContactCell cell;
  cell.image = render_view(items, bounds, View::front, sheet.cell_width,
                           sheet.cell_height - sheet.label_height, ro, executor);
  cell.label = "frame " + std::to_string(f.motion_frame) +
               "\ncrossings: " + std::to_string(f.body_crossing_pairs) + " body, " +
               std::to_string(f.self_crossing_pairs) + " self";
  cell.ok = badness(f) == 0;
  return cell;
}

std::vector<long> evenly_spaced(long n, int count) {
  std::vector<long> at;
  if (n <= 0 || count <= 0) return at;
  if (count == 1 || n == 1) return {0};
  for (int i = 0; i < count; ++i)
    at.push_back(std::lround(static_cast<double>(i) * static_cast<double>(n - 1) / (count - 1)));
  at.erase(std::unique(at.begin(), at.end()), at.end());
  return at;
}

Image animation_contact_sheet(const AnimationResult& result, const AnimationCaches& caches, int cells,
                              const Executor& executor) {
  const DressResult& d = result.dress;
  const std::vector<long> at = evenly_spaced(static_cast<long>(caches.garment.size()), cells);
  std::vector<TriangleMesh> bodies, garments;
  Aabb bounds;
  for (long k : at) {
    bodies.push_back(d.body);
    bodies.back().positions = caches.body[k];
    garments.push_back(d.drape.mesh);
    garments.back().positions = caches.garment[k];
    bounds.expand(bodies.back().bounds());
    bounds.expand(garments.back().bounds());
  }
  ContactSheetOptions so;
  so.columns = std::min<int>(static_cast<int>(at.size()), 8);
  std::vector<ContactCell> sheet;
  for (std::size_t i = 0; i < at.size(); ++i)
    sheet.push_back(frame_cell(bodies[i], garments[i], bounds, result.frames[at[i]], so, executor));
  return contact_sheet(sheet, so);
}

void write_animation_outputs(AnimationResult& result, const AnimationCaches& caches,
                             const AnimationOutputInfo& info) {
  const AnimationJob& job = info.job;
  const DressResult& d = result.dress;
  if (caches.garment.empty()) throw InvalidInput("animation: no frames to write");
  StagingFolder staging(job.out_dir);
  const fs::path& dir = staging.path();
  const Mat3 to_file = d.body_axes.to_canonical().transposed();
  const double scale = 1.0 / metres_per_unit(d.body_unit);
  std::vector<std::string> names;

  // The meshes at the first cache frame, in the file's frame, with their caches.
  TriangleMesh garment0 = d.drape.mesh;
  garment0.positions = caches.garment.front();
  TriangleMesh body0 = d.body;
  body0.positions = caches.body.front();
  const ObjFaceGroups panels = panel_face_groups(d.garment, &d.drape.face_map);
  write_obj(dir / "garment.obj", rotated(garment0, to_file), d.body_unit, true, &panels);
  write_pc2(dir / "garment.pc2", in_file_frame(caches.garment, to_file, scale),
            static_cast<double>(job.first_frame), 1.0);
  write_obj(dir / "body.obj", rotated(body0, to_file), d.body_unit, true);
  write_pc2(dir / "body.pc2", in_file_frame(caches.body, to_file, scale),
            static_cast<double>(job.first_frame), 1.0);
  names = {"garment.obj", "garment.pc2", "body.obj", "body.pc2"};

  if (static_cast<long>(caches.garment.size()) <= job.max_glb_frames) {
    GltfMeshNode body_node, garment_node;
    body_node.name = "body";
    body_node.mesh = &body0;
    body_node.base_color = srgb_to_linear({0.87, 0.69, 0.57});
    garment_node.name = "garment";
    garment_node.mesh = &garment0;
    // The strain map (COLOR_0 and _STRAIN, as scene.glb) is the rest drape's:
    // the targets hold positions only. The base is white so the colours show.
    garment_node.base_color = {1, 1, 1};
    garment_node.double_sided = true;
    const StrainRange range = auto_strain_range(d.drape.vertex_strain);
    for (double s : d.drape.vertex_strain) {
      garment_node.colors.push_back(srgb_to_linear(strain_color(s, range)));
      garment_node.scalar.push_back(static_cast<float>(s));
    }
    body_node.frames = caches.body;
    garment_node.frames = caches.garment;
    body_node.frame_seconds = garment_node.frame_seconds = result.frame_seconds;
    const Mat3* scene_rotation = d.body_axes.is_canonical() ? nullptr : &to_file;
    write_gltf(dir / "animation.glb", {body_node, garment_node}, d.body_unit, nullptr, scene_rotation);
    names.push_back("animation.glb");
  }
  if (job.sheet_frames > 0) {
    const Executor& ex = job.dress.cloth.executor ? *job.dress.cloth.executor : Executor::global();
    write_png(dir / "contact_sheet.png", animation_contact_sheet(result, caches, job.sheet_frames, ex));
    names.push_back("contact_sheet.png");
  }
  std::string preview = "off (--no-mp4)";
  if (job.preview_mp4) {
    const Executor& ex = job.dress.cloth.executor ? *job.dress.cloth.executor : Executor::global();
    preview =
        write_preview_mp4(result, caches, dir / "preview.mp4", 1.0 / result.frame_seconds, job.ffmpeg, ex);
    if (preview.empty()) {
      preview = "preview.mp4";
      names.push_back("preview.mp4");
    } else {
      result.warnings.push_back("preview.mp4 " + preview);
    }
  }

  // report.json
  nlohmann::ordered_json j;
  j["drape_version"] = DRAPE_VERSION;
  j["units"] = {{"inside", "m"}, {"outputs", unit_name(d.body_unit)}};
  j["inputs"] = {{"body", job.dress.body_path.string()},         {"pattern", job.dress.pattern_path.string()},
                 {"motion", job.motion_path.string()},           {"motion_frames", info.motion_frames},
                 {"skeleton", job.dress.skeleton_path.string()}, {"mapped_bones", info.mapped_bones}};
  j["settings"] = {{"frames", std::to_string(job.first_frame) + ":" + std::to_string(info.last_frame)},
                   {"frame_seconds", result.frame_seconds},
                   {"blend_frames", result.blend_frames},
                   {"settle_frames", result.settle_frames},
                   {"skinning", job.dress.skinning == SkinningMethod::linear_blend ? "lbs" : "dqs"},
                   {"particle_distance_m", job.dress.particle_distance},
                   {"thickness_m", job.dress.cloth.thickness},
                   {"step_motion_thickness", job.step_motion_thickness},
                   {"max_substeps", job.max_substeps},
                   {"untangle_iterations", job.untangle_iterations},
                   {"arm_clearance_m", job.arm_clearance},
                   {"leg_clearance_m", job.leg_clearance}};
  // Only when on: every other report stays as it was.
  if (job.dress.cloth.continuous_collision) j["settings"]["continuous_collision"] = true;
  j["rest_drape"] = drape_report_to_json(d.drape.report);
  nlohmann::ordered_json frames = nlohmann::ordered_json::array();
  std::size_t worst = 0, clean = 0;
  long steps = 0;
  for (std::size_t k = 0; k < result.frames.size(); ++k) {
    const AnimationFrameReport& f = result.frames[k];
    frames.push_back(frame_json(f));
    if (badness(f) > badness(result.frames[worst])) worst = k;
    clean += badness(f) == 0;
    steps += f.steps;
  }
  const AnimationFrameReport& w = result.frames[worst];
  j["summary"] = {{"cache_frames", result.frames.size()},
                  {"clean_frames", clean},
                  {"worst_frame", w.motion_frame},
                  {"worst", frame_json(w)},
                  {"steps", steps},
                  {"seconds_per_frame", info.seconds_animation / static_cast<double>(result.frames.size())}};
  j["ok"] = clean == result.frames.size();
  j["frames"] = frames;
  j["preview_mp4"] = preview;
  if (!result.resumed_from.empty())
    j["resumed"] = {{"checkpoint", result.resumed_from.string()},
                    {"simulation_frames", result.resumed_frames}};
  j["warnings"] = result.warnings;
  j["times_s"] = {{"animation", info.seconds_animation}, {"total", info.seconds_total}};
  names.push_back("report.json");
  j["files"] = names;
  result.report_json = j.dump(2);
  write_file_atomically(dir / "report.json", result.report_json + "\n");

  staging.commit(names);
  result.written.clear();
  for (const std::string& n : names) result.written.push_back(job.out_dir / n);
}

}  // namespace drape

#include "drape/pipeline/dress_job.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

#include "drape/body/body_loader.h"
#include "drape/body/garment_fit.h"
#include "drape/body/pattern_grading.h"
#include "drape/cloth/fabric.h"
#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/core/executor.h"
#include "drape/core/sha256.h"
#include "drape/io/mesh_io.h"
#include "drape/pattern/body_frame.h"
#include "drape/pattern/mesher.h"
#include "drape/pattern/pattern_io.h"
#include "drape/pattern/placement.h"
#include "drape/pipeline/body_rigging.h"
#include "drape/render/colormap.h"
#include "drape/render/render_views.h"
#include "drape/rig/body_rig.h"
#include "drape/rig/bvh_motion.h"
#include "drape/rig/retarget.h"
#include "fit_json.h"
#include "report_json.h"

namespace drape {

namespace fs = std::filesystem;

namespace {

// DressJob::particle_distance's default, m: the resolution the corner rings are tuned at.
constexpr double kDefaultParticleDistance = 0.02;

// Stages pass warnings on (the mesher repeats the loader's): each once, in order.
void add_warnings(std::vector<std::string>& to, const std::vector<std::string>& from) {
  for (const std::string& w : from)
    if (std::find(to.begin(), to.end(), w) == to.end()) to.push_back(w);
}

Fabric resolve_fabric(const std::string& name_or_file) {
  const auto names = fabric_preset_names();
  if (std::find(names.begin(), names.end(), name_or_file) != names.end() || name_or_file == "knit")
    return fabric_preset(name_or_file);
  if (fs::exists(name_or_file)) return read_fabric_json(name_or_file);
  return fabric_preset(name_or_file);  // throws InvalidInput listing the presets
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// SHA-256 of the input files, each read and hashed once per job: the report
// and the checkpoint fingerprint both need them. A missing or empty path hashes to "".
class InputHashes {
 public:
  /// A file already read (and hashed) by its loader is not read again.
  void add(const fs::path& p, const std::string& sha256) { cache_.try_emplace(p, sha256); }
  const std::string& of(const fs::path& p) {
    auto [it, fresh] = cache_.try_emplace(p);
    if (fresh && !p.empty() && fs::exists(p)) it->second = sha256_hex(read_file(p));
    return it->second;
  }

 private:
  std::map<fs::path, std::string> cache_;
};

// What must be equal for a checkpoint to be resumed: the inputs' contents and
// every setting that changes the simulation (not the thread count: results do
// not depend on it, docs/HARDENING.md).
std::string settings_fingerprint(const DressJob& job, InputHashes& hashes, const Fabric& fabric,
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
                              {"grade", job.grade ? job.grade_ease : -1.0}};
  return sha256_hex(f.dump());
}

struct Checkpoint {
  fs::path path;
  nlohmann::json meta;
  std::string pose_start, state;
};

// [u64 size][meta JSON][u64 size][pose start state][u64 size][state]
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

// `where` is a job's output folder or its checkpoint folder or file.
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

// glTF skin data: joints with their frames in the written pose, and per-vertex influences.
GltfSkin gltf_skin(const Skeleton& skeleton, const Pose& pose) {
  GltfSkin skin;
  skin.name = skeleton.name.empty() ? "skeleton" : skeleton.name;
  const std::vector<RigidTransform> frames = posed_frames(skeleton, pose);
  for (std::size_t b = 0; b < skeleton.size(); ++b)
    skin.joints.push_back({skeleton.bones[b].name, skeleton.bones[b].parent, frames[b]});
  return skin;
}

void set_skin_attributes(GltfMeshNode& node, const SkinWeights& w) {
  node.joints.resize(w.size());
  node.weights.resize(w.size());
  for (std::size_t v = 0; v < w.size(); ++v)
    for (int k = 0; k < 4; ++k) {
      node.joints[v][k] = w.vertices[v].bone[k];
      node.weights[v][k] = static_cast<float>(w.vertices[v].weight[k]);
    }
}

}  // namespace

void DressJob::Validate() const {
  if (body_path.empty()) throw InvalidInput("--body: no body mesh given");
  if (pattern_path.empty()) throw InvalidInput("--pattern: no pattern given");
  if (!fs::exists(body_path)) throw InvalidInput(body_path.string(), 0, "file not found");
  if (!fs::exists(pattern_path)) throw InvalidInput(pattern_path.string(), 0, "file not found");
  if (!(particle_distance >= 0.002 && particle_distance <= 0.2))
    throw InvalidInput("--particle-distance: must be between 2 and 200 mm");
  if (mesh_method != "quality" && mesh_method != "grid")
    throw InvalidInput("--mesh-method: must be 'quality' or 'grid', not '" + mesh_method + "'");
  if (!(cloth.frame_rate > 0) || cloth.substeps < 1 || cloth.substeps > 1000 || cloth.max_frames < 1)
    throw InvalidInput("cloth settings: frame rate, substeps (1..1000) and frame limit must be positive");
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
  nlohmann::ordered_json times;
  auto report = [&](const std::string& stage) {
    if (progress) progress(DressProgress{.stage = stage});
  };

  DressResult result;
  // Load.
  report("load");
  auto t0 = clock::now();
  const Body body = load_body(
      body_path, BodyLoadOptions{.group = body_group, .unit = body_unit, .up = body_up, .front = body_front});
  result.body = body.mesh;
  result.body_unit = body.file_unit;
  result.body_axes = body.axes;
  const Fabric cloth_fabric = resolve_fabric(fabric);
  Pattern pattern = load_pattern(pattern_path, PatternLoadOptions{.aliases = aliases});
  InputHashes hashes;
  hashes.add(body_path, body.sha256);
  hashes.add(pattern_path, pattern.sha256);
  add_warnings(result.warnings, pattern.warnings);
  times["load"] = seconds_since(t0);

  // Rig (optional): before any simulation, so that bad rig inputs fail fast.
  std::optional<BvhMotion> motion;
  std::string rig_method;
  fs::path used_skeleton = skeleton_path;
  JointNameMap joint_map;
  if (!skeleton_path.empty() || !motion_path.empty()) {
    report("rig");
    t0 = clock::now();
    if (!motion_path.empty()) {
      motion = read_bvh(motion_path);
      if (static_cast<std::size_t>(motion_frame) >= motion->frame_count())
        throw InvalidInput(motion_path.string(), 0,
                           "--frame " + std::to_string(motion_frame) + " out of range (" +
                               std::to_string(motion->frame_count()) + " frames, first is 0)");
    }
    std::optional<TemplateRig> tr;
    if (!used_skeleton.empty()) {
      tr = load_template_rig(used_skeleton, template_body_path, weights_path);
    } else {
      // No skeleton given: the candidate whose bones the motion drives most.
      tr = template_rig_for_motion(skeleton_candidates, *motion, template_body_path, weights_path,
                                   used_skeleton);
    }
    RiggedBody rb = rig_body(*tr, body.mesh, body.all_vertices);
    result.rigged = true;
    result.skeleton = std::move(rb.skeleton);
    result.body_weights = std::move(rb.weights);
    result.pose = Pose::identity(result.skeleton.size());
    rig_method = rb.method;
    if (motion) {
      joint_map = joint_map_path.empty() ? guess_joint_map(result.skeleton, *motion)
                                         : read_joint_map(joint_map_path.string());
      result.pose =
          retarget_bvh_frame(result.skeleton, *motion, static_cast<std::size_t>(motion_frame), joint_map)
              .pose;
    }
    times["rig"] = seconds_since(t0);
  }

  // Body landmarks and regions (M1 steps 15-16).
  t0 = clock::now();
  const BodyFrame frame = analyse_body(result.body, body_path.string());
  const std::vector<std::uint32_t> regions = label_body_regions(result.body, frame);

  // Mesh and place.
  report("mesh");
  MeshingOptions mo;
  mo.method = mesh_method == "grid" ? MeshMethod::grid : MeshMethod::quality;
  mo.particle_distance = particle_distance;
  PatternMesh pm = mesh_pattern(pattern, mo);
  add_warnings(result.warnings, pm.warnings);
  times["mesh"] = seconds_since(t0);
  report("place");
  t0 = clock::now();
  const PlacementResult placed = place_on_body(pattern, pm, result.body, frame);
  add_warnings(result.warnings, placed.warnings);
  times["place"] = seconds_since(t0);

  // Fit: a garment shorter than the body where it must go round cannot close
  // its seams; say where and by how much before simulating.
  std::optional<FitReport> fit, fit_before;
  std::optional<BodyMeasurements> bm;
  try {
    bm = measure_body(result.body, frame, body_path.string(), /*limbs_and_head=*/false);
    fit = check_fit(pattern, pm, *bm);
  } catch (const InvalidInput& e) {
    add_warnings(result.warnings, {std::string("fit check skipped: ") + e.what()});
  }
  if (fit)
    for (const std::string& p : fit->problems)
      add_warnings(result.warnings, {"garment too small at the " + p});
  // Grading: widen the pattern where it is too small, then mesh and place it again.
  std::optional<GradingResult> grading;
  if (fit && !fit->fits && grade) {
    report("grade");
    t0 = clock::now();
    const BodyGrading g =
        grade_to_body(pattern, result.body, *bm, particle_distance, GradingOptions{.ease = grade_ease});
    grading = g.grading;
    add_warnings(result.warnings, grading->warnings);
    pattern = grading->pattern;
    pm = mesh_pattern(pattern, mo);
    add_warnings(result.warnings, pm.warnings);
    add_warnings(result.warnings, place_on_body(pattern, pm, result.body, frame).warnings);
    fit_before = fit;
    fit = check_fit(pattern, pm, *bm);
    for (const std::string& p : fit->problems)
      add_warnings(result.warnings, {"graded garment too small at the " + p});
    times["grade"] = seconds_since(t0);
  }
  if (fit && !fit->fits && strict)
    throw SolverError(
        "the garment cannot close on this body (--strict): " + fit->problems.front() +
        (fit->problems.size() > 1 ? " and " + std::to_string(fit->problems.size() - 1) + " more" : ""));

  // Checkpoints: one file, written atomically, holding what the job needs
  // to continue (docs/HARDENING.md).
  const std::string fingerprint = settings_fingerprint(*this, hashes, cloth_fabric, result.skeleton.size());
  std::optional<Checkpoint> resume;
  if (!resume_from.empty()) {
    resume = read_checkpoint(resume_from);
    if (resume->meta.value("fingerprint", "") != fingerprint)
      throw InvalidInput(resume->path.string(), 0,
                         "checkpoint was made with other inputs or settings; run the same command to resume");
  }
  const fs::path checkpoint_dir = out_dir.empty() ? fs::path() : out_dir / "checkpoint";
  std::string pose_start_state;  // the cloth when the pose began (the carry's weights come from it)
  nlohmann::ordered_json rest_drape_json;

  // Sew and drape.
  t0 = clock::now();
  ClothSettings settings = cloth;
  // The corners' pass-through region keeps the width its rings have at the
  // default 20 mm particles (3 rings, about 6 cm) on finer meshes: at 10 mm
  // with 3 rings the shirt's sleeve stayed between its armpit pairs (stalled,
  // 351/361 pairs, up to 3.4 cm open); with 6, equilibrium and 361/361.
  if (settings.corner_pass_through_rings > 0 && particle_distance < kDefaultParticleDistance)
    settings.corner_pass_through_rings = static_cast<int>(
        std::lround(settings.corner_pass_through_rings * kDefaultParticleDistance / particle_distance));
  const auto sim_owner =
      std::make_shared<ClothSimulation>(pm.garment, result.body, regions, cloth_fabric, settings);
  ClothSimulation& sim = *sim_owner;
  auto write_checkpoint = [&](const std::string& phase) {
    if (checkpoint_dir.empty()) return;
    nlohmann::ordered_json meta = {{"format", "drape checkpoint 1"},
                                   {"fingerprint", fingerprint},
                                   {"phase", phase},
                                   {"steps", sim.running_report().steps},
                                   {"rest_drape", rest_drape_json}};
    std::error_code ec;
    fs::create_directories(checkpoint_dir, ec);
    if (ec) throw IoError(checkpoint_dir.string() + ": cannot create folder: " + ec.message());
    write_file_atomically(checkpoint_dir / "checkpoint.bin",
                          pack_checkpoint(meta, pose_start_state, sim.save_state()));
  };
  auto on_frame = [&](const std::string& phase, std::chrono::steady_clock::time_point t_phase) {
    return [&, phase, t_phase](const ClothProgress& p) {
      if (stop_requested && stop_requested->load()) {
        write_checkpoint(phase);
        throw Interrupted("interrupted at frame " + std::to_string(p.frame) + " of the " + phase + " drape" +
                          (checkpoint_dir.empty() ? std::string("; no output folder, so no checkpoint")
                                                  : "; resume with --resume " + out_dir.string()));
      }
      if (checkpoint_every > 0 && p.frame > 0 && p.frame % checkpoint_every == 0) write_checkpoint(phase);
      if (!progress) return;
      DressProgress d{.stage = p.stage,
                      .frame = p.frame,
                      .max_frames = p.max_frames,
                      .steps_per_second = p.steps_per_second};
      if (p.frame > 0) d.seconds_left = seconds_since(t_phase) / p.frame * (p.max_frames - p.frame);
      progress(d);
    };
  };
  const bool resume_in_pose = resume && resume->meta.value("phase", "") == "pose";
  if (resume && !resume_in_pose) sim.load_state(resume->state, resume->path.string());
  if (!resume_in_pose) result.drape = sim.run(on_frame("rest", clock::now()));
  times["simulate"] = seconds_since(t0);

  // Pose: the body moves from rest into the pose while the garment follows
  // (carried by its nearest body point's skinning) and settles.
  if (motion) {
    t0 = clock::now();
    if (resume_in_pose) {
      sim.load_state(resume->pose_start, resume->path.string());
      rest_drape_json = resume->meta["rest_drape"];
      result.rest_drape.stop_reason = rest_drape_json.value("stop_reason", "");
      result.rest_drape.frames = rest_drape_json.value("frames", 0);
    } else {
      result.rest_drape = result.drape.report;
      rest_drape_json = drape_report_to_json(result.rest_drape);
    }
    pose_start_state = sim.save_state();
    const TriangleMesh rest_body = result.body;
    const SkinWeights cloth_weights =
        weights_from_nearest_body_point(rest_body, result.body_weights, sim.positions());
    const int T = pose_transition_frames;
    std::vector<Pose> poses(T + 1);
    for (int k = 0; k <= T; ++k)
      poses[k] = interpolate_from_rest(result.skeleton, result.pose, static_cast<double>(k) / T);
    poses[T] = result.pose;
    BodyMotion bm;
    bm.frames = T;
    bm.body_at = [&](int f) {
      return skin_points(rest_body.positions, {}, result.body_weights, poses[f], skinning).positions;
    };
    bm.carry_cloth = [&](int f, std::vector<Vec3>& x) {
      x = skin_points(x, {}, cloth_weights, pose_delta(poses[f - 1], poses[f]), skinning).positions;
    };
    sim.set_body_motion(std::move(bm));
    if (resume_in_pose) sim.load_state(resume->state, resume->path.string());
    result.drape = sim.run(on_frame("pose", clock::now()));
    result.body = sim.body();
    times["pose"] = seconds_since(t0);
  }
  if (keep_simulation) {
    result.simulation = sim_owner;
    result.garment = pm.garment;
  }
  if (result.rigged)
    result.garment_weights =
        weights_from_nearest_body_point(result.body, result.body_weights, result.drape.mesh.positions);
  const DrapeReport& r = result.drape.report;
  if (strict && !r.equilibrium)
    throw SolverError("no static equilibrium after " + std::to_string(r.frames) + " frames (--strict); " +
                      std::to_string(r.moving_fraction * 100) + " % of vertices still moving");

  // Report.
  nlohmann::ordered_json j;
  j["drape_version"] = DRAPE_VERSION;
  j["units"] = {{"inside", "m"}, {"outputs", unit_name(result.body_unit)}};
  j["inputs"] = {{"body",
                  {{"path", body_path.string()},
                   {"group", body.group},
                   {"unit", unit_name(body.file_unit)},
                   {"unit_detected", body.unit_detected},
                   {"axes", body.axes.describe()},
                   {"axes_detected", body.axes_detected},
                   {"sha256", hashes.of(body_path)},
                   {"vertices", result.body.vertex_count()},
                   {"triangles", result.body.face_count()}}},
                 {"pattern",
                  {{"path", pattern_path.string()},
                   {"sha256", hashes.of(pattern_path)},
                   {"panels", pattern.panels.size()},
                   {"stitches", pattern.stitches.size()}}},
                 {"fabric", fabric_to_json(cloth_fabric)}};
  j["settings"] = {
      {"particle_distance_m", particle_distance},
      {"mesh_method", mesh_method},
      {"cloth", cloth_settings_to_json(settings)},
      {"threads", settings.executor ? settings.executor->thread_count() : Executor::global().thread_count()},
      {"strict", strict}};
  j["body_frame"] = {{"height_m", frame.height},
                     {"floor_y_m", frame.floor_y},
                     {"waist_y_m", frame.waist_y},
                     {"crotch_y_m", frame.crotch_y},
                     {"shoulder_y_m", frame.shoulder_y}};
  nlohmann::ordered_json seams = nlohmann::ordered_json::array();
  for (double ratio : pm.garment.seam_length_ratio) seams.push_back(ratio);
  j["seam_length_ratios"] = seams;
  if (result.rigged) {
    nlohmann::ordered_json rig = {{"skeleton", used_skeleton.string()},
                                  {"skeleton_sha256", hashes.of(used_skeleton)},
                                  {"bones", result.skeleton.size()},
                                  {"method", rig_method}};
    if (motion) {
      rig["motion"] = {{"path", motion_path.string()},
                       {"sha256", hashes.of(motion_path)},
                       {"frame", motion_frame},
                       {"frames", motion->frame_count()},
                       {"mapped_bones", joint_map.size()},
                       {"skinning", skinning == SkinningMethod::linear_blend ? "lbs" : "dqs"},
                       {"transition_frames", pose_transition_frames}};
      rig["rest_drape"] = rest_drape_json;
    }
    j["rig"] = rig;
  }
  if (fit) {
    j["fit"] = fit_to_json(*fit);
    if (grading) j["fit"]["graded"] = grading_to_json(*grading, *fit_before);
  }
  j["result"] = drape_report_to_json(r);
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
  if (resume)
    j["resumed"] = {{"checkpoint", resume->path.string()},
                    {"phase", resume->meta.value("phase", "")},
                    {"steps", resume->meta.value("steps", 0)}};

  // Write the results, only now that the drape succeeded; each file atomically.
  if (!out_dir.empty()) {
    report("write");
    t0 = clock::now();
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    if (ec) throw IoError(out_dir.string() + ": cannot create folder: " + ec.message());
    const TriangleMesh& g = result.drape.mesh;
    const fs::path obj = out_dir / "garment.obj";
    // One OBJ group per panel.
    const ObjFaceGroups panels = panel_face_groups(pm.garment, &result.drape.face_map);
    // Outputs overlay the body file: its frame and unit.
    write_obj(obj, body.in_file_frame(g), result.body_unit, true, &panels);
    const Mat3 to_file = body.to_file();
    const Mat3* scene_rotation = body.axes.is_canonical() ? nullptr : &to_file;
    result.written.push_back(obj);

    const StrainRange range = auto_strain_range(result.drape.vertex_strain);
    // glTF colours are linear and the base colour multiplies COLOR_0: the
    // garment's base is white so the strain colours show as they are.
    GltfMeshNode body_node{
        .name = "body", .mesh = &result.body, .base_color = srgb_to_linear({0.87, 0.69, 0.57})};
    GltfMeshNode garment_node{.name = "garment", .mesh = &g, .base_color = {1, 1, 1}, .double_sided = true};
    garment_node.colors.reserve(g.vertex_count());
    garment_node.scalar.reserve(g.vertex_count());
    for (double s : result.drape.vertex_strain) {
      garment_node.colors.push_back(srgb_to_linear(strain_color(s, range)));
      garment_node.scalar.push_back(static_cast<float>(s));
    }
    const fs::path glb = out_dir / "scene.glb";
    if (result.rigged) {
      // Skinned to the skeleton, bound in the pose the meshes are in.
      set_skin_attributes(body_node, result.body_weights);
      set_skin_attributes(garment_node, result.garment_weights);
      const GltfSkin skin = gltf_skin(result.skeleton, result.pose);
      write_gltf(glb, {body_node, garment_node}, result.body_unit, &skin, scene_rotation);
    } else {
      write_gltf(glb, {body_node, garment_node}, result.body_unit, nullptr, scene_rotation);
    }
    result.written.push_back(glb);

    if (write_render) {
      RenderOptions ropt;
      ropt.caption = pattern.name + " on " + body_path.filename().string();
      const Image img = render_views(result.body, g, result.drape.vertex_strain, ropt);
      const fs::path png = out_dir / "render.png";
      write_png(png, img);
      result.written.push_back(png);
    }
    times["write"] = seconds_since(t0);
  }
  times["total"] = seconds_since(t_start);
  j["times_s"] = times;
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (const auto& f : result.written) files.push_back(f.filename().string());
  if (!out_dir.empty()) files.push_back("report.json");
  j["files"] = files;
  result.report_json = j.dump(2);
  if (!out_dir.empty()) {
    const fs::path rep = out_dir / "report.json";
    write_file_atomically(rep, result.report_json + "\n");
    result.written.push_back(rep);
    // The job is complete: its checkpoint is no longer needed.
    std::error_code ec;
    fs::remove_all(checkpoint_dir, ec);
  }
  return result;
}

}  // namespace drape

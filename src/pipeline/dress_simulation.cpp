// Simulate and pose stages of `drape dress`, with checkpoints and resume
// (dress_stages.h; the checkpoint file in dress_checkpoint.h).

#include <algorithm>
#include <chrono>
#include <cmath>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/core/timing.h"
#include "drape/rig/body_rig.h"
#include "dress_checkpoint.h"
#include "report_json.h"

namespace drape {

namespace fs = std::filesystem;

namespace {

// DressJob::particle_distance's default, m: the resolution the corner rings are tuned at.
constexpr double kDefaultParticleDistance = 0.02;

// The corners' pass-through region keeps the width its rings have at the
// default 20 mm particles (3 rings, about 6 cm) on finer meshes: at 10 mm
// with 3 rings the shirt's sleeve stayed between its armpit pairs (stalled,
// 351/361 pairs, up to 3.4 cm open); with 6, equilibrium and 361/361.
ClothSettings settings_for_resolution(ClothSettings settings, double particle_distance) {
  if (settings.corner_pass_through_rings > 0 && particle_distance < kDefaultParticleDistance)
    settings.corner_pass_through_rings = static_cast<int>(
        std::lround(settings.corner_pass_through_rings * kDefaultParticleDistance / particle_distance));
  return settings;
}

// A garment held up by a ring round the body (fit.opening) hangs its weight
// on that ring's stretch: it gets the job's stiffer closed solve.
ClothSettings settings_for_garment(ClothSettings settings, const DressJob& job,
                                   const PreparedGarment& garment) {
  if (garment.fit && garment.fit->opening)
    settings.closed_solver_iterations =
        std::max(settings.closed_solver_iterations, job.ring_held_closed_iterations);
  return settings;
}

}  // namespace

// What a checkpoint holds besides the cloth state, and where it goes.
struct DressSimulation::Checkpoints {
  std::string fingerprint;
  fs::path dir;                       // empty: no output folder, no checkpoints
  std::optional<Checkpoint> resume;   // the checkpoint resumed from
  std::string pose_start_state;       // the cloth when the pose began (the carry's weights come from it)
  nlohmann::ordered_json rest_drape;  // the rest drape's report once the pose began (null before)
  bool resume_in_pose() const { return resume && resume->meta.value("phase", "") == "pose"; }
};

DressSimulation::DressSimulation(const DressJob& job, const DressInputs& in, const PreparedGarment& garment,
                                 const DressRig* rig, std::shared_ptr<const TriangleMeshBvh> dressing_body)
    : job_(job),
      settings_(
          settings_for_garment(settings_for_resolution(job.cloth, job.particle_distance), job, garment)),
      body_tree_(dressing_body ? std::move(dressing_body) : in.body_tree),
      rest_tree_(in.body_tree),
      checkpoints_(std::make_unique<Checkpoints>()) {
  Checkpoints& cp = *checkpoints_;
  cp.fingerprint = dress_settings_fingerprint(job, in.hashes, in.fabric, rig ? rig->skeleton.size() : 0);
  if (!job.resume_from.empty()) {
    cp.resume = read_checkpoint(job.resume_from);
    if (cp.resume->meta.value("fingerprint", "") != cp.fingerprint)
      throw InvalidInput(cp.resume->path.string(), 0,
                         "checkpoint was made with other inputs or settings; run the same command to resume");
    resumed_ =
        Resumed{cp.resume->path, cp.resume->meta.value("phase", ""), cp.resume->meta.value("steps", 0)};
  }
  if (!job.checkpoint_dir.empty())
    cp.dir = job.checkpoint_dir;
  else if (!job.out_dir.empty())
    cp.dir = job.out_dir / "checkpoint";
  sim_ = std::make_shared<ClothSimulation>(garment.mesh.garment, body_tree_, garment.regions, in.fabric,
                                           settings_);
}

DressSimulation::~DressSimulation() = default;

ClothProgressCallback DressSimulation::on_frame(const std::string& phase) {
  auto write_checkpoint = [this, phase] {
    const Checkpoints& cp = *checkpoints_;
    if (cp.dir.empty()) return;
    nlohmann::ordered_json meta = {{"format", "drape checkpoint 1"},
                                   {"fingerprint", cp.fingerprint},
                                   {"phase", phase},
                                   {"steps", sim_->running_report().steps},
                                   {"rest_drape", cp.rest_drape}};
    std::error_code ec;
    fs::create_directories(cp.dir, ec);
    if (ec) throw IoError(cp.dir.string() + ": cannot create folder: " + ec.message());
    write_file_atomically(cp.dir / "checkpoint.bin",
                          pack_checkpoint(meta, cp.pose_start_state, sim_->save_state()));
  };
  const auto t_phase = std::chrono::steady_clock::now();
  return [this, phase, t_phase, write_checkpoint](const ClothProgress& p) {
    if (job_.stop_requested && job_.stop_requested->load()) {
      write_checkpoint();
      throw Interrupted("interrupted at frame " + std::to_string(p.frame) + " of the " + phase + " drape" +
                        (checkpoints_->dir.empty()
                             ? std::string("; no output folder, so no checkpoint")
                             : "; resume with --resume " +
                                   (job_.out_dir.empty() ? checkpoints_->dir : job_.out_dir).string()));
    }
    if (job_.checkpoint_every > 0 && p.frame > 0 && p.frame % job_.checkpoint_every == 0) write_checkpoint();
    if (!job_.progress) return;
    DressProgress d{.stage = p.stage,
                    .frame = p.frame,
                    .max_frames = p.max_frames,
                    .steps_per_second = p.steps_per_second};
    if (p.frame > 0) d.seconds_left = seconds_since(t_phase) / p.frame * (p.max_frames - p.frame);
    job_.progress(d);
  };
}

void DressSimulation::drape_at_rest() {
  const auto t0 = std::chrono::steady_clock::now();
  const Checkpoints& cp = *checkpoints_;
  if (!cp.resume_in_pose()) {
    if (cp.resume) sim_->load_state(cp.resume->state, cp.resume->path.string());
    drape_ = sim_->run(on_frame("rest"));
  }
  times.emplace_back("simulate", seconds_since(t0));
}

void DressSimulation::pose(const DressRig& rig) {
  if (!rig.motion && !rig.dressing_pose) return;
  const auto t0 = std::chrono::steady_clock::now();
  Checkpoints& cp = *checkpoints_;
  if (cp.resume_in_pose()) {
    sim_->load_state(cp.resume->pose_start, cp.resume->path.string());
    cp.rest_drape = cp.resume->meta["rest_drape"];
    rest_drape_.stop_reason = cp.rest_drape.value("stop_reason", "");
    rest_drape_.frames = cp.rest_drape.value("frames", 0);
  } else {
    rest_drape_ = drape_.report;
    cp.rest_drape = drape_report_to_json(rest_drape_);
  }
  rest_drape_json_ = cp.rest_drape.dump();
  cp.pose_start_state = sim_->save_state();
  const SkinWeights cloth_weights =
      weights_from_nearest_body_point(*body_tree_, rig.body_weights, sim_->positions());
  const int T = job_.pose_transition_frames;
  const Pose start = rig.dressing_pose ? *rig.dressing_pose : Pose::identity(rig.skeleton.size());
  std::vector<Pose> poses(T + 1);
  for (int k = 0; k <= T; ++k)
    poses[k] = interpolate_poses(rig.skeleton, start, rig.pose, static_cast<double>(k) / T);
  poses[T] = rig.pose;
  BodyMotion bm;
  bm.frames = T;
  const SkinningMethod skinning = job_.skinning;
  // The lambdas own what they use: with DressJob::keep_simulation the simulation outlives the job.
  bm.body_at = [rest = rest_tree_->mesh().positions, weights = rig.body_weights, poses, skinning](int f) {
    return skin_points(rest, {}, weights, poses[f], skinning).positions;
  };
  bm.carry_cloth = [cloth_weights, poses, skinning](int f, std::vector<Vec3>& x) {
    x = skin_points(x, {}, cloth_weights, pose_delta(poses[f - 1], poses[f]), skinning).positions;
  };
  sim_->set_body_motion(std::move(bm));
  if (cp.resume_in_pose()) sim_->load_state(cp.resume->state, cp.resume->path.string());
  drape_ = sim_->run(on_frame("pose"));
  times.emplace_back("pose", seconds_since(t0));
}

}  // namespace drape

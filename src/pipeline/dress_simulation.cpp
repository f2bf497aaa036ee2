// Simulate and pose stages of `drape dress`, with checkpoints and resume
// (dress_stages.h; the checkpoint file in dress_checkpoint.h).

#include <algorithm>
#include <chrono>
#include <cmath>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/core/timing.h"
#include "drape/geometry/garment_transfer.h"
#include "drape/pattern/placement.h"
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

// Only the rest matters in the drape and the move into the pose: damped more
// than the fabric once the seams are sewn, the cloth gets there without
// swinging past it (DressJob::drape_air_damping). The damping force vanishes at rest.
ClothSettings settings_for_drape(ClothSettings settings, const DressJob& job, const Fabric& fabric) {
  if (job.drape_air_damping > fabric.air_damping) settings.rest_air_damping = job.drape_air_damping;
  return settings;
}

}  // namespace

MeshingOptions meshing_options(const DressJob& job, double particle_distance) {
  MeshingOptions mo;
  mo.method = job.mesh_method == "grid" ? MeshMethod::grid : MeshMethod::quality;
  mo.particle_distance = particle_distance;
  return mo;
}

bool drapes_coarse_to_fine(const DressJob& job) { return job.coarse_distance > job.particle_distance; }

// What a checkpoint holds besides the cloth state, and where it goes.
struct DressSimulation::Checkpoints {
  std::string fingerprint;
  fs::path dir;                       // empty: no output folder, no checkpoints
  std::optional<Checkpoint> resume;   // the checkpoint resumed from
  std::string pose_start_state;       // the cloth when the pose began (the carry's weights come from it)
  nlohmann::ordered_json rest_drape;  // the rest drape's report once the pose began (null before)
  nlohmann::ordered_json coarse;      // the coarse drape's report once the fine settle began (null before)
  std::string resume_phase() const { return resume ? resume->meta.value("phase", "") : ""; }
  bool resume_in_pose() const { return resume_phase() == "pose"; }
  bool resume_in_settle() const { return resume_phase() == "settle"; }
};

DressSimulation::DressSimulation(const DressJob& job, const DressInputs& in, const PreparedGarment& garment,
                                 const DressRig* rig, std::shared_ptr<const TriangleMeshBvh> dressing_body)
    : job_(job),
      settings_(settings_for_drape(
          settings_for_garment(settings_for_resolution(job.cloth, job.particle_distance), job, garment), job,
          in.fabric)),
      body_tree_(dressing_body ? std::move(dressing_body) : in.body_tree),
      rest_tree_(in.body_tree),
      checkpoints_(std::make_unique<Checkpoints>()),
      garment_(&garment),
      rig_(rig),
      fabric_(in.fabric) {
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
  if (!drapes_coarse_to_fine(job)) {
    sim_ = std::make_shared<ClothSimulation>(garment.mesh.garment, body_tree_, garment.regions, in.fabric,
                                             settings_);
    return;
  }
  // The same (graded) pattern meshed at the coarse distance and placed alike;
  // the placement's warnings are the fine garment's, reported already.
  coarse_mesh_ = mesh_pattern(garment.pattern, meshing_options(job, job.coarse_distance));
  place_on_body(garment.pattern, *coarse_mesh_, *body_tree_, garment.frame);
  sim_ = std::make_shared<ClothSimulation>(
      coarse_mesh_->garment, body_tree_, garment.regions, in.fabric,
      settings_for_drape(
          settings_for_garment(settings_for_resolution(job.cloth, job.coarse_distance), job, garment), job,
          in.fabric));
}

DressSimulation::~DressSimulation() = default;

ClothProgressCallback DressSimulation::on_frame(const std::string& phase) {
  auto write_checkpoint = [this, phase] {
    const Checkpoints& cp = *checkpoints_;
    if (cp.dir.empty()) return;
    nlohmann::ordered_json meta = {
        {"format", "drape checkpoint 1"},        {"fingerprint", cp.fingerprint}, {"phase", phase},
        {"steps", sim_->running_report().steps}, {"rest_drape", cp.rest_drape},   {"coarse", cp.coarse}};
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
  if (!cp.resume_in_pose() && !cp.resume_in_settle()) {
    if (cp.resume) sim_->load_state(cp.resume->state, cp.resume->path.string());
    // Sewn on a dressing pose (the arms raised), a garment whose seams stall
    // goes on into the pose without being resewn: what holds them open there
    // (the raised shoulders) is gone once the arms are down, and the pose's
    // run has its own resews. Resewn here first, the GPG dress and jacket on
    // mean_female spent about 370 frames in two resews on seams the arms'
    // lowering closed (docs/CLOTH.md "Sewing again after a stall").
    const bool pose_follows = rig_ && rig_->moves_into_pose();
    if (pose_follows) sim_->set_stall_resews(0);
    drape_ = sim_->run(on_frame("rest"));
    if (pose_follows) sim_->set_stall_resews(settings_.stall_resews);
  }
  times.emplace_back("simulate", seconds_since(t0));
}

void DressSimulation::pose(const DressRig& rig) {
  if (!rig.moves_into_pose()) return;
  const auto t0 = std::chrono::steady_clock::now();
  Checkpoints& cp = *checkpoints_;
  posed_ = true;
  if (cp.resume_in_pose() || cp.resume_in_settle()) {
    sim_->load_state(cp.resume->pose_start, cp.resume->path.string());
    cp.rest_drape = cp.resume->meta["rest_drape"];
    rest_drape_.stop_reason = cp.rest_drape.value("stop_reason", "");
    rest_drape_.frames = cp.rest_drape.value("frames", 0);
  } else {
    rest_drape_ = drape_.report;
    cp.rest_drape = drape_report_to_json(rest_drape_);
  }
  rest_drape_json_ = cp.rest_drape.dump();
  if (cp.resume_in_settle()) return;  // the coarse drape is done: settle_fine goes on from the checkpoint
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
  bm.continuous_collision = job_.pose_continuous_collision;
  sim_->set_body_motion(std::move(bm));
  if (cp.resume_in_pose()) sim_->load_state(cp.resume->state, cp.resume->path.string());
  drape_ = sim_->run(on_frame("pose"));
  times.emplace_back("pose", seconds_since(t0));
}

void DressSimulation::settle_fine() {
  if (!coarse_mesh_) return;
  const auto t0 = std::chrono::steady_clock::now();
  Checkpoints& cp = *checkpoints_;
  const GarmentMesh& fine = garment_->mesh.garment;
  CoarseToFine c2f;
  c2f.distance = job_.coarse_distance;
  c2f.coarse_vertices = coarse_mesh_->garment.mesh.vertex_count();
  const bool resumed = cp.resume_in_settle();
  if (resumed) {
    cp.coarse = cp.resume->meta["coarse"];
    c2f.coarse.stop_reason = cp.coarse.value("stop_reason", "");
    c2f.coarse.frames = cp.coarse.value("frames", 0);
    c2f.carried = true;
  } else {
    c2f.coarse = drape_.report;
    cp.coarse = drape_report_to_json(c2f.coarse);
    c2f.carried = c2f.coarse.seam_pairs_joined == c2f.coarse.seam_pairs;
  }
  c2f.coarse_json = cp.coarse.dump();
  if (!c2f.carried) {
    // Open seams would start the fine mesh sewn where the coarse one is not:
    // drape the fine mesh from the start, as without a coarse distance (its
    // "simulate" and "pose" times follow the coarse ones).
    coarse_mesh_.reset();
    cp.resume.reset();
    posed_ = false;
    sim_ = std::make_shared<ClothSimulation>(fine, body_tree_, garment_->regions, fabric_, settings_);
    drape_at_rest();
    if (rig_) pose(*rig_);
    coarse_to_fine_ = std::move(c2f);
    times.emplace_back("settle", seconds_since(t0));
    return;
  }
  // The fine mesh where the coarse one is, every seam closed, on the final
  // body (the posed one when the pose stage moved it). Resumed: the state
  // comes from the checkpoint; the simulation is built on the fine mesh as
  // placed, which only sets where the fell-off rule measures from.
  // The posed body is skinned here, not taken from the coarse simulation (whose
  // last motion step interpolates to it, rounding included), so that a resumed
  // settle builds the same body tree.
  std::shared_ptr<const TriangleMeshBvh> body = body_tree_;
  if (posed_ && rig_) {
    TriangleMesh posed = rest_tree_->mesh();
    posed.positions =
        skin_points(posed.positions, {}, rig_->body_weights, rig_->pose, job_.skinning).positions;
    body = make_shared_tree(std::move(posed));
  }
  GarmentMesh carried = fine;
  if (!resumed) {
    carried.mesh.positions = transfer_positions(coarse_mesh_->garment, sim_->positions(), fine);
    close_seams(fine, carried.mesh.positions);
  }
  coarse_mesh_.reset();
  // The fine mesh settles with its own damping (DressJob::settle_air_damping).
  ClothSettings settle = settings_;
  settle.rest_air_damping = -1;
  if (job_.settle_air_damping > fabric_.air_damping) settle.air_damping = job_.settle_air_damping;
  sim_ = std::make_shared<ClothSimulation>(carried, body, garment_->regions, fabric_, settle);
  sim_->start_sewn();
  if (resumed) sim_->load_state(cp.resume->state, cp.resume->path.string());
  drape_ = sim_->run(on_frame("settle"));
  coarse_to_fine_ = std::move(c2f);
  times.emplace_back("settle", seconds_since(t0));
}

}  // namespace drape

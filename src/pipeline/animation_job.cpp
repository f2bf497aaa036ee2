#include "drape/pipeline/animation_job.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

#include "animation_checkpoint.h"
#include "animation_outputs.h"
#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/collision/intersection_count.h"
#include "drape/core/exceptions.h"
#include "drape/core/executor.h"
#include "drape/core/strings.h"
#include "drape/core/timing.h"
#include "drape/pipeline/body_rigging.h"
#include "drape/rig/body_rig.h"
#include "drape/rig/limb_clearance.h"
#include "drape/rig/skinning.h"

namespace drape {

namespace fs = std::filesystem;

namespace {

// Skin that moves with an upper arm (weight on it and the bones below at
// least this) is held clear of the torso: 0.6 takes in the inner upper arm
// down from the armpit, where a skinned arm sinks in first (docs/ANIMATION.md,
// "Arms kept clear of the torso").
constexpr double kArmClearanceWeight = 0.6;

bool has_rotation(const BvhJoint& j) {
  return std::any_of(j.channels.begin(), j.channels.end(), [](BvhChannel c) {
    return c == BvhChannel::x_rotation || c == BvhChannel::y_rotation || c == BvhChannel::z_rotation;
  });
}

// Per garment vertex its welded vertex (the rest drape's weld): the positions
// of the welded mesh are the means of the vertices welded into each.
std::vector<Vec3> welded_positions(const std::vector<Vec3>& x, const std::vector<int>& vertex_map,
                                   std::size_t welded_count) {
  std::vector<Vec3> sum(welded_count, Vec3{});
  std::vector<int> count(welded_count, 0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    sum[vertex_map[i]] += x[i];
    ++count[vertex_map[i]];
  }
  for (std::size_t v = 0; v < welded_count; ++v)
    if (count[v]) sum[v] = sum[v] * (1.0 / count[v]);
  return sum;
}

double max_displacement(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) d = std::max(d, norm(a[i] - b[i]));
  return d;
}

}  // namespace

MotionMapping map_motion(const Skeleton& skeleton, const BvhMotion& motion, const fs::path& motion_path,
                         const fs::path& map_path) {
  MotionMapping m;
  // Why no map could be guessed (the core roles it could not place), added
  // to the list of unplaced joints below.
  std::string guess_problem;
  if (!map_path.empty()) {
    m.map = read_joint_map(map_path.string());
  } else {
    try {
      m.map = guess_joint_map(skeleton, motion);
    } catch (const InvalidInput& e) {
      guess_problem = e.what();
    }
  }
  std::vector<std::string> placed;
  for (const auto& [bone, joint] : m.map) placed.push_back(joint);
  for (const BvhJoint& j : motion.joints) {
    if (!has_rotation(j)) continue;
    ++m.rotating_joints;
    if (std::find(placed.begin(), placed.end(), j.name) == placed.end()) m.unplaced.push_back(j.name);
  }
  const std::size_t placed_count = m.rotating_joints - m.unplaced.size();
  if (m.rotating_joints == 0 || 2 * placed_count < m.rotating_joints) {
    std::string names;
    for (std::size_t k = 0; k < m.unplaced.size() && k < 20; ++k) names += (k ? ", " : "") + m.unplaced[k];
    if (m.unplaced.size() > 20) names += " and " + std::to_string(m.unplaced.size() - 20) + " more";
    throw InvalidInput(motion_path.string(), 0,
                       "cannot map the motion onto skeleton '" + skeleton.name +
                           "': " + std::to_string(m.unplaced.size()) + " of " +
                           std::to_string(m.rotating_joints) + " joints could not be placed (" + names +
                           (guess_problem.empty() ? "); give a joint map with --map {\"bone\": \"bvh joint\"}"
                                                  : "); " + guess_problem));
  }
  return m;
}

void AnimationJob::Validate() const {
  if (!dress.motion_path.empty() || !dress.out_dir.empty())
    throw InvalidInput("animation: the rest drape's motion and output folder must be empty");
  if (motion_path.empty()) throw InvalidInput("--motion: no BVH motion given");
  if (!fs::exists(motion_path)) throw InvalidInput(motion_path.string(), 0, "file not found");
  if (dress.skeleton_path.empty() && dress.skeleton_candidates.empty())
    throw InvalidInput("--motion: needs a skeleton (--skeleton)");
  if (out_dir.empty()) throw InvalidInput("--out: no output folder given");
  if (fs::exists(out_dir) && !fs::is_directory(out_dir))
    throw InvalidInput(out_dir.string(), 0, "output path exists and is not a folder");
  if (first_frame < 0 || (last_frame >= 0 && last_frame < first_frame))
    throw InvalidInput("--frames: expected A:B with 0 <= A <= B");
  if (!(fps >= 0) || !std::isfinite(fps)) throw InvalidInput("--fps: must be a positive number");
  if (blend_frames < 1 || blend_frames > 100000 || settle_frames < 0 || settle_frames > 100000)
    throw InvalidInput("--blend-frames must be 1..100000 and --settle-frames 0..100000");
  if (!(step_motion_thickness > 0) || max_substeps < 1 || max_substeps > 100000)
    throw InvalidInput("animation stepping: step motion must be > 0 and max substeps 1..100000");
  if (!(arm_clearance >= 0 && arm_clearance <= 0.2)) throw InvalidInput("--arm-clearance: must be 0..200 mm");
  if (!(leg_clearance >= 0 && leg_clearance <= 0.2)) throw InvalidInput("--leg-clearance: must be 0..200 mm");
  if (untangle_iterations < 0 || untangle_iterations > 100000)
    throw InvalidInput("--untangle-iterations: must be 0..100000");
  if (sheet_frames < 0 || sheet_frames > 100) throw InvalidInput("--sheet-frames: must be 0..100");
  if (checkpoint_every < 0) throw InvalidInput("--checkpoint-every: must be 0 or more");
  if (!resume_from.empty() && !fs::exists(resume_from))
    throw InvalidInput(resume_from.string(), 0, "no checkpoint to resume from");
  dress.Validate();
}

AnimationResult AnimationJob::Run() const {
  Validate();
  using clock = std::chrono::steady_clock;
  const auto t_start = clock::now();
  auto report = [&](const std::string& stage, int frame = 0, int max_frames = 0, double left = -1) {
    if (progress)
      progress(DressProgress{.stage = stage, .frame = frame, .max_frames = max_frames, .seconds_left = left});
  };

  // The motion, its frame range and its mapping: checked before any drape.
  report("load");
  const BvhMotion motion = read_bvh(motion_path);
  if (motion.frame_count() == 0) throw InvalidInput(motion_path.string(), 0, "the motion has no frames");
  const long last = last_frame < 0 ? static_cast<long>(motion.frame_count()) - 1 : last_frame;
  if (last >= static_cast<long>(motion.frame_count()) || first_frame > last)
    throw InvalidInput(motion_path.string(), 0,
                       "--frames " + std::to_string(first_frame) + ":" + std::to_string(last) +
                           " out of range (" + std::to_string(motion.frame_count()) + " frames, first is 0)");
  const long cache_frames = last - first_frame + 1;
  if (cache_frames > max_cache_frames)
    throw InvalidInput(motion_path.string(), 0,
                       std::to_string(cache_frames) + " frames asked for, at most " +
                           std::to_string(max_cache_frames) +
                           " per run (memory): choose a range with --frames");
  const double frame_seconds = fps > 0 ? 1.0 / fps : motion.frame_time;
  if (!(frame_seconds > 1e-4 && frame_seconds < 10))
    throw InvalidInput(motion_path.string(), 0,
                       "frame time " + std::to_string(motion.frame_time) +
                           " s is not usable (0.1 ms .. 10 s); give the rate with --fps");

  // Checkpoints: the rest drape's (checkpoint.bin) and the animation's
  // (animation.bin) in one folder; a resume reads both from its folder.
  const fs::path checkpoint_dir = out_dir / "checkpoint";
  const std::string fingerprint = animation_fingerprint(*this);
  std::optional<AnimationCheckpoint> resumed;
  fs::path resumed_file;
  DressJob dj = dress;
  if (!resume_from.empty()) {
    const fs::path from = animation_checkpoint_dir(resume_from);
    resumed_file = from / "animation.bin";
    resumed = read_animation_checkpoint(from, fingerprint);
    if (fs::exists(from / "checkpoint.bin"))
      dj.resume_from = from / "checkpoint.bin";
    else if (!resumed)
      throw InvalidInput(resume_from.string(), 0, "no checkpoint to resume from");
  }
  dj.checkpoint_dir = checkpoint_dir;
  dj.checkpoint_every = checkpoint_every;
  dj.keep_simulation = true;
  dj.write_render = false;
  dj.stop_requested = stop_requested;
  dj.progress = progress;
  // A glTF body's own skin is turned with the body as the user's --up,
  // --front and --body-unit read it: the body is loaded here for that, and
  // the dress job takes it as read (the file is opened once).
  RigFiles files;
  if (const std::string ext = lower_extension(dj.body_path);
      dj.skeleton_path.empty() && !dj.loaded_body && (ext == ".glb" || ext == ".gltf")) {
    dj.loaded_body = std::make_shared<const Body>(load_body(dj.body_path, dj.body_load_options()));
    files.add_dressed_body(dj.body_path, *dj.loaded_body);
  }
  const TemplateRig template_rig =
      dj.skeleton_path.empty()
          ? default_template_rig(dj.body_path, dj.skeleton_candidates, &motion, dj.template_body_path,
                                 dj.weights_path, dj.skeleton_path, &files)
          : load_template_rig(dj.skeleton_path, dj.template_body_path, dj.weights_path);
  const MotionMapping mapping = map_motion(template_rig.skeleton, motion, motion_path, joint_map_path);

  // The rest drape.
  AnimationResult result;
  result.frame_seconds = frame_seconds;
  result.blend_frames = blend_frames;
  result.settle_frames = settle_frames;
  result.dress = dj.Run();
  DressResult& d = result.dress;
  result.warnings = d.warnings;
  if (!mapping.unplaced.empty()) {
    std::string names;
    for (const std::string& n : mapping.unplaced) names += (names.empty() ? "" : ", ") + n;
    result.warnings.push_back("motion joints not placed (they move with their parent): " + names);
  }
  ClothSimulation& sim = *d.simulation;
  const Executor& ex = dj.cloth.executor ? *dj.cloth.executor : Executor::global();

  // Poses: rest, the blend into the first frame, held, then every cache frame.
  report("rig");
  std::vector<Pose> poses{Pose::identity(d.skeleton.size())};
  const Pose first_pose =
      retarget_bvh_frame(d.skeleton, motion, static_cast<std::size_t>(first_frame), mapping.map).pose;
  for (int k = 1; k <= blend_frames; ++k)
    poses.push_back(interpolate_from_rest(d.skeleton, first_pose, static_cast<double>(k) / blend_frames));
  poses.back() = first_pose;
  for (int k = 0; k < settle_frames; ++k) poses.push_back(first_pose);
  const int cache_start = static_cast<int>(poses.size()) - 1;  // simulation frame of cache frame 0
  for (long f = first_frame + 1; f <= last; ++f)
    poses.push_back(retarget_bvh_frame(d.skeleton, motion, static_cast<std::size_t>(f), mapping.map).pose);
  const int sim_frames = static_cast<int>(poses.size()) - 1;

  const TriangleMesh rest_body = d.body;
  // Thighs are held apart only for a garment with legs (the fit check found
  // its leg rings): between the legs of a skirt or a top there is no cloth,
  // and the turn changes the motion.
  const bool garment_has_legs = d.fit && std::any_of(d.fit->girths.begin(), d.fit->girths.end(),
                                                     [](const GirthFit& g) { return g.name == "thigh"; });
  const double leg_gap = garment_has_legs ? leg_clearance : 0.0;
  // Arms that skinning sinks into the torso, and thighs pressed into each
  // other, turn out until they clear.
  std::vector<double> arm_turn(poses.size(), 0.0), leg_turn(poses.size(), 0.0);
  if (arm_clearance > 0 || leg_gap > 0) {
    LimbClearance clearance(d.skeleton, rest_body, d.body_weights, dress.skinning,
                            {.gap = arm_clearance, .leg_gap = leg_gap, .limb_weight = kArmClearanceWeight});
    int arms_blocked = 0, legs_blocked = 0;
    std::vector<LimbTurn> turns;
    for (std::size_t i = 1; i < poses.size(); ++i) {
      poses[i] = clearance.apply(poses[i], &turns);
      for (const LimbTurn& t : turns) {
        (t.leg ? leg_turn : arm_turn)[i] = std::max((t.leg ? leg_turn : arm_turn)[i], t.degrees);
        (t.leg ? legs_blocked : arms_blocked) += t.after < (t.leg ? 0.5 * leg_gap : arm_clearance);
      }
    }
    if (arms_blocked > 0)
      result.warnings.push_back(
          "arm clearance: in " + std::to_string(arms_blocked) + " arm poses the arm stays closer than " +
          std::to_string(static_cast<int>(arm_clearance * 1000)) + " mm to the torso at the largest turn");
    if (legs_blocked > 0)
      result.warnings.push_back("leg clearance: in " + std::to_string(legs_blocked) +
                                " leg poses the legs stay closer than about " +
                                std::to_string(static_cast<int>(leg_gap * 1000)) +
                                " mm to each other at the largest turn");
  }
  auto body_in_pose = [&](int f) {
    return skin_points(rest_body.positions, {}, d.body_weights, poses[f], dress.skinning).positions;
  };
  const SkinWeights cloth_weights =
      weights_from_nearest_body_point(rest_body, d.body_weights, sim.positions());
  int next_frame = -1;
  std::vector<Vec3> next_body;
  BodyMotion bm;
  bm.frames = sim_frames;
  bm.body_at = [&](int f) {
    if (f != next_frame) return body_in_pose(f);
    return next_body;
  };
  bm.carry_cloth = [&](int f, std::vector<Vec3>& x) {
    x = skin_points(x, {}, cloth_weights, pose_delta(poses[f - 1], poses[f]), dress.skinning).positions;
  };
  sim.set_body_motion(std::move(bm));
  sim.set_motion_untangle_iterations(untangle_iterations);
  // The strain limit shapes the garment at rest; in motion the body may ask
  // for more length than the limit gives (trousers on legs spread wide), and
  // cloth held to it is cut through by the body: the trousers on the jumping
  // jacks were clean in 104 of 125 frames with it, 111 without
  // (docs/ANIMATION.md "Legs kept apart").
  sim.set_strain_limit(0);
  // The motion is dynamics: the cloth swings with the fabric's own air
  // damping (the rest drape was damped more to reach its rest sooner,
  // DressJob::drape_air_damping).
  sim.set_rest_air_damping(dj.cloth.rest_air_damping);

  // Step frame by frame; keep the cache frames.
  const double rest_dt = sim.step_size();
  const double thickness = dj.cloth.thickness;
  const std::vector<int>& vmap = d.drape.vertex_map;
  TriangleMesh garment_now = d.drape.mesh;  // welded at the rest drape's seams
  AnimationCaches caches;
  int first_sim_frame = 1;
  if (resumed) {
    if (resumed->frames_done > sim_frames ||
        static_cast<std::size_t>(std::max(0, resumed->frames_done - cache_start + 1)) !=
            resumed->frames.size())
      throw InvalidInput(resumed_file.string(), 0, "checkpoint frames do not fit this animation");
    sim.load_state(resumed->cloth_state, resumed_file.string());
    result.frames = std::move(resumed->frames);
    caches = std::move(resumed->caches);
    first_sim_frame = resumed->frames_done + 1;
    result.resumed_from = resumed_file;
    result.resumed_frames = resumed->frames_done;
  }
  const double cone = dj.cloth.self_cone_angle_degrees * 3.14159265358979323846 / 180;
  bool capped = resumed && resumed->capped;
  auto save_checkpoint = [&](int frames_done) {
    write_animation_checkpoint(checkpoint_dir, fingerprint,
                               AnimationCheckpoint{.frames_done = frames_done,
                                                   .capped = capped,
                                                   .frames = result.frames,
                                                   .caches = caches,
                                                   .cloth_state = sim.save_state()});
  };
  const auto t_anim = clock::now();
  for (int f = first_sim_frame; f <= sim_frames; ++f) {
    // Frame granularity: a stop saves the state after frame f-1.
    if (stop_requested && stop_requested->load()) {
      save_checkpoint(f - 1);
      throw Interrupted("interrupted at animation frame " + std::to_string(f) + " of " +
                        std::to_string(sim_frames) + "; resume with --resume " + out_dir.string());
    }
    if (checkpoint_every > 0 && f > first_sim_frame && (f - 1) % checkpoint_every == 0)
      save_checkpoint(f - 1);
    const auto t_frame = clock::now();
    next_body = body_in_pose(f);
    next_frame = f;
    const double moved = max_displacement(next_body, sim.body().positions);
    int steps = std::max(1, static_cast<int>(std::ceil(frame_seconds / rest_dt - 1e-9)));
    steps = std::max(steps, static_cast<int>(std::ceil(moved / (step_motion_thickness * thickness))));
    if (steps > max_substeps) {
      steps = max_substeps;
      capped = true;
    }
    // A diverged frame is rolled back by the simulation and retried with half the step.
    for (int tries = 0;; ++tries) {
      sim.set_frame_stepping(frame_seconds, steps);
      if (sim.advance_frame()) break;
      if (tries >= dj.cloth.max_step_halvings)
        throw SolverError("cloth simulation diverged at animation frame " + std::to_string(f) + " with " +
                          std::to_string(steps) + " steps per frame; nothing written");
      steps *= 2;
    }
    if (f < cache_start) {
      report(f <= blend_frames ? "blending" : "settling", f, cache_start);
      continue;
    }
    // A cache frame: keep it and measure it.
    AnimationFrameReport fr;
    fr.motion_frame = first_frame + (f - cache_start);
    fr.steps = steps;
    fr.body_motion_m = moved;
    fr.arm_turn_degrees = arm_turn[static_cast<std::size_t>(f)];
    fr.leg_turn_degrees = leg_turn[static_cast<std::size_t>(f)];
    garment_now.positions = welded_positions(sim.positions(), vmap, d.drape.mesh.vertex_count());
    const TriangleMesh& body_now = sim.body();
    const TriangleMeshBvh tree(body_now, BvhBuildOptions{}, ex);
    const IntersectionCounts c = count_intersections(tree, garment_now, cone, ex);
    fr.vertices_inside_body = c.vertices_inside_body;
    fr.body_crossing_pairs = c.body_crossing_pairs;
    fr.self_crossing_pairs = c.self_crossing_pairs;
    const DrapeReport m = sim.measure();
    fr.seam_pairs_open = m.seam_pairs - m.seam_pairs_joined;
    fr.max_seam_gap = m.max_seam_gap;
    fr.strain_max = m.strain_max;
    const long k = fr.motion_frame - first_frame;
    caches.garment.push_back(garment_now.positions);
    caches.body.push_back(body_now.positions);
    fr.wall_s = seconds_since(t_frame);
    result.frames.push_back(fr);
    const double per_frame = seconds_since(t_anim) / (f - first_sim_frame + 1);
    report("animating", static_cast<int>(k + 1), static_cast<int>(cache_frames),
           per_frame * (sim_frames - f));
  }
  if (capped)
    result.warnings.push_back("steps per frame capped at " + std::to_string(max_substeps) +
                              ": the body moved more than " + std::to_string(step_motion_thickness) +
                              " thicknesses per step in some frames (--max-substeps)");
  if (cache_frames > max_glb_frames)
    result.warnings.push_back("animation.glb skipped: " + std::to_string(cache_frames) +
                              " frames (it holds frames^2 morph weights; at most " +
                              std::to_string(max_glb_frames) + "); the .pc2 caches hold every frame");

  // Outputs: staged, then moved into out_dir.
  report("write");
  AnimationOutputInfo info{.job = *this,
                           .motion_frames = motion.frame_count(),
                           .mapped_bones = mapping.map.size(),
                           .last_frame = last,
                           .seconds_total = seconds_since(t_start),
                           .seconds_animation = seconds_since(t_anim)};
  write_animation_outputs(result, caches, info);
  // The job is complete: its checkpoints are no longer needed.
  std::error_code ec;
  fs::remove_all(checkpoint_dir, ec);
  return result;
}

}  // namespace drape

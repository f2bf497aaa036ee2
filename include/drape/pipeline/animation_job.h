#pragma once
// The job behind `drape animate`: the garment worn through a whole BVH motion
// and handed over as caches animation tools open.
//
//   1. the rest drape: a DressJob (no pose), keeping its simulation;
//   2. the body blends from rest into the motion's first frame over
//      `blend_frames` frames and holds it for `settle_frames`;
//   3. the garment is stepped through every motion frame of the range, one
//      simulation frame per motion frame (1/fps s), the body skinned (LBS or
//      DQS) from the retargeted BVH and the cloth carried by its nearest body
//      point's weights; steps per frame follow the body's speed.
//
// Outputs (in the body file's unit and axes) go to a staging folder beside
// out_dir and are moved into out_dir only when everything succeeded:
// garment.obj + garment.pc2, body.obj + body.pc2 (Point Cache 2, one sample
// per cache frame, same vertex order as the OBJ beside it), animation.glb
// (morph targets per frame), contact_sheet.png and report.json.

#include <atomic>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "drape/pipeline/dress_job.h"
#include "drape/rig/bvh_motion.h"
#include "drape/rig/retarget.h"

namespace drape {

/// One cache frame's measures (the garment welded at the rest drape's seams).
struct AnimationFrameReport {
  long motion_frame = 0;     ///< frame of the BVH file
  int steps = 0;             ///< simulation steps taken for this frame
  double body_motion_m = 0;  ///< largest body vertex displacement since the previous frame, m
  /// The larger outward turn of an upper arm that kept the arms clear of the
  /// torso in this frame (AnimationJob::arm_clearance), degrees.
  double arm_turn_degrees = 0;
  /// The larger outward turn of an upper leg that kept the legs clear of each
  /// other in this frame (AnimationJob::leg_clearance), degrees.
  double leg_turn_degrees = 0;
  std::size_t vertices_inside_body = 0, body_crossing_pairs = 0, self_crossing_pairs = 0;
  std::size_t seam_pairs_open = 0;
  double max_seam_gap = 0;  ///< m
  double strain_max = 0;
  double wall_s = 0;  ///< simulation and measurement of this frame
};

struct AnimationResult {
  DressResult dress;  ///< the rest drape (its simulation has moved on since)
  std::vector<AnimationFrameReport> frames;
  double frame_seconds = 0;  ///< simulated time per motion frame
  int blend_frames = 0, settle_frames = 0;
  std::string report_json;
  std::vector<std::string> warnings;
  std::vector<std::filesystem::path> written;  ///< files in out_dir
  /// The animation checkpoint a resumed run went on from (empty: not
  /// resumed) and the simulation frames it held.
  std::filesystem::path resumed_from;
  int resumed_frames = 0;
};

/// Which BVH joints a map places (drives a bone) and which it does not.
struct MotionMapping {
  JointNameMap map;
  std::vector<std::string> unplaced;  ///< BVH joints with rotation channels no bone follows
  std::size_t rotating_joints = 0;    ///< BVH joints with rotation channels
};

/// The joint map for `motion` on `skeleton` (read from `map_path`, else
/// guessed) and the BVH joints it leaves unplaced.
/// \throw InvalidInput naming the motion file and the joints it could not
///        place when fewer than half of its rotating joints map to a bone
///        (every joint when guess_joint_map finds no map: then also the core
///        roles it could not place).
MotionMapping map_motion(const Skeleton& skeleton, const BvhMotion& motion,
                         const std::filesystem::path& motion_path,
                         const std::filesystem::path& map_path = {});

struct AnimationJob {
  /// The rest drape: body, pattern, fabric, mesh and cloth settings, skeleton
  /// (or skeleton_candidates), template body, weights and skinning. Its
  /// motion_path and out_dir must be empty (this job sets what it needs).
  DressJob dress;
  std::filesystem::path motion_path;     ///< BVH
  std::filesystem::path joint_map_path;  ///< JSON {"bone": "bvh joint"}; empty = guessed
  long first_frame = 0;                  ///< first BVH frame of the cache (0-based)
  long last_frame = -1;                  ///< last BVH frame of the cache; -1 = the file's last
  double fps = 0;                        ///< motion frames per second; 0 = the BVH's frame time
  int blend_frames = 30;                 ///< frames from the rest pose into the first frame
  int settle_frames = 10;                ///< frames held at the first frame before the cache starts
  /// Steps per frame: at least the rest drape's step size, and enough that
  /// no body vertex moves more than `step_motion_thickness` collision
  /// thicknesses in one step; at most max_substeps (a warning says when the
  /// cap was hit).
  double step_motion_thickness = 1.0;
  int max_substeps = 400;
  /// Contour minimisation steps over the whole garment after every simulated
  /// frame of the motion (blend, hold and cache frames): crossings the motion
  /// forces are untangled instead of kept (ClothSimulation::
  /// set_motion_untangle_iterations); 0 = off.
  int untangle_iterations = 20;
  /// Upper arms whose skin the pose brings closer than this (metres) to the
  /// torso are turned outward until it clears (rig/limb_clearance.h): a
  /// skinned arm hanging at the side sinks into the torso, and the sleeve and
  /// bodice between them have no room. 0 = the arms as skinned.
  double arm_clearance = 0.03;
  /// Upper legs whose skins the pose brings closer than about this (metres)
  /// to each other (feet together: skinned thighs press into each other and
  /// trap the trouser legs between them) are turned outward likewise, for a
  /// garment with legs only (the fit check found leg rings): the turn
  /// changes the motion. 0 = the legs as skinned.
  double leg_clearance = 0.02;
  /// At most this many cache frames (memory: every frame of body and garment
  /// is kept for the caches).
  long max_cache_frames = 10000;
  /// animation.glb holds frames^2 morph weights: written only up to this many frames.
  long max_glb_frames = 600;
  int sheet_frames = 8;  ///< contact sheet cells (0 = no contact sheet)
  /// preview.mp4: every cache frame from the front, encoded by `ffmpeg` (a
  /// path or a name on PATH) when it is installed; skipped with a note in
  /// report.json ("preview_mp4") and a warning when it is not.
  bool preview_mp4 = true;
  std::string ffmpeg = "ffmpeg";
  std::filesystem::path out_dir;
  /// Every N simulation frames (0 = only when stopped) the animation's state
  /// is saved to out_dir/checkpoint/animation.bin, and the rest drape's to
  /// checkpoint.bin beside it; the folder is removed when the job completes.
  int checkpoint_every = 0;
  /// Continue from the checkpoint of an earlier run of the same job (its
  /// out_dir, or the checkpoint folder or a file in it): the rest drape is
  /// recomputed (from its checkpoint when there is one), then the animation
  /// goes on from the frame after the saved one. Inputs and settings must match.
  std::filesystem::path resume_from;
  /// When it becomes true (SIGINT/SIGTERM), the job saves a checkpoint after
  /// the current frame and throws Interrupted; no output is written.
  const std::atomic<bool>* stop_requested = nullptr;
  std::function<void(const DressProgress&)> progress;

  /// \throw InvalidInput naming the bad input.
  void Validate() const;
  /// \throw InvalidInput / IoError for bad inputs (a motion that cannot be
  ///        mapped names the joints it could not place), SolverError when the
  ///        cloth diverged, Interrupted when stop_requested became true (after
  ///        saving a checkpoint in out_dir/checkpoint/). On any other failure
  ///        out_dir is not created or changed.
  AnimationResult Run() const;
};

}  // namespace drape

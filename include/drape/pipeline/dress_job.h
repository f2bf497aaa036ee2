#pragma once
// The whole job behind `drape dress` and `drape demo`: load the body and the
// pattern, place the panels by alias, mesh, sew and drape, optionally pose,
// measure, and write the results (garment.obj, scene.glb, render.png,
// report.json) into one folder.
//
// A plain job struct in the ozz-animation style: fill the inputs, call
// Validate(), then Run(); the outputs are in the returned DressResult.

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "drape/body/body_axes.h"
#include "drape/body/body_loader.h"
#include "drape/body/garment_fit.h"
#include "drape/cloth/cloth_simulation.h"
#include "drape/geometry/units.h"
#include "drape/rig/skeleton.h"
#include "drape/rig/skin_weights.h"
#include "drape/rig/skinning.h"

namespace drape {

/// One progress event for a terminal display.
struct DressProgress {
  std::string stage;  ///< "load", "rig", "mesh", "place", "sewing", "draping", "posing", "measure", "write"
  int frame = 0, max_frames = 0;
  double steps_per_second = 0;
  double seconds_left = -1;  ///< estimate, < 0 when unknown
};

/// What a dress run produced.
struct DressResult {
  /// Metres, drape's canonical frame (+Y up, facing +Z); posed when a pose
  /// was asked for. Output files are turned back by body_axes.
  TriangleMesh body;
  LengthUnit body_unit = LengthUnit::metre;  ///< the body file's unit (outputs use it)
  BodyAxes body_axes;                        ///< the body file's up and front axes
  DrapeResult drape;                         ///< garment mesh (metres), strain, report
  /// The full report (also written as report.json): inputs, hashes, settings,
  /// version, measures, times per stage. JSON text.
  std::string report_json;
  std::vector<std::string> warnings;
  std::vector<std::filesystem::path> written;  ///< files written, in order
  /// The fit check on the garment that was simulated (graded when `grade`
  /// changed it); empty when the check could not run (a warning says why).
  std::optional<FitReport> fit;
  /// With `grade`, when the pattern was graded: the check before grading.
  std::optional<FitReport> fit_before_grading;
  /// With a skeleton: the skeleton, the body's weights (per body vertex), the
  /// pose the outputs are in (identity without a motion) and the garment's
  /// weights (per garment vertex, from the nearest body point).
  bool rigged = false;
  Skeleton skeleton;
  SkinWeights body_weights, garment_weights;
  Pose pose;
  /// The garment draped on the rest body, before posing (empty without a pose).
  DrapeReport rest_drape;
  /// With DressJob::keep_simulation: the simulation in its final state (it owns
  /// copies of the garment and body, so it outlives the job) and the sewn panels
  /// it was built from (panel names for OBJ groups), for a stage that goes on
  /// from the drape (an animation, pipeline/animation_job.h).
  std::shared_ptr<ClothSimulation> simulation;
  GarmentMesh garment;
};

struct DressJob {
  // --- inputs ---
  std::filesystem::path body_path;  ///< .obj/.gltf/.glb
  /// OBJ group: nullopt = `body` when the file has it, else all faces; "" = all faces.
  std::optional<std::string> body_group;
  std::optional<LengthUnit> body_unit;   ///< nullopt = detect
  std::optional<SignedAxis> body_up;     ///< the file's up axis; nullopt = detect
  std::optional<SignedAxis> body_front;  ///< the axis the body faces in the file; nullopt = detect
  /// The body already read from body_path with the options above (a caller
  /// that needed it first: `drape animate` picks a glTF body's own skin
  /// before the job runs); null = the job reads it. Used as given.
  std::shared_ptr<const Body> loaded_body;
  /// How body_path is read: the options above.
  BodyLoadOptions body_load_options() const {
    return {.group = body_group, .unit = body_unit, .up = body_up, .front = body_front};
  }
  std::filesystem::path pattern_path;          ///< GarmentCode .json or .svg (+ sidecar)
  std::map<std::string, std::string> aliases;  ///< panel -> alias overrides
  std::string fabric = "cotton";               ///< preset name or a fabric .json file
  /// Grain line of every panel, degrees counter-clockwise from the panel's
  /// vertical in its 2D pattern frame (`--grain-angle`); nullopt = the pattern's
  /// own (the vertical: no supported format names a grain line).
  std::optional<double> grain_angle_deg;
  /// Per panel (by name): its grain line, degrees as above; overrides
  /// grain_angle_deg. A name that is no panel of the pattern is refused.
  std::map<std::string, double> panel_grain_deg;
  double particle_distance = 0.02;  ///< m
  /// Coarse-to-fine draping (docs/CLOTH.md "Coarse to fine"): when larger
  /// than particle_distance, the garment is sewn, draped and posed meshed at
  /// this distance (m), then its state is carried to the mesh at
  /// particle_distance, sewn, on the final body, which settles from there.
  /// 0 (or not larger than particle_distance) = off: one mesh throughout.
  /// The default, 20 mm (the draft resolution), is on for finer meshes only:
  /// on the four reference garments at 10 mm it is as clean with 27-56 % less CPU
  /// (docs/PERFORMANCE.md "Coarse to fine at 10 mm").
  double coarse_distance = 0.02;
  /// Coarse to fine: the air damping (1/s) of the fine mesh's settle when
  /// larger than the fabric's. The carried garment only has to come to rest
  /// (the damping force vanishes there), but the fine cloth's rest is not
  /// the coarse one's (hems up to 4 cm away on the 10 mm shirt), and with the
  /// fabric's 1/s it swings there and back for about 100-200 frames
  /// (docs/PERFORMANCE.md "Settle damping at 10 mm"). More makes that long,
  /// smooth move creep, and the equilibrium rule (a speed) stops it short:
  /// at 6/s the 10 mm shirt stops 17 mm (p99) from where 200 more frames
  /// take it, at 2/s 5.5 mm. 0 = the fabric's.
  double settle_air_damping = 2.0;
  /// The air damping (1/s) of the drape and of the move into the pose once
  /// every seam pair is joined, when larger than the fabric's
  /// (ClothSettings::rest_air_damping): only the rest matters there, and with
  /// the fabric's 1/s the hems swing past it and back. At 6/s the shared
  /// patterns come to rest in 40-60 % fewer frames, and the 20 mm shirt stops
  /// nearer its rest than at 1/s (docs/PERFORMANCE.md "The drape damped once
  /// sewn"). 0 = the fabric's. `drape animate` gives the motion the fabric's own.
  double drape_air_damping = 6.0;
  std::string mesh_method = "quality";  ///< "quality" or "grid" (the paper's)
  /// When set, the sewn start is written here before simulating (the placed
  /// garment, its seam pairs and the body it is sewn on; write_dress_start),
  /// for a peer to drape from the same start (bench/peers/blender_dress.py).
  std::filesystem::path write_start_dir;
  /// Integrator, substeps, frame limit, thickness ...; a dressed garment's
  /// edges are limited to 10 % stretch once its seams are closed
  /// (ClothSettings::strain_limit; docs/CLOTH.md "Strain limiting").
  ClothSettings cloth = [] {
    ClothSettings s;
    s.strain_limit = 0.1;
    return s;
  }();

  // --- rig and pose (optional) ---
  /// The body's skeleton (.mhskel, or a skinned .glb/.gltf): scene.glb is then
  /// skinned to it. Empty with a motion: the candidate that maps most of the
  /// motion's joints is used.
  std::filesystem::path skeleton_path;
  std::vector<std::filesystem::path> skeleton_candidates;
  std::filesystem::path template_body_path;  ///< the body the skeleton was made for (see load_template_rig)
  std::filesystem::path weights_path;        ///< MakeHuman .mhw (default: beside the skeleton)
  /// A BVH motion and the frame to pose in: the garment is draped on the rest
  /// body, then the body moves into the pose over `pose_transition_frames`
  /// frames while the garment follows (skinned by its nearest body point's
  /// weights) and settles in the simulator.
  std::filesystem::path motion_path;
  long motion_frame = 0;
  std::filesystem::path joint_map_path;  ///< JSON {"bone": "bvh joint"}; empty = guessed
  SkinningMethod skinning = SkinningMethod::linear_blend;
  int pose_transition_frames = 20;
  /// From the moment the body starts moving into the pose (the arms lowered
  /// after sewing, or a motion's frame) to the rest in it, the cloth is swept
  /// against the body (BodyMotion::continuous_collision): cloth caught where
  /// an arm meets the torso is otherwise cut by the closing crease, and once
  /// the arms stop it jittered there under the discrete response
  /// (docs/CLOTH.md "While the body moves into the pose"). The drape before
  /// is as cloth.continuous_collision says.
  bool pose_continuous_collision = true;
  /// The garment is sewn on the body with its upper arms raised to this many
  /// degrees below the horizontal (0 = a T-pose: the arms clear of the
  /// armpits and the hips, the pose sleeves are drafted for), rigged with the
  /// skeleton (or the first candidate); then the arms come down to the body's
  /// own pose (or the motion's) over pose_transition_frames while the garment
  /// follows, and it settles there (rig/arm_raise.h; docs/PATTERNS.md "Sewn
  /// with the arms raised"). It is sewn on the body as it stands when this is
  /// nullopt, no skeleton or candidate is given, the arms hang no more than 5
  /// degrees lower already, or the body cannot be rigged (a warning says why).
  std::optional<double> dressing_arm_angle = 0;
  /// Fail (SolverError) when the run ends at the frame limit instead of equilibrium,
  /// or (before simulating) when the fit check finds the garment too small.
  bool strict = false;
  /// When the fit check finds the garment too small, grade the pattern to the
  /// body before simulating (body/pattern_grading.h, wearing ease `grade_ease`).
  bool grade = false;
  double grade_ease = 0.04;
  /// XPBD iterations once every seam is joined for a garment held up by a
  /// ring round the body (a skirt's or trousers' opening: the fit check's
  /// FitReport::opening): the larger of this and cloth.closed_solver_iterations.
  /// With 4 such a ring is soft enough to stretch over hips 6 % larger than it
  /// and slide off (docs/CLOTH.md, "Garments held by a ring"); shirts keep
  /// theirs. 0 or less: as cloth.closed_solver_iterations.
  int ring_held_closed_iterations = 8;
  /// Where results go; created when missing. Empty = write nothing.
  std::filesystem::path out_dir;
  bool write_render = true;
  /// Keep the simulation and the sewn panels in DressResult (see there).
  bool keep_simulation = false;
  /// Every N frames (0 = never) the cloth state is saved to out_dir/checkpoint/
  /// (one file, written atomically); the folder is removed when the job completes.
  int checkpoint_every = 0;
  /// Where checkpoints go instead of out_dir/checkpoint/ (an animation keeps
  /// its rest drape's checkpoint beside its own; pipeline/animation_job.h).
  std::filesystem::path checkpoint_dir;
  /// Continue from the checkpoint of an earlier run of the same job: its
  /// out_dir, or the checkpoint folder or file. Inputs and settings must match.
  std::filesystem::path resume_from;
  /// When it becomes true (e.g. set by a SIGINT/SIGTERM handler), the job
  /// saves a checkpoint (with an out_dir) after the current frame and throws
  /// Interrupted. Outputs are not written.
  const std::atomic<bool>* stop_requested = nullptr;
  /// Optional progress display.
  std::function<void(const DressProgress&)> progress;

  /// Checks the inputs before any work.
  /// \throw InvalidInput naming the bad input.
  void Validate() const;

  /// Runs the job. Output files are written atomically, and only after the
  /// simulation succeeded.
  /// \throw InvalidInput / IoError for bad inputs (or a checkpoint of another
  ///        job), SolverError when the drape diverged (or with `strict`, did not
  ///        reach equilibrium), Interrupted when stop_requested became true.
  DressResult Run() const;
};

}  // namespace drape

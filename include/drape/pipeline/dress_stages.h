#pragma once
// The stages of `drape dress`, in the order DressJob::Run calls them. Each is
// a plain function (or, for the simulation, a small class) from typed inputs
// to a typed result, so that it can run and be tested alone:
//
//   load_dress_inputs   body + pattern (each read and hashed once), fabric,
//                       the one body query tree         (dress_load.cpp)
//   rig_dress_body      skeleton, weights, pose; only when the job asks
//                       for a skeleton or a pose         (dress_rig.cpp)
//   prepare_garment     body landmarks and regions, mesh, place, fit check,
//                       grading                           (dress_garment.cpp)
//   DressSimulation     sew and drape on the rest body, then pose; checkpoints
//                       and resume                        (dress_simulation.cpp)
//   dress report        report.json                      (dress_report.cpp, private)
//   write_dress_outputs garment.obj, scene.glb, render.png (dress_outputs.cpp)

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "drape/body/body_loader.h"
#include "drape/body/garment_fit.h"
#include "drape/body/pattern_grading.h"
#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/cloth/cloth_simulation.h"
#include "drape/cloth/fabric.h"
#include "drape/landmarks/body_frame.h"
#include "drape/pattern/mesher.h"
#include "drape/pattern/pattern.h"
#include "drape/pipeline/dress_job.h"
#include "drape/rig/bvh_motion.h"
#include "drape/rig/retarget.h"

namespace drape {

/// Seconds per stage, in the order the stages ran (report.json "times_s").
using DressTimes = std::vector<std::pair<std::string, double>>;

/// Called with a stage's name ("mesh", "place", ...) when it starts.
using StageStarted = std::function<void(const std::string& stage)>;

/// Appends the warnings of `from` that `to` does not hold yet, in order
/// (stages pass warnings on, e.g. the mesher repeats the loader's).
void add_warnings(std::vector<std::string>& to, const std::vector<std::string>& from);

/// SHA-256 (hex) of the job's input files, each read and hashed at most once:
/// the report and the checkpoint fingerprint both need them.
class InputHashes {
 public:
  /// Records the hash of a file its loader already read (it is not read
  /// again). Const like of(): the cache is a memo of the files' contents.
  void add(const std::filesystem::path& p, const std::string& sha256) const { cache_.try_emplace(p, sha256); }
  /// The hash of `p`, reading the file the first time; "" for an empty or missing path.
  const std::string& of(const std::filesystem::path& p) const;

 private:
  mutable std::map<std::filesystem::path, std::string> cache_;  // a memo: reading is idempotent
};

/// The job's inputs, read once.
struct DressInputs {
  Body body;  ///< canonical frame, metres (body.mesh), with the file's hash
  /// The one spatial query structure over the rest body (a tree over a copy
  /// of body.mesh, tree->mesh()): placement, the rig fit and the body
  /// collider all query it; nothing else builds a full tree over this body.
  std::shared_ptr<const TriangleMeshBvh> body_tree;
  Pattern pattern;  ///< as loaded, aliases assigned (job.aliases applied)
  Fabric fabric;    ///< the preset or fabric file job.fabric names
  InputHashes hashes;
  std::vector<std::string> warnings;  ///< the pattern loader's
};

/// Load stage: reads the body and the pattern (each file once) and the fabric,
/// and builds the body tree.
/// \throw InvalidInput / IoError naming the file and the element.
DressInputs load_dress_inputs(const DressJob& job);

/// The fabric a name stands for: a preset, else a fabric .json file.
/// \throw InvalidInput listing the presets when it is neither.
Fabric resolve_fabric(const std::string& name_or_file);

/// What the rig stage made: the body's skeleton and weights and the pose the
/// outputs go into.
struct DressRig {
  Skeleton skeleton;
  SkinWeights body_weights;  ///< per body vertex
  Pose pose;                 ///< identity without a motion
  /// The pose the garment is sewn in (DressJob::dressing_arm_angle): the
  /// body's arms raised; nullopt = the rest pose.
  std::optional<Pose> dressing_pose;
  std::string method;  ///< how the body was rigged (report.json rig.method)
  std::filesystem::path
      skeleton_path;                ///< the skeleton used (chosen among the candidates when none was given)
  std::optional<BvhMotion> motion;  ///< with a pose: the motion read
  JointNameMap joint_map;           ///< with a pose: motion joint per bone
  /// True when the simulation moves the body after the rest drape: from the
  /// dressing pose or rest into the motion's pose or rest (DressSimulation::pose).
  bool moves_into_pose() const { return motion || dressing_pose; }
};

/// Rig stage: nullopt (nothing loaded) unless the job names a skeleton or a
/// pose, or sews the garment with the arms raised. Runs before any
/// simulation so that bad rig inputs fail fast. Fits on `in.body_tree` when
/// the body does not carry MakeHuman's topology. Every rig file is read once;
/// their hashes go into `in.hashes`.
/// \throw InvalidInput for bad skeleton, weights, motion, frame or joint map.
std::optional<DressRig> rig_dress_body(const DressJob& job, const DressInputs& in);

/// True when the job sews the garment with the body's arms raised: it asks
/// for it (DressJob::dressing_arm_angle) and names a skeleton or candidates
/// to rig the body with.
bool dresses_with_arms_raised(const DressJob& job);

/// The garment ready to simulate.
struct PreparedGarment {
  BodyFrame frame;                     ///< landmarks of the body
  std::vector<std::uint32_t> regions;  ///< per body face its body_region bits
  Pattern pattern;                     ///< the input pattern, or the graded one
  PatternMesh mesh;                    ///< `pattern` meshed and placed on the body (metres)
  /// Fit check of the simulated garment; empty when it could not run (a warning says why).
  std::optional<FitReport> fit;
  std::optional<FitReport> fit_before_grading;  ///< when grading changed the pattern
  std::optional<GradingResult> grading;         ///< when grading changed the pattern
  std::vector<std::string> warnings;
  DressTimes times;  ///< "mesh" (body analysis and meshing), "place", "grade" when graded
};

/// Prepare-garment stage: the body's landmarks and regions, `pattern` meshed
/// (job.mesh_method, job.particle_distance) and placed by alias on the body
/// of `body_tree` (tree->mesh(), canonical frame, metres), the fit check and,
/// with job.grade when the garment is too small, the pattern graded to the body
/// and meshed and placed again. `body_source` names the body in messages.
/// `measured_body` (null = the body of `body_tree`): the body whose girths
/// the fit check and grading take, when the garment is placed on the body
/// with its arms raised (the same torso, canonical frame, metres).
/// \throw InvalidInput for a body that is not a standing human or a pattern
///        that cannot be meshed; SolverError with job.strict when the garment
///        is too small for the body.
PreparedGarment prepare_garment(const DressJob& job, const Pattern& pattern, const TriangleMeshBvh& body_tree,
                                const std::string& body_source, const StageStarted& started = {},
                                const TriangleMesh* measured_body = nullptr);

/// The mesher's options for `job` (its job.mesh_method) at `particle_distance`
/// metres: the fine mesh and the coarse one of coarse-to-fine draping differ
/// only in the distance.
MeshingOptions meshing_options(const DressJob& job, double particle_distance);

/// True when the job drapes coarse to fine: DressJob::coarse_distance is
/// larger than its particle distance.
bool drapes_coarse_to_fine(const DressJob& job);

/// The simulate and pose stages: sewing and draping the prepared garment on
/// the body it was placed on (the rest body, or the body with its arms
/// raised), then (with a motion or a dressing pose) moving the body into the
/// rig's pose while the garment follows. Saves checkpoints (job.checkpoint_every, or
/// when job.stop_requested becomes true) and resumes from job.resume_from.
class DressSimulation {
 public:
  /// Reads the checkpoint to resume from (when job.resume_from is set) and
  /// builds the simulation; the body collider queries `dressing_body`, the
  /// body the garment is sewn on: `in.body_tree`, or the body in the rig's
  /// dressing pose (null = in.body_tree). `job` must outlive this object (its
  /// stop flag and progress are read while running).
  /// \throw InvalidInput for a checkpoint of another job (other inputs or settings).
  DressSimulation(const DressJob& job, const DressInputs& in, const PreparedGarment& garment,
                  const DressRig* rig, std::shared_ptr<const TriangleMeshBvh> dressing_body = nullptr);
  ~DressSimulation();
  DressSimulation(const DressSimulation&) = delete;
  DressSimulation& operator=(const DressSimulation&) = delete;

  /// Simulate stage: the rest drape (skipped when resuming in the pose phase).
  /// \throw SolverError when it diverges; Interrupted on a stop request.
  void drape_at_rest();
  /// Pose stage (only with a rig that has a motion or a dressing pose): the
  /// body moves from the dressing pose (or rest) into the rig's pose over
  /// job.pose_transition_frames frames.
  /// \throw SolverError when it diverges; Interrupted on a stop request.
  void pose(const DressRig& rig);
  /// Settle stage of coarse-to-fine draping (drapes_coarse_to_fine; nothing
  /// otherwise): the stages above ran on the garment meshed at
  /// job.coarse_distance; its positions are carried to the garment meshed at
  /// job.particle_distance (transfer_positions, seams closed), which starts
  /// sewn (ClothSimulation::start_sewn) on the final body and runs to rest.
  /// When the coarse drape left a seam pair open, the fine garment is draped
  /// from the start instead (the stages above again, on the fine mesh).
  /// \throw SolverError when it diverges; Interrupted on a stop request.
  void settle_fine();
  /// With coarse-to-fine draping, after settle_fine: what the coarse drape
  /// did and how the fine mesh was reached (report.json "coarse_to_fine").
  struct CoarseToFine {
    double distance = 0;      ///< m
    DrapeReport coarse;       ///< the coarse drape's last run (its report at the end)
    std::string coarse_json;  ///< the same as JSON text (from a checkpoint when resumed in the settle)
    std::size_t coarse_vertices = 0;
    bool carried =
        false;  ///< false: the coarse drape left seams open, the fine mesh was draped from the start
  };
  const std::optional<CoarseToFine>& coarse_to_fine() const { return coarse_to_fine_; }

  std::shared_ptr<ClothSimulation> simulation() const { return sim_; }
  /// The garment after the last stage run (posed after pose()).
  const DrapeResult& drape() const { return drape_; }
  /// With a pose: the rest drape's report (only stop reason and frames when
  /// resumed in the pose phase) and its JSON text for report.json.
  const DrapeReport& rest_drape() const { return rest_drape_; }
  const std::string& rest_drape_json() const { return rest_drape_json_; }
  /// The checkpoint resumed from: path, phase and steps; nullopt when not resumed.
  struct Resumed {
    std::filesystem::path checkpoint;
    std::string phase;
    long long steps = 0;
  };
  const std::optional<Resumed>& resumed() const { return resumed_; }
  /// The cloth settings the simulation ran with (report.json "settings").
  const ClothSettings& settings() const { return settings_; }
  DressTimes times;  ///< "simulate", "pose", "settle" (coarse to fine)

 private:
  struct Checkpoints;
  ClothProgressCallback on_frame(const std::string& phase);
  const DressJob& job_;
  ClothSettings settings_;
  std::shared_ptr<const TriangleMeshBvh> body_tree_;  // the body the garment is sewn on
  std::shared_ptr<const TriangleMeshBvh> rest_tree_;  // the rest body (skinning's rest pose)
  std::unique_ptr<Checkpoints> checkpoints_;
  std::shared_ptr<ClothSimulation> sim_;
  // Coarse-to-fine: what the fine simulation is built from once the coarse drape is done.
  const PreparedGarment* garment_ = nullptr;  // the fine garment (outlives this object)
  const DressRig* rig_ = nullptr;
  Fabric fabric_;
  std::optional<PatternMesh>
      coarse_mesh_;     // the garment meshed at job.coarse_distance; empty: no coarse drape
  bool posed_ = false;  // pose() moved the body
  std::optional<CoarseToFine> coarse_to_fine_;
  DrapeResult drape_;
  DrapeReport rest_drape_;
  std::string rest_drape_json_;
  std::optional<Resumed> resumed_;
};

/// The sewn start (DressJob::write_start_dir): into `dir`, atomically each,
/// in the body file's frame and unit: start.obj (the simulated garment mesh as
/// placed, before sewing: with coarse to fine, the coarse mesh), body.obj (the
/// body it is sewn on: the arms raised when they are) and seams.json (the seam
/// vertex pairs, 0-based indices into start.obj's vertices).
/// \return the files written. \throw IoError when one cannot be written.
std::vector<std::filesystem::path> write_dress_start(const std::filesystem::path& dir, const Body& body,
                                                     const ClothSimulation& sim,
                                                     const TriangleMesh& dressing_body);

/// Write stage: garment.obj (one group per panel), scene.glb (skinned when
/// `result.rigged`) and, with job.write_render, render.png into job.out_dir,
/// each atomically, in the body file's frame and unit. report.json is written
/// by the job after this.
/// \return the files written, in order.
/// \throw IoError when the folder or a file cannot be written.
std::vector<std::filesystem::path> write_dress_outputs(const DressJob& job, const Body& body,
                                                       const GarmentMesh& garment, const Pattern& pattern,
                                                       const DressResult& result);

}  // namespace drape

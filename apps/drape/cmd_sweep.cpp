// `drape sweep PATTERNS... --bodies BODIES... --out DIR`: every pattern on
// every body (each pair the `drape dress` job, pipeline/sweep.h), a table
// (DIR/sweep.md, DIR/sweep.csv) and a contact sheet (DIR/contact_sheet.png).
// A pair that fails is a row with its error; the sweep itself exits 0 unless
// its own input is bad (2).

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "body_options.h"
#include "command_registry.h"
#include "default_paths.h"
#include "drape/core/exceptions.h"
#include "drape/core/executor.h"
#include "drape/geometry/units.h"
#include "drape/pipeline/sweep.h"

namespace drape::cli {
namespace {

struct SweepOptions {
  std::vector<std::string> patterns;
  std::vector<std::string> bodies;
  std::string out;
  BodyCliOptions body_options;
  std::string fabric = "cotton";
  std::string integrator = "xpbd";
  std::string stretch_model = "springs";
  double particle_distance_mm = 20;
  int max_frames = -1;  // < 0: the dress default
  double compression_stiffness = ClothSettings{}.compression_stiffness;
  double strain_limit = DressJob{}.cloth.strain_limit;
  bool continuous_collision = false;
  bool no_pose_ccd = false;
  int jobs = 1;
  double max_seconds = 0;
  bool grade = false;
  double ease = 0.04;
  std::optional<double> arms_raised = DressJob{}.dressing_arm_angle;
  bool arms_as_they_stand = false;
  double drape_damping = DressJob{}.drape_air_damping;
  int pose_frames = DressJob{}.pose_transition_frames;
  bool quiet = false;
};

int run_sweep(const SweepOptions& o) {
  SweepJob sweep;
  const std::vector<std::filesystem::path> args(o.patterns.begin(), o.patterns.end());
  sweep.patterns = expand_pattern_paths(args);
  sweep.bodies.assign(o.bodies.begin(), o.bodies.end());
  sweep.out_dir = o.out;
  sweep.jobs = o.jobs;
  sweep.max_seconds = o.max_seconds;
  if (!(o.particle_distance_mm > 0)) throw InvalidInput("--particle-distance: must be > 0 mm");
  sweep.dress.particle_distance = o.particle_distance_mm / 1000.0;
  sweep.dress.fabric = o.fabric;
  const BodyLoadOptions bo = o.body_options.load_options();
  sweep.dress.body_group = bo.group;
  sweep.dress.body_unit = bo.unit;
  sweep.dress.body_up = bo.up;
  sweep.dress.body_front = bo.front;
  sweep.dress.cloth.integrator = parse_integrator(o.integrator);
  sweep.dress.cloth.model.stretch_model = parse_stretch_model(o.stretch_model);
  if (o.max_frames == 0 || o.max_frames < -1) throw InvalidInput("--max-frames: must be 1 or more");
  if (o.max_frames > 0) sweep.dress.cloth.max_frames = o.max_frames;
  sweep.dress.cloth.compression_stiffness = o.compression_stiffness;
  sweep.dress.cloth.strain_limit = o.strain_limit;
  sweep.dress.cloth.continuous_collision = o.continuous_collision;
  sweep.dress.pose_continuous_collision = !o.no_pose_ccd;
  sweep.dress.grade = o.grade;
  sweep.dress.grade_ease = o.ease;
  sweep.dress.dressing_arm_angle = o.arms_as_they_stand ? std::nullopt : o.arms_raised;
  sweep.dress.drape_air_damping = o.drape_damping;
  sweep.dress.pose_transition_frames = o.pose_frames;
  sweep.dress.skeleton_candidates = default_skeleton_candidates();
  sweep.dress.cloth.executor = &Executor::global();
  sweep.Validate();
  if (!o.quiet)
    sweep.on_row = [](const SweepRow& r, std::size_t done, std::size_t total) {
      std::printf("[%zu/%zu] %s on %s: ", done, total, r.pattern.c_str(), r.body.c_str());
      if (r.error.empty())
        std::printf(
            "%s, fit %s, seams %zu/%zu, %zu/%zu/%zu crossings, strain max %.1f %%, %d frames, %.1f s%s\n",
            r.stop_reason.c_str(), r.fit.c_str(), r.seams_joined, r.seams_total, r.vertices_inside,
            r.body_pairs, r.self_pairs, r.strain_max * 100, r.frames, r.wall_s, r.clean() ? " [clean]" : "");
      else
        std::printf("error: %s\n", r.error.c_str());
      std::fflush(stdout);
    };
  const SweepResult result = sweep.Run();
  if (!o.quiet) {
    std::size_t clean = 0;
    for (const SweepRow& r : result.rows) clean += r.clean() ? 1 : 0;
    std::cout << clean << " of " << result.rows.size() << " pairs clean\n";
    for (const auto& f : result.written) std::cout << "wrote " << f.string() << "\n";
  }
  return kOk;
}

const CommandRegistrar reg_sweep{
    "sweep", "Dress every pattern on every body; writes a table (sweep.md, sweep.csv) and contact_sheet.png",
    [](CLI::App& app) {
      auto o = std::make_shared<SweepOptions>();
      app.add_option("patterns", o->patterns,
                     "Pattern files, or folders (every *.json inside, sorted; *.seams.json sidecars skipped)")
          ->required();
      app.add_option("--bodies", o->bodies, "Body meshes (.obj/.gltf/.glb), as `drape dress --body`")
          ->required();
      app.add_option("--out", o->out, "Folder: one <pattern>__<body>/ per pair, the tables and the sheet")
          ->required();
      o->body_options.add_to(app);
      app.add_option("--particle-distance", o->particle_distance_mm,
                     "Target particle distance, mm (default 20)");
      app.add_option("--max-frames", o->max_frames,
                     "Frame limit of each phase per pair, as `drape dress` (default: the dress default)");
      app.add_option("--fabric", o->fabric, "Fabric preset or .json (default cotton)");
      app.add_option("--integrator", o->integrator, "xpbd (default), symplectic, paper, explicit");
      app.add_option(
          "--stretch-model", o->stretch_model,
          "springs (default: edge springs by their angle to the grain) or triangle (per-triangle warp, weft "
          "and shear in the grain frame: the exact orthotropic fabric; xpbd, linear fabrics)");
      app.add_option("--compression-stiffness", o->compression_stiffness,
                     "Stiffness of a compressed edge, a fraction of its tensile stiffness (as `drape dress`)")
          ->capture_default_str();
      app.add_option("--strain-limit", o->strain_limit,
                     "Strain limiting once every seam is joined (as `drape dress`; 0 = off)")
          ->capture_default_str();
      app.add_flag("--continuous-collision", o->continuous_collision,
                   "Continuous collision detection against the body (as `drape dress`)");
      app.add_flag("--no-pose-ccd", o->no_pose_ccd,
                   "No continuous collision while the arms come down and after (as `drape dress`)");
      app.add_option("--max-seconds", o->max_seconds,
                     "Wall-time limit per pair, s (0 = none): the row then says 'time limit'");
      app.add_option("--jobs", o->jobs, "Pairs run at once (default 1)");
      app.add_flag(
          "--grade", o->grade,
          "Grade each pattern the fit check finds too small to its body first (as `drape dress --grade`)");
      app.add_option("--ease", o->ease, "Wearing ease of --grade, a fraction of the body's girth (0.04)");
      app.add_option("--arms-raised", o->arms_raised,
                     "Sew each garment with the arms raised to DEG below the horizontal (as `drape dress`, "
                     "default 0)");
      app.add_flag("--arms-as-they-stand", o->arms_as_they_stand,
                   "Sew every garment on the body as it stands (as `drape dress`)");
      app.add_option("--drape-damping", o->drape_damping,
                     "Air damping of the drape once every seam is sewn, 1/s (as `drape dress`)")
          ->capture_default_str();
      app.add_option("--pose-frames", o->pose_frames,
                     "Frames over which the arms come down after sewing (as `drape dress`)")
          ->capture_default_str();
      app.add_flag("--quiet", o->quiet, "No line per pair");
      return [o] { return run_sweep(*o); };
    }};

}  // namespace
}  // namespace drape::cli

// `drape dress` and `drape demo`: a pattern becomes a draped garment in one command.

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "body_options.h"
#include "cloth_options.h"
#include "command_registry.h"
#include "default_paths.h"
#include "drape/core/exceptions.h"
#include "drape/core/executor.h"
#include "drape/geometry/units.h"
#include "drape/pipeline/dress_job.h"

namespace drape::cli {
namespace {

// Set by SIGINT/SIGTERM: the job checkpoints after the current frame and stops.
std::atomic<bool> g_stop{false};
extern "C" void request_stop(int) { g_stop.store(true); }

struct DressOptions {
  DressJob job;
  BodyCliOptions body;
  std::vector<std::string> aliases;
  std::vector<std::string> grain;  // DEG (every panel) or PANEL=DEG
  std::string integrator = "xpbd";
  std::string stretch_model = "springs";
  std::string skinning = "lbs";
  double particle_distance_mm = 20;
  double coarse_distance_mm = DressJob{}.coarse_distance * 1000;
  bool json = false;
  bool quiet = false;
  bool arms_as_they_stand = false;
};

void add_dress_options(CLI::App& app, DressOptions& o, bool demo) {
  if (!demo) {
    app.add_option("--body", o.job.body_path, "Body mesh (.obj/.gltf/.glb)")->required();
    app.add_option("--pattern", o.job.pattern_path, "Sewing pattern (GarmentCode .json or .svg)")->required();
    o.body.add_to(app);
  }
  app.add_option(
      "--skeleton", o.job.skeleton_path,
      "Skeleton (.mhskel or skinned .glb/.gltf): scene.glb is skinned to it (default: a glTF body's "
      "own skin, else the bundled MakeHuman skeleton that fits the motion)");
  app.add_option("--template-body", o.job.template_body_path,
                 "Body the skeleton was made for (default: beside it)");
  app.add_option("--weights", o.job.weights_path, "MakeHuman .mhw weights (default: beside the skeleton)");
  app.add_option("--pose", o.job.motion_path,
                 "BVH motion: drape, then move the body into frame --frame and settle");
  app.add_option("--frame", o.job.motion_frame, "Frame of --pose, 0-based (default 0)");
  app.add_option("--map", o.job.joint_map_path,
                 "JSON joint-name map {\"bone\": \"bvh joint\"} (default: guessed)");
  app.add_option("--skinning", o.skinning, "lbs (default) or dqs, for the body and the garment's carry");
  app.add_option(
      "--arms-raised", o.job.dressing_arm_angle,
      "Sew the garment with the body's upper arms raised to DEG below the horizontal (0 = "
      "T-pose; rigged with the bundled MakeHuman skeleton unless --skeleton), then lower them over "
      "--pose-frames frames and settle (default 0)");
  app.add_flag("--arms-as-they-stand", o.arms_as_they_stand,
               "Sew the garment on the body as it stands (no rig, no arm raising)");
  app.add_option("--pose-frames", o.job.pose_transition_frames,
                 "Frames over which the body moves from rest into the pose (the garment is carried with it)")
      ->capture_default_str();
  app.add_option("--out", o.job.out_dir, "Folder for garment.obj, scene.glb, render.png, report.json");
  app.add_option("--fabric", o.job.fabric,
                 "Fabric preset (cotton, poplin, denim, silk, jersey) or a fabric .json file");
  app.add_option(
      "--grain-angle", o.grain,
      "Grain line (warp): DEG for every panel or PANEL=DEG for one (repeatable), degrees "
      "counter-clockwise from the panel's vertical in its pattern frame (default: the vertical; 45 "
      "= bias cut)");
  app.add_option("--particle-distance", o.particle_distance_mm,
                 "Target particle distance, mm (10 final, 20 draft)");
  app.add_option("--coarse-distance", o.coarse_distance_mm,
                 "Coarse to fine: sew, drape and pose the garment meshed at this particle distance, mm, "
                 "then carry it to --particle-distance and let it settle there (0 = off; used only when "
                 "larger than --particle-distance, so the default changes nothing at 20 mm)")
      ->capture_default_str();
  app.add_option("--settle-damping", o.job.settle_air_damping,
                 "Coarse to fine: air damping of the fine mesh's settle, 1/s, when larger than the fabric's "
                 "(0 = the fabric's; the rest does not depend on it, only how soon it is reached)")
      ->capture_default_str();
  app.add_option("--drape-damping", o.job.drape_air_damping,
                 "Air damping of the drape and of the move into the pose once every seam is sewn, 1/s, when "
                 "larger than the fabric's (0 = the fabric's; the rest does not depend on it, only how soon "
                 "it is reached)")
      ->capture_default_str();
  app.add_option("--mesh-method", o.job.mesh_method, "quality (default) or grid (the paper's quad grid)");
  app.add_option("--write-start", o.job.write_start_dir,
                 "Also write the sewn start into this folder before simulating: start.obj (the garment as "
                 "placed), seams.json (its seam vertex pairs) and body.obj (the body it is sewn on), for "
                 "bench/peers/blender_dress.py");
  app.add_option("--alias", o.aliases, "Override a panel's alias: PANEL=ALIAS (repeatable)");
  app.add_option("--integrator", o.integrator, "xpbd (default), symplectic, paper, explicit");
  app.add_option(
      "--stretch-model", o.stretch_model,
      "springs (default: edge springs by their angle to the grain) or triangle (per-triangle warp, weft and "
      "shear in the grain frame: the exact orthotropic fabric; xpbd, linear fabrics)");
  app.add_option("--substeps", o.job.cloth.substeps, "Steps per 1/60 s frame");
  app.add_option("--iterations", o.job.cloth.solver_iterations,
                 "XPBD constraint iterations per step (default 4)");
  app.add_option("--closed-iterations", o.job.cloth.closed_solver_iterations,
                 "XPBD iterations per step once every seam is joined (default 4)");
  app.add_option("--ring-held-iterations", o.job.ring_held_closed_iterations,
                 "XPBD iterations once every seam is joined for a garment held up by its opening (skirts, "
                 "trousers): the larger of this and --closed-iterations (default 8)");
  app.add_option("--sewing-iterations", o.job.cloth.sewing_solver_iterations,
                 "XPBD iterations per step while seams close in zero gravity (default 2)");
  app.add_option("--compression-stiffness", o.job.cloth.compression_stiffness,
                 "Stiffness of a compressed edge, a fraction of its tensile stiffness: cloth buckles "
                 "(1 = resists compression as tension)")
      ->capture_default_str();
  app.add_option("--strain-limit", o.job.cloth.strain_limit,
                 "Strain limiting once every seam is joined: edges longer than (1 + this) times their rest "
                 "length are pulled back after every step (0 = off)")
      ->capture_default_str();
  app.add_option("--strain-limit-iterations", o.job.cloth.strain_limit_iterations,
                 "Gauss-Seidel passes of the strain limit per step")
      ->capture_default_str();
  app.add_option("--stall-resews", o.job.cloth.stall_resews,
                 "A drape whose seams stop closing sews again up to this many times: zero gravity and no "
                 "body friction for --resew-frames frames; the garment kept is the better one (0 = off)")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  app.add_option("--resew-frames", o.job.cloth.resew_frames, "Frames of each stall resew")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  app.add_option("--max-frames", o.job.cloth.max_frames,
                 "Frame limit of each phase: the drape (on the raised body), then the arms lowering (or the "
                 "pose) and settling");
  app.add_option("--thickness", o.job.cloth.thickness, "Collision thickness, m");
  add_continuous_collision_options(app, o.job.cloth);
  app.add_flag(
      "--no-pose-ccd", [&o](std::int64_t) { o.job.pose_continuous_collision = false; },
      "Lower the arms (or move into the pose) and rest in the pose without continuous collision with the "
      "body (on by default from the moment the body moves, whatever --continuous-collision says)");
  app.add_option(
         "--max-step", o.job.cloth.max_step_fraction,
         "Most a cloth point moves in one step, in thicknesses, where self-collision needs a limit (and "
         "the body without --continuous-collision); above 0.5 cloth can pass through itself")
      ->capture_default_str();
  app.add_flag(
      "--no-self-collision", [&o](std::int64_t) { o.job.cloth.self_collision = false; },
      "Turn self-collision off");
  app.add_option("--checkpoint-every", o.job.checkpoint_every,
                 "Save the simulation to OUT/checkpoint/ every N frames (an interrupt always saves one)");
  app.add_option("--resume", o.job.resume_from,
                 "Continue from the checkpoint in DIR (same command and inputs)");
  app.add_flag("--strict", o.job.strict,
               "Exit 3 when no static equilibrium is reached, or the fit check finds the garment too small");
  app.add_flag("--grade", o.job.grade,
               "When the fit check finds the garment too small, grade the pattern to the body first");
  app.add_option("--ease", o.job.grade_ease,
                 "Wearing ease of --grade, a fraction of the body's girth (0.04)");
  app.add_flag(
      "--no-render", [&o](std::int64_t) { o.job.write_render = false; }, "Skip render.png");
  app.add_flag("--json", o.json, "Print report.json on stdout");
  app.add_flag("--quiet", o.quiet, "No progress display");
}

int run_dress(DressOptions& o) {
  DressJob job = o.job;
  const BodyLoadOptions bo = o.body.load_options();
  job.body_group = bo.group;
  job.body_unit = bo.unit;
  job.body_up = bo.up;
  job.body_front = bo.front;
  for (const auto& a : o.aliases) {
    const auto eq = a.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == a.size())
      throw InvalidInput("--alias: expected PANEL=ALIAS, got '" + a + "'");
    job.aliases[a.substr(0, eq)] = a.substr(eq + 1);
  }
  for (const auto& g : o.grain) {
    const auto eq = g.find('=');
    const std::string value = eq == std::string::npos ? g : g.substr(eq + 1);
    double deg = 0;
    try {
      std::size_t used = 0;
      deg = std::stod(value, &used);
      if (used != value.size()) throw std::invalid_argument(value);
    } catch (const std::exception&) {
      throw InvalidInput("--grain-angle: expected DEG or PANEL=DEG, got '" + g + "'");
    }
    if (eq == std::string::npos)
      job.grain_angle_deg = deg;
    else if (eq == 0)
      throw InvalidInput("--grain-angle: expected DEG or PANEL=DEG, got '" + g + "'");
    else
      job.panel_grain_deg[g.substr(0, eq)] = deg;
  }
  job.particle_distance = o.particle_distance_mm / 1000.0;
  job.coarse_distance = o.coarse_distance_mm / 1000.0;
  if (o.skinning == "lbs")
    job.skinning = SkinningMethod::linear_blend;
  else if (o.skinning == "dqs")
    job.skinning = SkinningMethod::dual_quaternion;
  else
    throw InvalidInput("--skinning: expected lbs or dqs, got '" + o.skinning + "'");
  if (o.arms_as_they_stand) job.dressing_arm_angle.reset();
  if (job.skeleton_path.empty()) job.skeleton_candidates = default_skeleton_candidates();
  job.cloth.integrator = parse_integrator(o.integrator);
  job.cloth.model.stretch_model = parse_stretch_model(o.stretch_model);
  job.cloth.executor = &Executor::global();
  if (job.checkpoint_every < 0) throw InvalidInput("--checkpoint-every: must be 0 or more");
  job.stop_requested = &g_stop;
  std::signal(SIGINT, request_stop);
  std::signal(SIGTERM, request_stop);
  const bool tty = ::isatty(STDERR_FILENO);
  if (!o.quiet && tty) {
    job.progress = [](const DressProgress& p) {
      std::fprintf(stderr, "\r\033[K%-8s", p.stage.c_str());
      if (p.max_frames > 0)
        std::fprintf(stderr, " frame %d/%d  %.0f steps/s", p.frame, p.max_frames, p.steps_per_second);
      if (p.seconds_left >= 0) std::fprintf(stderr, "  ~%.0f s left", p.seconds_left);
      std::fflush(stderr);
    };
  }
  const DressResult r = job.Run();
  if (!o.quiet && tty) std::fprintf(stderr, "\r\033[K");
  if (o.json) {
    std::cout << r.report_json << "\n";
  } else if (!o.quiet) {
    const DrapeReport& d = r.drape.report;
    std::cout << "drape: " << d.stop_reason << " after " << d.frames << " frames (" << d.steps << " steps, "
              << d.times.total << " s simulated in wall time)\n"
              << "  garment: " << d.vertices << " vertices, " << d.triangles << " triangles\n"
              << "  intersections: " << d.vertices_inside_body << " vertices inside body, "
              << d.body_crossing_pairs << " body crossings, " << d.self_crossing_pairs << " self crossings\n"
              << "  seams: " << d.seam_pairs_joined << "/" << d.seam_pairs << " joined, max gap "
              << d.max_seam_gap * 1000 << " mm; strain max " << d.strain_max * 100 << " %\n";
    if (!job.motion_path.empty())
      std::cout << "  posed: frame " << job.motion_frame << " of " << job.motion_path.filename().string()
                << " (rest drape: " << r.rest_drape.stop_reason << " after " << r.rest_drape.frames
                << " frames)\n";
    for (const auto& w : r.warnings) std::cout << "  warning: " << w << "\n";
    for (const auto& f : r.written) std::cout << "  wrote " << f.string() << "\n";
  }
  return kOk;
}

const CommandRegistrar reg_dress{
    "dress", "Sew and drape a pattern on a body; writes garment.obj, scene.glb, render.png, report.json",
    [](CLI::App& app) {
      auto o = std::make_shared<DressOptions>();
      add_dress_options(app, *o, false);
      return [o] { return run_dress(*o); };
    }};

const CommandRegistrar reg_demo{
    "demo",
    "The default job: a GarmentCode shirt draped on the MakeHuman body (writes to --out, default out/demo)",
    [](CLI::App& app) {
      auto o = std::make_shared<DressOptions>();
      o->job.body_path = default_body_path();
      o->job.pattern_path = default_pattern_path();
      o->job.out_dir = "out/demo";
      add_dress_options(app, *o, true);
      return [o] { return run_dress(*o); };
    }};

}  // namespace
}  // namespace drape::cli

// `drape animate`: the garment worn through a whole BVH motion, written as
// Point Cache 2 files, an animated glTF and a contact sheet (docs/ANIMATION.md).

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>

#include "body_options.h"
#include "cloth_options.h"
#include "command_registry.h"
#include "default_paths.h"
#include "drape/core/exceptions.h"
#include "drape/core/executor.h"
#include "drape/pipeline/animation_job.h"

namespace drape::cli {
namespace {

std::atomic<bool> g_stop{false};
extern "C" void request_animate_stop(int) { g_stop.store(true); }

struct AnimateOptions {
  AnimationJob job;
  BodyCliOptions body;
  std::string frames;
  std::string skinning = "lbs";
  std::string integrator = "xpbd";
  std::string stretch_model = "springs";
  double particle_distance_mm = 20;
  double arm_clearance_mm = 30;
  double leg_clearance_mm = 20;
  bool json = false;
  bool quiet = false;
};

// "A:B", "A:" or "A" (a single frame).
void parse_frames(const std::string& s, long& first, long& last) {
  const auto colon = s.find(':');
  try {
    std::size_t used = 0;
    first = std::stol(s.substr(0, colon), &used);
    if (used != (colon == std::string::npos ? s.size() : colon)) throw std::invalid_argument(s);
    if (colon == std::string::npos) {
      last = first;
    } else if (colon + 1 == s.size()) {
      last = -1;
    } else {
      last = std::stol(s.substr(colon + 1), &used);
      if (used != s.size() - colon - 1) throw std::invalid_argument(s);
    }
  } catch (const std::logic_error&) {
    throw InvalidInput("--frames: expected A:B (0-based motion frames), got '" + s + "'");
  }
  if (first < 0 || (last >= 0 && last < first))
    throw InvalidInput("--frames: expected A:B with 0 <= A <= B, got '" + s + "'");
}

int run_animate(AnimateOptions& o) {
  AnimationJob job = o.job;
  DressJob& dj = job.dress;
  const BodyLoadOptions bo = o.body.load_options();
  dj.body_group = bo.group;
  dj.body_unit = bo.unit;
  dj.body_up = bo.up;
  dj.body_front = bo.front;
  dj.particle_distance = o.particle_distance_mm / 1000.0;
  job.arm_clearance = o.arm_clearance_mm / 1000.0;
  job.leg_clearance = o.leg_clearance_mm / 1000.0;
  if (o.skinning == "lbs")
    dj.skinning = SkinningMethod::linear_blend;
  else if (o.skinning == "dqs")
    dj.skinning = SkinningMethod::dual_quaternion;
  else
    throw InvalidInput("--skinning: expected lbs or dqs, got '" + o.skinning + "'");
  if (!o.frames.empty()) parse_frames(o.frames, job.first_frame, job.last_frame);
  if (dj.skeleton_path.empty()) dj.skeleton_candidates = default_skeleton_candidates();
  dj.cloth.integrator = parse_integrator(o.integrator);
  dj.cloth.model.stretch_model = parse_stretch_model(o.stretch_model);
  dj.cloth.executor = &Executor::global();
  job.stop_requested = &g_stop;
  std::signal(SIGINT, request_animate_stop);
  std::signal(SIGTERM, request_animate_stop);
  const bool tty = ::isatty(STDERR_FILENO);
  if (!o.quiet && tty)
    job.progress = [](const DressProgress& p) {
      std::fprintf(stderr, "\r\033[K%-9s", p.stage.c_str());
      if (p.max_frames > 0) std::fprintf(stderr, " frame %d/%d", p.frame, p.max_frames);
      if (p.seconds_left >= 0) std::fprintf(stderr, "  ~%.0f s left", p.seconds_left);
      std::fflush(stderr);
    };
  const AnimationResult r = job.Run();
  if (!o.quiet && tty) std::fprintf(stderr, "\r\033[K");
  if (o.json) {
    std::cout << r.report_json << "\n";
  } else if (!o.quiet) {
    std::size_t clean = 0, worst = 0;
    for (std::size_t k = 0; k < r.frames.size(); ++k) {
      const auto& f = r.frames[k];
      const auto bad = [](const AnimationFrameReport& x) {
        return x.vertices_inside_body + x.body_crossing_pairs + x.self_crossing_pairs + x.seam_pairs_open;
      };
      clean += bad(f) == 0;
      if (bad(f) > bad(r.frames[worst])) worst = k;
    }
    const auto& w = r.frames[worst];
    std::cout << "animate: " << r.frames.size() << " frames at " << 1.0 / r.frame_seconds << " fps after "
              << r.blend_frames << " blend + " << r.settle_frames << " settle frames; rest drape "
              << r.dress.drape.report.stop_reason << " after " << r.dress.drape.report.frames << " frames\n"
              << "  clean frames: " << clean << "/" << r.frames.size() << "; worst frame " << w.motion_frame
              << ": " << w.vertices_inside_body << " inside, " << w.body_crossing_pairs << " body crossings, "
              << w.self_crossing_pairs << " self crossings, " << w.seam_pairs_open << " seam pairs open\n";
    for (const auto& wn : r.warnings) std::cout << "  warning: " << wn << "\n";
    for (const auto& f : r.written) std::cout << "  wrote " << f.string() << "\n";
  }
  return kOk;
}

const CommandRegistrar reg_animate{
    "animate",
    "Drape a pattern, then simulate it through a BVH motion; writes garment/body .obj + .pc2, animation.glb, "
    "contact_sheet.png, report.json",
    [](CLI::App& app) {
      auto o = std::make_shared<AnimateOptions>();
      DressJob& dj = o->job.dress;
      app.add_option("--body", dj.body_path, "Body mesh (.obj/.gltf/.glb)")->required();
      app.add_option("--pattern", dj.pattern_path, "Sewing pattern (GarmentCode .json or .svg)")->required();
      app.add_option("--motion", o->job.motion_path, "BVH motion the body follows")->required();
      app.add_option("--out", o->job.out_dir, "Output folder (written only when the whole run succeeded)")
          ->required();
      o->body.add_to(app);
      app.add_option(
          "--skeleton", dj.skeleton_path,
          "Skeleton (.mhskel or skinned .glb/.gltf; default: a glTF body's own skin when the motion "
          "maps onto it, else the bundled MakeHuman skeleton that fits the motion)");
      app.add_option("--template-body", dj.template_body_path, "Body the skeleton was made for");
      app.add_option("--weights", dj.weights_path, "MakeHuman .mhw weights (default: beside the skeleton)");
      app.add_option("--map", o->job.joint_map_path, "JSON joint-name map {\"bone\": \"bvh joint\"}");
      app.add_option("--frames", o->frames, "Motion frames A:B, 0-based, inclusive (default: all)");
      app.add_option("--fps", o->job.fps, "Motion frames per second (default: the BVH's frame time)");
      app.add_option("--skinning", o->skinning, "lbs (default) or dqs");
      app.add_option("--blend-frames", o->job.blend_frames,
                     "Frames over which the body moves from rest into the first frame (default 30)");
      app.add_option("--settle-frames", o->job.settle_frames,
                     "Frames held at the first frame before the cache starts (default 10)");
      app.add_option(
          "--step-motion", o->job.step_motion_thickness,
          "Most body motion per step, in collision thicknesses (default 1): sets the steps per frame");
      app.add_option("--max-substeps", o->job.max_substeps, "Most steps per motion frame (default 400)");
      app.add_option(
          "--untangle-iterations", o->job.untangle_iterations,
          "Untangling steps over the whole garment after every motion frame (default 20, 0 = off)");
      app.add_option("--arm-clearance", o->arm_clearance_mm,
                     "Turn upper arms out until their skin is this far from the torso, mm (default 30, 0 = "
                     "the arms as skinned)");
      app.add_option(
          "--leg-clearance", o->leg_clearance_mm,
          "Turn upper legs out until their skins are about this far apart, mm (default 20, 0 = the "
          "legs as skinned)");
      app.add_option("--sheet-frames", o->job.sheet_frames,
                     "Frames on the contact sheet (default 8, 0 = none)");
      app.add_option("--fabric", dj.fabric,
                     "Fabric preset (cotton, denim, silk, jersey) or a fabric .json file");
      app.add_option("--particle-distance", o->particle_distance_mm,
                     "Target particle distance, mm (default 20)");
      app.add_option("--mesh-method", dj.mesh_method, "quality (default) or grid");
      app.add_option("--integrator", o->integrator, "xpbd (default), symplectic, paper, explicit");
      app.add_option(
          "--stretch-model", o->stretch_model,
          "springs (default: edge springs by their angle to the grain) or triangle (per-triangle warp, weft "
          "and shear in the grain frame: the exact orthotropic fabric; xpbd, linear fabrics)");
      app.add_option("--substeps", dj.cloth.substeps, "Steps per 1/60 s frame of the rest drape");
      app.add_option("--max-frames", dj.cloth.max_frames, "Frame limit of the rest drape");
      app.add_option("--thickness", dj.cloth.thickness, "Collision thickness, m");
      add_continuous_collision_options(app, dj.cloth);
      app.add_flag(
          "--no-self-collision", [o](std::int64_t) { o->job.dress.cloth.self_collision = false; },
          "Turn self-collision off");
      app.add_option("--checkpoint-every", o->job.checkpoint_every,
                     "Save the simulation to OUT/checkpoint/ every N frames (an interrupt always saves one)");
      app.add_option("--resume", o->job.resume_from,
                     "Continue from the checkpoint in DIR (same command and inputs)");
      app.add_flag(
          "--no-mp4", [o](std::int64_t) { o->job.preview_mp4 = false; },
          "No preview.mp4 (otherwise written when ffmpeg is installed)");
      app.add_flag("--json", o->json, "Print report.json on stdout");
      app.add_flag("--quiet", o->quiet, "No progress display");
      return [o] { return run_animate(*o); };
    }};

}  // namespace
}  // namespace drape::cli

// `drape bench cloth`: steps per second and milliseconds per step by stage
// (forces, solve, tree refit, body and self collisions) for an open cone
// ("skirt") of 2k, 8k and 20k vertices falling onto the body.

#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "body_options.h"
#include "command_registry.h"
#include "default_paths.h"
#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/cloth/cloth_simulation.h"
#include "drape/cloth/cone_garment.h"
#include "drape/collision/intersection_count.h"
#include "drape/core/exceptions.h"
#include "drape/core/executor.h"
#include "drape/io/mesh_io.h"

namespace drape::cli {
namespace {

struct BenchClothOptions {
  std::string body = default_body_path();
  BodyCliOptions body_options;
  std::vector<int> vertices;
  int frames = 30;
  int substeps = 10;
  std::string integrator = "xpbd";
  bool no_self = false;
  bool json = false;
  std::string write_dir;  // write the start and draped meshes here (for the Blender peer and drape check)
  std::string shape = "cone";
};

// An open cone around the body's legs/hips: top ring (radius r0) at y0, bottom (r1) at y1.
// For the MakeHuman body (metres, floor at -0.817) the top sits just below the hips.
// The tube (the peer set-up of the field notes) has the cone's top radius all the
// way down, so it starts cut into the hips and thighs and crumples on them.
int run_bench_cloth(const BenchClothOptions& o) {
  const Body body = load_body(o.body, o.body_options.load_options());
  const Aabb b = body.mesh.bounds();
  const double height = b.extent().y;
  // Placement relative to the body's bounds (tuned on MakeHuman: hips at 48 % of the height).
  const double cx = b.center().x, cz = b.center().z + 0.01 * height;
  const double y0 = b.min.y + 0.48 * height, y1 = b.min.y + 0.20 * height;
  if (o.shape != "cone" && o.shape != "tube")
    throw InvalidInput("--shape: cone or tube, not '" + o.shape + "'");
  const double r0 = 0.118 * height, r1 = o.shape == "tube" ? r0 : 0.18 * height;
  std::vector<int> sizes = o.vertices.empty() ? std::vector<int>{2000, 8000, 20000} : o.vertices;
  const Executor& ex = Executor::global();
  nlohmann::ordered_json out;
  out["body"] = o.body;
  out["body_triangles"] = body.mesh.face_count();
  out["threads"] = ex.thread_count();
  out["frames"] = o.frames;
  out["substeps"] = o.substeps;
  out["integrator"] = o.integrator;
  out["self_collision"] = !o.no_self;
  out["shape"] = o.shape;
  out["runs"] = nlohmann::ordered_json::array();
  if (!o.json)
    std::cout << "cloth benchmark (" << o.shape << "): " << o.frames << " frames x " << o.substeps
              << " substeps, " << o.integrator << ", self-collision " << (o.no_self ? "off" : "on") << ", "
              << ex.thread_count() << " threads\n"
              << std::setw(8) << "vertices" << std::setw(10) << "steps/s" << std::setw(10) << "ms/step"
              << std::setw(9) << "forces" << std::setw(9) << "solve" << std::setw(9) << "refit"
              << std::setw(9) << "self" << std::setw(9) << "body" << std::setw(12) << "ms/vertex"
              << std::setw(8) << "inside" << std::setw(8) << "cross" << std::setw(8) << "self-x"
              << "\n";
  for (int n : sizes) {
    if (n < 16) throw InvalidInput("--vertices: at least 16");
    const GarmentMesh g = open_cone_garment(n, r0, r1, y0, y1, cx, cz);
    ClothSettings s;
    s.integrator = parse_integrator(o.integrator);
    s.substeps = o.substeps;
    s.max_frames = o.frames;
    s.min_frames = o.frames + 1;  // run every frame: the benchmark times a fixed amount of work
    s.self_collision = !o.no_self;
    s.executor = &ex;
    const auto t_setup = std::chrono::steady_clock::now();
    ClothSimulation sim(g, body.mesh, {}, fabric_preset("cotton"), s);
    const double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_setup).count();
    const DrapeResult r = sim.run();
    const DrapeReport& rep = r.report;
    if (!o.write_dir.empty()) {
      // In the body file's unit, so that `drape check --body B --garment G` overlays them.
      const std::string stem = o.write_dir + "/" + o.shape + "_" + std::to_string(n);
      write_obj(stem + "_start.obj", body.in_file_frame(g.mesh), body.file_unit, false);
      write_obj(stem + "_drape.obj", body.in_file_frame(r.mesh), body.file_unit, false);
    }
    const double steps = static_cast<double>(rep.steps);
    const StageTimes& t = rep.times;
    const double sim_time = t.forces + t.solve + t.refit + t.self_collision + t.body_collision;
    const double ms = 1000 * sim_time / steps;
    nlohmann::ordered_json j;
    j["vertices"] = g.mesh.vertex_count();
    j["triangles"] = g.mesh.face_count();
    j["steps"] = rep.steps;
    j["setup_s"] = setup;
    j["steps_per_second"] = steps / sim_time;
    j["ms_per_step"] = ms;
    j["ms_per_step_by_stage"] = {{"forces", 1000 * t.forces / steps},
                                 {"solve", 1000 * t.solve / steps},
                                 {"refit", 1000 * t.refit / steps},
                                 {"self_collision", 1000 * t.self_collision / steps},
                                 {"body_collision", 1000 * t.body_collision / steps}};
    j["us_per_vertex_step"] = 1000 * ms / g.mesh.vertex_count();
    j["ms_per_frame"] = ms * o.substeps;
    j["measure_s"] = t.measure;
    j["vertices_inside_body"] = rep.vertices_inside_body;
    j["body_crossing_pairs"] = rep.body_crossing_pairs;
    j["self_crossing_pairs"] = rep.self_crossing_pairs;
    j["strain_p95"] = rep.strain_p95;
    out["runs"].push_back(j);
    if (!o.json)
      std::cout << std::setw(8) << g.mesh.vertex_count() << std::setw(10) << std::fixed
                << std::setprecision(0) << steps / sim_time << std::setprecision(3) << std::setw(10) << ms
                << std::setw(9) << 1000 * t.forces / steps << std::setw(9) << 1000 * t.solve / steps
                << std::setw(9) << 1000 * t.refit / steps << std::setw(9) << 1000 * t.self_collision / steps
                << std::setw(9) << 1000 * t.body_collision / steps << std::setprecision(5) << std::setw(12)
                << ms / g.mesh.vertex_count() << std::setw(8) << rep.vertices_inside_body << std::setw(8)
                << rep.body_crossing_pairs << std::setw(8) << rep.self_crossing_pairs << "\n";
  }
  if (o.json) std::cout << out.dump(2) << "\n";
  return kOk;
}

const CommandRegistrar reg_bench_cloth{
    "bench cloth", "Time the cloth simulation (steps/s, ms per step by stage) at several sizes",
    [](CLI::App& app) {
      auto o = std::make_shared<BenchClothOptions>();
      app.add_option("--vertices", o->vertices, "Cloth vertex counts (default 2000 8000 20000)");
      app.add_option("--body", o->body, "Body mesh; default: the MakeHuman body");
      o->body_options.add_to(app, "--body-unit");
      app.add_option("--frames", o->frames, "Frames to simulate per size")->check(CLI::PositiveNumber);
      app.add_option("--substeps", o->substeps, "Steps per frame")->check(CLI::PositiveNumber);
      app.add_option("--integrator", o->integrator, "xpbd, symplectic, paper or explicit");
      app.add_flag("--no-self", o->no_self, "Turn self-collision off");
      app.add_flag("--json", o->json, "Print JSON");
      app.add_option("--write", o->write_dir,
                     "Folder: write <shape>_<N>_start.obj and <shape>_<N>_drape.obj (body's unit) for peers");
      app.add_option("--shape", o->shape,
                     "cone (a flared skirt, default) or tube (the field notes' peer set-up)");
      return [o] { return run_bench_cloth(*o); };
    }};

}  // namespace
}  // namespace drape::cli

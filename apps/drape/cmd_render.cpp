// `drape render`: the software renderer on its own: body and garment files
// (and optionally per-vertex strain) to a four-panel render.png.

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "body_options.h"
#include "command_registry.h"
#include "default_paths.h"
#include "drape/core/exceptions.h"
#include "drape/io/mesh_io.h"
#include "drape/render/render_views.h"

namespace drape::cli {
namespace {

struct RenderCmdOptions {
  std::string body = default_body_path();
  BodyCliOptions body_options;
  std::string garment;
  std::string garment_unit;
  std::string strain;
  std::string out = "render.png";
  int panel_width = 360;
  int panel_height = 720;
  int supersample = 3;
};

/// Reads whitespace-separated numbers, one per garment vertex.
std::vector<double> read_strain(const std::string& path, std::size_t expected) {
  std::ifstream in(path);
  if (!in) throw IoError(path + ": cannot open");
  std::vector<double> v;
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    std::istringstream ls(line);
    std::string tok;
    while (ls >> tok) {
      if (tok[0] == '#') break;
      try {
        std::size_t used = 0;
        v.push_back(std::stod(tok, &used));
        if (used != tok.size()) throw std::invalid_argument(tok);
      } catch (const std::exception&) {
        throw InvalidInput(path, n, "not a number: '" + tok + "'");
      }
    }
  }
  if (v.size() != expected)
    throw InvalidInput(path, 0,
                       std::to_string(v.size()) + " strain values for a garment of " +
                           std::to_string(expected) + " vertices");
  return v;
}

int run_render(const RenderCmdOptions& o) {
  const Body body = load_body(o.body, o.body_options.load_options());
  TriangleMesh garment;
  std::vector<double> strain;
  if (!o.garment.empty()) {
    // drape writes garment.obj in the body file's unit: read it in that unit.
    MeshReadOptions go;
    go.unit = body.file_unit;
    if (!o.garment_unit.empty()) {
      go.unit = parse_unit(o.garment_unit);
      if (!go.unit) throw InvalidInput("--garment-unit: unknown unit '" + o.garment_unit + "'");
    }
    garment = body.in_canonical_frame(read_mesh(o.garment, go).mesh);
    if (!o.strain.empty()) strain = read_strain(o.strain, garment.vertex_count());
  } else if (!o.strain.empty()) {
    throw InvalidInput("--strain needs --garment");
  }
  RenderOptions ro;
  ro.panel_width = o.panel_width;
  ro.panel_height = o.panel_height;
  ro.supersample = o.supersample;
  ro.caption = std::filesystem::path(o.garment.empty() ? o.body : o.garment).filename().string();
  write_png(o.out, render_views(body.mesh, garment, strain, ro));
  std::cout << "wrote " << o.out << "\n";
  return kOk;
}

const CommandRegistrar reg_render{
    "render", "Render body and garment to a PNG: front, side, back and strain views", [](CLI::App& app) {
      auto o = std::make_shared<RenderCmdOptions>();
      app.add_option("--body", o->body, "Body mesh (.obj, .gltf, .glb); default: the MakeHuman body");
      o->body_options.add_to(app, "--body-unit");
      app.add_option("--garment", o->garment, "Garment mesh (e.g. garment.obj); none = body alone");
      app.add_option("--garment-unit", o->garment_unit,
                     "Unit of the garment file (m, dm, cm, mm, in); default: the body's");
      app.add_option("--strain", o->strain,
                     "Text file with one strain value per garment vertex (0.05 = 5 %)");
      app.add_option("--out", o->out, "Output PNG")->capture_default_str();
      app.add_option("--panel-width", o->panel_width, "Width of each panel, pixels")
          ->check(CLI::Range(16, 8192));
      app.add_option("--panel-height", o->panel_height, "Height of each panel, pixels")
          ->check(CLI::Range(16, 8192));
      app.add_option("--supersample", o->supersample, "Anti-aliasing factor per axis (1-8)")
          ->check(CLI::Range(1, 8));
      return [o] { return run_render(*o); };
    }};

}  // namespace
}  // namespace drape::cli

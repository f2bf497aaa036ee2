// `drape pattern info|mesh|svg|grade`: inspect, discretise, draw and grade sewing patterns.

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <tuple>
#include <utility>

#include "body_options.h"
#include "command_registry.h"
#include "default_paths.h"
#include "drape/body/body_grading.h"
#include "drape/body/body_measurements.h"
#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/io/mesh_io.h"
#include "drape/landmarks/body_frame.h"
#include "drape/pattern/mesher.h"
#include "drape/pattern/pattern_io.h"
#include "drape/pattern/placement.h"
#include "drape/pipeline/grading_report.h"

namespace drape::cli {
namespace {

const char* curve_name(EdgeCurve c) {
  switch (c) {
    case EdgeCurve::quadratic:
      return "quadratic";
    case EdgeCurve::cubic:
      return "cubic";
    case EdgeCurve::arc:
      return "circle";
    default:
      return "line";
  }
}

struct PatternArgs {
  std::string pattern = default_pattern_path();
  std::vector<std::string> aliases;  // panel=alias
  std::string sidecar;
};

void add_pattern_args(CLI::App& app, PatternArgs& a) {
  app.add_option("pattern", a.pattern, "Pattern file: GarmentCode JSON (.json) or SVG (.svg)");
  app.add_option("--alias", a.aliases, "Override a panel's alias: PANEL=ALIAS (repeatable)");
  app.add_option("--seams", a.sidecar, "SVG only: sidecar JSON with stitches (default: <stem>.seams.json)");
}

Pattern load(const PatternArgs& a) {
  PatternLoadOptions o;
  o.sidecar = a.sidecar;
  for (const std::string& s : a.aliases) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == s.size())
      throw InvalidInput("--alias '" + s + "': expected PANEL=ALIAS");
    o.aliases[s.substr(0, eq)] = s.substr(eq + 1);
  }
  return load_pattern(a.pattern, o);
}

// ---------------------------------------------------------------- info
struct PatternInfoOptions {
  PatternArgs p;
  bool json = false;
};

int run_pattern_info(const PatternInfoOptions& o) {
  const Pattern pat = load(o.p);
  nlohmann::ordered_json j;
  j["file"] = o.p.pattern;
  j["frame"] = source_frame_name(pat.frame);
  j["units_in_meter"] = pat.units_in_meter;
  double total = 0;
  nlohmann::ordered_json panels = nlohmann::ordered_json::array();
  for (const Panel& p : pat.panels) {
    nlohmann::ordered_json pj;
    pj["name"] = p.name;
    pj["alias"] = p.alias;
    pj["alias_inferred"] = p.alias_inferred;
    const double area = std::abs(panel_signed_area(p));
    total += area;
    pj["area_m2"] = area;
    pj["orientation"] = panel_signed_area(p) >= 0 ? "ccw" : "cw";
    if (!p.material.empty()) pj["material"] = p.material;
    nlohmann::ordered_json edges = nlohmann::ordered_json::array();
    for (std::size_t e = 0; e < p.edges.size(); ++e)
      edges.push_back({{"id", e},
                       {"type", curve_name(p.edges[e].curve)},
                       {"length_m", edge_length(p, static_cast<int>(e))}});
    pj["edges"] = edges;
    panels.push_back(pj);
  }
  j["panels"] = panels;
  j["total_area_m2"] = total;
  nlohmann::ordered_json stitches = nlohmann::ordered_json::array();
  std::vector<std::string> warnings = pat.warnings;
  for (std::size_t s = 0; s < pat.stitches.size(); ++s) {
    const Stitch& st = pat.stitches[s];
    const double la = edge_length(pat.panels[st.a.panel], st.a.edge),
                 lb = edge_length(pat.panels[st.b.panel], st.b.edge);
    const double ratio = std::max(la, lb) / std::min(la, lb);
    stitches.push_back(
        {{"id", s},
         {"a", {{"panel", pat.panels[st.a.panel].name}, {"edge", st.a.edge}, {"length_m", la}}},
         {"b", {{"panel", pat.panels[st.b.panel].name}, {"edge", st.b.edge}, {"length_m", lb}}},
         {"right_wrong", st.right_wrong},
         {"length_ratio", ratio}});
    if (ratio > 1.10)
      warnings.push_back("stitch " + std::to_string(s) + ": sides differ in length by " +
                         std::to_string(static_cast<int>(std::round((ratio - 1) * 100))) + " %");
  }
  j["stitches"] = stitches;
  j["warnings"] = warnings;
  if (o.json) {
    std::cout << j.dump(2) << "\n";
    return kOk;
  }
  std::cout << "pattern  " << o.p.pattern << " (" << source_frame_name(pat.frame) << " frame)\n";
  for (const Panel& p : pat.panels)
    std::cout << "  panel " << p.name << "  alias " << (p.alias.empty() ? "-" : p.alias) << "  edges "
              << p.edges.size() << "  area " << std::abs(panel_signed_area(p)) << " m^2\n";
  for (std::size_t s = 0; s < pat.stitches.size(); ++s) {
    const auto& sj = stitches[s];
    std::cout << "  stitch " << s << "  " << sj["a"]["panel"].get<std::string>() << ":" << sj["a"]["edge"]
              << " - " << sj["b"]["panel"].get<std::string>() << ":" << sj["b"]["edge"]
              << (pat.stitches[s].right_wrong ? " (right_wrong)" : "") << "  ratio "
              << sj["length_ratio"].get<double>() << "\n";
  }
  for (const std::string& w : warnings) std::cout << "warning: " << w << "\n";
  return kOk;
}

const CommandRegistrar reg_pattern_info{
    "pattern info", "Panels, edges, stitches, areas and seam ratios of a pattern", [](CLI::App& app) {
      auto o = std::make_shared<PatternInfoOptions>();
      add_pattern_args(app, o->p);
      app.add_flag("--json", o->json, "Print JSON");
      return [o] { return run_pattern_info(*o); };
    }};

// ---------------------------------------------------------------- mesh
struct MeshOptions {
  PatternArgs p;
  std::string out;
  std::string method = "quality";
  double particle_distance_mm = 10;
  bool placed = false;
  std::string body = default_body_path();
  BodyCliOptions body_options;
  double clearance_mm = 15;
  bool bend_sleeves = false;
  bool json = false;
};

// Seam pairs whose start segment passes through the body (the two sides
// start astride a limb or the torso), and the widest start distance, metres.
std::pair<int, double> seam_pairs_astride(const GarmentMesh& g, const TriangleMeshBvh& body) {
  int astride = 0;
  double widest = 0;
  for (const SeamVertexPair& sp : g.seam_pairs) {
    const Vec3 &a = g.mesh.positions[sp.a], &b = g.mesh.positions[sp.b];
    widest = std::max(widest, norm(b - a));
    if (body.intersects_segment(a, b)) ++astride;
  }
  return {astride, widest};
}

int run_mesh(const MeshOptions& o) {
  const Pattern pat = load(o.p);
  MeshingOptions mo;
  if (o.method == "grid")
    mo.method = MeshMethod::grid;
  else if (o.method != "quality")
    throw InvalidInput("--method must be 'grid' or 'quality', got '" + o.method + "'");
  if (!(o.particle_distance_mm > 0)) throw InvalidInput("--particle-distance must be positive (millimetres)");
  mo.particle_distance = o.particle_distance_mm * 1e-3;
  const auto t0 = std::chrono::steady_clock::now();
  PatternMesh m = mesh_pattern(pat, mo);
  const double mesh_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  LengthUnit unit = LengthUnit::metre;
  std::vector<std::string> warnings = m.warnings;
  double place_s = 0;
  int astride = 0;
  double widest_pair = 0;
  if (o.placed) {
    const Body body = load_body(o.body, o.body_options.load_options());
    unit = body.file_unit;  // overlays the input body
    const BodyFrame frame = analyse_body(body.mesh, o.body);
    PlacementOptions po;
    po.clearance = o.clearance_mm * 1e-3;
    po.bend_sleeves = o.bend_sleeves;
    const auto t1 = std::chrono::steady_clock::now();
    const TriangleMeshBvh tree(body.mesh);
    const PlacementResult r = place_on_body(pat, m, tree, frame, po);
    place_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    warnings.insert(warnings.end(), r.warnings.begin(), r.warnings.end());
    std::tie(astride, widest_pair) = seam_pairs_astride(m.garment, tree);
    m.garment.mesh = body.in_file_frame(std::move(m.garment.mesh));
  } else {
    layout_flat(m);
  }
  const ObjFaceGroups panels = panel_face_groups(m.garment);
  write_obj(o.out, m.garment.mesh, unit, true, &panels);
  nlohmann::ordered_json j;
  j["out"] = o.out;
  j["method"] = o.method;
  j["particle_distance_mm"] = o.particle_distance_mm;
  j["placed"] = o.placed;
  j["unit"] = unit_name(unit);
  j["vertices"] = m.garment.mesh.vertex_count();
  j["triangles"] = m.garment.mesh.face_count();
  j["seam_pairs"] = m.garment.seam_pairs.size();
  j["grid_springs"] = m.garment.grid_springs.size();
  j["mesh_seconds"] = mesh_s;
  if (o.placed) {
    j["place_seconds"] = place_s;
    j["seam_pairs_astride_body"] = astride;
    j["widest_seam_pair_m"] = widest_pair;
  }
  j["warnings"] = warnings;
  if (o.json) {
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "wrote " << o.out << ": " << m.garment.mesh.vertex_count() << " vertices, "
              << m.garment.mesh.face_count() << " triangles, " << m.garment.seam_pairs.size() << " seam pairs"
              << (o.placed ? " (placed on " + o.body + ")" : " (flat)") << "\n";
    for (const std::string& w : warnings) std::cout << "warning: " << w << "\n";
  }
  return kOk;
}

const CommandRegistrar reg_pattern_mesh{
    "pattern mesh", "Discretise a pattern into a triangle mesh (flat, or placed around a body)",
    [](CLI::App& app) {
      auto o = std::make_shared<MeshOptions>();
      add_pattern_args(app, o->p);
      app.add_option("--out", o->out, "Output OBJ file")->required();
      app.add_option("--method", o->method, "quality (near-equilateral) or grid (the paper's quad grid)");
      app.add_option("--particle-distance", o->particle_distance_mm,
                     "Particle distance in mm (10 final, 20 draft)");
      app.add_flag("--placed", o->placed, "Place the panels around the body instead of laying them flat");
      app.add_option("--body", o->body,
                     "Body mesh for --placed (.obj, .gltf, .glb); default: the MakeHuman body");
      o->body_options.add_to(app, "--body-unit");
      app.add_option("--clearance", o->clearance_mm, "Smallest panel-body distance after placement, mm");
      app.add_flag("--bend-sleeves", o->bend_sleeves,
                   "Bend sleeves whose seams start astride the body onto their armholes "
                   "(PlacementOptions::bend_sleeves)");
      app.add_flag("--json", o->json, "Print a JSON summary");
      return [o] { return run_mesh(*o); };
    }};

// ---------------------------------------------------------------- svg
struct SvgOptions {
  PatternArgs p;
  std::string out;
};

const CommandRegistrar reg_pattern_svg{
    "pattern svg", "Draw the flat panels with names, edge ids and seam labels", [](CLI::App& app) {
      auto o = std::make_shared<SvgOptions>();
      add_pattern_args(app, o->p);
      app.add_option("--out", o->out, "Output SVG file")->required();
      return [o] {
        const Pattern pat = load(o->p);
        write_file_atomically(o->out, pattern_drawing_svg(pat));
        std::cout << "wrote " << o->out << "\n";
        return static_cast<int>(kOk);
      };
    }};

// ---------------------------------------------------------------- grade
struct GradeOptions {
  PatternArgs p;
  std::string body;
  BodyCliOptions body_options;
  std::string out;
  double ease = 0.04;
  bool shrink = false;
  double particle_distance_mm = 20;
  bool json = false;
};

int run_grade(const GradeOptions& o) {
  const std::string ext = std::filesystem::path(o.out).extension().string();
  if (ext != ".json" && ext != ".svg")
    throw InvalidInput("--out " + o.out + ": must end in .json (GarmentCode) or .svg (drawing)");
  if (!(o.ease >= 0 && o.ease <= 1)) throw InvalidInput("--ease: must be between 0 and 1 (a fraction)");
  if (!(o.particle_distance_mm > 0)) throw InvalidInput("--particle-distance must be positive (millimetres)");
  const Pattern pat = load(o.p);
  const Body body = load_body(o.body, o.body_options.load_options());
  const BodyMeasurements bm = measure_body(body.mesh, o.body);  // with the limbs: the armhole and legs
  const BodyGrading g = grade_to_body(pat, body.mesh, bm, o.particle_distance_mm * 1e-3,
                                      GradingOptions{.ease = o.ease, .shrink = o.shrink});
  if (ext == ".json")
    write_garmentcode(o.out, g.grading.pattern);
  else
    write_file_atomically(o.out, pattern_drawing_svg(g.grading.pattern));
  if (o.json) {
    std::cout << grading_report_json(g) << "\n";
    return kOk;
  }
  std::cout << "wrote " << o.out
            << (g.grading.graded ? " (graded)"
                : g.after.fits   ? " (unchanged: it fits)"
                                 : " (unchanged: not graded, see the warnings)")
            << "\n";
  for (const GradeLevel& l : g.grading.levels) {
    double after = 0;
    for (const GirthFit& f : g.after.girths)
      if (f.name == l.name) after = f.garment;
    if (l.name == "armhole")
      std::printf("  %-5s needs %.1f cm  garment %.1f -> %.1f cm  (deepened %.1f cm)\n", l.name.c_str(),
                  l.body * 100, l.garment * 100, after * 100, l.drop * 100);
    else
      std::printf("  %-5s body %.1f cm  garment %.1f -> %.1f cm  (target %.1f cm, x %.3f)\n", l.name.c_str(),
                  l.body * 100, l.garment * 100, after * 100, l.target * 100, l.factor);
  }
  std::printf(
      "  seams: largest change of a stitch's length ratio %.2f %%; curves within %.2f mm of the exact "
      "grading\n",
      g.grading.max_seam_mismatch * 100, g.grading.max_curve_deviation * 1000);
  for (const std::string& p : g.after.problems) std::cout << "warning: still too small at the " << p << "\n";
  for (const std::string& w : g.grading.warnings) std::cout << "warning: " << w << "\n";
  return kOk;
}

const CommandRegistrar reg_pattern_grade{
    "pattern grade", "Grade a pattern to a body where it is too small (GarmentCode JSON or SVG drawing out)",
    [](CLI::App& app) {
      auto o = std::make_shared<GradeOptions>();
      add_pattern_args(app, o->p);
      app.add_option("--body", o->body, "Body mesh (.obj, .gltf, .glb)")->required();
      o->body_options.add_to(app, "--body-unit");
      app.add_option("--out", o->out, "Graded pattern: .json (GarmentCode) or .svg (drawing)")->required();
      app.add_option("--ease", o->ease, "Wearing ease, a fraction of the body's girth (default 0.04)");
      app.add_flag("--shrink", o->shrink, "Also narrow levels looser than the body's girth plus ease");
      app.add_option("--particle-distance", o->particle_distance_mm,
                     "Mesh the girths are measured on, mm (default 20)");
      app.add_flag("--json", o->json, "Print a JSON summary");
      return [o] { return run_grade(*o); };
    }};

}  // namespace
}  // namespace drape::cli

// `drape check`: scores any garment mesh against a body with the same
// intersection counts every drape reports (vertices inside the body, crossing
// cloth-body triangle pairs, crossing non-adjacent cloth-cloth pairs).

#include <chrono>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "body_options.h"
#include "command_registry.h"
#include "default_paths.h"
#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/collision/intersection_count.h"
#include "drape/core/exceptions.h"
#include "drape/core/executor.h"
#include "drape/geometry/mesh_adjacency.h"
#include "drape/io/mesh_io.h"
#include "drape/pipeline/garment_check.h"

namespace drape::cli {
namespace {

struct CheckOptions {
  std::string body = default_body_path();
  BodyCliOptions body_options;
  std::string garment;
  std::string garment_group;
  std::string garment_unit;
  double cone_degrees = 0;
  bool json = false;
  bool list = false;
};

// Where a crossing pair is: the midpoint of the two triangles' centroids, in the garment file's unit.
nlohmann::ordered_json pair_list(const std::vector<std::pair<int, int>>& pairs, const TriangleMesh& a,
                                 const TriangleMesh& b, double to_file_unit) {
  auto centroid = [](const TriangleMesh& m, int f) {
    const Triangle& t = m.faces[static_cast<std::size_t>(f)];
    return (m.positions[t[0]] + m.positions[t[1]] + m.positions[t[2]]) / 3.0;
  };
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& [fa, fb] : pairs) {
    const Vec3 at = (centroid(a, fa) + centroid(b, fb)) * (0.5 * to_file_unit);
    list.push_back({{"a", fa}, {"b", fb}, {"at", {at.x, at.y, at.z}}});
  }
  return list;
}

std::optional<LengthUnit> unit_option(const std::string& text, const char* option) {
  if (text.empty()) return std::nullopt;
  auto u = parse_unit(text);
  if (!u) throw InvalidInput(std::string(option) + ": unknown unit '" + text + "' (m, dm, cm, mm, in)");
  return u;
}

int run_check(const CheckOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const Body body = load_body(o.body, o.body_options.load_options());
  // garment.obj overlays the body file: the counts are taken in the file's frame.
  const TriangleMesh body_mesh = body.in_file_frame(body.mesh);
  const MeshAdjacency adj = MeshAdjacency::build(body_mesh);
  const TriangleMeshBvh tree(body_mesh);
  // The garment is in the body's unit unless told otherwise (pipeline/garment_check.h).
  const GarmentCheck checked = check_garment_file(
      tree, body.file_unit, o.garment, o.garment_group, unit_option(o.garment_unit, "--garment-unit"),
      o.cone_degrees * 3.14159265358979323846 / 180, Executor::global(), o.list);
  const LoadedMesh& garment = checked.garment;
  const IntersectionCounts& c = checked.counts;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (o.json) {
    nlohmann::ordered_json j;
    j["body"] = o.body;
    j["body_group"] = body.group;
    j["body_axes"] = body.axes.describe();
    j["body_unit"] = unit_name(body.file_unit);
    j["body_closed"] = adj.is_closed();
    j["garment"] = o.garment;
    j["garment_unit"] = unit_name(checked.garment_unit);
    j["garment_vertices"] = garment.mesh.vertex_count();
    j["garment_triangles"] = garment.mesh.face_count();
    j["vertices_inside_body"] = c.vertices_inside_body;
    j["body_crossing_pairs"] = c.body_crossing_pairs;
    j["self_crossing_pairs"] = c.self_crossing_pairs;
    if (o.list) {
      const double to_unit = 1.0 / metres_per_unit(checked.garment_unit);
      // body pairs are (body face, garment face)
      j["body_crossings"] = pair_list(c.body_pairs, body_mesh, garment.mesh, to_unit);
      j["self_crossings"] = pair_list(c.self_pairs, garment.mesh, garment.mesh, to_unit);
    }
    j["clean"] = c.vertices_inside_body == 0 && c.body_crossing_pairs == 0 && c.self_crossing_pairs == 0;
    j["seconds"] = seconds;
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "garment               " << o.garment << " (" << garment.mesh.vertex_count() << " vertices, "
              << garment.mesh.face_count() << " triangles, " << unit_name(checked.garment_unit) << ")\n"
              << "body                  " << o.body
              << (body.group.empty() ? "" : " (group " + body.group + ")")
              << (adj.is_closed() ? "" : " [not closed: inside test unreliable]") << "\n"
              << "vertices inside body  " << c.vertices_inside_body << "\n"
              << "cloth-body crossings  " << c.body_crossing_pairs << " triangle pairs\n"
              << "self crossings        " << c.self_crossing_pairs << " non-adjacent triangle pairs\n";
  }
  return kOk;
}

const CommandRegistrar reg_check{
    "check", "Count a garment mesh's intersections with a body and with itself", [](CLI::App& app) {
      auto o = std::make_shared<CheckOptions>();
      app.add_option("--garment", o->garment, "Garment mesh (.obj, .gltf, .glb)")->required();
      app.add_option("--body", o->body, "Body mesh; default: the MakeHuman body");
      o->body_options.add_to(app, "--body-unit");
      app.add_option("--garment-group", o->garment_group, "OBJ group of the garment (empty = all)");
      app.add_option("--garment-unit", o->garment_unit, "Unit of the garment file; default: the body's unit");
      app.add_option("--cone-angle", o->cone_degrees,
                     "Self test: skip flat connected regions within this normal cone, degrees (0 = none)");
      app.add_flag("--json", o->json, "Print JSON");
      app.add_flag("--list", o->list,
                   "With --json: also list every crossing pair (face ids, and where: garment unit)");
      return [o] { return run_check(*o); };
    }};

}  // namespace
}  // namespace drape::cli

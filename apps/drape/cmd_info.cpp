// `drape info`: loads a body mesh and prints its statistics.

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "command_registry.h"
#include "default_paths.h"
#include "drape/core/exceptions.h"
#include "drape/geometry/mesh_adjacency.h"
#include "drape/io/mesh_io.h"

namespace drape::cli {
namespace {

struct InfoOptions {
  std::string mesh = default_body_path();
  std::string group = "body";
  std::string unit;
  bool json = false;
};

int run_info(const InfoOptions& o) {
  MeshReadOptions ro;
  ro.group = o.group;
  ro.group_optional = o.group == "body";  // the default: `body` when the file has it, else all faces
  if (!o.unit.empty()) {
    ro.unit = parse_unit(o.unit);
    if (!ro.unit) throw InvalidInput("--unit: unknown unit '" + o.unit + "'");
  }
  const LoadedMesh lm = read_mesh(o.mesh, ro);
  const TriangleMesh& m = lm.mesh;
  const MeshAdjacency adj = MeshAdjacency::build(m);
  const Aabb b = m.bounds();
  nlohmann::ordered_json j;
  j["file"] = o.mesh;
  j["group"] = o.group;
  j["file_unit"] = unit_name(lm.file_unit);
  j["unit_detected"] = lm.unit_detected;
  j["vertices"] = m.vertex_count();
  j["triangles"] = m.face_count();
  j["edges"] = adj.edges.size();
  j["closed"] = adj.is_closed();
  j["boundary_edges"] = adj.boundary_edge_count();
  j["area_m2"] = m.area();
  j["volume_m3"] = m.signed_volume();
  j["bounds_min_m"] = {b.min.x, b.min.y, b.min.z};
  j["bounds_max_m"] = {b.max.x, b.max.y, b.max.z};
  j["height_m"] = b.extent().y;
  if (o.json) {
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "mesh      " << o.mesh << (o.group.empty() ? "" : " (group " + o.group + ")") << "\n"
              << "unit      " << unit_name(lm.file_unit) << (lm.unit_detected ? " (detected)" : "") << "\n"
              << "vertices  " << m.vertex_count() << "\ntriangles " << m.face_count() << "\n"
              << "closed    " << (adj.is_closed() ? "yes" : "no") << "\n"
              << "height    " << b.extent().y << " m\n"
              << "area      " << m.area() << " m^2\nvolume    " << m.signed_volume() << " m^3\n";
  }
  return kOk;
}

const CommandRegistrar reg_info{
    "info", "Load a body or garment mesh and print its statistics", [](CLI::App& app) {
      auto o = std::make_shared<InfoOptions>();
      app.add_option("mesh", o->mesh, "Mesh file (.obj, .gltf, .glb); default: the MakeHuman body");
      app.add_option("--group", o->group, "OBJ group to keep (empty = all)");
      app.add_option("--unit", o->unit, "Unit of the file (m, dm, cm, mm, in); default: detect");
      app.add_flag("--json", o->json, "Print JSON");
      return [o] { return run_info(*o); };
    }};

}  // namespace
}  // namespace drape::cli

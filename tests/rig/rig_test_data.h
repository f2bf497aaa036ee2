#pragma once
// Shared, lazily loaded reference data for the rig tests.

#include <string>
#include <vector>

#include "drape/io/mesh_io.h"
#include "drape/rig/makehuman.h"

namespace drape::test {

inline std::string data(const std::string& rel) { return std::string(DRAPE_DATA_DIR) + "/" + rel; }
inline std::string test_data(const std::string& rel) {
  return std::string(DRAPE_TEST_DATA_DIR) + "/rig/" + rel;
}

/// The MakeHuman body group, metres.
inline const TriangleMesh& body() {
  static const TriangleMesh m = [] {
    MeshReadOptions o;
    o.group = "body";
    return read_obj(data("bodies/makehuman/base.obj"), o).mesh;
  }();
  return m;
}
/// Every base.obj vertex (helpers included), metres, indexed by file id.
inline const std::vector<Vec3>& base_vertices() {
  static const std::vector<Vec3> v = [] {
    MeshReadOptions o;
    o.unit = LengthUnit::decimetre;
    o.drop_unused_vertices = false;
    return read_obj(data("bodies/makehuman/base.obj"), o).mesh.positions;
  }();
  return v;
}
inline const MakeHumanSkeleton& mh_skeleton(const std::string& name) {
  static std::map<std::string, MakeHumanSkeleton> cache;
  auto it = cache.find(name);
  if (it == cache.end())
    it =
        cache.emplace(name, read_mhskel(data("bodies/makehuman/" + name + ".mhskel"), base_vertices())).first;
  return it->second;
}
inline const MakeHumanWeights& mh_weights() {
  static const MakeHumanWeights w = read_mhw(data("bodies/makehuman/default_weights.mhw"));
  return w;
}

}  // namespace drape::test

// MakeHuman .mhskel against the real base.obj vertices (all ids, helpers
// included, as `drape pose` loads them), then place_mhskel on the same vertices.
#include "drape/io/mesh_io.h"
#include "drape/rig/makehuman.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<drape::Vec3> base = [] {
    drape::MeshReadOptions o;
    o.drop_unused_vertices = false;
    return drape::read_obj(drape::fuzz::data_dir() / "bodies/makehuman/base.obj", o).mesh.positions;
  }();
  return drape::fuzz::run_reader(
      data, size, ".mhskel", [](const auto& p) { drape::place_mhskel(drape::read_mhskel(p, base), base); });
}

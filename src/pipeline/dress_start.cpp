// The sewn start of `drape dress` (--write-start): the garment as placed and
// not yet sewn, its seam vertex pairs and the body it is sewn on, for a peer
// (bench/peers/blender_dress.py) to sew and drape from the same start.

#include <nlohmann/json.hpp>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/geometry/units.h"
#include "drape/io/mesh_io.h"
#include "drape/pipeline/dress_stages.h"

namespace drape {

namespace fs = std::filesystem;

std::vector<fs::path> write_dress_start(const fs::path& dir, const Body& body, const ClothSimulation& sim,
                                        const TriangleMesh& dressing_body) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw IoError(dir.string() + ": cannot create folder: " + ec.message());
  const ClothModel& m = sim.model();
  TriangleMesh garment;
  garment.positions = sim.positions();
  garment.faces = m.faces;
  const std::vector<fs::path> files{dir / "start.obj", dir / "body.obj", dir / "seams.json"};
  write_obj(files[0], body.in_file_frame(std::move(garment)), body.file_unit, false);
  write_obj(files[1], body.in_file_frame(dressing_body), body.file_unit, false);
  nlohmann::ordered_json pairs = nlohmann::ordered_json::array();
  for (std::size_t s = 0; s < m.seam_a.size(); ++s) pairs.push_back({m.seam_a[s], m.seam_b[s]});
  const nlohmann::ordered_json j = {
      {"format", "drape sewn start 1"},    {"garment", "start.obj"},     {"body", "body.obj"},
      {"unit", unit_name(body.file_unit)}, {"vertices", m.vertex_count}, {"pairs_0_based", pairs}};
  write_file_atomically(files[2], j.dump() + "\n");
  return files;
}

}  // namespace drape

#include "drape/body/morphed_obj.h"

#include <cstdio>
#include <fstream>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/io/mesh_io.h"

namespace drape {

namespace fs = std::filesystem;

namespace {
bool obj_has_body_group(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if ((line.rfind("g ", 0) == 0 || line.rfind("o ", 0) == 0) && line.substr(2) == "body") return true;
  }
  return false;
}
}  // namespace

TriangleMesh MorphableBody::body_at(const std::vector<Vec3>& all) const {
  if (all.size() != base.size())
    throw InvalidInput(path.string() + ": " + "morphed vertices: " + std::to_string(all.size()) + " given, " +
                       std::to_string(base.size()) + " expected");
  TriangleMesh m = body;
  for (std::size_t i = 0; i < m.positions.size(); ++i) m.positions[i] = all[m.source_vertex[i]];
  return m;
}

MorphableBody load_morphable_body(const fs::path& base_obj) {
  MorphableBody mb;
  mb.path = base_obj;
  MeshReadOptions o;
  o.group = obj_has_body_group(base_obj) ? "body" : "";
  LoadedMesh body = read_obj(base_obj, o);
  mb.file_unit = body.file_unit;
  mb.body = std::move(body.mesh);
  MeshReadOptions all;
  all.unit = mb.file_unit;
  all.drop_unused_vertices = false;
  mb.base = read_obj(base_obj, all).mesh.positions;
  if (mb.body.source_vertex.size() != mb.body.positions.size())
    throw InvalidInput(base_obj.string() + ": " + "no file vertex ids for the body group");
  return mb;
}

void write_morphed_obj(const fs::path& base_obj, const fs::path& out, const std::vector<Vec3>& positions,
                       LengthUnit unit) {
  const std::string text = read_file(base_obj);
  const double s = 1.0 / metres_per_unit(unit);
  std::string result;
  result.reserve(text.size() + text.size() / 4);
  std::size_t pos = 0, vi = 0;
  char buf[128];
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    const std::size_t next = end == std::string::npos ? text.size() : end + 1;
    if (text.compare(pos, 2, "v ") == 0 || text.compare(pos, 2, "v\t") == 0) {
      if (vi >= positions.size())
        throw InvalidInput(base_obj.string() + ": " + "has more `v` lines than the " +
                           std::to_string(positions.size()) + " positions given");
      const Vec3& p = positions[vi++];
      std::snprintf(buf, sizeof buf, "v %.6f %.6f %.6f\n", p.x * s, p.y * s, p.z * s);
      result += buf;
    } else {
      result.append(text, pos, next - pos);
    }
    pos = next;
  }
  if (vi != positions.size())
    throw InvalidInput(base_obj.string() + ": " + "has " + std::to_string(vi) + " `v` lines, " +
                       std::to_string(positions.size()) + " positions given");
  write_file_atomically(out, result);
}

}  // namespace drape

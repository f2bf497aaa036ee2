#include "drape/body/body_loader.h"

#include <array>
#include <cctype>
#include <map>

#include "drape/core/strings.h"
#include "drape/io/mesh_io.h"

namespace drape {

namespace {

// Merges vertices at bit-identical positions (glTF and many exporters split
// a closed surface along its UV and normal seams) so that a body closed in
// space is closed as a mesh too; faces that collapse are dropped. The first
// vertex of each position (in file order) represents it.
TriangleMesh weld_coincident_vertices(const TriangleMesh& m) {
  std::map<std::array<double, 3>, int> first;
  std::vector<int> remap(m.positions.size());
  for (std::size_t v = 0; v < m.positions.size(); ++v) {
    const Vec3& p = m.positions[v];
    remap[v] = first.try_emplace({p.x, p.y, p.z}, static_cast<int>(v)).first->second;
  }
  if (first.size() == m.positions.size()) return m;
  TriangleMesh welded = m;
  welded.faces.clear();
  for (const Triangle& t : m.faces) {
    const Triangle w{remap[static_cast<std::size_t>(t[0])], remap[static_cast<std::size_t>(t[1])],
                     remap[static_cast<std::size_t>(t[2])]};
    if (w[0] != w[1] && w[1] != w[2] && w[0] != w[2]) welded.faces.push_back(w);
  }
  return welded;
}

}  // namespace

TriangleMesh rotated(TriangleMesh m, const Mat3& r) {
  for (Vec3& p : m.positions) p = r * p;
  return m;
}

TriangleMesh Body::in_file_frame(TriangleMesh m) const {
  return axes.is_canonical() ? m : rotated(std::move(m), to_file());
}

TriangleMesh Body::in_canonical_frame(TriangleMesh m) const {
  return axes.is_canonical() ? m : rotated(std::move(m), to_canonical());
}

Body load_body(const std::filesystem::path& path, const BodyLoadOptions& options) {
  MeshReadOptions ro;
  ro.unit = options.unit;
  ro.group = options.group.value_or("body");
  ro.group_optional = !options.group.has_value();
  // Every vertex is kept on reading (rigs index the file's ids), so the file is read once.
  ro.drop_unused_vertices = false;
  LoadedMesh lm = read_mesh(path, ro);

  Body b;
  b.source = path;
  b.sha256 = lm.sha256;
  b.gltf_bytes = std::move(lm.gltf_bytes);
  b.file_unit = lm.file_unit;
  b.unit_detected = lm.unit_detected;
  b.group = lower_extension(path) == ".obj" ? lm.group : std::string();
  b.groups = std::move(lm.groups);
  b.mesh = drop_unused_vertices(weld_coincident_vertices(lm.mesh));
  b.axes = resolve_body_axes(b.mesh, path.string(), options.up, options.front);
  b.axes_detected = !options.up && !options.front;
  b.mesh = b.in_canonical_frame(std::move(b.mesh));
  lm.mesh.faces.clear();
  b.all_vertices = b.in_canonical_frame(std::move(lm.mesh)).positions;
  return b;
}

}  // namespace drape

#include "drape/geometry/triangle_mesh.h"

#include "drape/core/exceptions.h"

namespace drape {

Vec3 TriangleMesh::face_normal(std::size_t f) const {
  const Triangle& t = faces[f];
  return normalized(cross(positions[t[1]] - positions[t[0]], positions[t[2]] - positions[t[0]]));
}

double TriangleMesh::face_area(std::size_t f) const {
  const Triangle& t = faces[f];
  return 0.5 * norm(cross(positions[t[1]] - positions[t[0]], positions[t[2]] - positions[t[0]]));
}

std::vector<Vec3> TriangleMesh::face_normals() const {
  std::vector<Vec3> n(faces.size());
  for (std::size_t f = 0; f < faces.size(); ++f) n[f] = face_normal(f);
  return n;
}

std::vector<Vec3> TriangleMesh::vertex_normals() const {
  std::vector<Vec3> n(positions.size());
  for (const Triangle& t : faces) {
    // The unnormalised cross product weights by area.
    const Vec3 c = cross(positions[t[1]] - positions[t[0]], positions[t[2]] - positions[t[0]]);
    for (int v : t) n[v] += c;
  }
  for (Vec3& v : n) v = normalized(v);
  return n;
}

double TriangleMesh::area() const {
  double a = 0;
  for (std::size_t f = 0; f < faces.size(); ++f) a += face_area(f);
  return a;
}

double TriangleMesh::signed_volume() const {
  double v = 0;
  for (const Triangle& t : faces) v += dot(positions[t[0]], cross(positions[t[1]], positions[t[2]]));
  return v / 6.0;
}

Aabb TriangleMesh::bounds() const {
  Aabb b;
  for (const Vec3& p : positions) b.expand(p);
  return b;
}

Aabb TriangleMesh::face_bounds(std::size_t f) const {
  Aabb b;
  for (int v : faces[f]) b.expand(positions[v]);
  return b;
}

Vec3 TriangleMesh::face_centroid(std::size_t f) const {
  const Triangle& t = faces[f];
  return (positions[t[0]] + positions[t[1]] + positions[t[2]]) / 3.0;
}

void TriangleMesh::validate(const std::string& source) const {
  for (std::size_t i = 0; i < positions.size(); ++i)
    if (!is_finite(positions[i]))
      throw InvalidInput(source, 0, "vertex " + std::to_string(i) + " has a NaN or infinite coordinate");
  const auto n = static_cast<long long>(positions.size());
  for (std::size_t f = 0; f < faces.size(); ++f)
    for (int v : faces[f])
      if (v < 0 || v >= n)
        throw InvalidInput(source, 0,
                           "face " + std::to_string(f) + " references vertex " + std::to_string(v) +
                               " but the mesh has " + std::to_string(n) + " vertices");
  if (!uvs.empty() && uvs.size() != positions.size())
    throw InvalidInput(source, 0, "uv count does not match vertex count");
}

void TriangleMesh::scale(double s) {
  for (Vec3& p : positions) p *= s;
}

TriangleMesh drop_unused_vertices(const TriangleMesh& m) {
  std::vector<int> remap(m.positions.size(), -1);
  for (const Triangle& t : m.faces)
    for (int v : t) remap[static_cast<std::size_t>(v)] = 0;
  TriangleMesh out;
  for (std::size_t v = 0; v < m.positions.size(); ++v) {
    if (remap[v] < 0) continue;
    remap[v] = static_cast<int>(out.positions.size());
    out.positions.push_back(m.positions[v]);
    out.source_vertex.push_back(m.source_vertex.empty() ? static_cast<int>(v) : m.source_vertex[v]);
    if (!m.uvs.empty()) out.uvs.push_back(m.uvs[v]);
  }
  out.faces.reserve(m.faces.size());
  for (const Triangle& t : m.faces)
    out.faces.push_back({remap[static_cast<std::size_t>(t[0])], remap[static_cast<std::size_t>(t[1])],
                         remap[static_cast<std::size_t>(t[2])]});
  return out;
}

void TriangleMesh::translate(const Vec3& t) {
  for (Vec3& p : positions) p += t;
}

}  // namespace drape

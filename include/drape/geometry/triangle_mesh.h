#pragma once
// Indexed triangle mesh in metres, with normals, areas and bounds.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "drape/core/vec.h"
#include "drape/geometry/aabb.h"

namespace drape {

using Triangle = std::array<int, 3>;

struct TriangleMesh {
  /// Vertex positions, metres.
  std::vector<Vec3> positions;
  /// Counter-clockwise (outward normal by the right-hand rule) vertex triples.
  std::vector<Triangle> faces;
  /// Optional: for each vertex, its index in the file it came from (-1 when none).
  /// Lets e.g. MakeHuman skeletons that name base.obj vertex ids find them after
  /// a group was selected.
  std::vector<int> source_vertex;
  /// Optional per-vertex texture / pattern coordinates (same size as positions, or empty).
  std::vector<Vec2> uvs;

  std::size_t vertex_count() const { return positions.size(); }
  std::size_t face_count() const { return faces.size(); }

  /// Unit normal of face f (zero vector for a degenerate face).
  Vec3 face_normal(std::size_t f) const;
  /// Area of face f.
  double face_area(std::size_t f) const;
  /// Unit normals of all faces.
  std::vector<Vec3> face_normals() const;
  /// Area-weighted average of incident face normals, normalised.
  std::vector<Vec3> vertex_normals() const;
  /// Sum of face areas.
  double area() const;
  /// Signed volume (positive for a closed, outward-oriented mesh).
  double signed_volume() const;
  Aabb bounds() const;
  Aabb face_bounds(std::size_t f) const;
  Vec3 face_centroid(std::size_t f) const;

  /// Checks indices and coordinates.
  /// \throw InvalidInput naming `source` when a face index is out of range or a
  ///        coordinate is NaN/Inf.
  void validate(const std::string& source) const;

  /// Scales all positions by s.
  void scale(double s);
  void translate(const Vec3& t);
};

/// `mesh` without the vertices no face uses; the others keep their file order,
/// and their source_vertex (their own index when `mesh` has none) and uv.
TriangleMesh drop_unused_vertices(const TriangleMesh& mesh);

}  // namespace drape

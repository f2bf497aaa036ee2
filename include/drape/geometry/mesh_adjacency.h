#pragma once
// Connectivity of a triangle mesh: edges with their faces, the faces around
// each vertex, and each triangle's neighbours (docs/METHODS.md "AABB trees", step 10 uses the latter).

#include <array>
#include <vector>

#include "drape/geometry/triangle_mesh.h"

namespace drape {

/// Each undirected edge of `faces` once, as {smaller vertex, larger vertex},
/// sorted (a deterministic order); degenerate edges (a == b) are left out.
/// Cheaper than MeshAdjacency::build when only the edges are needed.
std::vector<std::array<int, 2>> unique_edges(const std::vector<Triangle>& faces);

struct MeshEdge {
  int v0, v1;           ///< v0 < v1
  int face0 = -1;       ///< first incident face
  int face1 = -1;       ///< second incident face, -1 on a boundary
  int extra_faces = 0;  ///< faces beyond two (non-manifold edge)
};

struct MeshAdjacency {
  std::vector<MeshEdge> edges;
  /// For each face, the index into `edges` of its edges (v0-v1, v1-v2, v2-v0).
  std::vector<std::array<int, 3>> face_edges;
  /// CSR: faces around vertex v are vertex_faces[vertex_face_offsets[v] .. [v+1]).
  std::vector<int> vertex_face_offsets;
  std::vector<int> vertex_faces;
  /// For each face, the faces sharing an edge with it (up to 3 on a manifold).
  std::vector<std::vector<int>> face_neighbours;

  static MeshAdjacency build(const TriangleMesh& mesh);

  /// True when every edge has exactly two faces.
  bool is_closed() const;
  /// True when no edge has more than two faces.
  bool is_edge_manifold() const;
  std::size_t boundary_edge_count() const;
  /// Faces sharing a vertex with face f (including edge neighbours, excluding f).
  std::vector<int> faces_sharing_vertex(const TriangleMesh& mesh, int f) const;
};

}  // namespace drape

#include "drape/geometry/mesh_adjacency.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace drape {

std::vector<std::array<int, 2>> unique_edges(const std::vector<Triangle>& faces) {
  std::vector<std::array<int, 2>> edges;
  edges.reserve(3 * faces.size());
  for (const Triangle& t : faces)
    for (int k = 0; k < 3; ++k) {
      const int a = t[k], b = t[(k + 1) % 3];
      if (a != b) edges.push_back({std::min(a, b), std::max(a, b)});
    }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

MeshAdjacency MeshAdjacency::build(const TriangleMesh& mesh) {
  MeshAdjacency a;
  const std::size_t nf = mesh.faces.size(), nv = mesh.positions.size();
  a.face_edges.resize(nf);
  std::unordered_map<std::uint64_t, int> edge_index;
  edge_index.reserve(nf * 2);
  for (std::size_t f = 0; f < nf; ++f) {
    for (int k = 0; k < 3; ++k) {
      int u = mesh.faces[f][k], w = mesh.faces[f][(k + 1) % 3];
      if (u > w) std::swap(u, w);
      const std::uint64_t key = (static_cast<std::uint64_t>(u) << 32) | static_cast<std::uint32_t>(w);
      auto [it, inserted] = edge_index.try_emplace(key, static_cast<int>(a.edges.size()));
      if (inserted)
        a.edges.push_back(MeshEdge{u, w, static_cast<int>(f), -1, 0});
      else {
        MeshEdge& e = a.edges[it->second];
        if (e.face1 < 0)
          e.face1 = static_cast<int>(f);
        else
          ++e.extra_faces;
      }
      a.face_edges[f][k] = it->second;
    }
  }
  a.vertex_face_offsets.assign(nv + 1, 0);
  for (const Triangle& t : mesh.faces)
    for (int v : t) ++a.vertex_face_offsets[v + 1];
  for (std::size_t v = 0; v < nv; ++v) a.vertex_face_offsets[v + 1] += a.vertex_face_offsets[v];
  a.vertex_faces.resize(a.vertex_face_offsets[nv]);
  std::vector<int> fill(a.vertex_face_offsets.begin(), a.vertex_face_offsets.end() - 1);
  for (std::size_t f = 0; f < nf; ++f)
    for (int v : mesh.faces[f]) a.vertex_faces[fill[v]++] = static_cast<int>(f);
  a.face_neighbours.resize(nf);
  for (std::size_t f = 0; f < nf; ++f)
    for (int e : a.face_edges[f]) {
      const MeshEdge& edge = a.edges[e];
      const int other = edge.face0 == static_cast<int>(f) ? edge.face1 : edge.face0;
      if (other >= 0 && other != static_cast<int>(f)) a.face_neighbours[f].push_back(other);
    }
  return a;
}

bool MeshAdjacency::is_closed() const {
  return std::all_of(edges.begin(), edges.end(),
                     [](const MeshEdge& e) { return e.face1 >= 0 && e.extra_faces == 0; });
}

bool MeshAdjacency::is_edge_manifold() const {
  return std::all_of(edges.begin(), edges.end(), [](const MeshEdge& e) { return e.extra_faces == 0; });
}

std::size_t MeshAdjacency::boundary_edge_count() const {
  return static_cast<std::size_t>(
      std::count_if(edges.begin(), edges.end(), [](const MeshEdge& e) { return e.face1 < 0; }));
}

std::vector<int> MeshAdjacency::faces_sharing_vertex(const TriangleMesh& mesh, int f) const {
  std::vector<int> out;
  for (int v : mesh.faces[f])
    for (int i = vertex_face_offsets[v]; i < vertex_face_offsets[v + 1]; ++i)
      if (vertex_faces[i] != f) out.push_back(vertex_faces[i]);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace drape

#include "drape/pattern/boundary_loops.h"

#include <cstddef>

#include "drape/core/union_find.h"

namespace drape {

std::vector<BoundaryLoop> boundary_loops(const Pattern& pattern, const PatternMesh& mesh) {
  return boundary_loops(pattern, mesh, std::vector<char>(pattern.panels.size(), 1));
}

std::vector<BoundaryLoop> boundary_loops(const Pattern& pattern, const PatternMesh& mesh,
                                         const std::vector<char>& within) {
  const GarmentMesh& g = mesh.garment;
  auto inside = [&](int panel) {
    return static_cast<std::size_t>(panel) < within.size() && within[static_cast<std::size_t>(panel)] != 0;
  };
  // Corners joined by seams are one node of the boundary graph.
  UnionFind corner(g.rest.size());
  for (const SeamVertexPair& p : g.seam_pairs) corner.unite(p.a, p.b);

  std::vector<std::vector<bool>> sewn(pattern.panels.size());
  for (std::size_t p = 0; p < pattern.panels.size(); ++p)
    sewn[p].assign(pattern.panels[p].edges.size(), false);
  for (const Stitch& s : pattern.stitches) {
    if (!inside(s.a.panel) || !inside(s.b.panel)) continue;  // sewn to the outside: free here
    for (const StitchSide& side : {s.a, s.b})
      sewn[static_cast<std::size_t>(side.panel)][static_cast<std::size_t>(side.edge)] = true;
  }

  struct FreeEdge {
    StitchSide side;
    int from, to;  // boundary graph nodes of its start and end
    const std::vector<int>* samples;
  };
  std::vector<FreeEdge> free;
  for (std::size_t p = 0; p < pattern.panels.size(); ++p)
    for (std::size_t e = 0; e < sewn[p].size() && inside(static_cast<int>(p)); ++e) {
      const std::vector<int>& v = mesh.panels[p].edge_vertices[e];
      if (sewn[p][e] || v.size() < 2) continue;
      free.push_back(
          {{static_cast<int>(p), static_cast<int>(e)}, corner.find(v.front()), corner.find(v.back()), &v});
    }

  std::vector<BoundaryLoop> loops;
  std::vector<bool> used(free.size(), false);
  for (std::size_t start = 0; start < free.size(); ++start) {
    if (used[start]) continue;
    BoundaryLoop loop;
    std::vector<std::size_t> walked{start};
    used[start] = true;
    const int home = free[start].from;
    int at = free[start].to;
    bool closed = at == home;
    while (!closed) {
      // The next free edge at this corner, lowest index first, in either direction.
      std::size_t next = free.size();
      for (std::size_t k = 0; k < free.size() && next == free.size(); ++k)
        if (!used[k] && (free[k].from == at || free[k].to == at)) next = k;
      if (next == free.size()) break;  // a chain that does not close
      used[next] = true;
      walked.push_back(next);
      at = free[next].from == at ? free[next].to : free[next].from;
      closed = at == home;
    }
    if (!closed) continue;
    int node = home;
    for (std::size_t k : walked) {
      const FreeEdge& e = free[k];
      const bool rev = e.from != node;
      loop.edges.push_back(e.side);
      loop.reversed.push_back(rev);
      const std::vector<int>& v = *e.samples;
      for (std::size_t i = 0; i < v.size(); ++i) loop.vertices.push_back(rev ? v[v.size() - 1 - i] : v[i]);
      for (std::size_t i = 1; i < v.size(); ++i)
        loop.rest_length +=
            norm(g.rest[static_cast<std::size_t>(v[i])] - g.rest[static_cast<std::size_t>(v[i - 1])]);
      node = rev ? e.from : e.to;
    }
    loops.push_back(std::move(loop));
  }
  return loops;
}

}  // namespace drape

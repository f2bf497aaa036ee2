#include "placement_relax.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "drape/geometry/mesh_adjacency.h"

namespace drape::detail {
namespace {

// An edge more than this far off its pattern length is distorted.
constexpr double kDistorted = 0.10;
// Rings of vertices around the distorted ones that may move.
constexpr int kRings = 8;
constexpr int kPasses = 300;
// A vertex nearer the body than the clearance is pushed out to this many clearances.
constexpr double kPushTo = 1.02;

struct Edge {
  int a, b;
  double rest;
};

double worst(const std::vector<Edge>& edges, const std::vector<Vec3>& x) {
  double w = 0;
  for (const Edge& e : edges) w = std::max(w, std::abs(norm(x[e.a] - x[e.b]) / e.rest - 1));
  return w;
}

}  // namespace

PlacementRelaxResult relax_distorted_placement(const PatternMesh& pm, const std::vector<char>& panels,
                                               const TriangleMeshBvh& body, double clearance,
                                               std::vector<Vec3>& pos) {
  PlacementRelaxResult res;
  const GarmentMesh& gm = pm.garment;
  const std::size_t n = gm.mesh.positions.size();
  std::vector<unsigned char> in(n, 0);
  for (std::size_t p = 0; p < panels.size() && p < pm.panels.size(); ++p)
    if (panels[p])
      for (int v = pm.panels[p].first_vertex; v < pm.panels[p].first_vertex + pm.panels[p].vertex_count; ++v)
        in[v] = 1;
  // The panels' edges with their pattern lengths (uvs are the pattern's coordinates).
  std::vector<Edge> edges;
  for (const std::array<int, 2>& e : unique_edges(gm.mesh.faces)) {
    if (!in[e[0]] || !in[e[1]]) continue;
    const double rest = norm(gm.mesh.uvs[e[0]] - gm.mesh.uvs[e[1]]);
    if (rest > 1e-9) edges.push_back({e[0], e[1], rest});
  }
  std::vector<unsigned char> free(n, 0);
  for (const Edge& e : edges)
    if (std::abs(norm(pos[e.a] - pos[e.b]) / e.rest - 1) > kDistorted) free[e.a] = free[e.b] = 1;
  res.distorted_vertices = static_cast<int>(std::count(free.begin(), free.end(), 1));
  res.worst_before = res.worst_after = worst(edges, pos);
  if (res.distorted_vertices == 0) return res;
  for (int ring = 0; ring < kRings; ++ring) {
    std::vector<unsigned char> next = free;
    for (const Edge& e : edges)
      if (free[e.a] || free[e.b]) next[e.a] = next[e.b] = 1;
    free.swap(next);
  }
  std::vector<int> movable;
  for (std::size_t v = 0; v < n; ++v)
    if (free[v]) movable.push_back(static_cast<int>(v));
  res.relaxed_vertices = static_cast<int>(movable.size());
  std::vector<Edge> active;
  for (const Edge& e : edges)
    if (free[e.a] || free[e.b]) active.push_back(e);

  std::vector<Vec3> x = pos, start;
  const double max_move = 0.5 * clearance;
  for (int pass = 0; pass < kPasses; ++pass) {
    start = x;
    for (const Edge& e : active) {
      const Vec3 d = x[e.b] - x[e.a];
      const double l = norm(d);
      if (l < 1e-12) continue;
      const Vec3 c = d * ((l - e.rest) / l);
      const double wa = free[e.a] ? 1.0 : 0.0, wb = free[e.b] ? 1.0 : 0.0;
      x[e.a] += c * (wa / (wa + wb));
      x[e.b] -= c * (wb / (wa + wb));
    }
    // Small moves (under half the clearance from a vertex at least the
    // clearance out stays outside), then back out to the clearance.
    for (int v : movable) {
      Vec3 m = x[v] - start[v];
      const double len = norm(m);
      if (len > max_move) m *= max_move / len;
      Vec3 y = start[v] + m;
      // A little past the clearance, again after each push: in a concave
      // place the push off one face can come nearer another.
      for (int k = 0; k < 4; ++k) {
        const TriangleMeshBvh::PointQuery q = body.closest_point(y, kPushTo * clearance);
        if (q.face < 0 || q.distance >= clearance || q.distance <= 1e-12) break;
        y = q.point + (y - q.point) * (kPushTo * clearance / q.distance);
      }
      x[v] = y;
    }
  }
  const double after = worst(edges, x);
  if (after < res.worst_before) {
    pos = x;
    res.worst_after = after;
  }
  return res;
}

}  // namespace drape::detail

#include "drape/geometry/garment_transfer.h"

#include <algorithm>
#include <limits>
#include <string>

#include "drape/core/exceptions.h"
#include "drape/core/union_find.h"
#include "drape/geometry/triangle_queries.h"

namespace drape {
namespace {

Vec3 flat(Vec2 p) { return {p.x, p.y, 0}; }

// A source triangle in its panel's rest plane, with its box for the search.
struct RestTriangle {
  int face = 0;
  Vec2 lo, hi;
};

// Squared distance from p to the box [lo, hi] (0 inside): no point of the
// triangle in the box is nearer than this.
double box_distance2(Vec2 p, Vec2 lo, Vec2 hi) {
  const double dx = std::max({lo.x - p.x, 0.0, p.x - hi.x});
  const double dy = std::max({lo.y - p.y, 0.0, p.y - hi.y});
  return dx * dx + dy * dy;
}

}  // namespace

std::vector<Vec3> transfer_positions(const GarmentMesh& from, const std::vector<Vec3>& from_positions,
                                     const GarmentMesh& to) {
  const std::size_t nf = from.mesh.vertex_count();
  if (from_positions.size() != nf || from.rest.size() != nf || from.panel_of_vertex.size() != nf)
    throw InvalidInput("garment transfer: the source positions, rest points and panels differ in count");
  if (from.panel_names != to.panel_names)
    throw InvalidInput("garment transfer: the two meshes have different panels");
  const std::size_t panels = from.panel_names.size();
  // The source triangles of each panel (a triangle's panel is its vertices').
  std::vector<std::vector<RestTriangle>> by_panel(panels);
  for (std::size_t f = 0; f < from.mesh.face_count(); ++f) {
    const Triangle& t = from.mesh.faces[f];
    const Vec2 a = from.rest[t[0]], b = from.rest[t[1]], c = from.rest[t[2]];
    by_panel[static_cast<std::size_t>(from.panel_of_vertex[t[0]])].push_back(
        {static_cast<int>(f),
         {std::min({a.x, b.x, c.x}), std::min({a.y, b.y, c.y})},
         {std::max({a.x, b.x, c.x}), std::max({a.y, b.y, c.y})}});
  }
  const std::size_t nt = to.mesh.vertex_count();
  std::vector<Vec3> x(nt);
  for (std::size_t i = 0; i < nt; ++i) {
    const int panel = to.panel_of_vertex[i];
    const std::vector<RestTriangle>& tris = by_panel[static_cast<std::size_t>(panel)];
    if (tris.empty())
      throw InvalidInput("garment transfer: panel '" + to.panel_names[static_cast<std::size_t>(panel)] +
                         "' has no triangle in the source mesh");
    const Vec2 p = to.rest[i];
    // The nearest triangle (distance 0: one containing p); ties go to the
    // first in face order, so the answer does not depend on anything else.
    double best = std::numeric_limits<double>::infinity();
    ClosestPoint best_cp;
    int best_face = -1;
    for (const RestTriangle& rt : tris) {
      if (box_distance2(p, rt.lo, rt.hi) >= best) continue;
      const Triangle& t = from.mesh.faces[static_cast<std::size_t>(rt.face)];
      const ClosestPoint cp = closest_point_on_triangle(flat(p), flat(from.rest[t[0]]), flat(from.rest[t[1]]),
                                                        flat(from.rest[t[2]]));
      const double d2 = squared_norm(cp.point - flat(p));
      if (d2 < best) {
        best = d2;
        best_cp = cp;
        best_face = rt.face;
        if (d2 == 0) break;
      }
    }
    const Triangle& t = from.mesh.faces[static_cast<std::size_t>(best_face)];
    x[i] = from_positions[t[0]] * best_cp.u + from_positions[t[1]] * best_cp.v +
           from_positions[t[2]] * best_cp.w;
  }
  return x;
}

void close_seams(const GarmentMesh& garment, std::vector<Vec3>& positions) {
  const std::size_t n = positions.size();
  UnionFind sides(n);
  for (const SeamVertexPair& p : garment.seam_pairs) sides.unite(p.a, p.b);
  const std::vector<int> rep = sides.representatives();
  std::vector<Vec3> sum(n);
  std::vector<int> count(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    sum[static_cast<std::size_t>(rep[i])] += positions[i];
    ++count[static_cast<std::size_t>(rep[i])];
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t r = static_cast<std::size_t>(rep[i]);
    if (count[r] > 1) positions[i] = sum[r] / static_cast<double>(count[r]);
  }
}

}  // namespace drape

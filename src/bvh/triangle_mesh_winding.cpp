#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <utility>

#include "drape/bvh/triangle_mesh_bvh.h"

// Generalized winding number of the triangle tree's faces and the inside test
// built on it (docs/BVH.md, "Inside tests").
//
// Let S be the faces (a 2-chain) and dS its boundary (the directed edges that
// do not cancel). Cap every connected boundary component by a fan F from the
// centroid of its vertices, so that dF = dS: then Z = S - F is closed and
//   w_S(p) = w_Z(p) + w_F(p),
// where w_Z is an integer, the signed number of times any ray from p crosses
// Z (counted exactly with the watertight ray test and exact orientation
// signs), and w_F is the sum of the fan triangles' solid angles over 4 pi.
// For a closed mesh F is empty and w is one signed ray count.

namespace drape {
namespace {

// Solid angle of triangle abc seen from p, signed: positive when p lies
// behind the triangle (on the side opposite (b - a) x (c - a)) (Van
// Oosterom and Strackee 1983).
double solid_angle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 x = a - p, y = b - p, z = c - p;
  const double lx = norm(x), ly = norm(y), lz = norm(z);
  const double det = dot(x, cross(y, z));
  const double den = lx * ly * lz + dot(x, y) * lz + dot(y, z) * lx + dot(z, x) * ly;
  return 2 * std::atan2(det, den);
}

// A fixed direction with no simple ratios, so typical meshes' edges and
// symmetry planes are rarely met; the count is exact regardless.
constexpr Vec3 kRayDirection{0.4311728093, 0.7642155361, 0.4795384227};

}  // namespace

const TriangleMeshBvh::Lazy& TriangleMeshBvh::boundary() const {
  std::call_once(lazy_->boundary_once, [&] {
    // Directed edge a -> b counts +1 on the key (min, max) when a < b, else -1.
    std::map<std::pair<int, int>, int> chain;
    for (int f : faces_) {
      const Triangle& t = mesh_->faces[f];
      for (int k = 0; k < 3; ++k) {
        const int a = t[k], b = t[(k + 1) % 3];
        if (a == b) continue;
        chain[{std::min(a, b), std::max(a, b)}] += a < b ? 1 : -1;
      }
    }
    Lazy& l = *lazy_;
    std::map<int, int> parent;  // union-find over the boundary's vertex ids
    auto find = [&](int x) {
      while (parent[x] != x) x = parent[x] = parent[parent[x]];
      return x;
    };
    for (const auto& [e, m] : chain) {
      if (m == 0) continue;
      const int a = m > 0 ? e.first : e.second, b = m > 0 ? e.second : e.first;
      l.boundary.push_back({a, b, std::abs(m), -1});
      parent.try_emplace(a, a);
      parent.try_emplace(b, b);
      const int ra = find(a), rb = find(b);
      if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb);
    }
    // Components numbered by their smallest vertex id (deterministic).
    std::map<int, int> component_of_root;
    std::vector<std::vector<int>> members;
    for (const auto& [v, unused] : parent) {
      const int r = find(v);
      const auto [it, inserted] = component_of_root.try_emplace(r, static_cast<int>(members.size()));
      if (inserted) members.emplace_back();
      members[it->second].push_back(v);
    }
    for (Lazy::BoundaryEdge& e : l.boundary) e.component = component_of_root.at(find(e.a));
    l.component_start.assign(1, 0);
    for (const std::vector<int>& m : members) {
      l.component_vertices.insert(l.component_vertices.end(), m.begin(), m.end());
      l.component_start.push_back(static_cast<int>(l.component_vertices.size()));
    }
  });
  return *lazy_;
}

std::size_t TriangleMeshBvh::boundary_edge_count() const {
  std::size_t n = 0;
  for (const Lazy::BoundaryEdge& e : boundary().boundary) n += static_cast<std::size_t>(e.multiplicity);
  return n;
}

double TriangleMeshBvh::winding_number(const Vec3& p) const {
  if (tree_.empty() || !is_finite(p)) return 0;
  const Ray ray{p, kRayDirection, 0.0};
  const int crossings_s = signed_crossings(ray);
  const Lazy& l = boundary();
  if (l.boundary.empty()) return crossings_s;
  // Fan apexes from the current positions (the boundary is topological).
  const Vec3* x = mesh_->positions.data();
  const std::size_t nc = l.component_start.size() - 1;
  std::vector<Vec3> apex(nc);
  for (std::size_t c = 0; c < nc; ++c) {
    Vec3 sum;
    for (int i = l.component_start[c]; i < l.component_start[c + 1]; ++i) sum += x[l.component_vertices[i]];
    apex[c] = sum / static_cast<double>(l.component_start[c + 1] - l.component_start[c]);
  }
  const WatertightRay wr(ray);
  int crossings_f = 0;
  double angle_f = 0;
  for (const Lazy::BoundaryEdge& e : l.boundary) {
    const Vec3 &c = apex[e.component], &a = x[e.a], &b = x[e.b];
    double t, u, v;
    if (intersect_ray_triangle(wr, c, a, b, t, u, v))
      crossings_f += e.multiplicity * orient3d_sign(c, a, b, p);
    angle_f += e.multiplicity * solid_angle(p, c, a, b);
  }
  return (crossings_s - crossings_f) + angle_f / (4 * std::numbers::pi);
}

bool TriangleMeshBvh::contains(const Vec3& p) const { return std::abs(winding_number(p)) >= 0.5; }

}  // namespace drape

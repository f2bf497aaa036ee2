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
// For a closed mesh F is empty and w is one signed ray count. contains()
// skips the fans far from p and from the ray when a bound on their solid
// angles cannot move w across 1/2.

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
    std::stable_sort(
        l.boundary.begin(), l.boundary.end(),
        [](const Lazy::BoundaryEdge& x, const Lazy::BoundaryEdge& y) { return x.component < y.component; });
    l.edge_start.assign(members.size() + 1, 0);
    for (const Lazy::BoundaryEdge& e : l.boundary) ++l.edge_start[e.component + 1];
    for (std::size_t c = 0; c < members.size(); ++c) l.edge_start[c + 1] += l.edge_start[c];
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

const std::vector<TriangleMeshBvh::Lazy::Cap>& TriangleMeshBvh::fresh_caps() const {
  boundary();
  Lazy& l = *lazy_;
  if (l.caps_fresh.load(std::memory_order_acquire)) return l.caps;
  const std::lock_guard<std::mutex> lock(l.wide_mutex);
  if (l.caps_fresh.load(std::memory_order_relaxed)) return l.caps;
  const Vec3* x = mesh_->positions.data();
  const std::size_t nc = l.component_start.size() - 1;
  l.caps.assign(nc, {});
  for (std::size_t c = 0; c < nc; ++c) {
    Lazy::Cap& cap = l.caps[c];
    Vec3 sum;
    for (int i = l.component_start[c]; i < l.component_start[c + 1]; ++i) sum += x[l.component_vertices[i]];
    cap.apex = sum / static_cast<double>(l.component_start[c + 1] - l.component_start[c]);
    // Every fan triangle is the hull of the apex and two component vertices.
    for (int i = l.component_start[c]; i < l.component_start[c + 1]; ++i)
      cap.radius = std::max(cap.radius, norm(x[l.component_vertices[i]] - cap.apex));
    for (int i = l.edge_start[c]; i < l.edge_start[c + 1]; ++i) {
      const Lazy::BoundaryEdge& e = l.boundary[i];
      cap.area += e.multiplicity * 0.5 * norm(cross(x[e.a] - cap.apex, x[e.b] - cap.apex));
    }
    // Rounding of the sums above (relative 2^-40 is far more than enough).
    cap.radius *= 1 + 0x1p-40;
    cap.area *= 1 + 0x1p-40;
  }
  l.caps_fresh.store(true, std::memory_order_release);
  return l.caps;
}

double TriangleMeshBvh::cap_winding(int k, const Vec3& p, const WatertightRay& wr) const {
  const Lazy& l = *lazy_;
  const Vec3* x = mesh_->positions.data();
  const Vec3& c = l.caps[k].apex;
  int crossings = 0;
  double angle = 0;
  for (int i = l.edge_start[k]; i < l.edge_start[k + 1]; ++i) {
    const Lazy::BoundaryEdge& e = l.boundary[i];
    const Vec3 &a = x[e.a], &b = x[e.b];
    double t, u, v;
    if (intersect_ray_triangle(wr, c, a, b, t, u, v)) crossings += e.multiplicity * orient3d_sign(c, a, b, p);
    angle += e.multiplicity * solid_angle(p, c, a, b);
  }
  return angle / (4 * std::numbers::pi) - crossings;
}

double TriangleMeshBvh::winding_number(const Vec3& p) const {
  if (tree_.empty() || !is_finite(p)) return 0;
  const Ray ray{p, kRayDirection, 0.0};
  const double w_closed = signed_crossings(ray);
  if (boundary().boundary.empty()) return w_closed;
  const std::vector<Lazy::Cap>& caps = fresh_caps();
  const WatertightRay wr(ray);
  double w_caps = 0;
  for (std::size_t k = 0; k < caps.size(); ++k) w_caps += cap_winding(static_cast<int>(k), p, wr);
  return w_closed + w_caps;
}

bool TriangleMeshBvh::contains(const Vec3& p) const {
  if (tree_.empty() || !is_finite(p)) return false;
  const Ray ray{p, kRayDirection, 0.0};
  const int crossings = signed_crossings(ray);
  if (boundary().boundary.empty()) return crossings != 0;
  // Fans the ray cannot reach and that lie farther than their radius are not
  // summed: their solid angle is at most area / (distance - radius)^2 in
  // magnitude. When the bounds cannot decide the side of 1/2, sum them all.
  const std::vector<Lazy::Cap>& caps = fresh_caps();
  const WatertightRay wr(ray);
  const double dd = dot(kRayDirection, kRayDirection);
  double w = crossings, slack = 0;
  for (std::size_t k = 0; k < caps.size(); ++k) {
    const Lazy::Cap& cap = caps[k];
    const Vec3 to = cap.apex - p;
    const double d = norm(to);
    const double s = std::max(0.0, dot(to, kRayDirection) / dd);  // nearest ray parameter
    const double miss = norm(to - kRayDirection * s);             // the ray's distance from the apex
    if (d > cap.radius * 1.001 && miss > cap.radius * 1.001) {
      const double gap = d - cap.radius;
      slack += cap.area / (gap * gap) / (4 * std::numbers::pi);
    } else {
      w += cap_winding(static_cast<int>(k), p, wr);
    }
  }
  slack = slack * 1.001 + 1e-12;
  if (std::abs(w) - slack >= 0.5) return true;
  if (std::abs(w) + slack < 0.5) return false;
  return std::abs(winding_number(p)) >= 0.5;
}

}  // namespace drape

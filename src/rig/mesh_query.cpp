#include "mesh_query.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace drape::rig_detail {

MeshQuery::MeshQuery(const TriangleMesh& mesh) : mesh_(mesh), vertex_normals_(mesh.vertex_normals()) {
  const int n = static_cast<int>(mesh.face_count());
  order_.resize(n);
  std::vector<Vec3> centroids(n);
  for (int f = 0; f < n; ++f) {
    order_[f] = f;
    centroids[f] = mesh.face_centroid(f);
  }
  nodes_.reserve(2 * static_cast<std::size_t>(n) / 2 + 2);
  if (n > 0) build(0, n, centroids);
}

int MeshQuery::build(int start, int count, std::vector<Vec3>& centroids) {
  const int id = static_cast<int>(nodes_.size());
  nodes_.push_back({});
  Aabb box, cbox;
  for (int i = start; i < start + count; ++i) {
    box.expand(mesh_.face_bounds(order_[i]));
    cbox.expand(centroids[order_[i]]);
  }
  nodes_[id].box = box;
  if (count <= 4) {
    nodes_[id].start = start;
    nodes_[id].count = count;
    return id;
  }
  const int axis = cbox.longest_axis();
  const int mid = start + count / 2;
  std::nth_element(order_.begin() + start, order_.begin() + mid, order_.begin() + start + count,
                   [&](int a, int b) { return centroids[a][axis] < centroids[b][axis]; });
  const int l = build(start, mid - start, centroids);
  const int r = build(mid, start + count - mid, centroids);
  nodes_[id].left = l;
  nodes_[id].right = r;
  return id;
}

namespace {
bool ray_box(const Aabb& b, const Vec3& o, const Vec3& inv, double t0, double t1) {
  for (int a = 0; a < 3; ++a) {
    if (std::isinf(inv[a])) {
      // Parallel to this slab (direction component +-0): 0 * inf would be NaN.
      if (o[a] < b.min[a] || o[a] > b.max[a]) return false;
      continue;
    }
    double tn = (b.min[a] - o[a]) * inv[a], tf = (b.max[a] - o[a]) * inv[a];
    if (tn > tf) std::swap(tn, tf);
    t0 = std::max(t0, tn);
    t1 = std::min(t1, tf);
    if (t0 > t1) return false;
  }
  return true;
}

// Moeller-Trumbore; returns t or -1.
double ray_triangle(const Vec3& o, const Vec3& d, const Vec3& a, const Vec3& b, const Vec3& c, double& u,
                    double& v, double eps) {
  const Vec3 e1 = b - a, e2 = c - a;
  const Vec3 p = cross(d, e2);
  const double det = dot(e1, p);
  if (std::abs(det) < 1e-300) return -1;
  const double inv = 1.0 / det;
  const Vec3 s = o - a;
  u = dot(s, p) * inv;
  if (u < -eps || u > 1 + eps) return -1;
  const Vec3 q = cross(s, e1);
  v = dot(d, q) * inv;
  if (v < -eps || u + v > 1 + eps) return -1;
  return dot(e2, q) * inv;
}
}  // namespace

std::vector<RayHit> MeshQuery::hits(const Vec3& o, const Vec3& d, double t_min, double t_max,
                                    double eps) const {
  std::vector<RayHit> out;
  if (nodes_.empty()) return out;
  const Vec3 inv{1.0 / d.x, 1.0 / d.y, 1.0 / d.z};
  std::vector<int> stack{0};
  while (!stack.empty()) {
    const Node& n = nodes_[stack.back()];
    stack.pop_back();
    if (!ray_box(n.box, o, inv, t_min, t_max)) continue;
    if (n.left < 0) {
      for (int i = n.start; i < n.start + n.count; ++i) {
        const Triangle& f = mesh_.faces[order_[i]];
        double u = 0, v = 0;
        const double t = ray_triangle(o, d, mesh_.positions[f[0]], mesh_.positions[f[1]],
                                      mesh_.positions[f[2]], u, v, eps);
        if (t > t_min && t < t_max) out.push_back({t, order_[i], u, v});
      }
    } else {
      stack.push_back(n.left);
      stack.push_back(n.right);
    }
  }
  std::sort(out.begin(), out.end(),
            [](const RayHit& a, const RayHit& b) { return a.t < b.t || (a.t == b.t && a.face < b.face); });
  return out;
}

RayHit MeshQuery::first_hit(const Vec3& o, const Vec3& d, double t_min, double t_max) const {
  const auto h = hits(o, d, t_min, t_max);
  return h.empty() ? RayHit{-1, -1, 0, 0} : h.front();
}

Vec3 closest_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, double bary[3]) {
  // Ericson, Real-Time Collision Detection 5.1.5.
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) {
    bary[0] = 1;
    bary[1] = 0;
    bary[2] = 0;
    return a;
  }
  const Vec3 bp = p - b;
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) {
    bary[0] = 0;
    bary[1] = 1;
    bary[2] = 0;
    return b;
  }
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const double v = d1 / (d1 - d3);
    bary[0] = 1 - v;
    bary[1] = v;
    bary[2] = 0;
    return a + ab * v;
  }
  const Vec3 cp = p - c;
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) {
    bary[0] = 0;
    bary[1] = 0;
    bary[2] = 1;
    return c;
  }
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const double w = d2 / (d2 - d6);
    bary[0] = 1 - w;
    bary[1] = 0;
    bary[2] = w;
    return a + ac * w;
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    bary[0] = 0;
    bary[1] = 1 - w;
    bary[2] = w;
    return b + (c - b) * w;
  }
  const double denom = 1.0 / (va + vb + vc);
  const double v = vb * denom, w = vc * denom;
  bary[0] = 1 - v - w;
  bary[1] = v;
  bary[2] = w;
  return a + ab * v + ac * w;
}

ClosestPoint MeshQuery::closest(const Vec3& p) const {
  ClosestPoint best;
  double best_d2 = std::numeric_limits<double>::infinity();
  if (nodes_.empty()) return best;
  std::vector<int> stack{0};
  while (!stack.empty()) {
    const Node& n = nodes_[stack.back()];
    stack.pop_back();
    if (n.box.squared_distance(p) >= best_d2) continue;
    if (n.left < 0) {
      for (int i = n.start; i < n.start + n.count; ++i) {
        const int fi = order_[i];
        const Triangle& f = mesh_.faces[fi];
        double b[3];
        const Vec3 q =
            closest_on_triangle(p, mesh_.positions[f[0]], mesh_.positions[f[1]], mesh_.positions[f[2]], b);
        const double d2 = squared_norm(q - p);
        if (d2 < best_d2 || (d2 == best_d2 && fi < best.face)) {
          best_d2 = d2;
          best.point = q;
          best.face = fi;
          best.b[0] = b[0];
          best.b[1] = b[1];
          best.b[2] = b[2];
        }
      }
    } else {
      // Visit the nearer child first (pushed last).
      const double dl = nodes_[n.left].box.squared_distance(p), dr = nodes_[n.right].box.squared_distance(p);
      if (dl < dr) {
        stack.push_back(n.right);
        stack.push_back(n.left);
      } else {
        stack.push_back(n.left);
        stack.push_back(n.right);
      }
    }
  }
  best.distance = std::sqrt(best_d2);
  return best;
}

bool MeshQuery::inside(const Vec3& p) const {
  static const Vec3 dirs[3] = {normalized(Vec3{0.5377, 0.8124, 0.2251}),
                               normalized(Vec3{-0.3721, 0.1543, 0.9153}),
                               normalized(Vec3{0.7071, -0.6523, -0.2729})};
  int votes = 0;
  for (const Vec3& d : dirs) votes += hits(p, d, 0, 1e300, 0.0).size() % 2;
  return votes >= 2;
}

Vec3 MeshQuery::normal_at(const ClosestPoint& c) const {
  const Triangle& f = mesh_.faces[c.face];
  Vec3 n = vertex_normals_[f[0]] * c.b[0] + vertex_normals_[f[1]] * c.b[1] + vertex_normals_[f[2]] * c.b[2];
  if (norm(n) < 1e-12) n = mesh_.face_normal(c.face);
  return normalized(n);
}

}  // namespace drape::rig_detail

#include "drape/collision/self_collider.h"

#include <algorithm>
#include <cmath>

#include "drape/geometry/triangle_queries.h"

namespace drape {
namespace {

// Closest points of segments p0-p1 and q0-q1: p0 + s (p1 - p0), q0 + t (q1 - q0)
// (Ericson, Real-Time Collision Detection 5.1.9).
void closest_segment_params(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, double& s,
                            double& t) {
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
  constexpr double eps = 1e-18;
  if (a <= eps && e <= eps) {
    s = t = 0;
    return;
  }
  if (a <= eps) {
    s = 0;
    t = std::clamp(f / e, 0.0, 1.0);
    return;
  }
  const double c = dot(d1, r);
  if (e <= eps) {
    t = 0;
    s = std::clamp(-c / a, 0.0, 1.0);
    return;
  }
  const double b = dot(d1, d2), denom = a * e - b * b;
  s = denom > eps ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
  t = (b * s + f) / e;
  if (t < 0) {
    t = 0;
    s = std::clamp(-c / a, 0.0, 1.0);
  } else if (t > 1) {
    t = 1;
    s = std::clamp((b - c) / a, 0.0, 1.0);
  }
}

Aabb swept_box(const Vec3* a, const Vec3* b, int n, double margin) {
  Aabb box;
  for (int i = 0; i < n; ++i) {
    box.expand(a[i]);
    box.expand(b[i]);
  }
  return box.inflated(margin);
}

}  // namespace

SelfCollider::SelfCollider(const std::vector<Triangle>& faces, const std::vector<Vec3>& positions,
                           double thickness, double cone_angle, std::vector<int> vertex_alias)
    : faces_(faces), alias_(std::move(vertex_alias)), thickness_(thickness), cos_cone_(std::cos(cone_angle)) {
  const std::size_t n = positions.size();
  if (alias_.size() != n) {
    alias_.resize(n);
    for (std::size_t i = 0; i < n; ++i) alias_[i] = static_cast<int>(i);
  }
  alias_faces_ = faces_;
  for (Triangle& t : alias_faces_)
    for (int& v : t) v = alias_[v];
  std::vector<std::array<int, 2>> edges;
  edges.reserve(3 * faces_.size());
  for (const Triangle& t : faces_)
    for (int i = 0; i < 3; ++i) {
      int a = t[i], b = t[(i + 1) % 3];
      if (a > b) std::swap(a, b);
      edges.push_back({a, b});
    }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  edges_ = std::move(edges);

  // Faces around each vertex, by alias (a seam's two sides share their faces).
  vertex_face_offsets_.assign(n + 1, 0);
  for (const Triangle& t : alias_faces_)
    for (int v : t) ++vertex_face_offsets_[v + 1];
  for (std::size_t i = 0; i < n; ++i) vertex_face_offsets_[i + 1] += vertex_face_offsets_[i];
  vertex_faces_.resize(vertex_face_offsets_[n]);
  std::vector<int> fill(vertex_face_offsets_.begin(), vertex_face_offsets_.end() - 1);
  for (std::size_t f = 0; f < faces_.size(); ++f)
    for (int v : alias_faces_[f]) vertex_faces_[fill[v]++] = static_cast<int>(f);

  tri_boxes_.resize(faces_.size());
  edge_boxes_.resize(edges_.size());
  for (std::size_t f = 0; f < faces_.size(); ++f) {
    const Vec3 p[3] = {positions[faces_[f][0]], positions[faces_[f][1]], positions[faces_[f][2]]};
    tri_boxes_[f] = swept_box(p, p, 3, thickness_);
  }
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    const Vec3 p[2] = {positions[edges_[e][0]], positions[edges_[e][1]]};
    edge_boxes_[e] = swept_box(p, p, 2, thickness_);
  }
  tri_tree_ = Bvh::build(tri_boxes_);
  edge_tree_ = Bvh::build(edge_boxes_);
  face_normals_.resize(faces_.size());
  flat_.assign(faces_.size(), 0);
  vt_.resize(n * kMaxContacts);
  vt_count_.assign(n, 0);
  ee_.resize(edges_.size() * kMaxContacts);
  ee_count_.assign(edges_.size(), 0);
  culled_.assign(std::max(n, edges_.size()), 0);
  update_curvature(positions, Executor::global());
}

void SelfCollider::update_curvature(const std::vector<Vec3>& x, const Executor& executor) {
  executor.for_each(0, faces_.size(), [&](std::size_t f) {
    const Triangle& t = faces_[f];
    face_normals_[f] = normalized(cross(x[t[1]] - x[t[0]], x[t[2]] - x[t[0]]));
  });
  // M1 step 10: a face is "flat" when every face sharing a vertex with it has a
  // normal within the cone; a vertex and a face of such a neighbourhood cannot
  // touch without the neighbourhood bending first.
  executor.for_each(0, faces_.size(), [&](std::size_t f) {
    bool flat = true;
    for (int v : faces_[f]) {
      for (int k = vertex_face_offsets_[v]; k < vertex_face_offsets_[v + 1] && flat; ++k)
        if (dot(face_normals_[f], face_normals_[vertex_faces_[k]]) < cos_cone_) flat = false;
    }
    flat_[f] = flat;
  });
}

void SelfCollider::refit(const std::vector<Vec3>& x, const std::vector<Vec3>& x_prev,
                         const Executor& executor) {
  executor.for_each(0, faces_.size(), [&](std::size_t f) {
    const Triangle& t = faces_[f];
    const Vec3 a[3] = {x[t[0]], x[t[1]], x[t[2]]};
    const Vec3 b[3] = {x_prev[t[0]], x_prev[t[1]], x_prev[t[2]]};
    tri_boxes_[f] = swept_box(a, b, 3, 0.5 * thickness_);
  });
  executor.for_each(0, edges_.size(), [&](std::size_t e) {
    const Vec3 a[2] = {x[edges_[e][0]], x[edges_[e][1]]};
    const Vec3 b[2] = {x_prev[edges_[e][0]], x_prev[edges_[e][1]]};
    edge_boxes_[e] = swept_box(a, b, 2, 0.5 * thickness_);
  });
  tri_tree_.refit(tri_boxes_);
  edge_tree_.refit(edge_boxes_);
}

SelfCollisionStats SelfCollider::resolve(std::vector<Vec3>& x, const std::vector<Vec3>& x_prev,
                                         const std::vector<double>& inv_mass, const Executor& executor) {
  const double h = thickness_;
  const std::size_t n = x.size();
  // Is vertex v on a flat face that shares a vertex with flat face f? (M1 step 10)
  auto culled_vertex = [&](int v, int f) {
    if (!flat_[f]) return false;
    const Triangle& t = alias_faces_[f];
    v = alias_[v];
    for (int k = vertex_face_offsets_[v]; k < vertex_face_offsets_[v + 1]; ++k) {
      const int g = vertex_faces_[k];
      if (!flat_[g]) continue;
      for (int a : alias_faces_[g])
        if (a == t[0] || a == t[1] || a == t[2]) return true;
    }
    return false;
  };

  // Phase 1: vertex-triangle candidates, one vertex per task (gather).
  executor.for_each(
      0, n,
      [&](std::size_t vi) {
        const int v = static_cast<int>(vi);
        int count = 0, culled = 0;
        const Vec3 p = x[v];
        Aabb q;
        q.expand(p);
        q.expand(x_prev[v]);
        q = q.inflated(0.5 * h);
        tri_tree_.for_each_overlap(q, [&](int f) {
          const Triangle& t = faces_[f];
          const Triangle& ta = alias_faces_[f];
          const int va = alias_[v];
          if (ta[0] == va || ta[1] == va || ta[2] == va || count == kMaxContacts) return;
          const ClosestPoint cp = closest_point_on_triangle(p, x[t[0]], x[t[1]], x[t[2]]);
          const Vec3 d = p - cp.point;
          const double dist2 = squared_norm(d);
          if (dist2 >= h * h) return;
          if (culled_vertex(v, f)) {
            ++culled;
            return;
          }
          // Side from the previous positions: the vertex must end on the side it came from.
          const Vec3 pa = x_prev[t[0]], pb = x_prev[t[1]], pc = x_prev[t[2]];
          const Vec3 np = cross(pb - pa, pc - pa);
          const Vec3 cprev = pa * cp.u + pb * cp.v + pc * cp.w;
          const double side = dot(x_prev[v] - cprev, np) >= 0 ? 1.0 : -1.0;
          Vec3 nrm = normalized(cross(x[t[1]] - x[t[0]], x[t[2]] - x[t[0]])) * side;
          constexpr double eps = 1e-6;
          const bool interior = cp.u > eps && cp.v > eps && cp.w > eps;
          if (!interior && dist2 > 1e-16) {
            const Vec3 dn = d / std::sqrt(dist2);
            if (dot(dn, nrm) > 0) nrm = dn;  // beside an edge: push along the separation
          }
          if (squared_norm(nrm) == 0) return;
          if (dot(d, nrm) - h >= 0) return;
          vt_[v * kMaxContacts + count++] = {f, static_cast<float>(cp.u), static_cast<float>(cp.v),
                                             static_cast<float>(cp.w), nrm};
        });
        vt_count_[v] = count;
        culled_[v] = culled;
      },
      64);
  SelfCollisionStats stats;
  for (std::size_t v = 0; v < n; ++v) stats.culled_candidates += culled_[v];

  // Phase 1b: edge-edge candidates, one edge per task.
  const std::size_t ne = edges_.size();
  executor.for_each(
      0, ne,
      [&](std::size_t ei) {
        int count = 0;
        const int a0 = edges_[ei][0], a1 = edges_[ei][1];
        Aabb q;
        q.expand(x[a0]);
        q.expand(x[a1]);
        q.expand(x_prev[a0]);
        q.expand(x_prev[a1]);
        q = q.inflated(0.5 * h);
        edge_tree_.for_each_overlap(q, [&](int e2) {
          if (e2 <= static_cast<int>(ei) || count == kMaxContacts) return;
          const int b0 = edges_[e2][0], b1 = edges_[e2][1];
          const int A0 = alias_[a0], A1 = alias_[a1], B0 = alias_[b0], B1 = alias_[b1];
          if (B0 == A0 || B0 == A1 || B1 == A0 || B1 == A1) return;
          double s, t;
          closest_segment_params(x[a0], x[a1], x[b0], x[b1], s, t);
          const Vec3 p = x[a0] * (1 - s) + x[a1] * s, qq = x[b0] * (1 - t) + x[b1] * t;
          const Vec3 d = p - qq;
          if (squared_norm(d) >= h * h) return;
          // Interior edge-edge proximity only: endpoint cases are vertex-triangle contacts.
          if (s <= 1e-6 || s >= 1 - 1e-6 || t <= 1e-6 || t >= 1 - 1e-6) return;
          const Vec3 pp = x_prev[a0] * (1 - s) + x_prev[a1] * s, qp = x_prev[b0] * (1 - t) + x_prev[b1] * t;
          Vec3 nrm = pp - qp;
          const double ln = norm(nrm);
          if (ln > 1e-12)
            nrm = nrm / ln;
          else if (squared_norm(d) > 0)
            nrm = normalized(d);
          else
            return;
          if (dot(d, nrm) - h >= 0) return;
          ee_[ei * kMaxContacts + count++] = {e2, static_cast<float>(s), static_cast<float>(t), nrm};
        });
        ee_count_[ei] = count;
      },
      64);

  // Phase 2: resolve in a fixed order (deterministic Gauss-Seidel).
  for (std::size_t v = 0; v < n; ++v) {
    for (int k = 0; k < vt_count_[v]; ++k) {
      const VtContact& c = vt_[v * kMaxContacts + k];
      const Triangle& t = faces_[c.tri];
      const double b[3] = {c.b0, c.b1, c.b2};
      const Vec3 cp = x[t[0]] * b[0] + x[t[1]] * b[1] + x[t[2]] * b[2];
      const double C = dot(x[v] - cp, c.n) - h;
      if (C >= 0) continue;
      const double w = inv_mass[v] + b[0] * b[0] * inv_mass[t[0]] + b[1] * b[1] * inv_mass[t[1]] +
                       b[2] * b[2] * inv_mass[t[2]];
      if (w <= 0) continue;
      const double lambda = -C / w;
      x[v] += c.n * (inv_mass[v] * lambda);
      for (int i = 0; i < 3; ++i) x[t[i]] -= c.n * (inv_mass[t[i]] * b[i] * lambda);
      ++stats.vertex_triangle_contacts;
    }
  }
  for (std::size_t e = 0; e < ne; ++e) {
    for (int k = 0; k < ee_count_[e]; ++k) {
      const EeContact& c = ee_[e * kMaxContacts + k];
      const int a0 = edges_[e][0], a1 = edges_[e][1], b0 = edges_[c.other][0], b1 = edges_[c.other][1];
      const double s = c.s, t = c.t;
      const Vec3 p = x[a0] * (1 - s) + x[a1] * s, q = x[b0] * (1 - t) + x[b1] * t;
      const double C = dot(p - q, c.n) - h;
      if (C >= 0) continue;
      const double g[4] = {1 - s, s, -(1 - t), -t};
      const int id[4] = {a0, a1, b0, b1};
      double w = 0;
      for (int i = 0; i < 4; ++i) w += inv_mass[id[i]] * g[i] * g[i];
      if (w <= 0) continue;
      const double lambda = -C / w;
      for (int i = 0; i < 4; ++i) x[id[i]] += c.n * (inv_mass[id[i]] * g[i] * lambda);
      ++stats.edge_edge_contacts;
    }
  }
  return stats;
}

}  // namespace drape

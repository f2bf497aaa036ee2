#include "drape/collision/contour_untangle.h"

#include <algorithm>
#include <cmath>

#include "drape/bvh/bvh.h"
#include "drape/geometry/triangle_queries.h"

namespace drape {

namespace {

bool boxes_overlap(const Aabb& a, const Aabb& b) {
  return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y &&
         a.min.z <= b.max.z && b.min.z <= a.max.z;
}

}  // namespace

// Called per frame and per untangling iteration for a seam corner's few
// faces: a tree over the whole cloth (built each call) cost more than the
// rest of the step. Only the faces whose box meets the box of all of
// `faces` can cross one of them; a tree is built over those alone, and only
// when there are many. Two closed triangles that share a point have
// overlapping boxes, so every prefilter keeps every crossing pair: the answer
// is the same set whichever way it is found.
std::vector<std::pair<int, int>> crossing_face_pairs(const std::vector<Triangle>& all_faces,
                                                     const std::vector<Vec3>& x,
                                                     const std::vector<int>& faces,
                                                     const std::vector<int>& vertex_rep) {
  std::vector<std::pair<int, int>> pairs;
  if (faces.empty() || all_faces.empty()) return pairs;
  auto rep = [&](int v) { return vertex_rep.empty() ? v : vertex_rep[v]; };
  auto box_of = [&](int f) {
    Aabb b;
    for (int v : all_faces[f]) b.expand(x[v]);
    return b;
  };
  Aabb reach;
  std::vector<Aabb> face_boxes(faces.size());
  for (std::size_t k = 0; k < faces.size(); ++k) reach.expand(face_boxes[k] = box_of(faces[k]));
  std::vector<int> near;  // faces whose box meets `reach`
  std::vector<Aabb> near_boxes;
  for (std::size_t g = 0; g < all_faces.size(); ++g) {
    const Aabb b = box_of(static_cast<int>(g));
    if (!boxes_overlap(b, reach)) continue;
    near.push_back(static_cast<int>(g));
    near_boxes.push_back(b);
  }
  auto test = [&](int f, int g) {
    if (g == f) return;
    const Triangle& a = all_faces[f];
    const Triangle& b = all_faces[g];
    for (int u : a)
      for (int w : b)
        if (rep(u) == rep(w)) return;
    if (triangles_intersect(x[a[0]], x[a[1]], x[a[2]], x[b[0]], x[b[1]], x[b[2]]))
      pairs.push_back({std::min(f, g), std::max(f, g)});
  };
  constexpr std::size_t kBruteForcePairs = 1 << 16;
  if (faces.size() * near.size() <= kBruteForcePairs) {
    for (std::size_t k = 0; k < faces.size(); ++k)
      for (std::size_t j = 0; j < near.size(); ++j)
        if (boxes_overlap(face_boxes[k], near_boxes[j])) test(faces[k], near[j]);
  } else {
    const Bvh tree = Bvh::build(near_boxes);
    for (std::size_t k = 0; k < faces.size(); ++k)
      tree.for_each_overlap(face_boxes[k], [&](int j) { test(faces[k], near[j]); });
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

// The pairs are the faces' true intersections (exact predicates), so any
// conservative box prefilter finds the same set: the refitted tree's float
// boxes, rounded outward, hold the faces' boxes. Each unordered pair is met
// once; it counts when either order of the exact test says so, as in
// crossing_face_pairs, which tests both orders.
std::vector<std::pair<int, int>> crossing_face_pairs_all(const std::vector<Triangle>& all_faces,
                                                         const std::vector<Vec3>& x,
                                                         const std::vector<int>& vertex_rep,
                                                         FaceCrossingCache& cache) {
  std::vector<std::pair<int, int>> pairs;
  const std::size_t nf = all_faces.size();
  if (nf == 0) return pairs;
  auto rep = [&](int v) { return vertex_rep.empty() ? v : vertex_rep[v]; };
  std::vector<Aabb>& boxes = cache.boxes;
  boxes.assign(nf, Aabb{});
  for (std::size_t f = 0; f < nf; ++f)
    for (int v : all_faces[f]) boxes[f].expand(x[v]);
  if (cache.tree.primitive_count() == static_cast<int>(nf)) {
    cache.tree.refit(boxes);
  } else {
    cache.tree = Bvh::build(boxes);
    ++cache.builds;
  }
  cache.tree.for_each_self_overlap([&](int f, int g) {
    const Triangle& a = all_faces[f];
    const Triangle& b = all_faces[g];
    if (!boxes_overlap(boxes[f], boxes[g])) return;
    for (int u : a)
      for (int w : b)
        if (rep(u) == rep(w)) return;
    const Vec3 &a0 = x[a[0]], &a1 = x[a[1]], &a2 = x[a[2]], &b0 = x[b[0]], &b1 = x[b[1]], &b2 = x[b[2]];
    if (triangles_intersect(a0, a1, a2, b0, b1, b2) || triangles_intersect(b0, b1, b2, a0, a1, a2))
      pairs.push_back({f, g});
  });
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

namespace {

// A point of the intersection segment: where edge `e` of one triangle passes
// through the other's plane.
struct ContourPoint {
  Vec3 p;
  Vec3 e;
  bool on_first;  // the edge belongs to the first triangle
};

}  // namespace

std::size_t contour_minimization_step(const std::vector<Triangle>& all_faces, std::vector<Vec3>& x,
                                      const std::vector<double>& inv_mass,
                                      const std::vector<std::pair<int, int>>& pairs, double step) {
  std::vector<Vec3> gradient(x.size(), Vec3{});
  std::vector<unsigned char> touched(x.size(), 0);
  for (const auto& [f1, f2] : pairs) {
    const Triangle& t1 = all_faces[f1];
    const Triangle& t2 = all_faces[f2];
    const Vec3 n1 = normalized(cross(x[t1[1]] - x[t1[0]], x[t1[2]] - x[t1[0]]));
    const Vec3 n2 = normalized(cross(x[t2[1]] - x[t2[0]], x[t2[2]] - x[t2[0]]));
    ContourPoint pts[6];
    int count = 0;
    auto edges_through = [&](const Triangle& ta, const Triangle& tb, bool on_first) {
      for (int k = 0; k < 3; ++k) {
        const Vec3 p0 = x[ta[k]], p1 = x[ta[(k + 1) % 3]];
        double t, u, v;
        if (intersect_ray_triangle(Ray{p0, p1 - p0, 0, 1}, x[tb[0]], x[tb[1]], x[tb[2]], t, u, v))
          pts[count++] = {p0 + (p1 - p0) * t, p1 - p0, on_first};
      }
    };
    edges_through(t1, t2, true);
    edges_through(t2, t1, false);
    if (count < 2) continue;
    const Vec3 d = pts[1].p - pts[0].p;
    if (squared_norm(d) < 1e-18) continue;
    const Vec3 u = normalized(d);
    // d|P1 - P0| / d(delta) for t1 moved by delta, t2 fixed: a point on an edge
    // E of t1 slides in t2's plane, dP = delta - E (n2 . delta) / (n2 . E); a
    // point on an edge E of t2 slides along E, dP = E (n1 . delta) / (n1 . E).
    auto transposed_jacobian_times_u = [&](const ContourPoint& q) {
      const Vec3 n = q.on_first ? n2 : n1;
      const double ne = dot(n, q.e);
      if (std::abs(ne) < 1e-12 * norm(q.e)) return Vec3{};  // edge in the plane: no defined slide
      const Vec3 along = n * (dot(q.e, u) / ne);
      return q.on_first ? u - along : along;
    };
    const Vec3 g = transposed_jacobian_times_u(pts[1]) - transposed_jacobian_times_u(pts[0]);
    for (int v : t1) gradient[v] -= g, touched[v] = 1;
    for (int v : t2) gradient[v] += g, touched[v] = 1;
  }
  std::size_t moved = 0;
  for (std::size_t v = 0; v < x.size(); ++v) {
    if (!touched[v] || inv_mass[v] == 0) continue;
    const double len = norm(gradient[v]);
    if (!(len > 1e-15)) continue;
    x[v] += gradient[v] * (step / len);
    ++moved;
  }
  return moved;
}

}  // namespace drape

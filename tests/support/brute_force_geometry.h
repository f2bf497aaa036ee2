#pragma once
// Test support: brute-force geometry the tests check the library against:
// every face visited, no tree; the point, segment and solid-angle answers
// written from the textbook rather than from drape's own queries.

#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include "drape/core/vec.h"
#include "drape/geometry/triangle_mesh.h"
#include "drape/geometry/triangle_queries.h"

namespace drape::test {

/// Closest point on triangle abc to p (Ericson, Real-Time Collision
/// Detection 5.1.5: the Voronoi regions of the vertices, then the edges,
/// then the face).
inline Vec3 closest_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + ab * (d1 / (d1 - d3));
  const Vec3 cp = p - c;
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  const double denom = 1 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

/// Whether the segment pq crosses triangle abc (Moller-Trumbore on the
/// segment): its parameter t in (0, 1), or in [0, 1] when `closed` (a
/// segment that ends on the triangle crosses it).
inline bool segment_crosses_triangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b,
                                     const Vec3& c, bool closed = false) {
  const Vec3 d = q - p, e1 = b - a, e2 = c - a, h = cross(d, e2);
  const double det = dot(e1, h);
  if (std::abs(det) < 1e-18) return false;
  const Vec3 s = p - a;
  const double u = dot(s, h) / det;
  if (u < 0 || u > 1) return false;
  const Vec3 k = cross(s, e1);
  const double v = dot(d, k) / det;
  if (v < 0 || u + v > 1) return false;
  const double t = dot(e2, k) / det;
  return closed ? t >= 0 && t <= 1 : t > 0 && t < 1;
}

/// Generalised winding number (sum of signed solid angles, van Oosterom and
/// Strackee): about 1 inside a closed outward mesh, 0 outside. Independent of rays.
inline double winding_number(const TriangleMesh& m, const Vec3& p) {
  double w = 0;
  for (const Triangle& t : m.faces) {
    const Vec3 a = m.positions[t[0]] - p, b = m.positions[t[1]] - p, c = m.positions[t[2]] - p;
    const double la = norm(a), lb = norm(b), lc = norm(c);
    const double num = dot(a, cross(b, c));
    const double den = la * lb * lc + dot(a, b) * lc + dot(b, c) * la + dot(c, a) * lb;
    w += 2 * std::atan2(num, den);
  }
  return w / (4 * std::numbers::pi);
}

/// All face pairs (of two meshes) that intersect, with a box prefilter.
inline std::vector<std::pair<int, int>> brute_pairs(const TriangleMesh& a, const TriangleMesh& b) {
  std::vector<Aabb> bb(b.face_count());
  for (std::size_t j = 0; j < b.face_count(); ++j) bb[j] = b.face_bounds(j);
  std::vector<std::pair<int, int>> out;
  for (std::size_t i = 0; i < a.face_count(); ++i) {
    const Aabb ab = a.face_bounds(i);
    const Triangle& ta = a.faces[i];
    for (std::size_t j = 0; j < b.face_count(); ++j) {
      if (!ab.overlaps(bb[j])) continue;
      const Triangle& tb = b.faces[j];
      if (triangles_intersect(a.positions[ta[0]], a.positions[ta[1]], a.positions[ta[2]], b.positions[tb[0]],
                              b.positions[tb[1]], b.positions[tb[2]]))
        out.emplace_back(static_cast<int>(i), static_cast<int>(j));
    }
  }
  return out;
}

}  // namespace drape::test

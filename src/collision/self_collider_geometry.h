#pragma once
// Geometry shared by SelfCollider's candidate search (self_collider.cpp) and
// its contact tests (self_collider_resolve.cpp). Private to src/collision.

#include <algorithm>
#include <vector>

#include "drape/core/vec.h"

namespace drape::self_collision {

// Closest points of segments p0-p1 and q0-q1: p0 + s (p1 - p0), q0 + t (q1 - q0)
// (Ericson, Real-Time Collision Detection 5.1.9).
inline void closest_segment_params(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, double& s,
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

// Squared distance between the boxes of two point sets (0 when they overlap):
// a lower bound on the squared distance between any points of the two sets.
inline double axis_gap(double alo, double ahi, double blo, double bhi) {
  return std::max({blo - ahi, alo - bhi, 0.0});
}
inline double point_triangle_gap2(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const double gx = axis_gap(p.x, p.x, std::min({a.x, b.x, c.x}), std::max({a.x, b.x, c.x}));
  const double gy = axis_gap(p.y, p.y, std::min({a.y, b.y, c.y}), std::max({a.y, b.y, c.y}));
  const double gz = axis_gap(p.z, p.z, std::min({a.z, b.z, c.z}), std::max({a.z, b.z, c.z}));
  return gx * gx + gy * gy + gz * gz;
}
inline double segment_gap2(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  const double gx =
      axis_gap(std::min(a0.x, a1.x), std::max(a0.x, a1.x), std::min(b0.x, b1.x), std::max(b0.x, b1.x));
  const double gy =
      axis_gap(std::min(a0.y, a1.y), std::max(a0.y, a1.y), std::min(b0.y, b1.y), std::max(b0.y, b1.y));
  const double gz =
      axis_gap(std::min(a0.z, a1.z), std::max(a0.z, a1.z), std::min(b0.z, b1.z), std::max(b0.z, b1.z));
  return gx * gx + gy * gy + gz * gz;
}
// A pair whose boxes are farther apart than sqrt(limit2) by this relative
// margin is certainly not within sqrt(limit2): the exact test would reject it
// too (its rounding is many orders of magnitude smaller), so skipping it
// changes no answer.
inline constexpr double kGapMargin = 1 + 1e-6;

inline Vec3 centroid(const std::vector<Vec3>& x) {
  Vec3 c;
  for (const Vec3& p : x) c += p;
  return x.empty() ? c : c / static_cast<double>(x.size());
}

}  // namespace drape::self_collision

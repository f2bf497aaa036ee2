#pragma once
// Exact triangle primitives: watertight ray-triangle, closest point on a
// triangle, triangle-triangle overlap. They are the leaf tests of the AABB
// tree (include/drape/bvh/) and of collision handling.

#include <cmath>
#include <limits>
#include <utility>

#include "drape/core/vec.h"

namespace drape {

/// A ray origin + t * direction, t in [t_min, t_max]. `direction` need not be
/// unit length (t is then in units of |direction|); a zero direction hits nothing.
struct Ray {
  Vec3 origin;
  Vec3 direction;
  double t_min = 0;
  double t_max = std::numeric_limits<double>::infinity();
};

struct RayHit {
  int face = -1;  ///< index of the hit face in the mesh
  double t = 0;   ///< ray parameter of the hit
  double u = 0;   ///< barycentric of the triangle's vertex 1 (hit = (1-u-v) a + u b + v c)
  double v = 0;   ///< barycentric of the triangle's vertex 2
};

/// Per-ray constants of the watertight test (Woop, Benthin, Wald 2013): the
/// dominant axis and the shear that maps the ray onto +z. Prepare once, test
/// many triangles.
struct WatertightRay {
  Vec3 origin;
  int kx = 0, ky = 1, kz = 2;
  double sx = 0, sy = 0, sz = 0;
  double t_min = 0, t_max = 0;
  bool valid = false;  ///< false for a zero or non-finite direction
  explicit WatertightRay(const Ray& ray);
};

// Inline: prepared once per ray by the tree's ray queries.
inline WatertightRay::WatertightRay(const Ray& ray) : origin(ray.origin), t_min(ray.t_min), t_max(ray.t_max) {
  const Vec3& d = ray.direction;
  valid = is_finite(d) && is_finite(ray.origin) && !(d.x == 0 && d.y == 0 && d.z == 0);
  if (!valid) return;
  // Branch-free: the axis order of random rays is random, so branches here
  // would be mispredicted about once per ray. Indices into an array, not
  // Vec3::operator[] (a chain of branches on the index).
  const double dv[3] = {d.x, d.y, d.z};
  const double ax = std::abs(d.x), ay = std::abs(d.y), az = std::abs(d.z);
  const int x_dominant = static_cast<int>(ax >= ay) & static_cast<int>(ax >= az);
  static constexpr int kDominant[4] = {1, 2, 0, 0};  // [2 x_dominant + (ay < az)]
  kz = kDominant[2 * x_dominant + static_cast<int>(ay < az)];
  static constexpr int kNext[3] = {1, 2, 0};
  const int x = kNext[kz], y = kNext[x];
  const int swap =
      -static_cast<int>(dv[kz] < 0);  // all bits when the projected winding must be kept by a swap
  kx = x ^ ((x ^ y) & swap);
  ky = y ^ ((x ^ y) & swap);
  sx = dv[kx] / dv[kz];
  sy = dv[ky] / dv[kz];
  sz = 1.0 / dv[kz];
}

/// Watertight ray-triangle intersection (Woop, Benthin, Wald 2013) with exact
/// edge-function signs (double filter, exact expansion fallback) and a
/// consistent symbolic tie-break for edge functions that are exactly zero.
/// Consequence: a ray through a shared edge or vertex of a closed mesh hits
/// exactly one of the triangles there when it crosses the surface (and an even
/// number when it only grazes), so crossing parity is exact. Both faces count
/// (no back-face culling). On a hit in [t_min, t_max] writes t and the
/// barycentrics u (of b) and v (of c).
bool intersect_ray_triangle(const WatertightRay& ray, const Vec3& a, const Vec3& b, const Vec3& c, double& t,
                            double& u, double& v);
/// Convenience overload that prepares the ray.
bool intersect_ray_triangle(const Ray& ray, const Vec3& a, const Vec3& b, const Vec3& c, double& t, double& u,
                            double& v);

/// Closest point of triangle abc to p: point = u a + v b + w c, u + v + w = 1,
/// all >= 0 (Ericson, Real-Time Collision Detection 5.1.5). Works for
/// zero-area triangles (returns the closest point of the degenerate segment/point).
struct ClosestPoint {
  Vec3 point;
  double u = 1, v = 0, w = 0;  ///< barycentrics of a, b, c
};
namespace detail {
/// The best of the three edges of a zero-area (or numerically flat) triangle.
ClosestPoint closest_point_on_flat_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);
}  // namespace detail
// Inline (one definition, so every caller gets the same rounding): the tree's
// closest-point query runs it ~30 times per query, and a call there costs the
// spill of the traversal's SSE registers.
inline ClosestPoint closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return {a, 1, 0, 0};
  const Vec3 bp = p - b;
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return {b, 0, 1, 0};
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0 && d1 - d3 > 0) {
    const double s = d1 / (d1 - d3);
    return {a + ab * s, 1 - s, s, 0};
  }
  const Vec3 cp = p - c;
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return {c, 0, 0, 1};
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0 && d2 - d6 > 0) {
    const double s = d2 / (d2 - d6);
    return {a + ac * s, 1 - s, 0, s};
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0 && (d4 - d3) + (d5 - d6) > 0) {
    const double s = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return {b + (c - b) * s, 0, 1 - s, s};
  }
  const double sum = va + vb + vc;
  if (!(sum > 0) || !std::isfinite(sum)) return detail::closest_point_on_flat_triangle(p, a, b, c);
  const double denom = 1.0 / sum;
  const double v = vb * denom, w = vc * denom;
  return {a + ab * v + ac * w, 1 - v - w, v, w};
}

/// True when the closed triangles (a0,a1,a2) and (b0,b1,b2) share at least
/// one point (touching counts). Guigue-Devillers with exact orientation
/// predicates (double filter, exact expansion fallback), so coplanar and
/// touching configurations are decided exactly; zero-area triangles are
/// handled as segments or points.
bool triangles_intersect(const Vec3& a0, const Vec3& a1, const Vec3& a2, const Vec3& b0, const Vec3& b1,
                         const Vec3& b2);

/// Exact sign (-1, 0, +1) of det[a-d; b-d; c-d] (Shewchuk's orient3d: positive
/// when d lies below the plane of a, b, c seen counter-clockwise from above).
int orient3d_sign(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);
/// Exact sign of (a-c) x (b-c) in 2D (positive: a, b, c counter-clockwise).
int orient2d_sign(Vec2 a, Vec2 b, Vec2 c);

}  // namespace drape

#pragma once
// Axis-aligned bounding box (docs/METHODS.md "AABB trees", step 5: six scalars).

#include <limits>

#include "drape/core/mat3.h"
#include "drape/core/vec.h"

namespace drape {

struct Aabb {
  Vec3 min{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
           std::numeric_limits<double>::infinity()};
  Vec3 max{-std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
           -std::numeric_limits<double>::infinity()};

  bool empty() const { return min.x > max.x || min.y > max.y || min.z > max.z; }
  void expand(const Vec3& p) {
    min = cwise_min(min, p);
    max = cwise_max(max, p);
  }
  void expand(const Aabb& b) {
    min = cwise_min(min, b.min);
    max = cwise_max(max, b.max);
  }
  /// Grows the box by `margin` on every side.
  Aabb inflated(double margin) const {
    return {min - Vec3{margin, margin, margin}, max + Vec3{margin, margin, margin}};
  }
  Vec3 center() const { return (min + max) * 0.5; }
  Vec3 extent() const { return max - min; }
  /// 0, 1 or 2: the axis along which the box is longest.
  int longest_axis() const {
    const Vec3 e = extent();
    return e.x >= e.y && e.x >= e.z ? 0 : (e.y >= e.z ? 1 : 2);
  }
  double surface_area() const {
    if (empty()) return 0;
    const Vec3 e = extent();
    return 2 * (e.x * e.y + e.y * e.z + e.z * e.x);
  }
  bool contains(const Vec3& p) const {
    return p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y && p.z >= min.z && p.z <= max.z;
  }
  /// Separating-axis test on the three coordinate axes (docs/METHODS.md "AABB trees", step 7): at most six
  /// compares.
  bool overlaps(const Aabb& o) const {
    return min.x <= o.max.x && o.min.x <= max.x && min.y <= o.max.y && o.min.y <= max.y && min.z <= o.max.z &&
           o.min.z <= max.z;
  }
  /// Box of the 8 transformed corners (docs/METHODS.md "AABB trees", step 8, rigid motion).
  Aabb transformed(const RigidTransform& t) const {
    Aabb r;
    for (int i = 0; i < 8; ++i)
      r.expand(t(Vec3{i & 1 ? max.x : min.x, i & 2 ? max.y : min.y, i & 4 ? max.z : min.z}));
    return r;
  }
  /// Squared distance from p to the box (0 inside).
  double squared_distance(const Vec3& p) const {
    double d = 0;
    for (int a = 0; a < 3; ++a) {
      const double v = p[a] < min[a] ? min[a] - p[a] : (p[a] > max[a] ? p[a] - max[a] : 0.0);
      d += v * v;
    }
    return d;
  }
};

}  // namespace drape

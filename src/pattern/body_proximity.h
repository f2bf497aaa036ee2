#pragma once
// Internal: uniform-grid distance and inside queries against a closed body
// mesh, used to keep placed panels clear of the body. Self-contained so the
// pattern module depends on geometry only.

#include <vector>

#include "drape/geometry/triangle_mesh.h"

namespace drape::detail {

class BodyProximity {
 public:
  /// \param cell grid cell size, metres.
  explicit BodyProximity(const TriangleMesh& body, double cell = 0.03);
  /// Distance from p to the surface, exact when below `radius` (else returns radius).
  double distance(const Vec3& p, double radius) const;
  /// Parity of the crossings of the ray from p along +X (closed mesh: inside test).
  bool inside(const Vec3& p) const;

 private:
  const TriangleMesh& m_;
  double cell_;
  Vec3 lo_;
  int n_[3];
  std::vector<std::vector<int>> cells_;  // 3D grid of faces
  std::vector<std::vector<int>> cols_;   // YZ grid of faces for +X rays
  int c3(double v, int a) const;
};

}  // namespace drape::detail

#pragma once
// Smooth 3D mapping from landmark correspondences: a radial basis function
// interpolant with the biharmonic kernel phi(r) = r plus an affine part,
//   M(x) = sum_i w_i |x - a_i| + B x + c,  M(a_i) = b_i,  sum w_i = 0, sum w_i a_i^T = 0.
// An affine correspondence is reproduced exactly (w = 0).

#include <vector>

#include "drape/core/mat3.h"
#include "drape/core/vec.h"

namespace drape {

class RbfMap {
 public:
  /// Fits M with M(from[i]) = to[i]. `regularisation` >= 0 adds
  /// lambda to the kernel diagonal (smoothing instead of interpolation).
  /// \throw InvalidInput when sizes differ, fewer than 4 points, or the points
  ///        are coplanar (the affine part is undetermined).
  RbfMap(const std::vector<Vec3>& from, const std::vector<Vec3>& to, double regularisation = 0);

  Vec3 operator()(const Vec3& x) const;
  /// Jacobian dM/dx at x (rows: output components).
  Mat3 jacobian(const Vec3& x) const;
  /// The affine part (B, c).
  const Mat3& linear() const { return linear_; }
  const Vec3& offset() const { return offset_; }

 private:
  std::vector<Vec3> centres_, weights_;
  Mat3 linear_;
  Vec3 offset_;
};

}  // namespace drape

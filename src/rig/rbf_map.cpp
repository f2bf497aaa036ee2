#include "drape/rig/rbf_map.h"

#include <Eigen/Dense>

#include "drape/core/exceptions.h"

namespace drape {

RbfMap::RbfMap(const std::vector<Vec3>& from, const std::vector<Vec3>& to, double lambda) : centres_(from) {
  const int n = static_cast<int>(from.size());
  if (to.size() != from.size())
    throw InvalidInput("RbfMap: " + std::to_string(from.size()) + " source and " + std::to_string(to.size()) +
                       " target landmarks");
  if (n < 4) throw InvalidInput("RbfMap: at least 4 landmarks are needed, got " + std::to_string(n));
  // [K + lambda I, P; P^T, 0] [w; a] = [to; 0], P = [x y z 1].
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n + 4, n + 4);
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(n + 4, 3);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) A(i, j) = norm(from[i] - from[j]);
    A(i, i) += lambda;
    for (int a = 0; a < 3; ++a) {
      A(i, n + a) = A(n + a, i) = from[i][a];
      rhs(i, a) = to[i][a];
    }
    A(i, n + 3) = A(n + 3, i) = 1;
  }
  // The affine part needs non-coplanar landmarks.
  Eigen::MatrixXd P(n, 4);
  for (int i = 0; i < n; ++i) P.row(i) << from[i].x, from[i].y, from[i].z, 1;
  if (Eigen::FullPivLU<Eigen::MatrixXd>(P).rank() < 4)
    throw InvalidInput("RbfMap: the landmarks are coplanar; the affine part is undetermined");
  const Eigen::MatrixXd x = A.fullPivLu().solve(rhs);
  if (!x.allFinite()) throw InvalidInput("RbfMap: the landmark system is singular (duplicate landmarks?)");
  weights_.resize(n);
  for (int i = 0; i < n; ++i) weights_[i] = {x(i, 0), x(i, 1), x(i, 2)};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) linear_.m[r][c] = x(n + c, r);
    offset_[r] = x(n + 3, r);
  }
}

Vec3 RbfMap::operator()(const Vec3& p) const {
  Vec3 out = linear_ * p + offset_;
  for (std::size_t i = 0; i < centres_.size(); ++i) out += weights_[i] * norm(p - centres_[i]);
  return out;
}

Mat3 RbfMap::jacobian(const Vec3& p) const {
  Mat3 j = linear_;
  for (std::size_t i = 0; i < centres_.size(); ++i) {
    const Vec3 d = p - centres_[i];
    const double r = norm(d);
    if (r == 0) continue;  // |x| is not differentiable at its centre; its term is dropped there
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) j.m[a][b] += weights_[i][a] * d[b] / r;
  }
  return j;
}

}  // namespace drape

#include "drape/rig/quaternion.h"

#include <cmath>

namespace drape {

Quat Quat::from_matrix(const Mat3& r) {
  // Shepperd's method: pick the largest diagonal term for stability.
  const double tr = r(0, 0) + r(1, 1) + r(2, 2);
  Quat q;
  if (tr > 0) {
    const double s = std::sqrt(tr + 1.0) * 2;
    q = {0.25 * s, (r(2, 1) - r(1, 2)) / s, (r(0, 2) - r(2, 0)) / s, (r(1, 0) - r(0, 1)) / s};
  } else if (r(0, 0) > r(1, 1) && r(0, 0) > r(2, 2)) {
    const double s = std::sqrt(1.0 + r(0, 0) - r(1, 1) - r(2, 2)) * 2;
    q = {(r(2, 1) - r(1, 2)) / s, 0.25 * s, (r(0, 1) + r(1, 0)) / s, (r(0, 2) + r(2, 0)) / s};
  } else if (r(1, 1) > r(2, 2)) {
    const double s = std::sqrt(1.0 + r(1, 1) - r(0, 0) - r(2, 2)) * 2;
    q = {(r(0, 2) - r(2, 0)) / s, (r(0, 1) + r(1, 0)) / s, 0.25 * s, (r(1, 2) + r(2, 1)) / s};
  } else {
    const double s = std::sqrt(1.0 + r(2, 2) - r(0, 0) - r(1, 1)) * 2;
    q = {(r(1, 0) - r(0, 1)) / s, (r(0, 2) + r(2, 0)) / s, (r(1, 2) + r(2, 1)) / s, 0.25 * s};
  }
  // Identity maps to exactly (1,0,0,0) so rest poses stay exact.
  if (r(0, 0) == 1 && r(1, 1) == 1 && r(2, 2) == 1 && r(0, 1) == 0 && r(0, 2) == 0 && r(1, 0) == 0 &&
      r(1, 2) == 0 && r(2, 0) == 0 && r(2, 1) == 0)
    return Quat{};
  return q.normalized();
}

Quat Quat::from_axis_angle(const Vec3& axis, double a) {
  const Vec3 k = drape::normalized(axis);
  const double s = std::sin(a / 2);
  return {std::cos(a / 2), k.x * s, k.y * s, k.z * s};
}

double Quat::norm() const { return std::sqrt(dot(*this)); }

Quat Quat::normalized() const {
  const double n = norm();
  return n > 0 ? Quat{w / n, x / n, y / n, z / n} : Quat{};
}

Mat3 Quat::to_matrix() const {
  const Quat q = normalized();
  Mat3 r;
  const double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  const double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
  const double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
  r.m[0][0] = 1 - 2 * (yy + zz);
  r.m[0][1] = 2 * (xy - wz);
  r.m[0][2] = 2 * (xz + wy);
  r.m[1][0] = 2 * (xy + wz);
  r.m[1][1] = 1 - 2 * (xx + zz);
  r.m[1][2] = 2 * (yz - wx);
  r.m[2][0] = 2 * (xz - wy);
  r.m[2][1] = 2 * (yz + wx);
  r.m[2][2] = 1 - 2 * (xx + yy);
  return r;
}

DualQuat DualQuat::from_rigid(const RigidTransform& t) {
  DualQuat d;
  d.real = Quat::from_matrix(t.rotation);
  const Quat tq{0, t.translation.x, t.translation.y, t.translation.z};
  d.dual = (tq * d.real) * 0.5;
  return d;
}

Vec3 DualQuat::translation() const {
  const Quat t = (dual * real.conjugate()) * 2.0;
  return {t.x, t.y, t.z};
}

Quat slerp(const Quat& a, const Quat& b_in, double t) {
  Quat b = b_in;
  double c = a.dot(b);
  if (c < 0) {  // the shorter arc
    b = b * -1.0;
    c = -c;
  }
  if (c > 1 - 1e-12) return (a * (1 - t) + b * t).normalized();  // nearly equal: lerp is exact enough
  const double theta = std::acos(std::min(1.0, c));
  const double s = std::sin(theta);
  return a * (std::sin((1 - t) * theta) / s) + b * (std::sin(t * theta) / s);
}

}  // namespace drape

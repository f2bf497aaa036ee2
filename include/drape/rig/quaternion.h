#pragma once
// Unit quaternions and dual quaternions for rotations and rigid transforms
// (dual-quaternion skinning, glTF node rotations).

#include "drape/core/mat3.h"
#include "drape/core/vec.h"

namespace drape {

/// Quaternion w + xi + yj + zk.
struct Quat {
  double w = 1, x = 0, y = 0, z = 0;

  static Quat from_matrix(const Mat3& r);  ///< r must be a rotation matrix
  static Quat from_axis_angle(const Vec3& axis, double radians);
  Mat3 to_matrix() const;  ///< of the normalised quaternion
  Quat conjugate() const { return {w, -x, -y, -z}; }
  double dot(const Quat& o) const { return w * o.w + x * o.x + y * o.y + z * o.z; }
  double norm() const;
  Quat normalized() const;
  Quat operator*(const Quat& o) const {
    return {w * o.w - x * o.x - y * o.y - z * o.z, w * o.x + x * o.w + y * o.z - z * o.y,
            w * o.y - x * o.z + y * o.w + z * o.x, w * o.z + x * o.y - y * o.x + z * o.w};
  }
  Quat operator*(double s) const { return {w * s, x * s, y * s, z * s}; }
  Quat operator+(const Quat& o) const { return {w + o.w, x + o.x, y + o.y, z + o.z}; }
  /// Rotates v (quaternion assumed unit). Exact identity for (1,0,0,0).
  Vec3 rotate(const Vec3& v) const {
    const Vec3 q{x, y, z};
    const Vec3 t = cross(q, v) * 2.0;
    return v + t * w + cross(q, t);
  }
};

/// Spherical linear interpolation from a (t = 0) to b (t = 1) along the
/// shorter arc; unit inputs give a unit result.
Quat slerp(const Quat& a, const Quat& b, double t);

/// Dual quaternion real + eps*dual for a rigid transform.
struct DualQuat {
  Quat real;
  Quat dual{0, 0, 0, 0};

  /// Transform x -> r*x + t.
  static DualQuat from_rigid(const RigidTransform& t);
  /// Translation encoded by a unit dual quaternion.
  Vec3 translation() const;
  /// Applies the (normalised) transform to a point.
  Vec3 transform_point(const Vec3& p) const { return real.rotate(p) + translation(); }
};

}  // namespace drape

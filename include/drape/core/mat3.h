#pragma once
// 3x3 matrix and rigid transform (rotation + translation).

#include <array>

#include "drape/core/vec.h"

namespace drape {

/// Row-major 3x3 matrix.
struct Mat3 {
  double m[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

  static constexpr Mat3 identity() { return Mat3{}; }
  static Mat3 rotation_x(double radians);
  static Mat3 rotation_y(double radians);
  static Mat3 rotation_z(double radians);
  /// Rotation by `radians` about the unit `axis` (Rodrigues).
  static Mat3 rotation_axis_angle(const Vec3& axis, double radians);
  /// GarmentCode convention: R = Rz * Ry * Rx from XYZ Euler angles in degrees.
  static Mat3 from_euler_xyz_degrees(const Vec3& degrees);

  constexpr double operator()(int r, int c) const { return m[r][c]; }
  constexpr double& operator()(int r, int c) { return m[r][c]; }
  Vec3 operator*(const Vec3& v) const {
    return {m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z, m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
            m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z};
  }
  Mat3 operator*(const Mat3& o) const;
  Mat3 transposed() const;
  double determinant() const;
};

/// x' = rotation * x + translation.
struct RigidTransform {
  Mat3 rotation;
  Vec3 translation;
  Vec3 operator()(const Vec3& p) const { return rotation * p + translation; }
};

/// The inverse of a rigid transform (transposed rotation).
inline RigidTransform inverse(const RigidTransform& t) {
  const Mat3 rt = t.rotation.transposed();
  return {rt, -(rt * t.translation)};
}

/// a o b: b applied first, then a.
inline RigidTransform compose(const RigidTransform& a, const RigidTransform& b) {
  return {a.rotation * b.rotation, a.rotation * b.translation + a.translation};
}

/// The 4x4 matrix of `t` in column-major order (glTF's layout), with the
/// translation multiplied by `translation_scale` (a unit change).
inline std::array<double, 16> column_major(const RigidTransform& t, double translation_scale = 1) {
  std::array<double, 16> m{};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) m[c * 4 + r] = t.rotation(r, c);
    m[12 + r] = t.translation[r] * translation_scale;
  }
  m[15] = 1;
  return m;
}

}  // namespace drape

#include "drape/core/mat3.h"

#include <cmath>
#include <numbers>

namespace drape {

Mat3 Mat3::rotation_x(double a) {
  Mat3 r;
  const double c = std::cos(a), s = std::sin(a);
  r.m[1][1] = c; r.m[1][2] = -s;
  r.m[2][1] = s; r.m[2][2] = c;
  return r;
}

Mat3 Mat3::rotation_y(double a) {
  Mat3 r;
  const double c = std::cos(a), s = std::sin(a);
  r.m[0][0] = c; r.m[0][2] = s;
  r.m[2][0] = -s; r.m[2][2] = c;
  return r;
}

Mat3 Mat3::rotation_z(double a) {
  Mat3 r;
  const double c = std::cos(a), s = std::sin(a);
  r.m[0][0] = c; r.m[0][1] = -s;
  r.m[1][0] = s; r.m[1][1] = c;
  return r;
}

Mat3 Mat3::rotation_axis_angle(const Vec3& axis_in, double a) {
  const Vec3 k = normalized(axis_in);
  const double c = std::cos(a), s = std::sin(a), t = 1 - c;
  Mat3 r;
  r.m[0][0] = c + k.x * k.x * t;
  r.m[0][1] = k.x * k.y * t - k.z * s;
  r.m[0][2] = k.x * k.z * t + k.y * s;
  r.m[1][0] = k.y * k.x * t + k.z * s;
  r.m[1][1] = c + k.y * k.y * t;
  r.m[1][2] = k.y * k.z * t - k.x * s;
  r.m[2][0] = k.z * k.x * t - k.y * s;
  r.m[2][1] = k.z * k.y * t + k.x * s;
  r.m[2][2] = c + k.z * k.z * t;
  return r;
}

Mat3 Mat3::from_euler_xyz_degrees(const Vec3& deg) {
  const double k = std::numbers::pi / 180.0;
  return rotation_z(deg.z * k) * rotation_y(deg.y * k) * rotation_x(deg.x * k);
}

Mat3 Mat3::operator*(const Mat3& o) const {
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      r.m[i][j] = m[i][0] * o.m[0][j] + m[i][1] * o.m[1][j] + m[i][2] * o.m[2][j];
  return r;
}

Mat3 Mat3::transposed() const {
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = m[j][i];
  return r;
}

double Mat3::determinant() const {
  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
         m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
         m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

}  // namespace drape

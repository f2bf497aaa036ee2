#include "drape/core/mat3.h"

#include <gtest/gtest.h>

#include <numbers>

using namespace drape;

TEST(Mat3, EulerXyzIsRzRyRx) {
  const Vec3 deg{30, -45, 60};
  const double k = std::numbers::pi / 180;
  const Mat3 expected = Mat3::rotation_z(60 * k) * Mat3::rotation_y(-45 * k) * Mat3::rotation_x(30 * k);
  const Mat3 r = Mat3::from_euler_xyz_degrees(deg);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(r(i, j), expected(i, j), 1e-15);
  EXPECT_NEAR(r.determinant(), 1.0, 1e-12);
}

TEST(Mat3, RotationZQuarterTurnMapsXToY) {
  const Vec3 v = Mat3::rotation_z(std::numbers::pi / 2) * Vec3{1, 0, 0};
  EXPECT_NEAR(v.x, 0, 1e-15);
  EXPECT_NEAR(v.y, 1, 1e-15);
}

TEST(Mat3, AxisAngleMatchesElementaryRotations) {
  const Mat3 a = Mat3::rotation_axis_angle({0, 1, 0}, 0.7), b = Mat3::rotation_y(0.7);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(a(i, j), b(i, j), 1e-15);
  const Mat3 rt = a * a.transposed();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(rt(i, j), i == j ? 1 : 0, 1e-15);
}

#include "drape/rig/skeleton.h"

#include <gtest/gtest.h>

#include <numbers>

#include "drape/core/exceptions.h"
#include "drape/rig/quaternion.h"

using namespace drape;

namespace {
Vec3 col(const Mat3& m, int c) { return {m(0, c), m(1, c), m(2, c)}; }
}  // namespace

TEST(Skeleton, RestRotationPointsYAlongTheBoneAndIsOrthonormal) {
  for (const Vec3 d : {Vec3{0, 1, 0}, Vec3{0, -1, 0}, Vec3{1, 2, 3}, Vec3{-0.3, -0.1, 0.9}})
    for (double roll : {0.0, 0.7, -2.5}) {
      const Mat3 r = bone_rotation_from_roll(d, roll);
      EXPECT_NEAR(norm(col(r, 1) - normalized(d)), 0, 1e-12);
      EXPECT_NEAR(r.determinant(), 1, 1e-12);
      const Mat3 rtr = r.transposed() * r;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) EXPECT_NEAR(rtr(i, j), i == j ? 1 : 0, 1e-12);
    }
}

TEST(Skeleton, RollFromAxisInvertsRollToFrame) {
  const Vec3 d{0.4, -0.7, 0.2};
  for (double roll : {0.0, 0.3, 1.5, -3.0}) {
    const Mat3 r = bone_rotation_from_roll(d, roll);
    EXPECT_NEAR(std::remainder(roll_from_z_axis(d, col(r, 2)) - roll, 2 * std::numbers::pi), 0, 1e-12);
    EXPECT_NEAR(std::remainder(roll_from_x_axis(d, col(r, 0)) - roll, 2 * std::numbers::pi), 0, 1e-12);
  }
}

TEST(Skeleton, SortParentsFirstAndCycleDetection) {
  Skeleton s;
  s.bones = {{"c", 2, {}, {0, 1, 0}}, {"a", -1, {}, {0, 1, 0}}, {"b", 1, {}, {0, 1, 0}}};
  s.sort_parents_first("t");
  ASSERT_EQ(s.bones[0].name, "a");
  for (std::size_t i = 0; i < s.size(); ++i) EXPECT_LT(s.bones[i].parent, static_cast<int>(i));
  EXPECT_EQ(s.bones[s.find("c")].parent, s.find("b"));
  s.validate("t");
  Skeleton cyc;
  cyc.bones = {{"x", 1, {}, {}}, {"y", 0, {}, {}}};
  EXPECT_THROW(cyc.sort_parents_first("t"), InvalidInput);
}

TEST(Quaternion, MatrixRoundTripAndDualQuaternionTransform) {
  const Mat3 r = Mat3::rotation_axis_angle({1, 2, -1}, 2.9);
  const Quat q = Quat::from_matrix(r);
  const Mat3 back = q.to_matrix();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(back(i, j), r(i, j), 1e-12);
  const RigidTransform t{r, {0.3, -1, 2}};
  const DualQuat d = DualQuat::from_rigid(t);
  const Vec3 p{0.5, 0.25, -0.75};
  EXPECT_NEAR(norm(d.transform_point(p) - t(p)), 0, 1e-12);
  const Quat id = Quat::from_matrix(Mat3::identity());
  EXPECT_EQ(id.w, 1);
  EXPECT_EQ(id.rotate(p), p);
}

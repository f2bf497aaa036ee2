// The pose with the arms raised (rig/arm_raise.h) on MakeHuman's skeletons,
// checked against the geometry of the posed bones.

#include "drape/rig/arm_raise.h"

#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

#include "rig_test_data.h"

namespace drape {
namespace {

using test::mh_skeleton;

// Degrees below the horizontal of a posed bone.
double posed_angle(const Skeleton& s, const Pose& p, int b) {
  const Vec3 d = p.tail(s, b) - p.head(s, b);
  return std::atan2(-d.y, std::hypot(d.x, d.z)) * 180 / std::numbers::pi;
}

// The bone whose head is the arm's elbow (elbow_of), -1 when none.
int elbow_bone(const Skeleton& s, int arm) {
  const Vec3 e = elbow_of(s, arm);
  for (std::size_t b = 0; b < s.size(); ++b)
    if (static_cast<int>(b) != arm && s.bones[b].parent >= 0 && norm(s.bones[b].head - e) == 0)
      return static_cast<int>(b);
  return -1;
}

// Degrees below the horizontal of a posed upper arm, head to elbow.
double posed_arm_angle(const Skeleton& s, const Pose& p, int arm) {
  const int e = elbow_bone(s, arm);
  const Vec3 d = (e >= 0 ? p.head(s, e) : p.tail(s, arm)) - p.head(s, arm);
  return std::atan2(-d.y, std::hypot(d.x, d.z)) * 180 / std::numbers::pi;
}

// Bones below `root` (itself included).
std::vector<char> subtree(const Skeleton& s, int root) {
  std::vector<char> in(s.size(), 0);
  in[root] = 1;
  for (std::size_t b = 0; b < s.size(); ++b)
    if (s.bones[b].parent >= 0 && in[s.bones[b].parent]) in[b] = 1;  // parents come first
  return in;
}

TEST(ArmRaise, FindsTheUpperArmsOfEachMakeHumanSkeleton) {
  for (const char* name : {"default", "game_engine", "cmu_mb"}) {
    const Skeleton& s = mh_skeleton(name).skeleton;
    const UpperArms arms = find_upper_arms(s);
    ASSERT_GE(arms.left, 0) << name;
    ASSERT_GE(arms.right, 0) << name;
    // The body's left is +x in drape's frame, and the arm hangs below its shoulder.
    EXPECT_GT(s.bones[arms.left].head.x, 0) << name;
    EXPECT_LT(s.bones[arms.right].head.x, 0) << name;
    EXPECT_GT(arm_angle_below_horizontal(s, arms.left), 20) << name;
    EXPECT_LT(arm_angle_below_horizontal(s, arms.left), 70) << name;
  }
  EXPECT_EQ(find_upper_arms(mh_skeleton("default").skeleton).left,
            mh_skeleton("default").skeleton.find("upperarm01.L"));
}

TEST(ArmRaise, TurnsEachArmRigidlyToTheAskedAngleAndNothingElse) {
  const Skeleton& s = mh_skeleton("default").skeleton;
  const UpperArms arms = find_upper_arms(s);
  const std::vector<char> left = subtree(s, arms.left), right = subtree(s, arms.right);
  for (double angle : {0.0, 20.0}) {
    const std::optional<Pose> p = arms_raised_pose(s, angle);
    ASSERT_TRUE(p);
    EXPECT_NEAR(posed_arm_angle(s, *p, arms.left), angle, 1e-9);
    EXPECT_NEAR(posed_arm_angle(s, *p, arms.right), angle, 1e-9);
    // The turn is in the vertical plane through the arm: its heading is kept.
    for (int arm : {arms.left, arms.right}) {
      const int e = elbow_bone(s, arm);
      ASSERT_GE(e, 0);
      EXPECT_EQ(s.bones[e].name, arm == arms.left ? "lowerarm01.L" : "lowerarm01.R");
      const Vec3 d0 = s.bones[e].head - s.bones[arm].head;
      const Vec3 d1 = p->head(s, e) - p->head(s, arm);
      EXPECT_NEAR(std::atan2(d1.z, d1.x), std::atan2(d0.z, d0.x), 1e-9);
      EXPECT_NEAR(norm(p->head(s, arm) - s.bones[arm].head), 0, 1e-12);  // about its own head
    }
    for (std::size_t b = 0; b < s.size(); ++b) {
      if (left[b] || right[b]) {
        // Rigid with its arm: every distance to the arm's head is kept.
        const int arm = left[b] ? arms.left : arms.right;
        EXPECT_NEAR(norm(p->tail(s, b) - p->head(s, arm)), norm(s.bones[b].tail - s.bones[arm].head), 1e-9);
      } else {
        EXPECT_NEAR(norm(p->head(s, b) - s.bones[b].head), 0, 1e-12) << s.bones[b].name;
        EXPECT_NEAR(norm(p->tail(s, b) - s.bones[b].tail), 0, 1e-12) << s.bones[b].name;
      }
    }
  }
}

TEST(ArmRaise, HalfwayBetweenTwoRaisesIsTheRaiseHalfwayBetween) {
  // Both raises turn each arm about one axis, so the slerp halfway between
  // them is the raise to the mean angle.
  const Skeleton& s = mh_skeleton("default").skeleton;
  const UpperArms arms = find_upper_arms(s);
  const Pose a = *arms_raised_pose(s, 0), b = *arms_raised_pose(s, 30);
  const Pose mid = interpolate_poses(s, a, b, 0.5);
  EXPECT_NEAR(posed_arm_angle(s, mid, arms.left), 15, 1e-6);
  EXPECT_NEAR(posed_arm_angle(s, mid, arms.right), 15, 1e-6);
  const Pose start = interpolate_poses(s, a, b, 0), end = interpolate_poses(s, a, b, 1);
  for (std::size_t k = 0; k < s.size(); ++k) {
    const int bone = static_cast<int>(k);
    EXPECT_NEAR(norm(start.tail(s, bone) - a.tail(s, bone)), 0, 1e-12);
    EXPECT_NEAR(norm(end.tail(s, bone) - b.tail(s, bone)), 0, 1e-12);
  }
  // From rest, as interpolate_from_rest.
  const Pose r = interpolate_poses(s, Pose::identity(s.size()), b, 0.25);
  const Pose q = interpolate_from_rest(s, b, 0.25);
  for (std::size_t k = 0; k < s.size(); ++k)
    EXPECT_NEAR(norm(r.tail(s, static_cast<int>(k)) - q.tail(s, static_cast<int>(k))), 0, 1e-12);
}

TEST(ArmRaise, FindsRigifyAndMixamoNamedArms) {
  // Rigify (Blender, the Godot base mesh), Mixamo: the arm chain's first
  // bone, not the shoulder or the forearm.
  for (const auto& [shoulder_l, arm_l, fore_l, arm_r] :
       {std::tuple{"shoulder.L", "upper_arm.L", "forearm.L", "upper_arm.R"},
        std::tuple{"mixamorig:LeftShoulder", "mixamorig:LeftArm", "mixamorig:LeftForeArm",
                   "mixamorig:RightArm"}}) {
    Skeleton s;
    s.bones.push_back({.name = "spine", .parent = -1, .head = {0, 1, 0}, .tail = {0, 1.4, 0}});
    s.bones.push_back({.name = shoulder_l, .parent = 0, .head = {0.02, 1.4, 0}, .tail = {0.15, 1.42, 0}});
    s.bones.push_back({.name = arm_l, .parent = 1, .head = {0.15, 1.42, 0}, .tail = {0.35, 1.2, 0}});
    s.bones.push_back({.name = fore_l, .parent = 2, .head = {0.35, 1.2, 0}, .tail = {0.5, 1.0, 0}});
    s.bones.push_back({.name = arm_r, .parent = 0, .head = {-0.15, 1.42, 0}, .tail = {-0.35, 1.2, 0}});
    const UpperArms arms = find_upper_arms(s);
    EXPECT_EQ(arms.left, 2) << arm_l;
    EXPECT_EQ(arms.right, 4) << arm_r;
    const std::optional<Pose> p = arms_raised_pose(s, 0);
    ASSERT_TRUE(p);
    // All in one vertical plane: the forearm turns by the arm's own angle.
    EXPECT_NEAR(posed_angle(s, *p, 3), arm_angle_below_horizontal(s, 3) - arm_angle_below_horizontal(s, 2),
                1e-9);
  }
}

TEST(ArmRaise, AnUpperArmInTwoBonesIsMeasuredFromItsHeadToTheElbow) {
  // MakeHuman's upper arm: upperarm01 (short, its tail an interior joint)
  // then upperarm02 down to the elbow, where lowerarm01 starts. The first
  // bone here leans 20 degrees off the arm; the arm itself (head to elbow)
  // is 45 degrees below the horizontal on both sides, so both are raised
  // alike.
  Skeleton s;
  s.bones.push_back({.name = "spine", .parent = -1, .head = {0, 1, 0}, .tail = {0, 1.4, 0}});
  const double a = 45 * std::numbers::pi / 180;
  const Vec3 elbow_l{0.15 + 0.3 * std::cos(a), 1.4 - 0.3 * std::sin(a), 0};
  s.bones.push_back({.name = "upperarm01.L", .parent = 0, .head = {0.15, 1.4, 0}, .tail = {0.2, 1.38, 0}});
  s.bones.push_back({.name = "upperarm02.L", .parent = 1, .head = {0.2, 1.38, 0}, .tail = elbow_l});
  s.bones.push_back(
      {.name = "hand_helper.L", .parent = 2, .head = elbow_l, .tail = elbow_l + Vec3{0, 0, 0.05}});
  s.bones.push_back(
      {.name = "lowerarm01.L", .parent = 2, .head = elbow_l, .tail = elbow_l + Vec3{0.2, -0.2, 0}});
  const Vec3 elbow_r{-elbow_l.x, elbow_l.y, 0};
  s.bones.push_back({.name = "upperarm01.R", .parent = 0, .head = {-0.15, 1.4, 0}, .tail = {-0.18, 1.34, 0}});
  s.bones.push_back({.name = "upperarm02.R", .parent = 5, .head = {-0.18, 1.34, 0}, .tail = elbow_r});
  s.bones.push_back(
      {.name = "lowerarm01.R", .parent = 6, .head = elbow_r, .tail = elbow_r + Vec3{-0.2, -0.2, 0}});
  const UpperArms arms = find_upper_arms(s);
  ASSERT_EQ(arms.left, 1);
  ASSERT_EQ(arms.right, 5);
  EXPECT_NEAR(norm(elbow_of(s, arms.left) - elbow_l), 0, 1e-15);
  EXPECT_NEAR(norm(elbow_of(s, arms.right) - elbow_r), 0, 1e-15);
  EXPECT_NEAR(arm_angle_below_horizontal(s, arms.left), 45, 1e-9);
  EXPECT_NEAR(arm_angle_below_horizontal(s, arms.right), 45, 1e-9);
  const std::optional<Pose> p = arms_raised_pose(s, 0);
  ASSERT_TRUE(p);
  EXPECT_NEAR(p->head(s, 4).y, 1.4, 1e-9);  // the elbows at shoulder height
  EXPECT_NEAR(p->head(s, 7).y, 1.4, 1e-9);
  // A bone with no forearm below it is measured to its own tail.
  EXPECT_NEAR(norm(elbow_of(s, 4) - s.bones[4].tail), 0, 1e-15);
}

TEST(ArmRaise, ASkeletonWithoutArmsHasNoRaisedPose) {
  Skeleton s;
  s.bones.push_back({.name = "spine", .parent = -1, .head = {0, 1, 0}, .tail = {0, 1.5, 0}});
  EXPECT_FALSE(arms_raised_pose(s, 0));
}

}  // namespace
}  // namespace drape

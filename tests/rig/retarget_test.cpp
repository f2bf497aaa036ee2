#include "drape/rig/retarget.h"

#include <gtest/gtest.h>

#include <numbers>

#include "drape/core/exceptions.h"
#include "rig_test_data.h"

using namespace drape;
using namespace drape::test;

namespace {
double angle_between(const Vec3& a, const Vec3& b) { return std::atan2(norm(cross(a, b)), dot(a, b)); }

// For every mapped bone whose BVH joint has exactly one child, the posed bone
// must point where the BVH segment points in that frame (axes applied).
void expect_segments_followed(const Skeleton& s, const BvhMotion& m, std::size_t frame,
                              const JointNameMap& map, const RetargetResult& r) {
  const auto w = m.world_pose(frame);
  int checked = 0;
  for (const auto& [bone, joint] : map) {
    const int b = s.find(bone), j = m.find(joint);
    int kids = 0, child = -1;
    for (std::size_t c = 0; c < m.joints.size(); ++c)
      if (m.joints[c].parent == j) {
        ++kids;
        child = static_cast<int>(c);
      }
    if (kids != 1 || norm(m.joints[child].offset) < 1e-9) continue;
    // Rotations only: retargeting ignores non-root position channels (near zero in these files).
    const Vec3 src = r.axes * (w.rotation[j] * m.joints[child].offset);
    const Vec3 dst = r.pose.tail(s, b) - r.pose.head(s, b);
    EXPECT_LT(angle_between(src, dst), 1e-9) << bone << " <- " << joint;
    ++checked;
  }
  EXPECT_GT(checked, 8);
}
}  // namespace

TEST(Retarget, CmuJumpingJacksOntoCmuMbFollowsEverySegment) {
  const Skeleton& s = mh_skeleton("cmu_mb").skeleton;
  const BvhMotion m = read_bvh(data("motion/cmu_jumping_jacks.bvh"));
  const JointNameMap map = guess_joint_map(s, m);
  EXPECT_EQ(map.size(), s.size());  // every cmu_mb bone has a CMU joint
  for (std::size_t f : {0u, 40u, 124u}) {
    const RetargetResult r = retarget_bvh_frame(s, m, f, map);
    // The CMU file is y-up, facing +z, left at +x: the same axes as MakeHuman.
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_EQ(r.axes(i, j), i == j ? 1 : 0);
    expect_segments_followed(s, m, f, map, r);
    // Children's heads stay attached where the rest skeleton had them attached.
    for (std::size_t b = 0; b < s.size(); ++b) {
      const int p = s.bones[b].parent;
      if (p >= 0 && norm(s.bones[b].head - s.bones[p].tail) < 1e-9) {
        EXPECT_LT(norm(r.pose.head(s, static_cast<int>(b)) - r.pose.tail(s, p)), 1e-9);
      }
    }
  }
  // Jumping jacks: the arms go up over the head at some frame.
  double best = -1e9;
  const int hand = s.find("LeftHand"), head = s.find("Head");
  for (std::size_t f = 0; f < m.frame_count(); f += 5) {
    const RetargetResult r = retarget_bvh_frame(s, m, f, map);
    best = std::max(best, r.pose.head(s, hand).y - r.pose.head(s, head).y);
  }
  EXPECT_GT(best, 0.1);
}

TEST(Retarget, MakeHumanTPoseLiftsTheDefaultSkeletonsArmsToHorizontal) {
  const Skeleton& s = mh_skeleton("default").skeleton;
  const BvhMotion m = read_bvh(data("motion/makehuman_tpose.bvh"));
  const JointNameMap map = guess_joint_map(s, m);
  EXPECT_GT(map.size(), s.size() / 2);
  const RetargetResult r = retarget_bvh_frame(s, m, 0, map);
  // The file is z-up and faces -y: its axes must be found (x, z, -y) -> skeleton (x, y, z).
  EXPECT_EQ(r.axes(1, 2), 1);
  EXPECT_EQ(r.axes(2, 1), -1);
  expect_segments_followed(s, m, 0, map, r);
  for (const char* bone : {"upperarm01.L", "upperarm01.R", "lowerarm01.L"}) {
    const int b = s.find(bone);
    const Vec3 d = normalized(r.pose.tail(s, b) - r.pose.head(s, b));
    const Vec3 rest = normalized(s.bones[b].tail - s.bones[b].head);
    EXPECT_LT(std::abs(d.y), 0.2) << bone;     // ~horizontal in the T-pose
    EXPECT_GT(std::abs(rest.y), 0.4) << bone;  // A-pose: clearly down at rest
  }
}

TEST(Retarget, BadMapsAndFramesAreRejected) {
  const Skeleton& s = mh_skeleton("cmu_mb").skeleton;
  const BvhMotion m = read_bvh(data("motion/cmu_jumping_jacks.bvh"));
  EXPECT_THROW(retarget_bvh_frame(s, m, 125, guess_joint_map(s, m)), InvalidInput);
  EXPECT_THROW(retarget_bvh_frame(s, m, 0, {{"NoSuchBone", "Hips"}}), InvalidInput);
  EXPECT_THROW(retarget_bvh_frame(s, m, 0, {{"Hips", "NoSuchJoint"}}), InvalidInput);
  EXPECT_THROW(retarget_bvh_frame(s, m, 0, {}), InvalidInput);
}

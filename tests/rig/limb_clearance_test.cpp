#include "drape/rig/limb_clearance.h"

#include <gtest/gtest.h>

#include "drape/rig/arm_raise.h"
#include "drape/rig/bvh_motion.h"
#include "drape/rig/retarget.h"
#include "rig_test_data.h"

using namespace drape;
using namespace drape::test;

namespace {

// The settings `drape animate` uses (AnimationJob::arm_clearance).
const LimbClearanceOptions kAnimate{.gap = 0.03, .limb_weight = 0.6};

struct JumpingJacks {
  const MakeHumanSkeleton& mh = mh_skeleton("cmu_mb");
  const Skeleton& skeleton = mh.skeleton;
  const SkinWeights weights = makehuman_skin_weights(mh, mh_weights(), body().source_vertex);
  const BvhMotion motion = read_bvh(data("motion/cmu_jumping_jacks.bvh"));
  Pose frame(std::size_t f) const {
    return retarget_bvh_frame(skeleton, motion, f, guess_joint_map(skeleton, motion)).pose;
  }
  // Per vertex, the weight on bone `root` and the bones below it.
  std::vector<double> weight_below(int root) const {
    const std::vector<char> in = skeleton.subtree_mask(root);
    std::vector<double> w(weights.size(), 0.0);
    for (std::size_t v = 0; v < weights.size(); ++v)
      for (int k = 0; k < SkinWeights::kMaxInfluences; ++k)
        if (weights.vertices[v].bone[k] >= 0 && in[weights.vertices[v].bone[k]])
          w[v] += weights.vertices[v].weight[k];
    return w;
  }
};

// Triangle pairs of the posed body that cross, one triangle in group A and
// one in group B (a triangle is in a group when every vertex has weight over
// 0.5 on it), not sharing a vertex: the exact triangle-triangle test,
// independent of the clearance's distances.
std::size_t crossings(const TriangleMesh& posed, const std::vector<double>& on_a,
                      const std::vector<double>& on_b) {
  std::vector<int> a_faces, b_faces;
  for (std::size_t f = 0; f < posed.faces.size(); ++f) {
    int in_a = 0, in_b = 0;
    for (int v : posed.faces[f]) {
      in_a += on_a[v] > 0.5;
      in_b += on_b[v] > 0.5;
    }
    if (in_a == 3) a_faces.push_back(static_cast<int>(f));
    if (in_b == 3) b_faces.push_back(static_cast<int>(f));
  }
  const TriangleMeshBvh a(posed, a_faces), b(posed, b_faces);
  std::size_t n = 0;
  for (const auto& [fa, fb] : a.intersecting_pairs(b)) {
    bool shared = false;
    for (int u : posed.faces[fa])
      for (int v : posed.faces[fb]) shared = shared || u == v;
    n += !shared;
  }
  return n;
}

}  // namespace

// Frame 0 of the jumping jacks has the arms down at the sides: skinned, they
// sink into the torso. Turned clear by a few degrees, no arm triangle crosses
// the trunk.
TEST(LimbClearance, ArmsHangingIntoTheTorsoAreTurnedOutUntilNoArmTriangleCrossesTheTrunk) {
  const JumpingJacks jj;
  const UpperArms arms = find_upper_arms(jj.skeleton);
  const std::vector<double> left_arm = jj.weight_below(arms.left), right_arm = jj.weight_below(arms.right);
  std::vector<double> trunk(left_arm.size());
  for (std::size_t v = 0; v < trunk.size(); ++v) trunk[v] = 1 - left_arm[v] - right_arm[v];
  auto count = [&](const TriangleMesh& posed) {
    return crossings(posed, left_arm, trunk) + crossings(posed, right_arm, trunk);
  };
  for (const SkinningMethod method : {SkinningMethod::linear_blend, SkinningMethod::dual_quaternion}) {
    const Pose pose = jj.frame(0);
    EXPECT_GT(count(skin_mesh(body(), jj.weights, pose, method)), 20u);
    LimbClearance clear(jj.skeleton, body(), jj.weights, method, kAnimate);
    std::vector<LimbTurn> turns;
    const Pose cleared = clear.apply(pose, &turns);
    EXPECT_EQ(count(skin_mesh(body(), jj.weights, cleared, method)), 0u);
    ASSERT_EQ(turns.size(), 2u);
    EXPECT_EQ(turns[0].bone, arms.left);
    EXPECT_EQ(turns[1].bone, arms.right);
    for (const LimbTurn& t : turns) {
      EXPECT_LT(t.before, kAnimate.gap);
      EXPECT_GT(t.degrees, 0.5);
      EXPECT_LT(t.degrees, 20.0);
      EXPECT_GE(t.after, kAnimate.gap);
    }
  }
}

// With the arms raised (a jumping jack's top) nothing is near the trunk and
// the pose comes back unchanged.
TEST(LimbClearance, ArmsAlreadyClearAreLeftAsPosed) {
  const JumpingJacks jj;
  LimbClearance clear(jj.skeleton, body(), jj.weights, SkinningMethod::linear_blend, kAnimate);
  for (const std::size_t f : {30u, 35u}) {
    const Pose pose = jj.frame(f);
    std::vector<LimbTurn> turns;
    const Pose out = clear.apply(pose, &turns);
    EXPECT_EQ(turns.size(), 2u);
    for (const LimbTurn& t : turns) EXPECT_EQ(t.degrees, 0.0);
    for (std::size_t b = 0; b < pose.bone.size(); ++b) {
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) EXPECT_EQ(out.bone[b].rotation(i, j), pose.bone[b].rotation(i, j));
      EXPECT_EQ(out.bone[b].translation, pose.bone[b].translation);
    }
  }
}

// The upper legs are found by the skeleton's shape, not by name: on both
// MakeHuman skeletons the bone below the pelvis whose head is the hip joint.
TEST(LimbClearance, UpperLegsAreTheBonesAtTheHipJoints) {
  for (const char* name : {"cmu_mb", "default"}) {
    const Skeleton& s = mh_skeleton(name).skeleton;
    const UpperLegs legs = find_upper_legs(s);
    ASSERT_GE(legs.left, 0) << name;
    ASSERT_GE(legs.right, 0) << name;
    EXPECT_GT(s.bones[legs.left].head.x, 0.05) << name;
    EXPECT_LT(s.bones[legs.right].head.x, -0.05) << name;
    // Every bone below the hip (thigh, shin, foot, toes) and nothing above.
    const std::vector<char> below = s.subtree_mask(legs.left);
    std::size_t n = 0;
    for (std::size_t b = 0; b < s.size(); ++b) n += below[b];
    EXPECT_GE(n, 4u) << name;
    EXPECT_FALSE(below[s.bones[legs.left].parent]) << name;
    for (std::size_t b = 0; b < s.size(); ++b)
      if (below[b]) {
        EXPECT_LT(s.bones[b].head.y, s.bones[legs.left].head.y + 1e-9) << name << " " << s.bones[b].name;
      }
  }
}

// Frame 0 of the jumping jacks has the feet together: skinned, the thighs
// press into each other at the groin. With a leg gap no leg triangle crosses
// the other leg (the exact triangle test); the arms are left as posed.
TEST(LimbClearance, ThighsPressedTogetherAreTurnedOutUntilNoLegTriangleCrossesTheOther) {
  const JumpingJacks jj;
  const UpperLegs legs = find_upper_legs(jj.skeleton);
  const std::vector<double> left_leg = jj.weight_below(legs.left), right_leg = jj.weight_below(legs.right);
  const Pose pose = jj.frame(0);
  const SkinningMethod lbs = SkinningMethod::linear_blend;
  EXPECT_GT(crossings(skin_mesh(body(), jj.weights, pose, lbs), left_leg, right_leg), 10u);
  const LimbClearanceOptions legs_only{.gap = 0, .leg_gap = 0.02, .limb_weight = 0.6};
  LimbClearance clear(jj.skeleton, body(), jj.weights, lbs, legs_only);
  std::vector<LimbTurn> turns;
  const Pose cleared = clear.apply(pose, &turns);
  EXPECT_EQ(crossings(skin_mesh(body(), jj.weights, cleared, lbs), left_leg, right_leg), 0u);
  ASSERT_EQ(turns.size(), 2u);
  EXPECT_EQ(turns[0].bone, legs.left);
  EXPECT_EQ(turns[1].bone, legs.right);
  for (const LimbTurn& t : turns) {
    EXPECT_TRUE(t.leg);
    EXPECT_LT(t.before, 0.0);  // inside the other leg
    EXPECT_GE(t.after, 0.5 * legs_only.leg_gap);
  }
  // The arms' bones are untouched.
  const UpperArms arms = find_upper_arms(jj.skeleton);
  for (const int arm : {arms.left, arms.right})
    EXPECT_EQ(cleared.bone[arm].translation, pose.bone[arm].translation);
}

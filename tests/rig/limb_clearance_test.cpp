#include "drape/rig/limb_clearance.h"

#include <gtest/gtest.h>

#include "drape/rig/arm_raise.h"
#include "drape/rig/bvh_motion.h"
#include "drape/rig/retarget.h"
#include "rig_test_data.h"

using namespace drape;
using namespace drape::test;

namespace {

struct JumpingJacks {
  const MakeHumanSkeleton& mh = mh_skeleton("cmu_mb");
  const Skeleton& skeleton = mh.skeleton;
  const SkinWeights weights = makehuman_skin_weights(mh, mh_weights(), body().source_vertex);
  const BvhMotion motion = read_bvh(data("motion/cmu_jumping_jacks.bvh"));
  Pose frame(std::size_t f) const {
    return retarget_bvh_frame(skeleton, motion, f, guess_joint_map(skeleton, motion)).pose;
  }
};

// Triangle pairs of the posed body that cross, one triangle on an arm (every
// vertex mostly on the upper arm or a bone below it) and one off both arms
// (every vertex mostly elsewhere), not sharing a vertex: the exact
// triangle-triangle test, independent of the clearance's distances.
std::size_t arm_trunk_crossings(const JumpingJacks& jj, const TriangleMesh& posed) {
  const UpperArms arms = find_upper_arms(jj.skeleton);
  std::vector<char> on_arm(jj.skeleton.size(), 0);
  const auto children = jj.skeleton.children();
  for (int root : {arms.left, arms.right}) {
    std::vector<int> stack{root};
    while (!stack.empty()) {
      const int b = stack.back();
      stack.pop_back();
      on_arm[b] = 1;
      for (int c : children[b]) stack.push_back(c);
    }
  }
  std::vector<int> arm_faces, trunk_faces;
  for (std::size_t f = 0; f < posed.faces.size(); ++f) {
    int arm = 0;
    for (int v : posed.faces[f]) {
      double w = 0;
      const auto& inf = jj.weights.vertices[v];
      for (int k = 0; k < SkinWeights::kMaxInfluences; ++k)
        if (inf.bone[k] >= 0 && on_arm[inf.bone[k]]) w += inf.weight[k];
      arm += w > 0.5;
    }
    if (arm == 3) arm_faces.push_back(static_cast<int>(f));
    if (arm == 0) trunk_faces.push_back(static_cast<int>(f));
  }
  const TriangleMeshBvh a(posed, arm_faces), t(posed, trunk_faces);
  std::size_t n = 0;
  for (const auto& [fa, ft] : a.intersecting_pairs(t)) {
    bool shared = false;
    for (int u : posed.faces[fa])
      for (int v : posed.faces[ft]) shared = shared || u == v;
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
  for (const SkinningMethod method : {SkinningMethod::linear_blend, SkinningMethod::dual_quaternion}) {
    const Pose pose = jj.frame(0);
    const std::size_t before = arm_trunk_crossings(jj, skin_mesh(body(), jj.weights, pose, method));
    // The settings `drape animate` uses (AnimationJob::arm_clearance).
    const LimbClearanceOptions options{.gap = 0.03, .limb_weight = 0.6};
    LimbClearance clear(jj.skeleton, body(), jj.weights, method, options);
    std::array<ArmClearance, 2> arms;
    const Pose cleared = clear.apply(pose, &arms);
    const std::size_t after = arm_trunk_crossings(jj, skin_mesh(body(), jj.weights, cleared, method));
    EXPECT_GT(before, 20u);
    EXPECT_EQ(after, 0u);
    for (const ArmClearance& a : arms) {
      EXPECT_LT(a.before, options.gap);
      EXPECT_GT(a.degrees, 0.5);
      EXPECT_LT(a.degrees, 20.0);
      EXPECT_GE(a.after, options.gap);
    }
  }
}

// With the arms raised (a jumping jack's top) nothing is near the trunk and
// the pose comes back unchanged.
TEST(LimbClearance, ArmsAlreadyClearAreLeftAsPosed) {
  const JumpingJacks jj;
  LimbClearance clear(jj.skeleton, body(), jj.weights, SkinningMethod::linear_blend,
                      {.gap = 0.03, .limb_weight = 0.6});
  for (const std::size_t f : {30u, 35u}) {
    const Pose pose = jj.frame(f);
    std::array<ArmClearance, 2> arms;
    const Pose out = clear.apply(pose, &arms);
    for (const ArmClearance& a : arms) EXPECT_EQ(a.degrees, 0.0);
    for (std::size_t b = 0; b < pose.bone.size(); ++b) {
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) EXPECT_EQ(out.bone[b].rotation(i, j), pose.bone[b].rotation(i, j));
      EXPECT_EQ(out.bone[b].translation, pose.bone[b].translation);
    }
  }
}

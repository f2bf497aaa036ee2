#include "drape/rig/body_rig.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "drape/core/exceptions.h"
#include "drape/rig/retarget.h"
#include "drape/rig/skinning.h"
#include "rig_test_data.h"

using namespace drape;
using namespace drape::test;

namespace {
SkinWeights cmu_weights() {
  return makehuman_skin_weights(mh_skeleton("cmu_mb"), mh_weights(), body().source_vertex,
                                SkinWeights::kMaxInfluences, &mh_skeleton("default").skeleton);
}
}  // namespace

TEST(BodyRig, WeightsTravelThroughTheLandmarkMapping) {
  // Same topology after an axis-aligned scale: M is that affine map, so every
  // vertex must get exactly its template weights back.
  TriangleMesh target = body();
  for (Vec3& p : target.positions) p = Vec3{p.x * 0.9, p.y * 1.05, p.z * 1.15} + Vec3{0, 0.2, 0};
  const SkinWeights w = cmu_weights();
  const BodyRig r = rig_body_by_fitting(mh_skeleton("cmu_mb").skeleton, body(), w, target);
  ASSERT_TRUE(r.weights_transferred);
  ASSERT_EQ(r.weights.size(), target.vertex_count());
  // Compared as bone -> weight maps (equal weights may swap slots).
  for (std::size_t v = 0; v < target.vertex_count(); v += 7) {
    std::map<int, double> a, b;
    for (int s = 0; s < SkinWeights::kMaxInfluences; ++s) {
      if (w.vertices[v].bone[s] >= 0) a[w.vertices[v].bone[s]] += w.vertices[v].weight[s];
      if (r.weights.vertices[v].bone[s] >= 0)
        b[r.weights.vertices[v].bone[s]] += r.weights.vertices[v].weight[s];
    }
    for (const auto& [bone, x] : a)
      if (x > 1e-6) {
        EXPECT_NEAR(b[bone], x, 1e-6) << v;
      }
  }
  EXPECT_THROW(rig_body_by_fitting(mh_skeleton("cmu_mb").skeleton, body(),
                                   SkinWeights::from_lists({{{0, 1.0}}}), target),
               InvalidInput);
}

TEST(BodyRig, FitsTheLowPolyProxyBodyConsistentlyWithItsLandmarks) {
  // proxy741 is a 741-vertex low-poly MakeHuman body of other proportions (1.60 m,
  // other topology, not closed): no ground-truth joints, so check that every
  // limb joint keeps its offset from the nearby landmark it had on the template.
  MeshReadOptions o;
  const TriangleMesh proxy = read_obj(data("bodies/makehuman/proxy741.obj"), o).mesh;
  const Skeleton& s = mh_skeleton("cmu_mb").skeleton;
  const BodyRig r = rig_body_by_fitting(s, body(), cmu_weights(), proxy);
  auto landmark = [](const std::vector<Landmark>& l, const std::string& n) {
    for (const auto& x : l)
      if (x.name == n) return x.position;
    ADD_FAILURE() << n;
    return Vec3{};
  };
  double worst = 0;
  for (const auto& [bone, lm] :
       {std::pair{"LeftLeg", "knee_l"}, std::pair{"RightLeg", "knee_r"}, std::pair{"LeftFoot", "ankle_l"},
        std::pair{"LeftForeArm", "elbow_l"}, std::pair{"LeftHand", "wrist_l"},
        std::pair{"RightArm", "armpit_r"}, std::pair{"Neck1", "neck"}, std::pair{"LeftUpLeg", "crotch"}}) {
    const int b = s.find(bone);
    const Vec3 d_template = s.bones[b].head - landmark(r.fit.template_landmarks, lm);
    const Vec3 d_fit = r.skeleton.bones[b].head - landmark(r.fit.target_landmarks, lm);
    worst = std::max(worst, norm(d_fit - d_template));
  }
  // The proxy is ~6 % smaller with coarser landmarks: allow 2.5 % of its height.
  const double h = proxy.bounds().extent().y;
  RecordProperty("proxy_worst_offset_change_of_height", std::to_string(worst / h));
  EXPECT_LT(worst, 0.025 * h);
  EXPECT_EQ(r.weights.unweighted_count(), 0u);
  EXPECT_LT(r.weights.max_normalisation_error(), 1e-12);
}

TEST(BodyRig, GarmentPointsTakeTheNearestBodyWeightsAndFollowThePose) {
  const TriangleMesh& m = body();
  const MakeHumanSkeleton& mh = mh_skeleton("cmu_mb");
  const SkinWeights w = cmu_weights();
  const BvhMotion motion = read_bvh(data("motion/cmu_jumping_jacks.bvh"));
  const Pose pose = retarget_bvh_frame(mh.skeleton, motion, 60, guess_joint_map(mh.skeleton, motion)).pose;
  const std::vector<Vec3> normals = m.vertex_normals();
  // "Garment" vertices: on body vertices, and 5 mm outside them.
  std::vector<Vec3> on, off;
  std::vector<int> ids;
  for (std::size_t v = 0; v < m.vertex_count(); v += 211) {
    ids.push_back(static_cast<int>(v));
    on.push_back(m.positions[v]);
    off.push_back(m.positions[v] + normals[v] * 0.005);
  }
  const SkinWeights gw = weights_from_nearest_body_point(m, w, on);
  for (std::size_t i = 0; i < ids.size(); ++i)
    for (int s = 0; s < SkinWeights::kMaxInfluences; ++s) {
      EXPECT_EQ(gw.vertices[i].bone[s], w.vertices[ids[i]].bone[s]);
      EXPECT_NEAR(gw.vertices[i].weight[s], w.vertices[ids[i]].weight[s], 1e-12);
    }
  const auto posed_body = skin_points(m.positions, normals, w, pose).positions;
  const auto posed_on = skin_points(on, {}, gw, pose).positions;
  const auto posed_off = skin_points(off, {}, weights_from_nearest_body_point(m, w, off), pose).positions;
  double worst_gap = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    EXPECT_LT(norm(posed_on[i] - posed_body[ids[i]]), 1e-12);
    worst_gap = std::max(worst_gap, std::abs(norm(posed_off[i] - posed_body[ids[i]]) - 0.005));
  }
  EXPECT_LT(worst_gap, 0.005);  // the offset garment stays about 5 mm off its body point
}

TEST(ComputedWeights, NormalisedAndDominatedByTheNearestBone) {
  const MakeHumanSkeleton& mh = mh_skeleton("cmu_mb");
  const SkinWeights w = compute_distance_weights(body(), mh.skeleton);
  EXPECT_LT(w.max_normalisation_error(), 1e-12);
  EXPECT_EQ(w.unweighted_count(), 0u);
  // A vertex at the middle of the left forearm belongs mainly to LeftForeArm.
  const Bone& fa = mh.skeleton.bones[mh.skeleton.find("LeftForeArm")];
  const Vec3 mid = (fa.head + fa.tail) * 0.5;
  std::size_t best = 0;
  for (std::size_t v = 0; v < body().vertex_count(); ++v)
    if (norm(body().positions[v] - mid) < norm(body().positions[best] - mid)) best = v;
  EXPECT_EQ(w.vertices[best].bone[0], mh.skeleton.find("LeftForeArm"));
  EXPECT_GT(w.vertices[best].weight[0], 0.5);
  EXPECT_THROW(compute_distance_weights(body(), Skeleton{}), InvalidInput);
}

TEST(BodyRig, FitsATPosedBodyAsItsOwnSkeletonPosesIt) {
  // Ground truth: the MakeHuman body skinned into a T-pose by its own cmu_mb
  // skeleton (each whole arm turned up about z until the upper arm is
  // horizontal); the posed skeleton's joints are where a fit must put them.
  const MakeHumanSkeleton& mh = mh_skeleton("cmu_mb");
  const Skeleton& s = mh.skeleton;
  const SkinWeights w = cmu_weights();
  std::vector<Mat3> world(s.size(), Mat3::identity());
  for (const char* arm : {"LeftArm", "RightArm"}) {
    const int a = s.find(arm);
    const Vec3 d = s.bones[a].tail - s.bones[a].head;
    const double below = std::atan2(-d.y, std::abs(d.x));  // the arm's angle below the horizontal
    ASSERT_GT(below, 0.3) << "MakeHuman's base body is in an A-pose";
    const Mat3 up = Mat3::rotation_axis_angle({0, 0, d.x > 0 ? 1.0 : -1.0}, below);
    for (std::size_t b = 0; b < s.size(); ++b)
      for (int p = static_cast<int>(b); p >= 0; p = s.bones[p].parent)
        if (p == a) world[b] = up;
  }
  const Pose tpose = pose_from_world_rotations(s, world);
  TriangleMesh target = body();
  target.positions = skin_points(body().positions, {}, w, tpose).positions;

  const BodyRig r = rig_body_by_fitting(s, body(), w, target);
  const double h = target.bounds().extent().y;
  double worst_arm = 0, sum = 0;
  for (std::size_t b = 0; b < s.size(); ++b) {
    const double e = norm(r.skeleton.bones[b].head - tpose.head(s, static_cast<int>(b)));
    sum += e;
    for (const char* arm : {"LeftArm", "LeftForeArm", "LeftHand", "RightArm", "RightForeArm", "RightHand"})
      if (s.bones[b].name == arm) worst_arm = std::max(worst_arm, e);
  }
  RecordProperty("tpose_mean_error_of_height", std::to_string(sum / s.size() / h));
  RecordProperty("tpose_worst_arm_error_of_height", std::to_string(worst_arm / h));
  EXPECT_LT(sum / s.size(), 0.01 * h);
  EXPECT_LT(worst_arm, 0.02 * h);
}

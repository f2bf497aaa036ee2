#include "drape/rig/skinning.h"

#include <gtest/gtest.h>

#include <numbers>

#include "drape/core/exceptions.h"
#include "drape/rig/quaternion.h"
#include "rig_test_data.h"

using namespace drape;
using namespace drape::test;

namespace {
// Closed cylinder along +y: rings x segments, with caps; returns mesh.
TriangleMesh cylinder(double radius, double length, int rings, int segs) {
  TriangleMesh m;
  for (int r = 0; r <= rings; ++r)
    for (int s = 0; s < segs; ++s) {
      const double a = 2 * std::numbers::pi * s / segs;
      m.positions.push_back({radius * std::cos(a), length * r / rings, radius * std::sin(a)});
    }
  for (int r = 0; r < rings; ++r)
    for (int s = 0; s < segs; ++s) {
      const int a = r * segs + s, b = r * segs + (s + 1) % segs, c = a + segs, d = b + segs;
      m.faces.push_back({a, c, b});
      m.faces.push_back({b, c, d});
    }
  const int bottom = static_cast<int>(m.positions.size());
  m.positions.push_back({0, 0, 0});
  const int top = bottom + 1;
  m.positions.push_back({0, length, 0});
  for (int s = 0; s < segs; ++s) {
    m.faces.push_back({bottom, s, (s + 1) % segs});
    m.faces.push_back({top, rings * segs + (s + 1) % segs, rings * segs + s});
  }
  return m;
}

Skeleton two_bones(double length) {
  Skeleton s;
  s.bones = {{"lower", -1, {0, 0, 0}, {0, length / 2, 0}}, {"upper", 0, {0, length / 2, 0}, {0, length, 0}}};
  return s;
}

SkinWeights blend_weights(const TriangleMesh& m, double length) {
  std::vector<std::vector<std::pair<int, double>>> lists;
  for (const Vec3& p : m.positions) {
    const double t = std::clamp((p.y / length - 0.3) / 0.4, 0.0, 1.0);
    lists.push_back({{0, 1 - t}, {1, t}});
  }
  return SkinWeights::from_lists(lists);
}
}  // namespace

TEST(Skinning, RestPoseReturnsTheRestMeshExactly) {
  const TriangleMesh& m = body();
  const MakeHumanSkeleton& mh = mh_skeleton("default");
  const SkinWeights w = makehuman_skin_weights(mh, mh_weights(), m.source_vertex);
  const std::vector<Vec3> normals = m.vertex_normals();
  for (auto method : {SkinningMethod::linear_blend, SkinningMethod::dual_quaternion}) {
    // Both the trivial identity and one built through the pose functions.
    for (const Pose& pose :
         {Pose::identity(mh.skeleton.size()), pose_from_local_rotations(mh.skeleton, {})}) {
      const SkinnedPoints s = skin_points(m.positions, normals, w, pose, method);
      for (std::size_t v = 0; v < m.vertex_count(); ++v) {
        ASSERT_EQ(s.positions[v], m.positions[v]) << v;
        ASSERT_NEAR(norm(s.normals[v] - normals[v]), 0, 1e-12);
      }
    }
  }
}

TEST(Skinning, OneRigidBoneMovesPointsAndNormalsRigidly) {
  const TriangleMesh m = cylinder(0.1, 1, 6, 12);
  const std::vector<Vec3> normals = m.vertex_normals();
  SkinWeights w =
      SkinWeights::from_lists(std::vector<std::vector<std::pair<int, double>>>(m.vertex_count(), {{0, 1}}));
  const RigidTransform t{Mat3::rotation_axis_angle({1, 1, 0}, 1.1), {0.2, -0.3, 0.5}};
  const Pose pose{{t}};
  for (auto method : {SkinningMethod::linear_blend, SkinningMethod::dual_quaternion}) {
    const SkinnedPoints s = skin_points(m.positions, normals, w, pose, method);
    for (std::size_t v = 0; v < m.vertex_count(); ++v) {
      EXPECT_NEAR(norm(s.positions[v] - t(m.positions[v])), 0, 1e-12);
      EXPECT_NEAR(norm(s.normals[v] - t.rotation * normals[v]), 0, 1e-12);
    }
  }
}

TEST(Skinning, DualQuaternionKeepsATwistedCylindersVolumeBetterThanLinearBlend) {
  const double length = 1.0;
  const TriangleMesh m = cylinder(0.1, length, 40, 32);
  const Skeleton s = two_bones(length);
  const SkinWeights w = blend_weights(m, length);
  std::vector<Mat3> local(2);
  local[1] = Mat3::rotation_y(150 * std::numbers::pi / 180);  // twist about the bone axis
  const Pose pose = pose_from_local_rotations(s, local);
  const double v0 = m.signed_volume();
  const double v_lbs = skin_mesh(m, w, pose, SkinningMethod::linear_blend).signed_volume();
  const double v_dqs = skin_mesh(m, w, pose, SkinningMethod::dual_quaternion).signed_volume();
  const double loss_lbs = std::abs(v_lbs - v0) / v0, loss_dqs = std::abs(v_dqs - v0) / v0;
  RecordProperty("volume_loss_lbs", std::to_string(loss_lbs));
  RecordProperty("volume_loss_dqs", std::to_string(loss_dqs));
  EXPECT_GT(loss_lbs, 0.05);          // the candy-wrapper collapse
  EXPECT_LT(loss_dqs, loss_lbs / 5);  // DQS keeps the volume far better
  // Both keep the rigid parts rigid: the top cap turned, the bottom fixed.
  const TriangleMesh dq = skin_mesh(m, w, pose, SkinningMethod::dual_quaternion);
  EXPECT_NEAR(norm(dq.positions[0] - m.positions[0]), 0, 1e-12);
}

TEST(Skinning, LocalRotationPoseMovesChildHeadsWithParents) {
  const Skeleton s = two_bones(1.0);
  std::vector<Mat3> local(2);
  local[0] = Mat3::rotation_z(std::numbers::pi / 2);  // lower bone turns: upper follows
  const Pose p = pose_from_local_rotations(s, local, {1, 0, 0});
  EXPECT_NEAR(norm(p.head(s, 1) - p.tail(s, 0)), 0, 1e-12);
  EXPECT_NEAR(norm(p.tail(s, 0) - Vec3{1 - 0.5, 0, 0}), 0, 1e-12);
  EXPECT_NEAR(norm(p.tail(s, 1) - Vec3{1 - 1.0, 0, 0}), 0, 1e-12);
}

TEST(Skinning, RejectsMismatchedSizes) {
  const Pose p = Pose::identity(1);
  SkinWeights w = SkinWeights::from_lists({{{3, 1.0}}});
  EXPECT_THROW(skin_points({{0, 0, 0}}, {}, w, p), InvalidInput);
  EXPECT_THROW(skin_points({{0, 0, 0}, {1, 0, 0}}, {}, w, p), InvalidInput);
}

TEST(Skinning, InterpolatedPoseGoesFromRestToThePoseAndDeltasCompose) {
  const double L = 1.0;
  const Skeleton s = two_bones(L);
  // Upper bone bent 90 degrees about z at its head, the whole skeleton lifted 0.2.
  std::vector<Mat3> world(2, Mat3::identity());
  world[1] = Quat::from_axis_angle({0, 0, 1}, std::numbers::pi / 2).to_matrix();
  const Pose target = pose_from_world_rotations(s, world, {0, 0.2, 0});

  // t = 0 is the rest pose exactly; t = 1 the target.
  const Pose p0 = interpolate_from_rest(s, target, 0.0);
  const Pose p1 = interpolate_from_rest(s, target, 1.0);
  for (int b = 0; b < 2; ++b) {
    const Vec3 q{0.05, 0.8, -0.03};
    EXPECT_LT(norm(p0.bone[b](q) - q), 1e-12);
    EXPECT_LT(norm(p1.bone[b](q) - target.bone[b](q)), 1e-12);
  }
  // Halfway: the upper bone turned 45 degrees, the root lifted 0.1 (analytic).
  const Pose ph = interpolate_from_rest(s, target, 0.5);
  const Vec3 tail = ph.tail(s, 1), head = ph.head(s, 1);
  EXPECT_NEAR(head.y, 0.5 + 0.1, 1e-12);
  const Vec3 dir = (tail - head) / norm(tail - head);
  EXPECT_NEAR(dir.x, -std::sin(std::numbers::pi / 4), 1e-12);
  EXPECT_NEAR(dir.y, std::cos(std::numbers::pi / 4), 1e-12);

  // Skinning with pose_delta(a, b) after skinning with a equals skinning with b,
  // for rigidly weighted points (one bone each) and both methods.
  SkinWeights rigid = SkinWeights::from_lists({{{0, 1.0}}, {{1, 1.0}}});
  const std::vector<Vec3> pts{{0.1, 0.2, 0.0}, {0.05, 0.9, 0.02}};
  for (SkinningMethod method : {SkinningMethod::linear_blend, SkinningMethod::dual_quaternion}) {
    const auto a = skin_points(pts, {}, rigid, ph, method).positions;
    const auto ab = skin_points(a, {}, rigid, pose_delta(ph, p1), method).positions;
    const auto b = skin_points(pts, {}, rigid, p1, method).positions;
    for (std::size_t i = 0; i < pts.size(); ++i) EXPECT_LT(norm(ab[i] - b[i]), 1e-12);
  }
  // Bone frames in the pose: the rest frame moved by the bone's transform.
  const auto frames = posed_frames(s, p1);
  EXPECT_LT(norm(frames[1].translation - p1.head(s, 1)), 1e-12);
  EXPECT_THROW(pose_delta(ph, Pose::identity(3)), InvalidInput);
  EXPECT_THROW(interpolate_from_rest(s, Pose::identity(5), 0.5), InvalidInput);
}

TEST(Quaternion, SlerpFollowsTheShorterArcAtConstantSpeed) {
  const Quat a{};
  const Quat b = Quat::from_axis_angle({0, 1, 0}, 2.0);
  for (double t : {0.0, 0.25, 0.5, 1.0}) {
    const Quat q = slerp(a, b, t);
    EXPECT_NEAR(q.norm(), 1.0, 1e-12);
    // Rotation angle 2 acos(w) grows linearly with t.
    EXPECT_NEAR(2 * std::acos(std::min(1.0, std::abs(q.w))), 2.0 * t, 1e-9);
  }
  // -b is the same rotation: slerp must not take the long way round.
  const Quat mid = slerp(a, b * -1.0, 0.5);
  EXPECT_NEAR(2 * std::acos(std::min(1.0, std::abs(mid.w))), 1.0, 1e-9);
}

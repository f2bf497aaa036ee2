#include "drape/rig/spline_tangents.h"

#include <gtest/gtest.h>

#include <numbers>

#include "drape/core/exceptions.h"
#include "drape/rig/retarget.h"
#include "drape/rig/skinning.h"
#include "rig_test_data.h"

using namespace drape;
using namespace drape::test;

namespace {
constexpr double kPi = std::numbers::pi;

Affine2 rigid2(double angle, Vec2 t) {
  Affine2 a;
  a.m[0][0] = std::cos(angle);
  a.m[0][1] = -std::sin(angle);
  a.m[1][0] = std::sin(angle);
  a.m[1][1] = std::cos(angle);
  a.t = t;
  return a;
}

BlineVertex<Vec2> vtx(Vec2 p, Vec2 t, std::vector<std::pair<int, double>> w = {{0, 1}}) {
  BlineVertex<Vec2> v;
  v.point = p;
  v.tangent_in = v.tangent_out = t;
  v.bone_weights = std::move(w);
  return v;
}

double angle_between(Vec2 a, Vec2 b) { return std::abs(std::atan2(cross(a, b), dot(a, b))); }

// Proper segment intersection (shared endpoints excluded).
bool segments_cross(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const double d1 = cross(b - a, c - a), d2 = cross(b - a, d - a), d3 = cross(d - c, a - c),
               d4 = cross(d - c, b - c);
  return d1 * d2 < 0 && d3 * d4 < 0;
}
bool simple_polygon(const std::vector<Vec2>& p) {
  const std::size_t n = p.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;
      if (segments_cross(p[i], p[(i + 1) % n], p[j], p[(j + 1) % n])) return false;
    }
  return true;
}
double polygon_area(const std::vector<Vec2>& p) {
  double a = 0;
  for (std::size_t i = 0; i < p.size(); ++i) a += cross(p[i], p[(i + 1) % p.size()]);
  return a / 2;
}
}  // namespace

TEST(BlineProposal2, EqualsTheExactTransformForOneRigidBone) {
  Bline2 b;
  b.vertices = {vtx({0, 0}, {1, 0.5}), vtx({1, 1}, {0.2, 1}), vtx({2, 0}, {1, -1})};
  b.vertices[1].split = true;
  b.vertices[1].tangent_in = {-0.4, 0.9};  // a cusp: in and out differ
  const Affine2 r = rigid2(0.7, {0.3, -2});
  const Bline2 d = deform_bline(b, {r});
  for (std::size_t i = 0; i < b.vertices.size(); ++i) {
    EXPECT_NEAR(norm(d.vertices[i].point - r(b.vertices[i].point)), 0, 1e-12);
    EXPECT_NEAR(norm(d.vertices[i].tangent_out - r.linear(b.vertices[i].tangent_out)), 0, 1e-12);
    EXPECT_NEAR(norm(d.vertices[i].tangent_in - r.linear(b.vertices[i].tangent_in)), 0, 1e-12);
  }
  // The whole curve moves rigidly.
  const auto s0 = b.sample(16), s1 = d.sample(16);
  for (std::size_t i = 0; i < s0.size(); ++i) EXPECT_NEAR(norm(s1[i] - r(s0[i])), 0, 1e-12);
}

TEST(BlineProposal2, SplitTangentsComeFromTheirOriginalValues) {
  // Two bones, blended: T' = (sum w L) T for each tangent separately.
  Bline2 b;
  b.vertices = {vtx({0, 0}, {1, 0}, {{0, 0.3}, {1, 0.7}})};
  b.vertices[0].split = true;
  b.vertices[0].tangent_in = {0, 2};
  const Affine2 r0 = rigid2(0.4, {1, 0}), r1 = bone2_transform({{0, 0}, 0, 1}, {{0, 0}, 0.9, 1.5}, 0.8);
  const Bline2 d = deform_bline(b, {r0, r1});
  for (const auto& [t, got] : {std::pair{b.vertices[0].tangent_out, d.vertices[0].tangent_out},
                               std::pair{b.vertices[0].tangent_in, d.vertices[0].tangent_in}}) {
    const Vec2 expect = r0.linear(t) * 0.3 + r1.linear(t) * 0.7;
    EXPECT_NEAR(norm(got - expect), 0, 1e-12);
  }
  // The known bug would derive tangent_in from the transformed tangent_out: not equal here.
  EXPECT_GT(norm(d.vertices[0].tangent_in -
                 (r0.linear(d.vertices[0].tangent_out) * 0.3 + r1.linear(d.vertices[0].tangent_out) * 0.7)),
            0.1);
}

TEST(BlineProposal1, GivesTheAnalyticAngleForARotatedStraightPolyline) {
  // Unevenly spaced points on a straight line, rotated by phi: V and V0 lie along the line,
  // so angle = atan2(V.x,V.y) - (atan2(V0.x,V0.y) - Link.angle) = Link.angle - phi.
  const Vec2 dir = normalized(Vec2{2, 1});
  Bline2 b;
  for (double s : {0.0, 1.0, 3.0, 3.5, 6.0}) b.vertices.push_back(vtx(dir * s, Vec2{-0.3, 0.8}));
  for (double phi : {0.3, -1.2, 2.5}) {
    const Affine2 r = rigid2(phi, {1, 2});
    const Bline2 d = deform_bline(b, {r}, TangentMode::proposal1_calculated);
    for (std::size_t i = 0; i < b.vertices.size(); ++i) {
      const Vec2 t0 = b.vertices[i].tangent_out, t = d.vertices[i].tangent_out;
      const double link = link_angle_of(t0);
      EXPECT_NEAR(std::remainder(link_angle_of(t) - (link - phi), 2 * kPi), 0, 1e-12) << i;
      EXPECT_NEAR(norm(t), norm(t0), 1e-12);
      EXPECT_NEAR(norm(t - r.linear(t0)), 0, 1e-12);  // i.e. the rest tangent turned by phi
    }
  }
  // The formula itself, as written.
  EXPECT_DOUBLE_EQ(proposal1_angle({1, 0}, {0, 1}, 0.25),
                   std::atan2(1.0, 0.0) - (std::atan2(0.0, 1.0) - 0.25));
}

TEST(BlineProposal1, TangentsFollowDeformedNeighboursNotTheirOwnBones) {
  // Middle vertex fixed (no bones), neighbours moved: proposal 1 turns its tangent, proposal 2 does not.
  Bline2 b;
  b.vertices = {vtx({0, 0}, {1, 0}), vtx({1, 0.5}, {1, 0}, {}), vtx({2, 0}, {1, 0})};
  const Affine2 lift = rigid2(0, {0, 1});
  const Bline2 p1 = deform_bline(b, {lift}, TangentMode::proposal1_calculated);
  const Bline2 p2 = deform_bline(b, {lift}, TangentMode::proposal2_global);
  EXPECT_NEAR(norm(p2.vertices[1].tangent_out - Vec2{1, 0}), 0, 1e-15);
  // V0 = (0, 0.5), V = (0, -0.5): turned by pi.
  EXPECT_NEAR(norm(p1.vertices[1].tangent_out - Vec2{-1, 0}), 0, 1e-12);
}

TEST(Bline, InsertingAVertexKeepsTheRestCurveAndIsDefinedUnderBothProposals) {
  Bline2 b;
  b.vertices = {vtx({0, 0}, {1, 2}, {{0, 1}}), vtx({2, 1}, {1, -1}, {{1, 1}}), vtx({4, 0}, {1, 1}, {{1, 1}}),
                vtx({5, 2}, {0, 1}, {{0, 1}})};
  const Bline2 before = b;
  const double t = 0.3;
  const int k = b.insert_vertex(1, t);
  EXPECT_EQ(k, 2);
  // Rest curve unchanged: old segment 1 at t*u and (t + (1-t)u) equals the two new segments at u.
  const auto bez = [](const Bline2& c, int i, int j, double u) {
    const auto &p = c.vertices[i], &q = c.vertices[j];
    const Vec2 in = q.split ? q.tangent_in : q.tangent_out;
    const Vec2 p0 = p.point, p1 = p.point + p.tangent_out / 3.0, p2 = q.point - in / 3.0, p3 = q.point;
    const double s = 1 - u;
    return p0 * (s * s * s) + p1 * (3 * s * s * u) + p2 * (3 * s * u * u) + p3 * (u * u * u);
  };
  for (double u : {0.0, 0.25, 0.5, 0.9, 1.0}) {
    EXPECT_NEAR(norm(bez(b, 1, 2, u) - bez(before, 1, 2, t * u)), 0, 1e-12);
    EXPECT_NEAR(norm(bez(b, 2, 3, u) - bez(before, 1, 2, t + (1 - t) * u)), 0, 1e-12);
  }
  // New vertex weights interpolate its segment's ends: here both are bone 1.
  ASSERT_EQ(b.vertices[k].bone_weights.size(), 1u);
  EXPECT_NEAR(b.vertices[k].bone_weights[0].second, 1, 1e-15);
  // G1 at the new vertex.
  EXPECT_LT(angle_between(b.vertices[k].tangent_in, b.vertices[k].tangent_out), 1e-12);

  const std::vector<Affine2> bones{rigid2(0.2, {0, 0}), rigid2(-0.5, {1, 0})};
  // Proposal 2: vertices away from the insertion keep exactly their deformed tangents.
  const Bline2 d0 = deform_bline(before, bones), d1 = deform_bline(b, bones);
  EXPECT_EQ(d1.vertices[0].tangent_out, d0.vertices[0].tangent_out);
  EXPECT_EQ(d1.vertices[4].tangent_out, d0.vertices[3].tangent_out);
  EXPECT_NEAR(norm(d1.vertices[1].tangent_out - d0.vertices[1].tangent_out * t), 0, 1e-12);  // rescaled only
  // Proposal 1: the neighbours' V now uses the new vertex as Next/Previous.
  const Bline2 q1 = deform_bline(b, bones, TangentMode::proposal1_calculated);
  const Vec2 v0 = b.vertices[1].point - (b.vertices[2].point + b.vertices[0].point) * 0.5;
  const Vec2 v = q1.vertices[1].point - (q1.vertices[2].point + q1.vertices[0].point) * 0.5;
  const Vec2 t0 = b.vertices[1].tangent_out;
  const double ang = proposal1_angle(v, v0, link_angle_of(t0));
  EXPECT_NEAR(norm(q1.vertices[1].tangent_out - Vec2{std::sin(ang), std::cos(ang)} * norm(t0)), 0, 1e-12);
  EXPECT_THROW(b.insert_vertex(4, 0.5), InvalidInput);  // open end: no next vertex
  EXPECT_THROW(b.insert_vertex(0, 1.0), InvalidInput);
}

TEST(Bline, SwitchingAVertexOffEqualsRemovingItForItsNeighbours) {
  Bline2 b;
  b.closed = true;
  b.vertices = {vtx({0, 0}, {1, 0}), vtx({2, -0.3}, {1, 0.2}), vtx({3, 1}, {0, 1}), vtx({1.5, 2}, {-1, 0}),
                vtx({0, 1}, {0, -1})};
  for (auto& v : b.vertices) v.bone_weights = {{0, 0.5}, {1, 0.5}};
  b.vertices[3].bone_weights = {{1, 1}};
  const std::vector<Affine2> bones{rigid2(0.3, {0, 0}), rigid2(-0.4, {0.5, 0.5})};
  Bline2 off = b;
  off.vertices[2].active = false;
  Bline2 removed = b;
  removed.vertices.erase(removed.vertices.begin() + 2);
  for (auto mode : {TangentMode::proposal1_calculated, TangentMode::proposal2_global}) {
    const Bline2 a = deform_bline(off, bones, mode), r = deform_bline(removed, bones, mode);
    for (int i : {0, 1, 3, 4}) {
      const int j = i < 2 ? i : i - 1;
      EXPECT_NEAR(norm(a.vertices[i].tangent_out - r.vertices[j].tangent_out), 0, 1e-12);
      EXPECT_NEAR(norm(a.vertices[i].point - r.vertices[j].point), 0, 1e-12);
    }
  }
  // The curve skips it.
  const auto s_off = off.sample(8), s_rem = removed.sample(8);
  ASSERT_EQ(s_off.size(), s_rem.size());
  for (std::size_t i = 0; i < s_off.size(); ++i) EXPECT_EQ(s_off[i], s_rem[i]);
  // Under proposal 1 a switched-off vertex changes its neighbours' tangents compared with it on.
  const Bline2 on1 = deform_bline(b, bones, TangentMode::proposal1_calculated);
  const Bline2 off1 = deform_bline(off, bones, TangentMode::proposal1_calculated);
  EXPECT_GT(norm(on1.vertices[1].tangent_out - off1.vertices[1].tangent_out), 1e-6);
}

TEST(Bline, GradedPanelOutlineKeepsTangentContinuityAndStaysSimple) {
  // A skirt-like panel (metres) in the pattern plane: four corners, smooth sides.
  Bline2 panel;
  panel.closed = true;
  auto corner = [](Vec2 p, Vec2 in, Vec2 out) {
    BlineVertex<Vec2> v;
    v.point = p;
    v.tangent_in = in;
    v.tangent_out = out;
    v.split = true;
    return v;
  };
  panel.vertices = {corner({0, 0}, {0, -0.6}, {0.5, 0}), corner({0.5, 0}, {0.5, 0}, {-0.1, 0.6}),
                    corner({0.35, 0.6}, {-0.1, 0.6}, {-0.2, 0.02}),
                    corner({0.0, 0.62}, {-0.2, -0.02}, {0, -0.6})};
  // Smooth (G1) points inserted on every side.
  for (int i = static_cast<int>(panel.vertices.size()) - 1; i >= 0; --i) panel.insert_vertex(i, 0.5);
  std::vector<int> smooth;
  for (std::size_t i = 0; i < panel.vertices.size(); ++i)
    if (angle_between(panel.vertices[i].tangent_in, panel.vertices[i].tangent_out) < 1e-12)
      smooth.push_back(static_cast<int>(i));
  ASSERT_EQ(smooth.size(), 4u);
  // Grading bones: a length bone (hem up to waist) and a width bone, scaled a size up.
  const std::vector<Bone2> rest{{{0.25, 0}, kPi / 2, 0.6}, {{0, 0.3}, 0, 0.4}};
  const std::vector<Bone2> graded{{{0.27, 0}, kPi / 2 + 0.03, 0.66}, {{-0.01, 0.32}, 0.02, 0.45}};
  std::vector<Vec2> pts;
  for (const auto& v : panel.vertices) pts.push_back(v.point);
  const auto w = bone2_weights(pts, rest);
  for (std::size_t i = 0; i < panel.vertices.size(); ++i) panel.vertices[i].bone_weights = w[i];
  const std::vector<Affine2> bones{bone2_transform(rest[0], graded[0], 1.06),
                                   bone2_transform(rest[1], graded[1], 1.0)};
  for (auto mode : {TangentMode::proposal2_global, TangentMode::proposal1_calculated}) {
    const Bline2 g = deform_bline(panel, bones, mode);
    for (int i : smooth) EXPECT_LT(angle_between(g.vertices[i].tangent_in, g.vertices[i].tangent_out), 1e-12);
    const auto outline = g.sample(12);
    EXPECT_TRUE(simple_polygon(outline));
    const double a0 = std::abs(polygon_area(panel.sample(12))), a1 = std::abs(polygon_area(outline));
    EXPECT_GT(a1, a0 * 1.05);  // graded up
    EXPECT_LT(a1, a0 * 1.35);
  }
}

TEST(Bline3, CurveOnAPosedBodyFollowsTheSkinnedSurface) {
  const TriangleMesh& m = body();
  const MakeHumanSkeleton& mh = mh_skeleton("cmu_mb");
  const SkinWeights w = makehuman_skin_weights(mh, mh_weights(), m.source_vertex);
  const BvhMotion motion = read_bvh(data("motion/cmu_jumping_jacks.bvh"));
  const Pose pose = retarget_bvh_frame(mh.skeleton, motion, 60, guess_joint_map(mh.skeleton, motion)).pose;
  // A curve through body vertices around the left upper arm, tangents along the chain.
  std::vector<int> arm, ids;
  for (std::size_t v = 0; v < m.vertex_count(); ++v)
    if (m.positions[v].x > 0.2 && m.positions[v].y > 0.3) arm.push_back(static_cast<int>(v));
  for (std::size_t i = 0; i < arm.size() && ids.size() < 6; i += arm.size() / 6 + 1) ids.push_back(arm[i]);
  ASSERT_GE(ids.size(), 3u);
  Bline3 c;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    BlineVertex<Vec3> v;
    v.point = m.positions[ids[i]];
    v.tangent_out = v.tangent_in = m.positions[ids[(i + 1) % ids.size()]] - v.point;
    const auto& in = w.vertices[ids[i]];
    for (int s = 0; s < SkinWeights::kMaxInfluences && in.bone[s] >= 0; ++s)
      v.bone_weights.push_back({in.bone[s], in.weight[s]});
    c.vertices.push_back(v);
  }
  const Bline3 d = deform_bline(c, pose);
  std::vector<Vec3> pts;
  SkinWeights sub;
  for (int id : ids) {
    pts.push_back(m.positions[id]);
    sub.vertices.push_back(w.vertices[id]);
  }
  const auto skinned = skin_points(pts, {}, sub, pose).positions;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    EXPECT_NEAR(norm(d.vertices[i].point - skinned[i]), 0, 1e-12);
    // Proposal 2 with linear blending: T' = (sum w R) T.
    Vec3 expect;
    for (const auto& [b, x] : c.vertices[i].bone_weights)
      expect += pose.bone[b].rotation * c.vertices[i].tangent_out * x;
    EXPECT_NEAR(norm(d.vertices[i].tangent_out - expect), 0, 1e-12);
  }
}

TEST(Bline3, Proposal1TurnsTangentsWithTheChordInThreeD) {
  // Unevenly spaced straight 3D polyline with tangents along it, rotated rigidly:
  // proposal 1's shortest rotation from V0 to V equals the rotation on the line.
  const Vec3 dir = normalized(Vec3{1, 2, -0.5});
  Bline3 b;
  for (double s : {0.0, 0.5, 2.0, 2.2, 4.0}) {
    BlineVertex<Vec3> v;
    v.point = dir * s;
    v.tangent_in = v.tangent_out = dir * 0.7;
    v.bone_weights = {{0, 1}};
    b.vertices.push_back(v);
  }
  const RigidTransform r{Mat3::rotation_axis_angle({0.3, -1, 0.2}, 1.1), {0.1, 0.2, 0.3}};
  const Bline3 d = deform_bline(b, Pose{{r}}, TangentMode::proposal1_calculated);
  for (std::size_t i = 0; i < b.vertices.size(); ++i) {
    EXPECT_NEAR(norm(d.vertices[i].tangent_out - r.rotation * b.vertices[i].tangent_out), 0, 1e-12);
    EXPECT_NEAR(norm(d.vertices[i].point - r(b.vertices[i].point)), 0, 1e-12);
  }
}

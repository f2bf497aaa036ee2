#include "drape/rig/joint_fitting.h"

#include <gtest/gtest.h>

#include <numbers>

#include "drape/core/exceptions.h"
#include "rig_test_data.h"

using namespace drape;
using namespace drape::test;

namespace {
// Independent brute-force geometry for the checks.
double brute_distance(const TriangleMesh& m, const Vec3& p) {
  double best = 1e300;
  for (std::size_t f = 0; f < m.face_count(); ++f) {
    const Vec3 a = m.positions[m.faces[f][0]], b = m.positions[m.faces[f][1]], c = m.positions[m.faces[f][2]];
    // Sample-free exact: project onto the plane, clamp by edges.
    const Vec3 n = normalized(cross(b - a, c - a));
    const Vec3 q = p - n * dot(p - a, n);
    const bool in = dot(cross(b - a, q - a), n) >= 0 && dot(cross(c - b, q - b), n) >= 0 &&
                    dot(cross(a - c, q - c), n) >= 0;
    double d = in ? std::abs(dot(p - a, n)) : 1e300;
    for (const auto& [u, v] : {std::pair{a, b}, std::pair{b, c}, std::pair{c, a}}) {
      const double t = std::clamp(dot(p - u, v - u) / dot(v - u, v - u), 0.0, 1.0);
      d = std::min(d, norm(p - (u + (v - u) * t)));
    }
    best = std::min(best, d);
  }
  return best;
}
// Ray parity along +x (the body has no face parallel to x at these points in practice).
bool brute_inside(const TriangleMesh& m, const Vec3& p) {
  int crossings = 0;
  const Vec3 d = normalized(Vec3{1, 0.0123, 0.0071});
  for (const Triangle& f : m.faces) {
    const Vec3 a = m.positions[f[0]], e1 = m.positions[f[1]] - a, e2 = m.positions[f[2]] - a;
    const Vec3 h = cross(d, e2);
    const double det = dot(e1, h);
    if (std::abs(det) < 1e-18) continue;
    const Vec3 s = p - a;
    const double u = dot(s, h) / det;
    const Vec3 q = cross(s, e1);
    const double v = dot(d, q) / det;
    if (u < 0 || v < 0 || u + v > 1) continue;
    if (dot(e2, q) / det > 0) ++crossings;
  }
  return crossings % 2 == 1;
}

TriangleMesh transformed(const TriangleMesh& m, const Vec3& scale, const Vec3& shift) {
  TriangleMesh t = m;
  for (Vec3& p : t.positions) p = Vec3{p.x * scale.x, p.y * scale.y, p.z * scale.z} + shift;
  return t;
}
}  // namespace

TEST(Landmarks, FoundOnTheMakeHumanBodyAndPlausible) {
  const auto L = find_body_landmarks(body());
  EXPECT_GE(L.size(), 30u);
  auto get = [&](const std::string& n) {
    for (const auto& l : L)
      if (l.name == n) return l.position;
    ADD_FAILURE() << "missing " << n;
    return Vec3{};
  };
  const double floor = -0.8168;
  EXPECT_NEAR(get("sole_l").y, floor, 0.01);
  EXPECT_GT(get("head_top").y, 0.8);
  // Anatomical order from the floor up.
  EXPECT_LT(get("ankle_l").y, get("knee_l").y);
  EXPECT_LT(get("knee_l").y, get("crotch").y);
  EXPECT_LT(get("crotch").y, get("armpit_l").y);
  EXPECT_LT(get("armpit_l").y, get("shoulder_l").y);
  EXPECT_LT(get("shoulder_l").y, get("head_top").y);
  EXPECT_GT(get("armpit_l").x, 0);
  EXPECT_LT(get("armpit_r").x, 0);
  EXPECT_NEAR(get("armpit_l").x, -get("armpit_r").x, 0.01);  // symmetric body
  EXPECT_GT(get("chest_front").z, get("chest_back").z);
}

TEST(Fit, ToTheTemplateItselfLeavesEveryJointWhereItWas) {
  const Skeleton& s = mh_skeleton("default").skeleton;
  const SkeletonFit fit = fit_skeleton(s, body(), body());
  for (std::size_t b = 0; b < s.size(); ++b) {
    EXPECT_LT(norm(fit.skeleton.bones[b].head - s.bones[b].head), 1e-9) << s.bones[b].name;
    EXPECT_LT(norm(fit.skeleton.bones[b].tail - s.bones[b].tail), 1e-9) << s.bones[b].name;
  }
  EXPECT_GT(fit.count(JointFitPath::surface_ray), 0);
  EXPECT_GT(fit.count(JointFitPath::interior_two_sided), 0);
}

TEST(Fit, NonUniformScaleAndTranslationPutJointsNearTheTransformedTruth) {
  const Vec3 scale{1.12, 0.93, 1.2}, shift{0.3, -0.1, 0.25};
  const TriangleMesh target = transformed(body(), scale, shift);
  const double height = target.bounds().extent().y;
  for (const std::string name : {"default", "cmu_mb"}) {
    const Skeleton& s = mh_skeleton(name).skeleton;
    const SkeletonFit fit = fit_skeleton(s, body(), target);
    double worst = 0;
    for (std::size_t b = 0; b < s.size(); ++b)
      for (const auto& [got, rest] : {std::pair{fit.skeleton.bones[b].head, s.bones[b].head},
                                      std::pair{fit.skeleton.bones[b].tail, s.bones[b].tail}}) {
        const Vec3 truth = Vec3{rest.x * scale.x, rest.y * scale.y, rest.z * scale.z} + shift;
        worst = std::max(worst, norm(got - truth));
      }
    RecordProperty("worst_error_" + name, std::to_string(worst / height));
    EXPECT_LT(worst, 0.01 * height) << name;
    // Surface joints on the surface, interior joints inside (independent brute-force checks).
    int surface = 0, interior = 0;
    for (const auto& v : {fit.heads, fit.tails})
      for (const JointFit& j : v) {
        if (j.path == JointFitPath::surface_ray || j.path == JointFitPath::surface_closest_point) {
          EXPECT_LT(brute_distance(target, j.j2), 1e-6);
          ++surface;
        } else if (j.path == JointFitPath::interior_two_sided) {
          EXPECT_TRUE(brute_inside(target, j.j2));
          ++interior;
        }
      }
    if (name == "default") {
      EXPECT_GT(surface, 0);
    }
    EXPECT_GT(interior, 0);
  }
}

TEST(Fit, RayFromInsideFallsBackToTheClosestPoint) {
  // A surface joint on the belly; the map shoves it 8 cm into the torso, so p_aux is inside R_m.
  const TriangleMesh& m = body();
  int front = -1;
  for (std::size_t v = 0; v < m.vertex_count(); ++v) {
    const Vec3& p = m.positions[v];
    if (std::abs(p.x) < 0.03 && p.y > 0.1 && p.y < 0.3 && (front < 0 || p.z > m.positions[front].z))
      front = static_cast<int>(v);
  }
  ASSERT_GE(front, 0);
  const Vec3 on_surface = m.positions[front];
  const std::vector<Vec3> from{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const RbfMap id(from, from);
  const auto fits = fit_points(m, m, id, {on_surface}, {});
  EXPECT_EQ(fits[0].path, JointFitPath::surface_ray);
  EXPECT_LT(norm(fits[0].j2 - on_surface), 1e-9);
  std::vector<Vec3> moved;
  for (const Vec3& p : from) moved.push_back(p + Vec3{0, 0, -0.08});
  const RbfMap shove(from, moved);
  const auto f2 = fit_points(m, m, shove, {on_surface}, {.ray_offset = 0.01});
  EXPECT_EQ(f2[0].path, JointFitPath::surface_closest_point);
  EXPECT_LT(brute_distance(m, f2[0].j2), 1e-9);
}

TEST(RbfMap, ReproducesAffineMapsAndInterpolatesLandmarks) {
  std::vector<Vec3> a, b;
  for (int i = 0; i < 12; ++i) {
    const Vec3 p{std::sin(i * 1.3), std::cos(i * 0.7), std::sin(i * 2.1 + 1)};
    a.push_back(p);
    b.push_back(Vec3{2 * p.x + 0.1 * p.y, p.y - p.z, 3 * p.z} + Vec3{1, 2, 3});
  }
  const RbfMap m(a, b);
  const Vec3 q{0.2, -0.4, 0.1};
  EXPECT_NEAR(norm(m(q) - (Vec3{2 * q.x + 0.1 * q.y, q.y - q.z, 3 * q.z} + Vec3{1, 2, 3})), 0, 1e-9);
  b[3] += Vec3{0.1, 0, 0};
  const RbfMap m2(a, b);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(norm(m2(a[i]) - b[i]), 0, 1e-9);
  EXPECT_THROW(
      RbfMap({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}),
      InvalidInput);
}

namespace {
TriangleMesh closed_cylinder(double r, double len, int rings, int segs) {
  TriangleMesh m;
  for (int i = 0; i <= rings; ++i)
    for (int s = 0; s < segs; ++s) {
      const double a = 2 * std::numbers::pi * s / segs;
      m.positions.push_back({r * std::cos(a), len * i / rings, r * std::sin(a)});
    }
  for (int i = 0; i < rings; ++i)
    for (int s = 0; s < segs; ++s) {
      const int a = i * segs + s, b = i * segs + (s + 1) % segs;
      m.faces.push_back({a, a + segs, b});
      m.faces.push_back({b, a + segs, b + segs});
    }
  const int lo = static_cast<int>(m.positions.size());
  m.positions.push_back({0, 0, 0});
  m.positions.push_back({0, len, 0});
  for (int s = 0; s < segs; ++s) {
    m.faces.push_back({lo, s, (s + 1) % segs});
    m.faces.push_back({lo + 1, rings * segs + (s + 1) % segs, rings * segs + s});
  }
  return m;
}
}  // namespace

TEST(Fit, InteriorJointsMidpointOrKeptFractionOnACylinder) {
  // Off-centre joint inside a 64-gon cylinder, towards the middle of a face: the
  // two-sided cast runs through the axis from face centre to opposite face centre.
  const TriangleMesh c = closed_cylinder(0.1, 1.0, 8, 64);
  const std::vector<Vec3> from{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const RbfMap id(from, from);
  const double th = std::numbers::pi / 64;
  const Vec3 j{0.03 * std::cos(th), 0.45, 0.03 * std::sin(th)};
  for (auto dir : {InteriorDirection::mapped_template_normal, InteriorDirection::target_normal}) {
    FitOptions o;
    o.interior_direction = dir;
    o.interior = InteriorPlacement::midpoint;
    const auto mid = fit_points(c, c, id, {j}, o);
    ASSERT_EQ(mid[0].path, JointFitPath::interior_two_sided);
    EXPECT_LT(norm(mid[0].j2 - Vec3{0, 0.45, 0}), 1e-12);  // middle of entry (-0.1) and exit (+0.1)
    o.interior = InteriorPlacement::keep_fraction;
    const auto keep = fit_points(c, c, id, {j}, o);
    EXPECT_LT(norm(keep[0].j2 - j), 1e-12);
  }
  // A mapped joint that leaves the target body falls back to the closest point.
  std::vector<Vec3> out;
  for (const Vec3& p : from) out.push_back(p + Vec3{0.5, 0, 0});
  const auto f = fit_points(c, c, RbfMap(from, out), {j}, {});
  EXPECT_EQ(f[0].path, JointFitPath::interior_closest_point);
  EXPECT_NEAR(f[0].j2.x, 0.1, 1e-12);
}

TEST(Fit, SmoothNonAffineMorphFollowsMakeHumanGroundTruth) {
  // Morph every base.obj vertex (body and helper cubes alike) by a smooth
  // non-affine field: a wider waist and hips, longer legs. MakeHuman's ground
  // truth for the morphed body is the centroid of the same vertex ids.
  auto morph = [](const Vec3& p) {
    const double waist = 0.15 * std::exp(-std::pow((p.y - 0.1) / 0.25, 2));
    const double legs = p.y < -0.05 ? 1.08 * (p.y + 0.05) - 0.05 : p.y;
    return Vec3{p.x * (1 + waist), legs, p.z * (1 + 0.5 * waist)};
  };
  std::vector<Vec3> all = base_vertices();
  for (Vec3& p : all) p = morph(p);
  TriangleMesh target = body();
  for (std::size_t v = 0; v < target.vertex_count(); ++v) target.positions[v] = all[target.source_vertex[v]];
  const double h = target.bounds().extent().y;
  for (const std::string name : {"cmu_mb", "game_engine"}) {
    const MakeHumanSkeleton& mh = mh_skeleton(name);
    const Skeleton truth = place_mhskel(mh, all);
    const SkeletonFit fit = fit_skeleton(mh.skeleton, body(), target);
    double worst = 0, sum = 0;
    for (std::size_t b = 0; b < truth.size(); ++b) {
      const double e = norm(fit.skeleton.bones[b].head - truth.bones[b].head);
      worst = std::max(worst, e);
      sum += e;
    }
    RecordProperty("morph_mean_error_of_height_" + name, std::to_string(sum / truth.size() / h));
    RecordProperty("morph_worst_error_of_height_" + name, std::to_string(worst / h));
    EXPECT_LT(sum / truth.size(), 0.005 * h) << name;
    EXPECT_LT(worst, 0.01 * h) << name;
  }
}

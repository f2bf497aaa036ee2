// Measurements of the MakeHuman bodies: their order, their invariance to
// where the body stands and to scale, and the height against the vertices.

#include "drape/body/body_measurements.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "drape/body/macro_targets.h"
#include "drape/body/morphed_obj.h"
#include "drape/io/mesh_io.h"
#include "drape/rig/makehuman.h"

namespace fs = std::filesystem;
using namespace drape;

namespace {
const fs::path kBase = fs::path(DRAPE_DATA_DIR) / "bodies/makehuman/base.obj";
const fs::path kTargets = fs::path(DRAPE_DATA_DIR) / "bodies/makehuman/targets";

const MorphableBody& base_body() {
  static MorphableBody b = load_morphable_body(kBase);
  return b;
}
}  // namespace

TEST(BodyMeasurements, DefaultBodyIsPlausibleAndOrdered) {
  const TriangleMesh& body = base_body().body;
  const BodyMeasurements m = measure_body(body);
  EXPECT_NEAR(m.height, body.bounds().extent().y, 1e-12);
  // An adult of 1.67 m: girths within anthropometric ranges.
  EXPECT_GT(m.waist, 0.55);
  EXPECT_LT(m.waist, m.hip);
  EXPECT_LT(m.waist, m.bust);
  EXPECT_LT(m.hip, 1.2);
  EXPECT_GT(m.neck, 0.25);
  EXPECT_LT(m.neck, 0.45);
  EXPECT_GT(m.head, 0.5);
  EXPECT_LT(m.head, 0.65);
  EXPECT_GT(m.thigh, 0.4);
  EXPECT_LT(m.thigh, 0.7);
  EXPECT_GT(m.upper_arm, 0.2);
  EXPECT_LT(m.upper_arm, 0.4);
  EXPECT_GT(m.inseam, 0.40 * m.height);
  EXPECT_LT(m.inseam, 0.50 * m.height);
  // Levels: hip below waist below bust.
  EXPECT_LT(m.hip_y, m.waist_y);
  EXPECT_LT(m.waist_y, m.bust_y);
}

TEST(BodyMeasurements, MovedAndScaledBodyScalesEveryMeasure) {
  const BodyMeasurements a = measure_body(base_body().body);
  TriangleMesh moved = base_body().body;
  moved.scale(1.1);
  moved.translate({0.3, 1.0, -0.2});
  const BodyMeasurements b = measure_body(moved);
  for (auto [x, y] : {std::pair{a.height, b.height},
                      {a.bust, b.bust},
                      {a.waist, b.waist},
                      {a.hip, b.hip},
                      {a.neck, b.neck},
                      {a.inseam, b.inseam},
                      {a.thigh, b.thigh}})
    EXPECT_NEAR(y, 1.1 * x, 0.005 * x);
  EXPECT_NEAR(b.arm_length, 1.1 * a.arm_length, 0.02 * a.arm_length);
}

TEST(BodyMeasurements, HeightOfShortAndTallBodiesIsTheVerticesExtent) {
  const MorphableBody& mb = base_body();
  MacroTargets t(kTargets, mb.base.size(), 0.1);
  for (double h : {0.0, 1.0}) {
    MacroValues v;
    v.height = h;
    const std::vector<Vec3> all = t.apply(mb.base, v);
    double lo = 1e9, hi = -1e9;
    for (int i = 0; i < 13380; ++i) {  // MakeHuman's body vertices (README)
      lo = std::min(lo, all[i].y);
      hi = std::max(hi, all[i].y);
    }
    const BodyMeasurements m = measure_body(mb.body_at(all));
    EXPECT_NEAR(m.height, hi - lo, 1e-9) << "height " << h;
    EXPECT_LT(m.waist, m.hip);
  }
}

TEST(BodyMeasurements, HeavierBodyHasLargerGirths) {
  const MorphableBody& mb = base_body();
  MacroTargets t(kTargets, mb.base.size(), 0.1);
  MacroValues thin, heavy;
  thin.weight = 0;
  heavy.weight = 1;
  const BodyMeasurements a = measure_body(mb.body_at(t.apply(mb.base, thin)));
  const BodyMeasurements b = measure_body(mb.body_at(t.apply(mb.base, heavy)));
  EXPECT_GT(b.waist, a.waist + 0.05);
  EXPECT_GT(b.hip, a.hip + 0.03);
  EXPECT_GT(b.bust, a.bust + 0.03);
}

TEST(BodyMeasurements, ArmLengthFollowsMakeHumansArmBones) {
  // MakeHuman's skeleton places the shoulder, elbow and wrist joints as
  // centroids of vertices: the arm's bone chain, shoulder to wrist, is an
  // independent arm length. Our shoulder point is estimated from slices (a
  // little inboard of the joint), so the two agree within 6 %.
  const MorphableBody& mb = base_body();
  MacroTargets t(kTargets, mb.base.size(), 0.1);
  for (double g : {0.0, 1.0}) {
    MacroValues v;
    v.gender = g;
    const std::vector<Vec3> all = t.apply(mb.base, v);
    const MakeHumanSkeleton mh =
        read_mhskel(fs::path(DRAPE_DATA_DIR) / "bodies/makehuman/default.mhskel", mb.base);
    const Skeleton sk = place_mhskel(mh, all);
    double bones = 0;
    for (const char* name : {"upperarm01.L", "upperarm02.L", "lowerarm01.L", "lowerarm02.L"}) {
      const int b = sk.find(name);
      ASSERT_GE(b, 0) << name;
      bones += norm(sk.bones[b].tail - sk.bones[b].head);
    }
    const BodyMeasurements m = measure_body(mb.body_at(all));
    EXPECT_NEAR(m.arm_length, bones, 0.06 * bones) << "gender " << g;
  }
}

namespace {
// GarmentCode's own measurements of its bodies (the .yaml beside each, cm).
std::map<std::string, double> garmentcode_measures(const fs::path& yaml) {
  std::map<std::string, double> out;
  std::ifstream in(yaml);
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos || line.find_first_not_of(' ') != 2) continue;
    out[line.substr(2, colon - 2)] = std::stod(line.substr(colon + 1));
  }
  return out;
}
}  // namespace

TEST(BodyMeasurements, MatchGarmentCodesOwnMeasuresOfItsBodies) {
  // Another tool's measures of two bodies that are not MakeHuman's (one
  // group-less OBJ in metres each, an A-pose and a T-pose).
  for (const char* name : {"mean_female", "mean_all_tpose"}) {
    const fs::path dir = fs::path(DRAPE_DATA_DIR) / "bodies/garmentcode";
    const auto want = garmentcode_measures(dir / (std::string(name) + ".yaml"));
    ASSERT_EQ(want.count("bust"), 1u) << name;
    const BodyMeasurements m = measure_body(read_mesh(dir / (std::string(name) + ".obj")).mesh, name);
    EXPECT_NEAR(m.height * 100, want.at("height"), 0.005 * want.at("height")) << name;
    EXPECT_NEAR(m.bust * 100, want.at("bust"), 0.015 * want.at("bust")) << name;
    EXPECT_NEAR(m.waist * 100, want.at("waist"), 0.015 * want.at("waist")) << name;
    EXPECT_NEAR(m.hip * 100, want.at("hips"), 0.015 * want.at("hips")) << name;
    if (std::string(name) == "mean_female") {  // A-pose; the T-pose's arm and thigh differ more (docs)
      EXPECT_NEAR(m.arm_length * 100, want.at("arm_length"), 0.03 * want.at("arm_length"));
      EXPECT_NEAR(m.thigh * 100, want.at("leg_circ"), 0.03 * want.at("leg_circ"));
    }
  }
}

namespace {
// Brute force, independent of mesh_section: every body edge crossing the
// plane y = level gives a point; the points are split into clusters where
// their x-coordinates leave a gap of 2 cm (air between torso and arms); the
// cluster around the centre line is taped by gift wrapping.
double brute_force_torso_girth(const TriangleMesh& m, double level, double centre_x) {
  std::vector<Vec2> pts;
  for (const Triangle& t : m.faces)
    for (int k = 0; k < 3; ++k) {
      const Vec3 &a = m.positions[t[k]], &b = m.positions[t[(k + 1) % 3]];
      if ((a.y < level) == (b.y < level)) continue;
      const double s = (level - a.y) / (b.y - a.y);
      pts.push_back({a.x + s * (b.x - a.x), a.z + s * (b.z - a.z)});
    }
  std::sort(pts.begin(), pts.end(), [](Vec2 p, Vec2 q) { return p.x < q.x; });
  std::size_t lo = 0;
  std::vector<Vec2> torso;
  for (std::size_t i = 1; i <= pts.size(); ++i)
    if (i == pts.size() || pts[i].x - pts[i - 1].x > 0.02) {
      if (pts[lo].x <= centre_x && centre_x <= pts[i - 1].x) torso.assign(pts.begin() + lo, pts.begin() + i);
      lo = i;
    }
  // Gift wrapping from the leftmost point.
  std::size_t start = 0;
  for (std::size_t i = 1; i < torso.size(); ++i)
    if (torso[i].x < torso[start].x) start = i;
  double perimeter = 0;
  std::size_t cur = start;
  do {
    std::size_t next = (cur + 1) % torso.size();
    for (std::size_t i = 0; i < torso.size(); ++i) {
      const Vec2 u = torso[next] - torso[cur], v = torso[i] - torso[cur];
      const double c = u.x * v.y - u.y * v.x;
      if (c < 0 || (c == 0 && norm(v) > norm(u))) next = i;
    }
    perimeter += norm(torso[next] - torso[cur]);
    cur = next;
  } while (cur != start && perimeter < 100);
  return perimeter;
}
}  // namespace

TEST(BodyMeasurements, TorsoGirthsEqualABruteForceTape) {
  const MorphableBody& mb = base_body();
  MacroTargets t(kTargets, mb.base.size(), 0.1);
  for (double g : {0.0, 1.0}) {
    MacroValues v;
    v.gender = g;
    v.weight = g;
    const TriangleMesh body = mb.body_at(t.apply(mb.base, v));
    const BodyMeasurements m = measure_body(body);
    const double floor = body.bounds().min.y;
    EXPECT_NEAR(m.waist, brute_force_torso_girth(body, floor + m.waist_y, m.frame.centre_x), 1e-6) << g;
    EXPECT_NEAR(m.hip, brute_force_torso_girth(body, floor + m.hip_y, m.frame.centre_x), 1e-6) << g;
    EXPECT_NEAR(m.bust, brute_force_torso_girth(body, floor + m.bust_y, m.frame.centre_x), 1e-6) << g;
  }
}

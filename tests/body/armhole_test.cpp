// The armhole: the fit check's armhole level and grading's deepening,
// checked against independent answers:
// - the armhole of the shipped shirt (sleeves sewn in) placed on MakeHuman is
//   the pattern length of the torso edges sewn to one sleeve, summed over
//   the stitches (not through boundary loops); a skirt has none;
// - deepening two torso panels (straight side seams, armholes cut in,
//   shoulders) by d moves only the underarm corners, down by d: the side
//   seams shorten by d, both alike, the armhole edges become the segments
//   from the shoulder ends to the new corners, and the armhole measured as
//   the fit check does is the sum of those lengths;
// - the shipped GPG jacket (37.5 cm armholes) on the Godot man (37.3 cm
//   upper arm) is found too small at the armhole, and grade_to_body deepens
//   it to the armhole's need, measured again on the placed mesh.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "drape/body/armhole_deepening.h"
#include "drape/body/body_grading.h"
#include "drape/body/body_loader.h"
#include "drape/pattern/alias.h"
#include "drape/pattern/boundary_loops.h"
#include "drape/pattern/mesher.h"
#include "drape/pattern/pattern_io.h"
#include "drape/pattern/placement.h"

namespace drape {
namespace {

const std::string kData = DRAPE_DATA_DIR;

bool is_sleeve_panel(const Panel& p) {
  const AliasPart part = parse_alias(p.alias).part;
  return part == AliasPart::sleeve || part == AliasPart::cuff;
}

// Per side of the body (0: +x, 1: -x), the summed pattern length of the
// torso edges sewn to a sleeve on that side, the side read from the sleeve
// panel's placed vertices.
std::array<double, 2> armholes_by_stitches(const Pattern& pat, const PatternMesh& pm, double centre_x) {
  std::array<double, 2> sum{0, 0};
  for (const Stitch& st : pat.stitches)
    for (const auto& [torso, sleeve] : {std::pair{st.a, st.b}, std::pair{st.b, st.a}}) {
      if (!goes_round_torso(pat.panels[static_cast<std::size_t>(torso.panel)]) ||
          !is_sleeve_panel(pat.panels[static_cast<std::size_t>(sleeve.panel)]))
        continue;
      double x = 0;
      const PanelMeshRange& r = pm.panels[static_cast<std::size_t>(sleeve.panel)];
      for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v)
        x += pm.garment.mesh.positions[static_cast<std::size_t>(v)].x;
      const int side = x / r.vertex_count > centre_x ? 0 : 1;
      sum[static_cast<std::size_t>(side)] +=
          edge_length(pat.panels[static_cast<std::size_t>(torso.panel)], torso.edge);
    }
  return sum;
}

TEST(Armhole, TheTorsosBoundaryRunsRoundEachArmWhereTheSleeveIsSewn) {
  const Body body = load_body(kData + "/bodies/makehuman/base.obj");
  const BodyFrame frame = analyse_body(body.mesh);
  const Pattern shirt = load_pattern(kData + "/patterns/garmentcode/shirt_mean_specification.json");
  MeshingOptions mo;
  mo.particle_distance = 0.03;
  PatternMesh pm = mesh_pattern(shirt, mo);
  place_on_body(shirt, pm, body.mesh, frame);
  const std::array<double, 2> expected = armholes_by_stitches(shirt, pm, frame.centre_x);
  ASSERT_GT(expected[0], 0.3);
  ASSERT_GT(expected[1], 0.3);
  double height = 0;
  const double armhole = armhole_girth(shirt, pm, frame, &height);
  // Pattern lengths of the same edges, sampled by the mesher: within 1 %.
  EXPECT_NEAR(armhole, std::min(expected[0], expected[1]), 0.01 * armhole);
  // Its lowest point is the underarm corner: between the waist and the shoulders.
  EXPECT_GT(height, frame.waist_y - frame.floor_y);
  EXPECT_LT(height, frame.shoulder_y - frame.floor_y);

  const Pattern skirt = load_pattern(kData + "/patterns/gpg/skirt_2_panels.json");
  PatternMesh sm = mesh_pattern(skirt, mo);
  place_on_body(skirt, sm, body.mesh, frame);
  EXPECT_EQ(armhole_girth(skirt, sm, frame), 0.0);
}

// Two 0.4 x 0.6 m torso panels, front and back, placed upright from 0.9 to
// 1.5 m, the back seen from behind (turned half round y: its left side is
// the body's right); the top 0.2 m of each side is cut in 0.05 m (the
// armhole), the shoulders run from x = +-0.15 to +-0.1 at the top. Sewn
// edges pair end to end (GarmentCode's convention): the front's right side
// with the back's left, and so on.
struct Bodice {
  Pattern pattern;
  BodyFrame frame;
  std::vector<RigidTransform> placed{{Mat3::identity(), {0, 0.9, 0.1}},
                                     {Mat3::rotation_y(std::numbers::pi), {0, 0.9, -0.1}}};
  Bodice() {
    auto panel = [](const std::string& name, const std::string& alias) {
      Panel p;
      p.name = name;
      p.alias = alias;
      // hem, right side, armhole (in), right shoulder, neck, left shoulder, armhole, left side
      p.vertices = {{-0.2, 0},  {0.2, 0},    {0.2, 0.4},   {0.15, 0.6},
                    {0.1, 0.6}, {-0.1, 0.6}, {-0.15, 0.6}, {-0.2, 0.4}};
      for (int i = 0; i < 8; ++i) p.edges.push_back({i, (i + 1) % 8});
      return p;
    };
    pattern.name = "bodice";
    pattern.panels = {panel("front", "front"), panel("back", "back")};
    // Side seams (edges 1 and 7), shoulders (edges 3 and 5).
    pattern.stitches = {Stitch{{0, 1}, {1, 7}}, Stitch{{0, 7}, {1, 1}}, Stitch{{0, 3}, {1, 5}},
                        Stitch{{0, 5}, {1, 3}}};
    validate_pattern(pattern);
    frame.floor_y = 0;
    frame.shoulder_y = 1.5;
  }
};

TEST(Armhole, DeepeningLowersTheUnderarmCornersAndNothingElse) {
  const Bodice b;
  BodyFrame frame = b.frame;
  frame.centre_x = 0;
  frame.torso_half_width = 0.2;
  frame.chest_y = 1.2;
  constexpr double kDrop = 0.08;
  const GradingResult r = deepen_armholes(b.pattern, b.placed, frame, kDrop);
  ASSERT_TRUE(r.graded);
  EXPECT_EQ(r.graded_panels, (std::vector<int>{0, 1}));
  for (std::size_t p = 0; p < 2; ++p) {
    const Panel& before = b.pattern.panels[p];
    const Panel& after = r.pattern.panels[p];
    ASSERT_EQ(after.vertices.size(), before.vertices.size());
    for (std::size_t v = 0; v < before.vertices.size(); ++v) {
      const bool corner = v == 2 || v == 7;  // the sides' tops, where the armholes end
      const Vec2 want = before.vertices[v] - Vec2{0, corner ? kDrop : 0.0};
      EXPECT_NEAR(norm(after.vertices[v] - want), 0.0, 1e-12) << after.name << " vertex " << v;
    }
    // The side seams shorten by the drop and stay straight; the armhole
    // edges run from the same shoulder ends to the lowered corners.
    EXPECT_EQ(after.edges[1].curve, EdgeCurve::line);
    EXPECT_NEAR(edge_length(after, 1), 0.4 - kDrop, 1e-12);
    EXPECT_NEAR(edge_length(after, 7), 0.4 - kDrop, 1e-12);
    EXPECT_NEAR(edge_length(after, 2), std::hypot(0.05, 0.2 + kDrop), 1e-12);
    EXPECT_NEAR(edge_length(after, 6), std::hypot(0.05, 0.2 + kDrop), 1e-12);
  }
  EXPECT_LT(r.max_seam_mismatch, 1e-12);
  // The rigid placement's armholes, measured as the fit check does: longer by
  // the two armhole edges' growth.
  MeshingOptions mo;
  mo.particle_distance = 0.02;
  auto rigid_armhole = [&](const Pattern& pat) {
    PatternMesh pm = mesh_pattern(pat, mo);
    for (std::size_t p = 0; p < 2; ++p)
      for (int v = pm.panels[p].first_vertex; v < pm.panels[p].first_vertex + pm.panels[p].vertex_count;
           ++v) {
        const Vec2 uv = pm.garment.mesh.uvs[static_cast<std::size_t>(v)];
        pm.garment.mesh.positions[static_cast<std::size_t>(v)] = b.placed[p](Vec3{uv.x, uv.y, 0});
      }
    return armhole_girth(pat, pm, frame);
  };
  EXPECT_NEAR(rigid_armhole(b.pattern), 2 * std::hypot(0.05, 0.2), 1e-9);
  EXPECT_NEAR(rigid_armhole(r.pattern), 2 * std::hypot(0.05, 0.2 + kDrop), 1e-9);
}

TEST(Armhole, TheJacketOnTheGodotManIsDeepenedToTheArmsNeed) {
  const Body body = load_body(kData + "/bodies/godot_male_base_mesh/male_base_mesh.glb");
  const BodyMeasurements bm = measure_body(body.mesh, "male_base_mesh.glb");
  const Pattern jacket = load_pattern(kData + "/patterns/gpg/jacket.json");
  constexpr double kPd = 0.03;
  const GarmentFitOptions fit_options;
  const double need = fit_options.armhole_per_upper_arm * bm.upper_arm;
  const FitReport before = fit_on_body(jacket, body.mesh, bm, kPd);
  const auto armhole = [](const FitReport& f) {
    for (const GirthFit& g : f.girths)
      if (g.name == "armhole") return g;
    return GirthFit{};
  };
  ASSERT_TRUE(armhole(before).too_small);
  EXPECT_NEAR(armhole(before).body, need, 1e-12);
  const BodyGrading g = grade_to_body(jacket, body.mesh, bm, kPd);
  ASSERT_TRUE(g.grading.graded);
  double drop = 0;
  for (const GradeLevel& l : g.grading.levels)
    if (l.name == "armhole") drop = l.drop;
  EXPECT_GT(drop, 0.02);
  EXPECT_LE(drop, kMaxArmholeDrop);
  // Measured again on the graded garment as placed: at least the need.
  const FitReport after = fit_on_body(g.grading.pattern, body.mesh, bm, kPd);
  EXPECT_GE(armhole(after).garment, need * (1 - kGradingGirthTolerance));
  EXPECT_FALSE(armhole(after).too_small);
  // The deepening alone (grading's first phase): the sleeves follow their
  // deeper armholes and every seam still matches. (The girths graded after
  // it may part them further.)
  std::vector<RigidTransform> transforms;
  fit_on_body(jacket, body.mesh, bm, kPd, &transforms);
  const GradingResult d = deepen_armholes(jacket, transforms, bm.frame, drop);
  ASSERT_TRUE(d.graded);
  EXPECT_LT(d.max_seam_mismatch, kGradingSeamTolerance);
  // The torso panels and the four sleeve halves changed.
  EXPECT_EQ(d.graded_panels.size(), jacket.panels.size());
}

}  // namespace
}  // namespace drape

// Warp, weft and bias: the strip tensile test per direction against the
// fabric file's moduli, the edge springs against Y(theta), and a square hung
// by a corner whose drape follows its grain line (docs/FABRICS.md, "Warp,
// weft and bias").
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "drape/cloth/cloth_model.h"
#include "drape/fabric_lab/specimen.h"
#include "drape/fabric_lab/tensile.h"
#include "fabric_test_files.h"

namespace drape {
namespace {

constexpr double kPi = 3.14159265358979323846;

TEST(Grain, TensileCurvePerDirectionMatchesTheFabricFile) {
  const Fabric f = test::woven_fabric();
  const double expected[] = {15600, 8400, 5000};
  int i = 0;
  for (TensileDirection d : {TensileDirection::warp, TensileDirection::weft, TensileDirection::bias}) {
    TensileOptions o;
    o.direction = d;
    o.particle_distance = 0.02;               // the strip's springs, not its resolution, carry the modulus
    o.stretch_model = StretchModel::springs;  // the triangle model: TriangleStretch.*
    o.strains = {0.01, 0.03};
    const TensileResult r = tensile_test(f, o);
    EXPECT_EQ(r.modulus, expected[i]) << r.direction;
    for (const TensilePoint& p : r.points)
      EXPECT_NEAR(p.force_per_width / (expected[i] * p.strain), 1, 0.02) << r.direction << " " << p.strain;
    ++i;
  }
}

TEST(Grain, EdgeSpringsFollowTheirAngleToThePanelGrain) {
  // k = 3 Y(theta) A_e / L^2 (uniaxial mapping) with theta the edge's angle to
  // the grain in the panel's rest frame; turning the rest frame and the grain
  // together changes nothing (the grain belongs to the panel, not the world).
  const Fabric f = test::woven_fabric();
  GarmentMesh s = equilateral_strip_specimen(0.1, 10, 4);
  s.panel_grain = {0.3};
  ClothModelOptions mo;
  mo.stretch = StretchMapping::uniaxial;
  mo.bending = BendingModel::none;
  const ClothModel m = build_cloth_model(s, f, mo);
  GarmentMesh turned = s;
  const double t = 1.1;
  for (Vec2& p : turned.rest)
    p = {std::cos(t) * p.x - std::sin(t) * p.y, std::sin(t) * p.x + std::cos(t) * p.y};
  turned.panel_grain = {0.3 + t};
  const ClothModel mt = build_cloth_model(turned, f, mo);
  const ClothModel iso = build_cloth_model(s, fabric_preset("cotton"), mo);
  ASSERT_EQ(m.spring_a.size(), mt.spring_a.size());
  const Vec2 grain{-std::sin(0.3), std::cos(0.3)};
  int off_iso = 0;
  for (std::size_t e = 0; e < m.spring_a.size(); ++e) {
    const Vec2 a = s.rest[m.spring_a[e]], b = s.rest[m.spring_b[e]];
    const double dx = b.x - a.x, dy = b.y - a.y, L = std::hypot(dx, dy);
    const double theta = std::acos(std::min(1.0, std::abs(dx * grain.x + dy * grain.y) / L));
    // Y(theta) through warp, bias and weft, written out independently.
    const double w = 15600, wf = 8400, bi = 5000;
    const double y = (w + wf) / 4 + bi / 2 + (w - wf) / 2 * std::cos(2 * theta) +
                     ((w + wf) / 4 - bi / 2) * std::cos(4 * theta);
    EXPECT_NEAR(m.spring_stiffness[e] / iso.spring_stiffness[e], y / 12000, 1e-9) << e;
    EXPECT_NEAR(mt.spring_stiffness[e], m.spring_stiffness[e], 1e-9 * m.spring_stiffness[e]) << e;
    if (std::abs(y / 12000 - 1) > 0.05) ++off_iso;
  }
  EXPECT_GT(off_iso, 0);
}

// A square of side 0.2 m hung by one corner, its diagonal vertical, in the
// x-y plane (gravity -y): the grain at `grain` radians in the square's rest
// frame, the rest frame turned by `frame_turn`. Returns the settled positions.
std::vector<Vec3> hang_square(const Fabric& fabric, double grain, double frame_turn = 0,
                              StretchModel model = StretchModel::springs) {
  GarmentMesh g = strip_specimen(0, 0.2, 0.2, 12, 12);
  for (std::size_t v = 0; v < g.rest.size(); ++v) {
    const Vec2 r = g.rest[v];
    g.mesh.positions[v] = {(r.x - r.y) / std::sqrt(2.0), -(r.x + r.y) / std::sqrt(2.0), 0};
    g.rest[v] = {std::cos(frame_turn) * r.x - std::sin(frame_turn) * r.y,
                 std::sin(frame_turn) * r.x + std::cos(frame_turn) * r.y};
  }
  g.panel_grain = {grain + frame_turn};
  ClothSettings s = lab_settings(8, false);
  s.substeps = 20;
  s.pinned = {0};  // the corner at the origin (rest (0, 0))
  s.model.stretch_model = model;
  ClothSimulation sim(g, TriangleMesh{}, {}, lab_fabric(fabric), s);
  settle(sim, 600, 1e-7);
  return sim.positions();
}

double lowest(const std::vector<Vec3>& x) {
  double y = 0;
  for (const Vec3& p : x) y = std::min(y, p.y);
  return y;
}

TEST(Grain, SquareHungByACornerDrapesByItsGrain) {
  // Soft enough to stretch visibly under its own weight; bias much softer
  // than warp and weft, as in woven cloth.
  Fabric f = fabric_preset("cotton");
  f.stretch = 600;
  f.stretch_weft = 300;
  f.stretch_bias = 40;
  // The vertical diagonal is the rest direction (1, 1): at 45 degrees to a
  // grain along +y (bias hangs), along a grain at -45 degrees (warp hangs),
  // across one at +45 degrees (weft hangs).
  const double bias_hangs = lowest(hang_square(f, 0));
  const double warp_hangs = lowest(hang_square(f, -kPi / 4));
  const double weft_hangs = lowest(hang_square(f, kPi / 4));
  const double diagonal = 0.2 * std::sqrt(2.0);
  std::printf("lowest point: warp hangs %.5f m, weft %.5f m, bias %.5f m (rest diagonal %.5f m)\n",
              warp_hangs, weft_hangs, bias_hangs, diagonal);
  // Each hangs longer than the rest diagonal; the softer the hanging
  // direction, the longer (moduli 40 < 300 < 600 N/m).
  EXPECT_LT(warp_hangs, -diagonal);
  EXPECT_LT(weft_hangs, warp_hangs - 1e-4);
  EXPECT_LT(bias_hangs, weft_hangs - 1e-3);

  // Control: turning the pattern frame and the grain together is the same
  // cloth (the grain is the panel's), to rounding.
  const std::vector<Vec3> a = hang_square(f, 0), b = hang_square(f, 0, 0.7);
  double diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff = std::max(diff, norm(a[i] - b[i]));
  EXPECT_LT(diff, 1e-6);
  // Control: an isotropic fabric hangs the same whatever its grain.
  Fabric iso = fabric_preset("cotton");
  iso.stretch = 300;
  const std::vector<Vec3> c = hang_square(iso, 0), d = hang_square(iso, -kPi / 4);
  for (std::size_t i = 0; i < c.size(); ++i) EXPECT_EQ(norm(c[i] - d[i]), 0) << i;
}

TEST(Grain, SquareHungByACornerDrapesByItsGrainWithTriangles) {
  // The same square and fabric with the triangle stretch model: the bias's
  // 40 N/m now sets the shear modulus (G = 10.5 N/m, docs/FABRICS.md), so the
  // square shears along its hanging diagonal with the bias vertical.
  Fabric f = fabric_preset("cotton");
  f.stretch = 600;
  f.stretch_weft = 300;
  f.stretch_bias = 40;
  const StretchModel t = StretchModel::triangle;
  const double bias_hangs = lowest(hang_square(f, 0, 0, t));
  const double warp_hangs = lowest(hang_square(f, -kPi / 4, 0, t));
  const double weft_hangs = lowest(hang_square(f, kPi / 4, 0, t));
  const double diagonal = 0.2 * std::sqrt(2.0);
  std::printf("triangles, lowest point: warp hangs %.5f m, weft %.5f m, bias %.5f m (rest diagonal %.5f m)\n",
              warp_hangs, weft_hangs, bias_hangs, diagonal);
  EXPECT_LT(warp_hangs, -diagonal);
  EXPECT_LT(weft_hangs, warp_hangs - 1e-4);
  EXPECT_LT(bias_hangs, weft_hangs - 1e-3);
  const std::vector<Vec3> a = hang_square(f, 0, 0, t), b = hang_square(f, 0, 0.7, t);
  double diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff = std::max(diff, norm(a[i] - b[i]));
  EXPECT_LT(diff, 1e-6);
}

}  // namespace
}  // namespace drape

// The triangle stretch model (StretchModel::triangle, docs/FABRICS.md "Warp,
// weft and bias"): its conditions on one triangle against the deformation
// written out, the strip tensile test at 0, 30, 45 and 90 degrees to the
// grain on a mesh with no edge along the pull against the orthotropic Y(theta)
// (where the per-edge springs fail), and the choice of model.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "drape/cloth/cloth_model.h"
#include "drape/cloth/cloth_simulation.h"
#include "drape/core/exceptions.h"
#include "drape/fabric_lab/specimen.h"
#include "drape/fabric_lab/tensile.h"
#include "fabric_test_files.h"

namespace drape {
namespace {

constexpr double kPiT = 3.14159265358979323846;

// The sheet the file describes, written out here: 1/Y45 = (1/Y0 + 1/Y90 + 1/G)/4
// sets G, and 1/Y(theta) = c^4/Y0 + s^4/Y90 + c^2 s^2/G.
double expected_modulus(double y0, double y90, double y45, double theta) {
  const double g = 1 / (4 / y45 - 1 / y0 - 1 / y90);
  const double c = std::cos(theta), s = std::sin(theta);
  return 1 / (std::pow(c, 4) / y0 + std::pow(s, 4) / y90 + c * c * s * s / g);
}

TEST(TriangleStretch, ConditionsReadTheStrainInTheGrainFrame) {
  // One skew triangle, grain turned 0.4 rad: at rest w_u and w_v are unit and
  // orthogonal; stretched by (1 + e) along the grain and sheared by gamma
  // (x -> x + gamma (x . v) u), w_u = (1 + e) u, w_v = v + gamma u.
  GarmentMesh g;
  g.rest = {{0.01, 0.02}, {0.05, 0.01}, {0.02, 0.06}};
  for (const Vec2& p : g.rest) g.mesh.positions.push_back({p.x, p.y, 0});
  g.mesh.faces = {{0, 1, 2}};
  const double grain = 0.4;
  g.panel_grain = {grain};
  ClothModelOptions mo;
  mo.stretch_model = StretchModel::triangle;
  mo.bending = BendingModel::none;
  const ClothModel m = build_cloth_model(g, test::woven_fabric(), mo);
  ASSERT_TRUE(m.stretch_triangles);
  const Vec3 u{-std::sin(grain), std::cos(grain), 0}, v{std::cos(grain), std::sin(grain), 0};
  const double e = 0.03, gamma = 0.05;
  std::vector<Vec3> x;
  for (const Vec2& p : g.rest) {
    const Vec3 r{p.x, p.y, 0};
    x.push_back(u * ((1 + e) * dot(r, u) + gamma * dot(r, v)) + v * dot(r, v));
  }
  const auto& b = m.tri_weights[0];
  const Vec3 wu = x[0] * b[0] + x[1] * b[1] + x[2] * b[2], wv = x[0] * b[3] + x[1] * b[4] + x[2] * b[5];
  EXPECT_NEAR(norm(wu) - 1, e, 1e-12);
  EXPECT_NEAR(dot(wv, v), 1, 1e-12);
  EXPECT_NEAR(dot(wu, wv), (1 + e) * gamma, 1e-12);
  // Stiffness: warp, weft and the G of the bias, times the rest area.
  const double area = 0.5 * std::abs((0.05 - 0.01) * (0.06 - 0.02) - (0.02 - 0.01) * (0.01 - 0.02));
  EXPECT_NEAR(m.tri_stiffness[0][0], 15600 * area, 1e-9);
  EXPECT_NEAR(m.tri_stiffness[0][1], 8400 * area, 1e-9);
  EXPECT_NEAR(m.tri_stiffness[0][2], area / (4.0 / 5000 - 1.0 / 15600 - 1.0 / 8400), 1e-9);
}

TEST(TriangleStretch, OffAxisStripReadsTheOrthotropicModulusWhereSpringsDoNot) {
  const Fabric f = test::woven_fabric();
  // 60 degrees reads like 30 (+1.3 %, docs/FABRICS.md's table of every
  // direction) and costs as much as the bias: left to that table.
  const double degrees[] = {0, 30, 45, 90};
  double springs_worst = 0;
  for (double deg : degrees) {
    const double theta = deg * kPiT / 180;
    const double y = expected_modulus(15600, 8400, 5000, theta);
    TensileOptions o;
    o.grain_angle = theta;
    o.across_edges = true;  // no edge along the pull: edges at 30 and 90 degrees to it
    o.particle_distance = 0.01;
    o.strains = {0.01};
    o.stretch_model = StretchModel::triangle;
    const TensileResult tri = tensile_test(f, o);
    ASSERT_EQ(tri.stretch_model, "triangle");
    const TensilePoint& pt = tri.points.at(0);
    const double tri_read = pt.force_per_width / pt.strain;
    std::printf("%2.0f deg: orthotropic %.0f N/m, triangle %.0f (%+.2f %%, %d frames)\n", deg, y, tri_read,
                100 * (tri_read / y - 1), pt.frames);
    EXPECT_NEAR(tri_read / y, 1, 0.02) << deg << " degrees";
    EXPECT_LT(pt.frames, o.max_frames) << deg << " degrees: did not settle";
    if (deg != 45) continue;
    // The per-edge springs on the same mesh miss the file's modulus on the
    // bias, between their edge directions, by far more than the 2 % (+69 %;
    // run on the bias only, the costliest direction for them: the table of
    // every direction is in docs/FABRICS.md).
    o.stretch_model = StretchModel::springs;
    const TensilePoint ps = tensile_test(f, o).points.at(0);
    const double spr_read = ps.force_per_width / ps.strain;
    std::printf("   springs %.0f (%+.2f %%)\n", spr_read, 100 * (spr_read / y - 1));
    springs_worst = std::abs(spr_read / y - 1);
  }
  EXPECT_GT(springs_worst, 0.02);
}

TEST(TriangleStretch, ABiasUnderTheSpringsFloorRunsOnTheTriangleModel) {
  // Poplin's warp and weft (15,600 / 8,400 N/m) with a 150 N/m bias: the
  // edge springs' Y(theta) would be negative near the bias (their floor is
  // 276 N/m), the triangle model's shear modulus is 38 N/m (1/G = 4/Y45 -
  // 1/Y0 - 1/Y90). The file reads;
  // the springs refuse the specimen naming the file; the triangle model's
  // bias strip reads 150 N/m at a small strain.
  const std::filesystem::path file =
      test::write_fabric_file("soft_bias.json", R"({"base": "poplin", "stretch_bias_N_m": 150})");
  const Fabric f = read_fabric_json(file);
  TensileOptions o;
  o.direction = TensileDirection::bias;
  o.particle_distance = 0.02;
  // A long strip: with a shear this soft the fixed clamp, which stops the bias
  // strip from shearing, stiffens it far along the strip (the usual 20 cm
  // strip at 10 mm reads 155 N/m, at 60 cm 151; shear lag, not the model).
  o.length = 0.6;
  o.strains = {0.005};
  o.stretch_model = StretchModel::springs;
  try {
    tensile_test(f, o);
    ADD_FAILURE() << "the springs ran a bias under their floor";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << e.what();
  }
  o.stretch_model = StretchModel::triangle;
  const TensileResult r = tensile_test(f, o);
  EXPECT_EQ(r.stretch_model, "triangle");
  ASSERT_EQ(r.points.size(), 1u);
  const TensilePoint& p = r.points[0];
  std::printf("bias 150 N/m, triangles: %.2f N/m at %.3f %% strain (%.0f N/m)\n", p.force_per_width,
              100 * p.strain, p.force_per_width / p.strain);
  EXPECT_NEAR(p.force_per_width / (150 * p.strain), 1, 0.02);
}

TEST(TriangleStretch, RefusedWhereItCannotRun) {
  GarmentMesh g = equilateral_strip_specimen(0.1, 5, 2);
  const Fabric aniso = test::woven_fabric();
  EXPECT_EQ(resolve_stretch_model(g, aniso, StretchModel::triangle, true), StretchModel::triangle);
  EXPECT_EQ(resolve_stretch_model(g, aniso, StretchModel::springs, false), StretchModel::springs);
  // A bias no orthotropic sheet has (4 Y0 Y90 / (Y0 + Y90) = 21,840 N/m here).
  Fabric stiff_bias = aniso;
  stiff_bias.stretch_bias = 22000;
  auto message = [&](const GarmentMesh& garment, const Fabric& f, bool xpbd) {
    try {
      resolve_stretch_model(garment, f, StretchModel::triangle, xpbd);
    } catch (const InvalidInput& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message(g, aniso, true), "accepted");
  EXPECT_NE(message(g, aniso, false).find("--integrator xpbd"), std::string::npos);
  EXPECT_NE(message(g, stiff_bias, true).find("stretch_bias_N_m"), std::string::npos);
  Fabric curved = aniso;
  curved.stretch_weft.reset();
  curved.stretch_curve_weft = {{0, 0}, {0.02, 40}, {0.06, 440}};
  EXPECT_NE(message(g, curved, true).find("stretch_curve"), std::string::npos);
  GarmentMesh placed_only = g;
  placed_only.rest.clear();
  EXPECT_NE(message(placed_only, aniso, true).find("flat rest"), std::string::npos);
  // The simulation refuses it under another integrator, and the springs run there.
  ClothSettings s;
  s.integrator = Integrator::symplectic_euler;
  s.model.stretch_model = StretchModel::triangle;
  EXPECT_THROW(ClothSimulation(g, TriangleMesh{}, {}, aniso, s), InvalidInput);
  s.model.stretch_model = StretchModel::springs;
  EXPECT_NO_THROW(ClothSimulation(g, TriangleMesh{}, {}, aniso, s));
}

}  // namespace
}  // namespace drape

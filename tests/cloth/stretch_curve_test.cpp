// Non-linear stretch (docs/FABRICS.md, "Non-linear stretch"): the curve keys
// of a fabric file and their refusals, and every stretch spring's tension
// against the fabric's curve at its angle to the grain, written out here
// independently of the model's knee table.
#include "drape/cloth/stretch_curve.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "drape/cloth/cloth_model.h"
#include "drape/cloth/spring_law.h"
#include "drape/core/exceptions.h"
#include "fabric_test_files.h"

namespace drape {
namespace {

namespace fs = std::filesystem;
using test::curve_force;
using test::fabric_file_error;
using test::write_fabric_file;

// Soft to 2 % then five times stiffer along the warp; softer and later along the weft.
const char* const kBiphasic = R"({"name": "biphasic",
  "stretch_curve_warp_N_m": [[0, 0], [0.02, 40], [0.06, 440]],
  "stretch_curve_weft_N_m": [[0, 0], [0.03, 45], [0.07, 285]]})";

TEST(StretchCurve, FileCurveSetsTheModulusAndTheBiasIsTheMean) {
  const Fabric f = read_fabric_json(write_fabric_file("curve_ok.json", kBiphasic));
  EXPECT_FALSE(fabric_stretch_linear(f));
  EXPECT_FALSE(fabric_stretch_isotropic(f));
  EXPECT_DOUBLE_EQ(f.stretch, 2000);
  EXPECT_DOUBLE_EQ(fabric_stretch_weft(f), 1500);
  const StretchCurve bias = fabric_stretch_curve(f, StretchDirection::bias);
  for (double e : {0.01, 0.025, 0.05, 0.1})
    EXPECT_NEAR(bias.force(e),
                0.5 * (curve_force({{0, 0}, {0.02, 40}, {0.06, 440}}, e) +
                       curve_force({{0, 0}, {0.03, 45}, {0.07, 285}}, e)),
                1e-9)
        << e;
  // The isotropic key: every direction the same curve.
  const Fabric iso = read_fabric_json(
      write_fabric_file("curve_iso.json", R"({"stretch_curve_N_m": [[0, 0], [0.02, 40], [0.06, 440]]})"));
  EXPECT_TRUE(fabric_stretch_isotropic(iso));
  EXPECT_DOUBLE_EQ(fabric_stretch_curve(iso, StretchDirection::bias).force(0.05), 340);
  // A modulus key replaces the base's curve of that direction.
  EXPECT_TRUE(fabric_stretch_linear(
      read_fabric_json(write_fabric_file("curve_lin.json", R"({"stretch_N_m": 9000})"))));
}

TEST(StretchCurve, BadCurvesAreRefusedNamingTheKeyAndThePoint) {
  // Non-monotonic: the force falls between the second and third points.
  const fs::path down =
      write_fabric_file("curve_down.json", R"({"stretch_curve_weft_N_m": [[0, 0], [0.02, 40], [0.05, 30]]})");
  std::string e = fabric_file_error(down);
  EXPECT_NE(e.find(down.string()), std::string::npos) << e;
  EXPECT_NE(e.find("'stretch_curve_weft_N_m'"), std::string::npos) << e;
  EXPECT_NE(e.find("not monotonic"), std::string::npos) << e;
  EXPECT_NE(e.find("[0.05, 30]"), std::string::npos) << e;
  // A flat segment is not increasing either.
  e = fabric_file_error(write_fabric_file("curve_flat.json",
                                          R"({"stretch_curve_warp_N_m": [[0, 0], [0.02, 40], [0.05, 40]]})"));
  EXPECT_NE(e.find("not monotonic"), std::string::npos) << e;
  e = fabric_file_error(write_fabric_file("curve_back.json",
                                          R"({"stretch_curve_warp_N_m": [[0, 0], [0.02, 40], [0.01, 50]]})"));
  EXPECT_NE(e.find("strain must increase"), std::string::npos) << e;
  e = fabric_file_error(
      write_fabric_file("curve_origin.json", R"({"stretch_curve_warp_N_m": [[0.01, 0], [0.02, 40]]})"));
  EXPECT_NE(e.find("the first point must be [0, 0]"), std::string::npos) << e;
  e = fabric_file_error(write_fabric_file("curve_one.json", R"({"stretch_curve_warp_N_m": [[0, 0]]})"));
  EXPECT_NE(e.find("at least two points"), std::string::npos) << e;
  e = fabric_file_error(
      write_fabric_file("curve_shape.json", R"({"stretch_curve_warp_N_m": [0, 0.02, 40]})"));
  EXPECT_NE(e.find("must be a list of [strain, force per width N/m] points"), std::string::npos) << e;
  e = fabric_file_error(write_fabric_file(
      "curve_both.json", R"({"stretch_warp_N_m": 9000, "stretch_curve_warp_N_m": [[0, 0], [0.02, 40]]})"));
  EXPECT_NE(e.find("'stretch_curve_warp_N_m': give either 'stretch_warp_N_m'"), std::string::npos) << e;
  // A bias curve so soft past the knee (25 N/m against 10,000 and 1,000) that
  // Y(theta) of that segment is negative between bias and weft: the curve
  // would fall in some direction.
  e = fabric_file_error(
      write_fabric_file("curve_bias.json", R"({"stretch_curve_warp_N_m": [[0, 0], [0.02, 40], [0.06, 440]],
    "stretch_curve_weft_N_m": [[0, 0], [0.02, 40], [0.06, 80]],
    "stretch_curve_bias_N_m": [[0, 0], [0.02, 40], [0.06, 41]]})"));
  EXPECT_NE(e.find("'stretch_curve_bias_N_m' is too soft"), std::string::npos) << e;
}

TEST(StretchCurve, EverySpringFollowsTheCurveAtItsAngleToTheGrain) {
  const Fabric f = read_fabric_json(write_fabric_file("curve_springs.json", kBiphasic));
  // A small sheet of two panels' worth of triangles in several directions.
  GarmentMesh g;
  g.rest = {{0, 0}, {0.01, 0}, {0.005, 0.0087}, {0.013, 0.011}, {-0.004, 0.012}};
  for (const Vec2& p : g.rest) g.mesh.positions.push_back({p.x, p.y, 0});
  g.mesh.faces = {{0, 1, 2}, {1, 3, 2}, {0, 2, 4}};
  g.panel_of_vertex.assign(5, 0);
  g.panel_grain = {0.4};
  g.panel_names = {"p"};
  g.panel_regions = {body_region::all};
  ClothModelOptions mo;
  mo.stretch = StretchMapping::uniaxial;
  mo.bending = BendingModel::none;
  const ClothModel m = build_cloth_model(g, f, mo);
  const std::vector<std::pair<double, double>> warp{{0, 0}, {0.02, 40}, {0.06, 440}},
      weft{{0, 0}, {0.03, 45}, {0.07, 285}};
  const Vec2 grain{-std::sin(0.4), std::cos(0.4)};
  int springs = 0;
  for (std::size_t s = 0; s < m.spring_a.size(); ++s) {
    if (m.spring_family[s] != SpringFamily::stretch) continue;
    const Vec2 a = g.rest[m.spring_a[s]], b = g.rest[m.spring_b[s]];
    const double dx = b.x - a.x, dy = b.y - a.y, L0 = std::hypot(dx, dy);
    const double theta = std::acos(std::min(1.0, std::abs(dx * grain.x + dy * grain.y) / L0));
    // The curve at theta: F(e, theta) = a + b cos 2 theta + c cos 4 theta of the
    // three directions' forces at e (bias = the mean of warp and weft).
    auto curve = [&](double e) {
      const double w = curve_force(warp, e), t = curve_force(weft, e), bi = 0.5 * (w + t);
      return (w + t) / 4 + bi / 2 + (w - t) / 2 * std::cos(2 * theta) +
             ((w + t) / 4 - bi / 2) * std::cos(4 * theta);
    };
    const double y0 = curve(1e-3) / 1e-3;  // the first slope at theta
    const double k0 = m.spring_stiffness[s];
    for (double e : {0.005, 0.019, 0.021, 0.029, 0.031, 0.05, 0.065, 0.09}) {
      const double L = L0 * (1 + e);
      // k0 stands for the first slope: the tension is k0 L0 F(e) / Y0.
      EXPECT_NEAR(spring_tension_at(m, s, L, 1.0), k0 * L0 * curve(e) / y0, 1e-9 * k0 * L0) << s << " " << e;
    }
    // The energy is the tension's integral (Simpson, 2,000 intervals).
    const double L1 = L0 * 1.08;
    double integral = 0;
    const int n = 2000;
    for (int i = 0; i <= n; ++i) {
      const double w = i == 0 || i == n ? 1 : (i % 2 ? 4 : 2);
      integral += w * spring_tension_at(m, s, L0 + (L1 - L0) * i / n, 1.0);
    }
    integral *= (L1 - L0) / n / 3;
    EXPECT_NEAR(spring_energy_at(m, s, L1, 1.0), integral, 1e-6 * integral) << s;
    // Compression is the buckling switch's, unchanged.
    EXPECT_NEAR(spring_tension_at(m, s, L0 * 0.99, 0.1), -0.1 * k0 * L0 * 0.01, 1e-9 * k0 * L0);
    ++springs;
  }
  EXPECT_EQ(springs, 7);
  // A linear fabric has no knees at all.
  EXPECT_TRUE(build_cloth_model(g, fabric_preset("poplin"), mo).spring_knees.empty());
}

}  // namespace
}  // namespace drape

// The Cusick drape test: shadow area and node count against shapes with known
// answers; the simulated drape ordered by stiffness as the definition requires.
#include "drape/fabric_lab/cusick.h"

#include <gtest/gtest.h>

#include <cmath>

#include "drape/fabric_lab/specimen.h"

namespace drape {
namespace {

constexpr double kPi = 3.14159265358979323846;

TEST(Cusick, FlatDiscShadowIsItsArea) {
  const GarmentMesh d = disc_specimen(0.15, 15);
  const double area = projected_area(d.mesh.positions, d.mesh.faces, 0.16, 0.0005);
  // The 90-gon of radius 0.15 m: (n / 2) r^2 sin(2 pi / n).
  const double polygon = 45 * 0.15 * 0.15 * std::sin(2 * kPi / 90);
  EXPECT_NEAR(area, polygon, 0.002 * polygon);
}

TEST(Cusick, NodeCountOfAWavyEdge) {
  for (int n : {0, 4, 7, 9}) {
    std::vector<double> r;
    for (int k = 0; k < 540; ++k)
      r.push_back(0.12 + (n ? 0.01 * std::cos(n * 2 * kPi * k / 540 + 0.3) : 0.0));
    EXPECT_EQ(count_nodes(r), n);
  }
}

TEST(Cusick, StifferFabricDrapesLessAndARigidOneNotAtAll) {
  CusickOptions o;
  o.particle_distance = 0.02;
  Fabric soft = fabric_preset("silk");
  Fabric stiff = soft;
  stiff.bending = 100 * soft.bending;
  Fabric rigid = soft;
  rigid.bending = 1e4 * soft.bending;  // bending length 0.6 m: twice the annulus wide
  const CusickResult a = cusick_test(soft, o), b = cusick_test(stiff, o), c = cusick_test(rigid, o);
  EXPECT_LT(a.drape_coefficient, b.drape_coefficient);
  EXPECT_LT(b.drape_coefficient, c.drape_coefficient);
  EXPECT_GT(c.drape_coefficient, 0.9);
  EXPECT_GT(a.drape_coefficient, 0);
  EXPECT_GE(a.nodes, 3);
}

}  // namespace
}  // namespace drape

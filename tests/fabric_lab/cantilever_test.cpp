// The cantilever test in the simulator against the heavy elastica for the
// fabric's own numbers, and the isometric bending model's energy against the
// continuum plate's B kappa^2 / 2.
#include "drape/fabric_lab/cantilever.h"

#include <gtest/gtest.h>

#include <cmath>

#include "drape/cloth/cloth_model.h"
#include "drape/fabric_lab/elastica.h"
#include "drape/fabric_lab/specimen.h"

namespace drape {
namespace {

double bending_energy(const ClothModel& m, const std::vector<Vec3>& x) {
  double e = 0;
  for (std::size_t q = 0; q < m.bend_quads.size(); ++q) {
    Vec3 c{};
    for (int i = 0; i < 4; ++i) c += x[m.bend_quads[q][i]] * m.bend_weights[q][i];
    e += 0.5 * m.bend_stiffness[q] * dot(c, c);
  }
  return e;
}

TEST(IsometricBending, CylinderStoresThePlateEnergy) {
  // A strip rolled about its width onto a cylinder of curvature kappa: the
  // continuum stores B kappa^2 / 2 per unit area. The hinges at the two ends
  // (half a cell each) have no neighbour beyond, so the bent area is (nx - 1) cells long.
  Fabric f = fabric_preset("cotton");
  const int nx = 20, ny = 3;
  const double length = 0.2, width = 0.03, kappa = 5;
  const GarmentMesh strip = strip_specimen(0, length, width, nx, ny);
  ClothModelOptions options;
  options.bending = BendingModel::isometric;
  const ClothModel m = build_cloth_model(strip, f, options);
  std::vector<Vec3> x = strip.mesh.positions;
  EXPECT_NEAR(bending_energy(m, x), 0, 1e-20);  // flat rest
  for (Vec3& p : x) p = {std::sin(kappa * p.x) / kappa, (1 - std::cos(kappa * p.x)) / kappa, p.z};
  const double expected = f.bending * kappa * kappa / 2 * width * length * (nx - 1) / nx;
  EXPECT_NEAR(bending_energy(m, x), expected, 1e-3 * expected);
  // Rigid motions store nothing.
  for (Vec3& p : x) p = {p.y + 1, -p.x, p.z + 2};
  EXPECT_NEAR(bending_energy(m, x), expected, 1e-3 * expected);
}

TEST(Cantilever, CottonBendingLengthWithinFivePercentOfTheHeavyElastica) {
  const Fabric f = fabric_preset("cotton");
  for (double h : {0.01, 0.005}) {
    CantileverOptions o;
    o.particle_distance = h;
    const CantileverResult r = cantilever_test(f, o);
    EXPECT_NEAR(r.bending_length_sim / r.bending_length_elastica, 1, 0.05) << "particle distance " << h;
    EXPECT_NEAR(r.chord_angle_sim, kCantileverAngle, 0.01);
  }
}

}  // namespace
}  // namespace drape

#include "drape/cloth/cloth_model.h"

#include <gtest/gtest.h>

#include <set>

#include "drape/core/exceptions.h"
#include "test_shapes.h"

using namespace drape;
using namespace drape::test;

TEST(ClothModel, AreaMassesSumToDensityTimesArea) {
  GarmentMesh g;
  add_grid_panel(g, 11, 6, 0.02, {0, 0, 0}, {1, 0, 0}, {0, 1, 0});
  const Fabric f = fabric_preset("denim");
  const ClothModel m = build_cloth_model(g, f);
  const double area = 10 * 0.02 * 5 * 0.02;
  EXPECT_NEAR(m.total_mass, f.density * area, 1e-12);
  // Corner vertex (0,0) touches 2 triangles of the split quad (h^2/2 each) -> mass = density h^2 / 3.
  EXPECT_NEAR(m.mass[0], f.density * 0.02 * 0.02 / 3, 1e-15);
}

TEST(ClothModel, PaperMassIsPieceMassOverPointCount) {
  GarmentMesh g;
  add_grid_panel(g, 5, 5, 0.01, {0, 0, 0}, {1, 0, 0}, {0, 1, 0});
  add_grid_panel(g, 3, 3, 0.01, {1, 0, 0}, {1, 0, 0}, {0, 1, 0});
  const Fabric f = fabric_preset("cotton");
  const ClothModel m = build_cloth_model(g, f, {.mass = MassModel::uniform_per_panel});
  for (int v = 0; v < 25; ++v) EXPECT_NEAR(m.mass[v], f.density * 0.04 * 0.04 / 25, 1e-15);
  for (int v = 25; v < 34; ++v) EXPECT_NEAR(m.mass[v], f.density * 0.02 * 0.02 / 9, 1e-15);
}

TEST(ClothModel, GridSpringsFollowThePaper) {
  GarmentMesh g;
  add_grid_panel(g, 4, 3, 0.01, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, /*grid_springs=*/true);
  const Fabric f = fabric_preset("cotton");
  const ClothModel m = build_cloth_model(g, f);
  int structural = 0, shear = 0, bend = 0;
  for (std::size_t s = 0; s < m.spring_a.size(); ++s) {
    if (m.spring_family[s] == SpringFamily::stretch) ++structural;
    if (m.spring_family[s] == SpringFamily::shear) ++shear;
    if (m.spring_family[s] == SpringFamily::bend) ++bend;
  }
  // 4x3 grid: structural 3*3 + 4*2 = 17, shear 2 * 3*2 = 12, bend 2*3 + 4*1 = 10.
  EXPECT_EQ(structural, 17);
  EXPECT_EQ(shear, 12);
  EXPECT_EQ(bend, 10);
}

TEST(ClothModel, GeneralTriangulationGetsEdgeAndHingeSprings) {
  GarmentMesh g;
  add_grid_panel(g, 4, 4, 0.01, {0, 0, 0}, {1, 0, 0}, {0, 1, 0});
  const Fabric f = fabric_preset("cotton");
  const ClothModel hinge = build_cloth_model(g, f, {.bending = BendingModel::hinge_spring});
  // 4x4 grid: 3*4*2 axis edges + 9 diagonals = 33 edges; interior edges = 33 - 12 boundary = 21.
  int edges = 0, bends = 0;
  for (std::size_t s = 0; s < hinge.spring_a.size(); ++s) {
    edges += hinge.spring_is_edge[s];
    bends += hinge.spring_family[s] == SpringFamily::bend;
  }
  EXPECT_EQ(edges, 33);
  EXPECT_EQ(bends, 21);
  const ClothModel dihedral = build_cloth_model(g, f, {.bending = BendingModel::dihedral});
  EXPECT_EQ(dihedral.hinges.size(), 21u);
  EXPECT_EQ(dihedral.spring_a.size(), 33u);
  // Stretch stiffnesses sum to Y * area * sum(1/L^2 weights): check k = Y * A_e / L^2 on one interior axis
  // edge.
  double ksum = 0;
  for (std::size_t s = 0; s < dihedral.spring_a.size(); ++s)
    ksum += dihedral.spring_stiffness[s] * dihedral.spring_rest[s] * dihedral.spring_rest[s];
  EXPECT_NEAR(ksum, f.stretch * 0.03 * 0.03, 1e-9);  // sum of k L^2 = Y * total area
}

TEST(ClothModel, ColoursNeverShareAVertex) {
  GarmentMesh g;
  add_grid_panel(g, 9, 7, 0.01, {0, 0, 0}, {1, 0, 0}, {0, 1, 0});
  const ClothModel m = build_cloth_model(g, fabric_preset("cotton"));
  std::size_t total = 0;
  for (std::size_t c = 0; c + 1 < m.colour_offsets.size(); ++c) {
    std::set<int> seen;
    for (int k = m.colour_offsets[c]; k < m.colour_offsets[c + 1]; ++k) {
      const int s = m.colour_springs[k];
      EXPECT_TRUE(seen.insert(m.spring_a[s]).second);
      EXPECT_TRUE(seen.insert(m.spring_b[s]).second);
      ++total;
    }
  }
  EXPECT_EQ(total, m.spring_a.size());
}

TEST(ClothModel, RejectsInconsistentGarments) {
  GarmentMesh g;
  add_grid_panel(g, 3, 3, 0.01, {0, 0, 0}, {1, 0, 0}, {0, 1, 0});
  GarmentMesh bad = g;
  bad.seam_pairs.push_back({0, 99, 0});
  EXPECT_THROW(build_cloth_model(bad, fabric_preset("cotton")), InvalidInput);
  bad = g;
  bad.rest.pop_back();
  EXPECT_THROW(build_cloth_model(bad, fabric_preset("cotton")), InvalidInput);
  bad = g;
  bad.rest[1] = bad.rest[0];
  bad.rest[3] = bad.rest[0];
  EXPECT_THROW(build_cloth_model(bad, fabric_preset("cotton")), InvalidInput);
}

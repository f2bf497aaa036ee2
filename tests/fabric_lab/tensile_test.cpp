// The strip tensile test against the fabric's own curve (force per width = Y strain).
#include "drape/fabric_lab/tensile.h"

#include <gtest/gtest.h>

#include <cmath>

#include "drape/cloth/cloth_model.h"
#include "drape/fabric_lab/specimen.h"

namespace drape {
namespace {

TEST(Tensile, CottonStripFollowsTheFabricCurveWithinTwoPercent) {
  const TensileResult r = tensile_test(fabric_preset("cotton"));
  ASSERT_EQ(r.points.size(), 4u);
  for (const TensilePoint& p : r.points)
    EXPECT_NEAR(p.force_per_width / (fabric_preset("cotton").stretch * p.strain), 1, 0.02) << p.strain;
  EXPECT_LE(r.max_error, 0.02);
}

TEST(Tensile, EquilateralStripIsAClosedMeshOfEqualEdges) {
  const GarmentMesh s = equilateral_strip_specimen(0.1, 10, 4);
  const ClothModel m = build_cloth_model(s, fabric_preset("cotton"));
  double total = 0;
  for (const Triangle& t : s.mesh.faces) {
    const Vec2 a = s.rest[t[0]], b = s.rest[t[1]], c = s.rest[t[2]];
    const double area2 = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
    EXPECT_GT(area2, 0);  // one orientation
    total += area2 / 2;
  }
  EXPECT_NEAR(total, 0.1 * 4 * 0.01 * std::sqrt(3.0) / 2, 1e-12);  // the strip is covered exactly once
  for (std::size_t e = 0; e < m.spring_rest.size(); ++e) {
    if (m.spring_family[e] != SpringFamily::stretch) continue;
    EXPECT_GT(m.spring_rest[e], 0.0049);
    EXPECT_LT(m.spring_rest[e], 0.0101);
  }
}

}  // namespace
}  // namespace drape

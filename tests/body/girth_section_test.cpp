// The garment's girth at a level is read only where its section goes round
// the body (garment_girth_near), checked on a circle-skirt tier placed flat
// as GarmentCode places it: a front and a back annular sector (90 degrees,
// radii 0.30 and 0.55 m about a centre 1.0 m above the floor, at z = +-0.2 m)
// sewn at their straight sides. Its flat sections are, from the top down:
// - the waist arc's horns (0.700 to 0.788 m): each piece runs from a side
//   seam out through the free waist arc, a corner of the panel;
// - side seam to side seam (0.611 to 0.700 m): width 2 (1.0 - y) tan 45 deg
//   per panel (the sides are straight lines: the mesh's outline is exact);
// - the hem arc's sag (0.450 to 0.611 m): each piece enters and leaves
//   through the hem, along it (the 10-22 cm "hip" the corpus' three-tier
//   circle dress read on the short heavy man, graded 7x).
// Only the middle band is the garment going round the body.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "drape/body/garment_fit.h"
#include "drape/pattern/mesher.h"

namespace drape {
namespace {

constexpr double kInner = 0.30, kOuter = 0.55, kCentre = 1.0, kHalfAngle = std::numbers::pi / 4;

Panel sector(const std::string& name, const std::string& alias) {
  const double s = std::sin(kHalfAngle), c = std::cos(kHalfAngle);
  Panel p;
  p.name = name;
  p.alias = alias;
  p.vertices = {{-kInner * s, -kInner * c},
                {-kOuter * s, -kOuter * c},
                {kOuter * s, -kOuter * c},
                {kInner * s, -kInner * c}};
  p.edges = {{0, 1}, {1, 2, EdgeCurve::arc}, {2, 3}, {3, 0, EdgeCurve::arc}};
  p.edges[1].radius = kOuter;  // the hem, bulging down (right of left-to-right)
  p.edges[1].right = true;
  p.edges[3].radius = kInner;  // the waist, bulging down (left of right-to-left)
  return p;
}

struct FlatTier {
  Pattern pattern;
  PatternMesh mesh;
  FlatTier() {
    pattern.name = "tier";
    pattern.panels = {sector("front", "skirt_front"), sector("back", "skirt_back")};
    pattern.stitches = {Stitch{{0, 0}, {1, 0}}, Stitch{{0, 2}, {1, 2}}};
    validate_pattern(pattern);
    MeshingOptions mo;
    mo.particle_distance = 0.02;
    mesh = mesh_pattern(pattern, mo);
    // Placed flat, upright: the front at z = 0.2, the back at z = -0.2.
    for (std::size_t v = 0; v < mesh.garment.mesh.positions.size(); ++v) {
      const Vec2 uv = mesh.garment.mesh.uvs[v];
      const double z = mesh.garment.panel_of_vertex[v] == 0 ? 0.2 : -0.2;
      mesh.garment.mesh.positions[v] = Vec3{uv.x, kCentre + uv.y, z};
    }
  }
};

TEST(GirthSection, AFlatCircleTierIsMeasuredOnlyWhereItGoesFromSeamToSeam) {
  const FlatTier t;
  const double s = std::sin(kHalfAngle), c = std::cos(kHalfAngle);
  const double horns_low = kCentre - kInner, sides_low = kCentre - kOuter * c, hem_low = kCentre - kOuter;
  ASSERT_LT(kCentre - kInner * c, kCentre);
  // Side seam to side seam: both panels' widths between the straight sides.
  for (double y : {0.625, 0.65, 0.685}) {  // 1 cm (the reach) inside the band
    const double want = 2 * 2 * (kCentre - y) * s / c;
    EXPECT_NEAR(garment_girth_near(t.pattern, t.mesh, y), want, 1e-6) << "y " << y;
  }
  // Through the hem's sag: the flat section is there (along the hem), the
  // garment's ring is not.
  for (double y : {hem_low + 0.03, 0.5 * (hem_low + sides_low), sides_low - 0.02}) {
    ASSERT_GT(garment_girth(t.pattern, t.mesh, y), 0.0) << "y " << y;
    EXPECT_EQ(garment_girth_near(t.pattern, t.mesh, y), 0.0) << "y " << y << ": a section along the hem";
  }
  // Through the waist arc's horns: pieces that leave through the free top edge.
  for (double y : {horns_low + 0.02, kCentre - kInner * c - 0.02}) {
    ASSERT_GT(garment_girth(t.pattern, t.mesh, y), 0.0) << "y " << y;
    EXPECT_EQ(garment_girth_near(t.pattern, t.mesh, y), 0.0) << "y " << y << ": corners by the waist arc";
  }
}

// The same tier with its waist arc sewn to a bodice placed well above it (a
// gap, as the corpus dress on the short heavy man: 20 cm): the horns end on a
// seam whose other side is not at their height: not a ring. The bodice
// itself, sewn at its sides, is one.
TEST(GirthSection, APieceEndingOnASeamWhoseOtherSideIsElsewhereIsNotARing) {
  FlatTier t;
  Panel bodice;
  bodice.name = "bodice_front";
  bodice.alias = "front";
  const double w = 2 * kInner * std::sin(kHalfAngle);
  bodice.vertices = {{-w / 2, 0}, {w / 2, 0}, {w / 2, 0.3}, {-w / 2, 0.3}};
  bodice.edges = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
  Panel back = bodice;
  back.name = "bodice_back";
  back.alias = "back";
  Pattern p = t.pattern;
  p.panels.push_back(bodice);
  p.panels.push_back(back);
  p.stitches.push_back(Stitch{{0, 3}, {2, 0}});  // tier front's waist to the bodice front's bottom
  p.stitches.push_back(Stitch{{1, 3}, {3, 0}});
  p.stitches.push_back(Stitch{{2, 1}, {3, 1}});  // the bodice's sides
  p.stitches.push_back(Stitch{{2, 3}, {3, 3}});
  validate_pattern(p);
  MeshingOptions mo;
  mo.particle_distance = 0.02;
  PatternMesh m = mesh_pattern(p, mo);
  const double bodice_bottom = kCentre + 0.2;  // 20 cm above the waist arc's ends
  for (std::size_t v = 0; v < m.garment.mesh.positions.size(); ++v) {
    const Vec2 uv = m.garment.mesh.uvs[v];
    const int panel = m.garment.panel_of_vertex[v];
    const double z = panel % 2 == 0 ? 0.2 : -0.2;
    m.garment.mesh.positions[v] =
        panel < 2 ? Vec3{uv.x, kCentre + uv.y, z} : Vec3{uv.x, bodice_bottom + uv.y, z};
  }
  const double c = std::cos(kHalfAngle);
  EXPECT_EQ(garment_girth_near(p, m, kCentre - kInner * c - 0.02), 0.0) << "the horns by the waist seam";
  EXPECT_NEAR(garment_girth_near(p, m, bodice_bottom + 0.15), 2 * w, 1e-6) << "the bodice";
}

}  // namespace
}  // namespace drape

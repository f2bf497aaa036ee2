// Plane sections and hull girths on shapes with known perimeters.

#include "drape/landmarks/mesh_section.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

using namespace drape;

namespace {

// A closed elliptic cylinder (semi-axes a along x, b along z), y in [0, h],
// n segments around, centred at (cx, cz); capped with a centre vertex.
void add_elliptic_cylinder(TriangleMesh& m, double a, double b, double h, int n, double cx = 0, double cz = 0,
                           int rings = 4) {
  const int base = static_cast<int>(m.positions.size());
  for (int r = 0; r <= rings; ++r)
    for (int i = 0; i < n; ++i) {
      const double t = 2 * std::numbers::pi * i / n;
      m.positions.push_back({cx + a * std::cos(t), h * r / rings, cz + b * std::sin(t)});
    }
  const int bottom = static_cast<int>(m.positions.size());
  m.positions.push_back({cx, 0, cz});
  m.positions.push_back({cx, h, cz});
  auto id = [&](int r, int i) { return base + r * n + (i % n); };
  for (int r = 0; r < rings; ++r)
    for (int i = 0; i < n; ++i) {
      m.faces.push_back({id(r, i), id(r + 1, i), id(r, i + 1)});
      m.faces.push_back({id(r, i + 1), id(r + 1, i), id(r + 1, i + 1)});
    }
  for (int i = 0; i < n; ++i) {
    m.faces.push_back({bottom, id(0, i), id(0, i + 1)});
    m.faces.push_back({bottom + 1, id(rings, i + 1), id(rings, i)});
  }
}

// Ramanujan's second approximation (relative error ~1e-10 at this eccentricity).
double ellipse_perimeter(double a, double b) {
  const double h = (a - b) * (a - b) / ((a + b) * (a + b));
  return std::numbers::pi * (a + b) * (1 + 3 * h / (10 + std::sqrt(4 - 3 * h)));
}

}  // namespace

TEST(BodyConvexHull, SquareWithInteriorAndCollinearPoints) {
  std::vector<Vec2> p = {{0, 0}, {2, 0}, {2, 2}, {0, 2}, {1, 1}, {1, 0}, {0.5, 1.5}, {2, 1}};
  EXPECT_NEAR(convex_hull_perimeter(p), 8.0, 1e-12);
  EXPECT_NEAR(convex_hull_perimeter({{0, 0}, {3, 4}}), 10.0, 1e-12);  // a segment: there and back
  EXPECT_EQ(convex_hull_perimeter({{1, 1}}), 0.0);
}

TEST(BodyMeshSection, EllipticCylinderGirthIsTheEllipsePerimeter) {
  TriangleMesh m;
  const double a = 0.16, b = 0.11;
  const int n = 720;
  add_elliptic_cylinder(m, a, b, 1.0, n);
  const auto pieces = section_pieces(m, horizontal_plane(0.37));
  ASSERT_EQ(pieces.size(), 1u);
  // The section is the inscribed n-gon: its perimeter is below the ellipse's by O(1/n^2).
  const double want = ellipse_perimeter(a, b);
  EXPECT_NEAR(pieces[0].hull_perimeter(), want, 2e-5 * want);
  EXPECT_LT(pieces[0].hull_perimeter(), want);
  EXPECT_TRUE(pieces[0].contains({0, 0}));
  EXPECT_FALSE(pieces[0].contains({0.2, 0}));
}

TEST(BodyMeshSection, TiltedPlaneThroughACylinderIsAnEllipse) {
  // A circular cylinder of radius r cut at angle t to its cross-section: an
  // ellipse with semi-axes r and r / cos t.
  TriangleMesh m;
  const double r = 0.05, t = 0.5;
  add_elliptic_cylinder(m, r, r, 1.0, 720, 0, 0, 40);
  const auto pieces = section_pieces(m, perpendicular_plane({0, 0.5, 0}, {std::sin(t), std::cos(t), 0}));
  ASSERT_EQ(pieces.size(), 1u);
  const double want = ellipse_perimeter(r / std::cos(t), r);
  EXPECT_NEAR(pieces[0].hull_perimeter(), want, 1e-4 * want);
}

TEST(BodyMeshSection, TouchingShapesStaySeparatePiecesAndAConcaveSectionIsTaped) {
  TriangleMesh m;
  add_elliptic_cylinder(m, 0.1, 0.1, 1.0, 256, -0.1, 0);  // two circles touching at x = 0
  add_elliptic_cylinder(m, 0.1, 0.1, 1.0, 256, 0.1, 0);
  auto pieces = section_pieces(m, horizontal_plane(0.5));
  ASSERT_EQ(pieces.size(), 2u);
  for (const auto& p : pieces) EXPECT_NEAR(p.hull_perimeter(), 2 * std::numbers::pi * 0.1, 1e-4);
  // Taped around both (the hull of the union): two half circles and two straight runs.
  std::vector<Vec2> all;
  for (const auto& p : pieces) {
    all.insert(all.end(), p.a.begin(), p.a.end());
    all.insert(all.end(), p.b.begin(), p.b.end());
  }
  EXPECT_NEAR(convex_hull_perimeter(all), 2 * std::numbers::pi * 0.1 + 2 * 0.2, 1e-4);
}

TEST(BodyMeshSection, BucketedHorizontalSectionsEqualTheFullScan) {
  TriangleMesh m;
  add_elliptic_cylinder(m, 0.1, 0.07, 0.9, 64, -0.15, 0, 13);
  add_elliptic_cylinder(m, 0.05, 0.05, 1.3, 48, 0.2, 0.05, 7);
  const HorizontalSections hs(m, 0.013);
  for (double y = -0.05; y <= 1.4; y += 0.0371) {
    const auto fast = hs.at(y), full = section_pieces(m, horizontal_plane(y));
    ASSERT_EQ(fast.size(), full.size()) << y;
    for (std::size_t i = 0; i < fast.size(); ++i) {
      ASSERT_EQ(fast[i].a.size(), full[i].a.size()) << y;
      EXPECT_EQ(fast[i].hull_perimeter(), full[i].hull_perimeter()) << y;
    }
  }
}

// Spans: pieces whose x-ranges overlap or come within the gap merge, with the
// z extent of all of them; others stay apart, sorted by x.
TEST(BodyMeshSection, SpansMergePiecesWithinTheGap) {
  TriangleMesh m;
  add_elliptic_cylinder(m, 0.1, 0.05, 1, 64, -0.5);        // x [-0.6, -0.4]
  add_elliptic_cylinder(m, 0.1, 0.08, 1, 64, 0.0);         // x [-0.1, 0.1]
  add_elliptic_cylinder(m, 0.05, 0.12, 1, 64, 0.16, 0.1);  // x [0.11, 0.21]: 1 cm from the middle one
  const std::vector<SectionPiece> pieces = section_pieces(m, horizontal_plane(0.5));
  ASSERT_EQ(pieces.size(), 3u);
  const std::vector<SectionSpan> apart = section_spans(pieces, 0.0);
  ASSERT_EQ(apart.size(), 3u);
  EXPECT_NEAR(apart[0].lo, -0.6, 1e-3);
  EXPECT_NEAR(apart[1].hi, 0.1, 1e-3);
  EXPECT_NEAR(apart[2].lo, 0.11, 1e-3);
  const std::vector<SectionSpan> merged = section_spans(pieces, 0.02);
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_NEAR(merged[1].lo, -0.1, 1e-3);
  EXPECT_NEAR(merged[1].hi, 0.21, 1e-3);
  EXPECT_NEAR(merged[1].v_lo, -0.08, 1e-3);  // the middle cylinder's back
  EXPECT_NEAR(merged[1].v_hi, 0.22, 1e-3);   // the right one's front
  EXPECT_TRUE(merged[1].covers(0.15));
  EXPECT_FALSE(merged[0].covers(0.0));
}

// Coarse-to-fine transfer (geometry/garment_transfer.h) on panels meshed at
// two particle distances: a smooth deformation of the coarse mesh carried to
// the fine one must land within linear interpolation's error bound of the
// same deformation, and seam pairs must start closed.

#include "drape/geometry/garment_transfer.h"

#include <gtest/gtest.h>

#include <cmath>

#include "drape/core/exceptions.h"
#include "drape/pattern/mesher.h"

using namespace drape;

namespace {

PanelEdge line(int a, int b) { return {a, b}; }

// Two panels with straight edges (so the fine outline lies on the coarse
// one): a rectangle, and a pentagon whose outline runs clockwise (its rest
// points are mirrored, GarmentMesh::rest), sewn along one edge.
Pattern two_panels() {
  Pattern pat;
  pat.source = "two panels";
  Panel a, b;
  a.name = "rect";
  a.vertices = {{0, 0}, {0.4, 0}, {0.4, 0.3}, {0, 0.3}};
  b.name = "pentagon";
  b.vertices = {{0.5, 0}, {0.5, 0.3}, {0.7, 0.4}, {0.9, 0.3}, {0.85, 0}};  // clockwise
  for (int i = 0; i < 4; ++i) a.edges.push_back(line(i, (i + 1) % 4));
  for (int i = 0; i < 5; ++i) b.edges.push_back(line(i, (i + 1) % 5));
  pat.panels = {a, b};
  pat.stitches = {{{0, 1}, {1, 0}}};  // rect's right edge with the pentagon's left edge (both 0.3 m)
  return pat;
}

// The deformation: in-plane identity (linear, interpolated exactly) plus a
// height A sin(k u) sin(k v), whose Hessian has spectral norm <= A k^2, and
// a different offset per panel.
constexpr double kA = 0.05, kK = 12;
Vec3 deform(Vec2 p, int panel) {
  return {p.x + 0.3 * panel, p.y, kA * std::sin(kK * p.x) * std::sin(kK * p.y) + 0.2 * panel};
}

double longest_edge(const GarmentMesh& g) {
  double h = 0;
  for (const Triangle& t : g.mesh.faces)
    for (int k = 0; k < 3; ++k) h = std::max(h, norm(g.rest[t[k]] - g.rest[t[(k + 1) % 3]]));
  return h;
}

}  // namespace

TEST(GarmentTransfer, FineVerticesLandWithinTheInterpolationBoundOfASmoothDeformation) {
  const Pattern pat = two_panels();
  const GarmentMesh coarse = mesh_pattern(pat, {.particle_distance = 0.04}).garment;
  const GarmentMesh fine = mesh_pattern(pat, {.particle_distance = 0.01}).garment;
  ASSERT_GT(fine.mesh.vertex_count(), 4 * coarse.mesh.vertex_count());
  std::vector<Vec3> xc(coarse.mesh.vertex_count());
  for (std::size_t i = 0; i < xc.size(); ++i) xc[i] = deform(coarse.rest[i], coarse.panel_of_vertex[i]);

  const std::vector<Vec3> xf = transfer_positions(coarse, xc, fine);
  ASSERT_EQ(xf.size(), fine.mesh.vertex_count());
  // For p in a triangle with corners a_j (barycentrics l_j), f(p) - sum l_j f(a_j)
  // = -1/2 sum l_j (a_j - p)^T H (a_j - p), so |error| <= 1/2 max|H| h^2, h the
  // longest coarse edge.
  const double h = longest_edge(coarse);
  const double bound = 0.5 * kA * kK * kK * h * h;
  double worst = 0, worst_nearest_vertex = 0;
  for (std::size_t i = 0; i < xf.size(); ++i) {
    const Vec3 exact = deform(fine.rest[i], fine.panel_of_vertex[i]);
    worst = std::max(worst, norm(xf[i] - exact));
    // What taking the nearest coarse vertex of the panel would give (shows the bound has teeth).
    double best = 1e9;
    std::size_t nearest = 0;
    for (std::size_t j = 0; j < xc.size(); ++j)
      if (coarse.panel_of_vertex[j] == fine.panel_of_vertex[i] &&
          norm(coarse.rest[j] - fine.rest[i]) < best) {
        best = norm(coarse.rest[j] - fine.rest[i]);
        nearest = j;
      }
    worst_nearest_vertex = std::max(worst_nearest_vertex, norm(xc[nearest] - exact));
  }
  EXPECT_LE(worst, bound);
  EXPECT_GT(worst_nearest_vertex, 2 * bound);
  // Coarse vertices the fine mesh shares (the panels' corners) land exactly.
  for (std::size_t i = 0; i < xf.size(); ++i)
    for (std::size_t j = 0; j < xc.size(); ++j)
      if (fine.panel_of_vertex[i] == coarse.panel_of_vertex[j] &&
          norm(fine.rest[i] - coarse.rest[j]) < 1e-12) {
        EXPECT_LT(norm(xf[i] - xc[j]), 1e-12);
      }
}

TEST(GarmentTransfer, SeamPairsStartCoincidentAtTheirMidpoint) {
  const Pattern pat = two_panels();
  const GarmentMesh coarse = mesh_pattern(pat, {.particle_distance = 0.04}).garment;
  const GarmentMesh fine = mesh_pattern(pat, {.particle_distance = 0.01}).garment;
  ASSERT_FALSE(fine.seam_pairs.empty());
  std::vector<Vec3> xc(coarse.mesh.vertex_count());
  for (std::size_t i = 0; i < xc.size(); ++i) xc[i] = deform(coarse.rest[i], coarse.panel_of_vertex[i]);
  const std::vector<Vec3> open = transfer_positions(coarse, xc, fine);
  std::vector<Vec3> closed = open;
  close_seams(fine, closed);
  std::vector<bool> sewn(open.size(), false);
  for (const SeamVertexPair& p : fine.seam_pairs) {
    // The panels are 0.2 m apart in z: the pair was open before.
    EXPECT_GT(norm(open[p.a] - open[p.b]), 0.1);
    EXPECT_EQ(closed[p.a], closed[p.b]);
    EXPECT_LT(norm(closed[p.a] - 0.5 * (open[p.a] + open[p.b])), 1e-12);
    sewn[p.a] = sewn[p.b] = true;
  }
  for (std::size_t i = 0; i < open.size(); ++i)
    if (!sewn[i]) {
      EXPECT_EQ(closed[i], open[i]);
    }
}

TEST(GarmentTransfer, RefusesMeshesOfOtherPanels) {
  const Pattern pat = two_panels();
  const GarmentMesh coarse = mesh_pattern(pat, {.particle_distance = 0.04}).garment;
  Pattern other = pat;
  other.panels[1].name = "other";
  const GarmentMesh fine = mesh_pattern(other, {.particle_distance = 0.01}).garment;
  EXPECT_THROW(transfer_positions(coarse, coarse.mesh.positions, fine), InvalidInput);
  EXPECT_THROW(transfer_positions(coarse, {}, coarse), InvalidInput);
}

// Untangling the cloth from the body (src/cloth/body_untangle.cpp, docs/CLOTH.md
// "Cloth held across a body feature is untangled from the body"): a body
// feature through a cloth triangle whose three corners are all outside the
// body is invisible to the per-vertex answers; once such a crossing has ended
// kHeldFrames frames in a row, the crossing triangles move by intersection
// contour minimisation until the feature is out of them. A crossing triangle
// with a corner inside the body is not counted (that corner is the vertex
// answers' to bring out). A still run does not end at rest while a held
// crossing waits for the untangle, for at most the untangle's own frames.
//
// Every answer here is counted by the test itself, by brute force over all
// cloth x body triangle pairs (its own segment/triangle test), and inside/out
// by the parity of a ray's crossings with the body.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "drape/cloth/cloth_simulation.h"
#include "test_shapes.h"

using namespace drape;
using namespace drape::test;

namespace drape::body_untangle_test {

// docs/CLOTH.md: the untangle acts once a crossing has ended this many frames
// in a row, with untangle_iterations (20) passes of a quarter thickness each.
constexpr int kHeldFrames = 30;

// ---- the independent answers ----

// True when the segment pq passes through triangle abc (Moller-Trumbore, the
// crossing point strictly inside the segment and the triangle; the scenes
// below keep every crossing clear of edges and corners).
bool segment_crosses_triangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 d = q - p, e1 = b - a, e2 = c - a;
  const Vec3 s1 = cross(d, e2);
  const double det = dot(s1, e1);
  if (std::abs(det) < 1e-30) return false;  // parallel to the plane
  const Vec3 s = p - a;
  const double u = dot(s, s1) / det;
  const Vec3 s2 = cross(s, e1);
  const double v = dot(d, s2) / det;
  const double t = dot(e2, s2) / det;
  return t > 0 && t < 1 && u > 0 && v > 0 && u + v < 1;
}

// Two triangles that are not coplanar intersect exactly when an edge of one
// passes through the other.
bool triangles_cross(const Vec3 (&s)[3], const Vec3 (&t)[3]) {
  for (int k = 0; k < 3; ++k) {
    if (segment_crosses_triangle(s[k], s[(k + 1) % 3], t[0], t[1], t[2])) return true;
    if (segment_crosses_triangle(t[k], t[(k + 1) % 3], s[0], s[1], s[2])) return true;
  }
  return false;
}

// Every (cloth face, body face) pair that intersects, counted over all pairs.
std::size_t cloth_body_crossings(const std::vector<Triangle>& cloth_faces, const std::vector<Vec3>& x,
                                 const TriangleMesh& body) {
  std::size_t n = 0;
  for (const Triangle& f : cloth_faces)
    for (const Triangle& g : body.faces) {
      const Vec3 s[3] = {x[f[0]], x[f[1]], x[f[2]]};
      const Vec3 t[3] = {body.positions[g[0]], body.positions[g[1]], body.positions[g[2]]};
      n += triangles_cross(s, t);
    }
  return n;
}

// Inside a closed body: a ray from p (here a 10 m segment in a direction no
// face or edge of the scenes lies along) crosses its surface an odd number of times.
bool inside_by_parity(const Vec3& p, const TriangleMesh& body) {
  const Vec3 far = p + Vec3{0.31, 0.83, 0.47} * 10.0;
  int hits = 0;
  for (const Triangle& g : body.faces)
    hits +=
        segment_crosses_triangle(p, far, body.positions[g[0]], body.positions[g[1]], body.positions[g[2]]);
  return hits % 2 == 1;
}

double largest_move(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, norm(a[i] - b[i]));
  return m;
}

// ---- the scene ----

// The body: a thin tetrahedron standing upright (a disphenoid), its top edge
// AB along x at y = +27 mm (4 mm long), its bottom edge CD along z at
// y = -13 mm (2 mm long), centred on the vertical line through (cx, cz). A
// horizontal plane cuts it in a rectangle, about 1.3 x 1.4 mm at y = 0, whose
// x side goes from 4 mm at AB's height to 0 at CD's and z side from 0 to
// 2 mm: its perimeter shrinks downwards, so the contour minimisation moves
// cloth crossing it down, towards CD.
//
// Chosen so that nothing but the untangle can take a cloth triangle off it:
// - Its four slanted edges (the ones through the sheet) have normals (the sum
//   of their ends' vertex normals) 1 degree off horizontal, so the push
//   of body edges out of cloth triangles (BodyCollider::push_cloth_triangles,
//   which wants a normal at least 0.05 out of the cloth's plane) has no side
//   to push the sheet to.
// - Its vertices and the edges AB and CD are more than 4 thicknesses (12 mm)
//   from the sheet: too far for the push of body vertices and of a ridge
//   lying level under the cloth.
// - CD is less than 20 passes of a quarter thickness (15 mm) below the sheet:
//   the untangle can take a triangle past it within one frame.
TriangleMesh thin_upright_tetrahedron(double cx, double cz) {
  TriangleMesh m;
  m.positions = {{cx - 0.002, 0.027, cz},    // A
                 {cx + 0.002, 0.027, cz},    // B
                 {cx, -0.013, cz - 0.001},   // C
                 {cx, -0.013, cz + 0.001}};  // D
  m.faces = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}};
  // Each face turned to face away from the fourth vertex (outwards).
  for (Triangle& f : m.faces) {
    const int opposite = 6 - f[0] - f[1] - f[2];
    const Vec3 n = cross(m.positions[f[1]] - m.positions[f[0]], m.positions[f[2]] - m.positions[f[0]]);
    if (dot(n, m.positions[opposite] - m.positions[f[0]]) > 0) std::swap(f[1], f[2]);
  }
  return m;
}

// The sheet: 9 x 9 vertices 15 mm apart (12 cm square) at y = 0, centred on
// the origin, its vertex (4, 4) at the origin; its border pinned and no
// gravity, so that it lies still at its rest shape: nothing but the body
// moves it. The quad from vertex (4, 4) to (5, 5) is split into the
// triangles {(4,4), (5,4), (5,5)} and {(4,4), (5,5), (4,5)}; grid i runs
// along +x, j along -z.
constexpr int kSide = 9;
constexpr double kSpacing = 0.015;
int vertex_id(int i, int j) { return j * kSide + i; }

GarmentMesh still_sheet() { return horizontal_square(kSide, kSpacing, 0.0); }

ClothSettings still_sheet_settings(const std::vector<int>& extra_pins = {}) {
  ClothSettings s;
  s.threads = 1;
  s.gravity = {0, 0, 0};
  for (int j = 0; j < kSide; ++j)
    for (int i = 0; i < kSide; ++i)
      if (i == 0 || j == 0 || i == kSide - 1 || j == kSide - 1) s.pinned.push_back(vertex_id(i, j));
  s.pinned.insert(s.pinned.end(), extra_pins.begin(), extra_pins.end());
  return s;
}

// The body's feature goes through the middle of one cloth triangle, all of
// whose corners are outside the body: the crossing is held for kHeldFrames - 1
// frames with the sheet untouched, then the untangle takes the triangle off
// the feature in one frame, moving only the crossing triangle's corners, and
// the sheet stays off it with no vertex inside the body.
TEST(BodyUntangle, HeldCrossingWithEveryCornerOutsideIsRemoved) {
  // The body's axis at the incentre of triangle {(4,4), (5,4), (5,5)} (legs
  // 15 mm, inradius r = 4.4 mm): the rectangle it cuts in the sheet (under
  // 1 mm from the axis) lies in that triangle, and every cloth vertex is over
  // 5 mm from the body, outside the 3 mm thickness of the vertex answers.
  const double r = kSpacing * (2 - std::sqrt(2.0)) / 2;
  const double cx = kSpacing - r, cz = -r;
  const TriangleMesh body = thin_upright_tetrahedron(cx, cz);
  const GarmentMesh sheet = still_sheet();
  const std::vector<Triangle>& faces = sheet.mesh.faces;
  const std::vector<Vec3> x0 = sheet.mesh.positions;

  // By construction: one cloth triangle crossed by the body's four faces
  // (its four slanted edges pass through it), and no cloth vertex inside.
  ASSERT_EQ(cloth_body_crossings(faces, x0, body), 4u);
  for (const Vec3& p : x0) ASSERT_FALSE(inside_by_parity(p, body));
  const int crossed[3] = {vertex_id(4, 4), vertex_id(5, 4), vertex_id(5, 5)};

  ClothSimulation sim(sheet, body, {}, fabric_preset("cotton"), still_sheet_settings());
  // The hold: kHeldFrames - 1 frames and the crossing is still there, the
  // sheet where it was (no force acts on it, and no collision answer sees the crossing).
  for (int f = 1; f < kHeldFrames; ++f) ASSERT_TRUE(sim.advance_frame());
  EXPECT_EQ(cloth_body_crossings(faces, sim.positions(), body), 4u);
  EXPECT_LT(largest_move(sim.positions(), x0), 1e-9);

  // Frame kHeldFrames: untangled, and only the crossing triangle's corners
  // moved. The contour's points all lie on body edges, so the gradient of its
  // length is along the cloth's normal: the corners went straight down, past
  // the body's bottom edge CD (y = -13 mm), the nearer end.
  const std::vector<Vec3> held = sim.positions();
  ASSERT_TRUE(sim.advance_frame());
  EXPECT_EQ(cloth_body_crossings(faces, sim.positions(), body), 0u);
  for (int v = 0; v < static_cast<int>(held.size()); ++v) {
    const Vec3 move = sim.positions()[v] - held[v];
    if (std::find(std::begin(crossed), std::end(crossed), v) != std::end(crossed)) {
      EXPECT_LT(sim.positions()[v].y, -0.013) << "vertex " << v;
      EXPECT_LT(std::hypot(move.x, move.z), 1e-9) << "vertex " << v;
    } else {
      EXPECT_LT(norm(move), 1e-9) << "vertex " << v;
    }
  }

  // Another kHeldFrames frames: the sheet, pinned at its border, pulls the
  // triangle back up and spreads the dent (vertices 4 spacings from the
  // crossing sink a few mm), and the body's answers hold the sheet under CD:
  // no crossing at any frame's end, no vertex inside the body.
  for (int f = 1; f <= kHeldFrames; ++f) {
    ASSERT_TRUE(sim.advance_frame());
    ASSERT_EQ(cloth_body_crossings(faces, sim.positions(), body), 0u) << kHeldFrames + f << "th frame";
  }
  for (const Vec3& p : sim.positions()) EXPECT_FALSE(inside_by_parity(p, body));
}

// The body's axis through a cloth vertex, pinned there (the vertex answers
// leave pinned vertices alone): every cloth triangle the body crosses has that
// corner inside the body, so the untangle does not count the crossing; after
// twice kHeldFrames frames it is still there and the sheet has not moved.
TEST(BodyUntangle, CrossingTriangleWithACornerInsideIsNotCounted) {
  const TriangleMesh body = thin_upright_tetrahedron(0, 0);
  const GarmentMesh sheet = still_sheet();
  const std::vector<Triangle>& faces = sheet.mesh.faces;
  const std::vector<Vec3> x0 = sheet.mesh.positions;
  const int middle = vertex_id(4, 4);  // at the origin, on the body's axis
  ASSERT_TRUE(inside_by_parity(x0[middle], body));
  const std::size_t crossings = cloth_body_crossings(faces, x0, body);
  ASSERT_GT(crossings, 0u);

  ClothSimulation sim(sheet, body, {}, fabric_preset("cotton"), still_sheet_settings({middle}));
  for (int f = 0; f < 2 * kHeldFrames; ++f) ASSERT_TRUE(sim.advance_frame());
  EXPECT_EQ(cloth_body_crossings(faces, sim.positions(), body), crossings);
  EXPECT_LT(largest_move(sim.positions(), x0), 1e-9);
}

// The same corner inside, free: the ordinary collision response brings it out
// (a vertex inside is put back on the surface before the first step, and the
// vertex answers keep it out), which is what leaving it to them means.
TEST(BodyUntangle, ACornerInsideIsBroughtOutByTheVertexAnswers) {
  const TriangleMesh body = thin_upright_tetrahedron(0, 0);
  const GarmentMesh sheet = still_sheet();
  const int middle = vertex_id(4, 4);
  ASSERT_TRUE(inside_by_parity(sheet.mesh.positions[middle], body));
  ClothSimulation sim(sheet, body, {}, fabric_preset("cotton"), still_sheet_settings());
  ASSERT_TRUE(sim.advance_frame());
  for (std::size_t v = 0; v < sim.positions().size(); ++v)
    EXPECT_FALSE(inside_by_parity(sim.positions()[v], body)) << "vertex " << v;
}

// docs/CLOTH.md: the untangle is given this many frames once it starts before
// a still run may end at rest with the crossing still there.
constexpr int kUntangleFrames = 30;

// The held crossing of HeldCrossingWithEveryCornerOutsideIsRemoved, run to
// rest: the sheet is still from the first frame (no gravity, border pinned),
// so the rest rule alone would end the run after min_frames (5) with the body
// through the cloth. A run does not end at rest while such a crossing waits
// for the untangle: it ends after the untangle's frame, with no crossing left.
TEST(BodyUntangle, AStillRunDoesNotEndAtRestWhileAHeldCrossingWaits) {
  const double r = kSpacing * (2 - std::sqrt(2.0)) / 2;
  const TriangleMesh body = thin_upright_tetrahedron(kSpacing - r, -r);
  const GarmentMesh sheet = still_sheet();
  ASSERT_EQ(cloth_body_crossings(sheet.mesh.faces, sheet.mesh.positions, body), 4u);
  ClothSettings s = still_sheet_settings();
  s.max_frames = 200;
  ClothSimulation sim(sheet, body, {}, fabric_preset("cotton"), s);
  const DrapeResult d = sim.run();
  EXPECT_EQ(d.report.stop_reason, "equilibrium");
  EXPECT_GT(d.report.frames, kHeldFrames);
  EXPECT_LT(d.report.frames, s.max_frames);
  EXPECT_EQ(cloth_body_crossings(sheet.mesh.faces, sim.positions(), body), 0u);
  EXPECT_EQ(d.report.body_crossing_pairs, 0u);
}

// The same crossing with the crossed triangle's corners pinned: the untangle
// cannot move them (they weigh nothing to the contour step), so the crossing
// stays. The wait is bounded: the run ends at rest once the untangle has had
// its frames, kHeldFrames + kUntangleFrames after the crossing began, and the
// report counts the crossing (not hidden, not waited on for ever).
TEST(BodyUntangle, ACrossingTheUntangleCannotMoveEndsTheWaitAfterItsFrames) {
  const double r = kSpacing * (2 - std::sqrt(2.0)) / 2;
  const TriangleMesh body = thin_upright_tetrahedron(kSpacing - r, -r);
  const GarmentMesh sheet = still_sheet();
  ClothSettings s = still_sheet_settings({vertex_id(4, 4), vertex_id(5, 4), vertex_id(5, 5)});
  s.max_frames = 200;
  ClothSimulation sim(sheet, body, {}, fabric_preset("cotton"), s);
  const DrapeResult d = sim.run();
  EXPECT_EQ(d.report.stop_reason, "equilibrium");
  EXPECT_GE(d.report.frames, kHeldFrames + kUntangleFrames);
  EXPECT_LE(d.report.frames, kHeldFrames + kUntangleFrames + 1);
  EXPECT_EQ(cloth_body_crossings(sheet.mesh.faces, sim.positions(), body), 4u);
  EXPECT_GT(d.report.body_crossing_pairs, 0u);
}

}  // namespace drape::body_untangle_test

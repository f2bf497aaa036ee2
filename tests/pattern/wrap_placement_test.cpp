// Placement that wraps: torso panels joined across their tops (straps,
// shoulder seams) are bent over the shoulders. Checked against independent
// answers: the 2D pattern's edge lengths (an isometric bend keeps them), a
// brute-force distance from every vertex to every body triangle, and the
// distance between the two sides of every strap seam at the start.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "brute_force_geometry.h"
#include "drape/geometry/triangle_queries.h"
#include "drape/io/mesh_io.h"
#include "drape/landmarks/body_frame.h"
#include "drape/pattern/alias.h"
#include "drape/pattern/mesher.h"
#include "drape/pattern/pattern_io.h"
#include "drape/pattern/placement.h"

using namespace drape;
namespace fs = std::filesystem;

namespace {

const TriangleMesh& body() {
  static const TriangleMesh m =
      read_obj(fs::path(DRAPE_DATA_DIR) / "bodies/makehuman/base.obj", {.group = "body"}).mesh;
  return m;
}

// Parity of the crossings of the ray from p along +x with the body (brute force).
bool inside_body(const Vec3& p, const TriangleMesh& m) {
  int n = 0;
  for (const auto& f : m.faces) {
    const Vec3 a = m.positions[f[0]], b = m.positions[f[1]], c = m.positions[f[2]];
    // Ray-triangle (Moller-Trumbore) along (1, 0, 0).
    const Vec3 d{1, 0, 0}, e1 = b - a, e2 = c - a, h = cross(d, e2);
    const double det = dot(e1, h);
    if (std::abs(det) < 1e-18) continue;
    const Vec3 s = p - a;
    const double u = dot(s, h) / det;
    if (u < 0 || u > 1) continue;
    const Vec3 q = cross(s, e1);
    const double v = dot(d, q) / det;
    if (v < 0 || u + v > 1) continue;
    if (dot(e2, q) / det > 0) ++n;
  }
  return n % 2 == 1;
}

// Vertices of `x` nearer the body than `clearance - tol`, and inside it (brute force).
struct ClearanceCount {
  int too_close = 0, inside = 0;
};
ClearanceCount count_clearance(const std::vector<Vec3>& xs, const TriangleMesh& m, double clearance,
                               double tol) {
  ClearanceCount c;
  for (const Vec3& x : xs) {
    double d = 1e300;
    for (const auto& f : m.faces)
      d = std::min(
          d, norm(x - test::closest_on_triangle(x, m.positions[f[0]], m.positions[f[1]], m.positions[f[2]])));
    c.too_close += d < clearance - tol;
    c.inside += inside_body(x, m);
  }
  return c;
}

struct Placed {
  Pattern pattern;
  PatternMesh mesh;
  PlacementResult result;
};

Placed place_strap_top(bool wrap) {
  Placed p;
  p.pattern = load_pattern(fs::path(DRAPE_TEST_DATA_DIR) / "patterns" / "strap_top.json");
  MeshingOptions mo;
  mo.particle_distance = 0.03;
  p.mesh = mesh_pattern(p.pattern, mo);
  PlacementOptions po;
  po.wrap_shoulders = wrap;
  p.result = place_on_body(p.pattern, p.mesh, body(), analyse_body(body()), po);
  return p;
}

// Widest start distance between the two sides of any seam joining the tops of
// the front and the back (the straps: edges whose samples all lie in the top
// 5 cm of the flat pattern), metres.
double widest_strap_seam(const Placed& p) {
  double widest = 0;
  for (const Stitch& st : p.pattern.stitches) {
    const std::vector<int>& a = p.mesh.panels[st.a.panel].edge_vertices[st.a.edge];
    const std::vector<int>& b = p.mesh.panels[st.b.panel].edge_vertices[st.b.edge];
    auto top_edge = [&](const std::vector<int>& e, int panel) {
      const PanelMeshRange& r = p.mesh.panels[panel];
      double hi = -1e300;
      for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v)
        hi = std::max(hi, p.mesh.garment.mesh.uvs[v].y);
      return std::all_of(e.begin(), e.end(), [&](int v) { return p.mesh.garment.mesh.uvs[v].y > hi - 0.05; });
    };
    if (!top_edge(a, st.a.panel) || !top_edge(b, st.b.panel)) continue;
    const std::size_t n = a.size() - 1;
    for (std::size_t k = 0; k <= n; ++k)
      widest = std::max(widest, norm(p.mesh.garment.mesh.positions[a[k]] -
                                     p.mesh.garment.mesh.positions[b[st.right_wrong ? k : n - k]]));
  }
  return widest;
}

}  // namespace

TEST(WrapPlacement, StrapsStartTogetherOverTheShoulders) {
  const Placed flat = place_strap_top(false);
  const Placed wrapped = place_strap_top(true);
  ASSERT_EQ(wrapped.result.wrapped.size(), 2u);
  EXPECT_TRUE(wrapped.result.wrapped[0] && wrapped.result.wrapped[1]);
  EXPECT_EQ(wrapped.result.wrap_pushed_vertices, 0);
  // Flat, the straps start astride the shoulders, as far apart as the body is deep.
  EXPECT_GT(widest_strap_seam(flat), 0.2);
  // Bent over the shoulders, both sides of every strap seam start on the apex line.
  EXPECT_LT(widest_strap_seam(wrapped), 0.01);
}

TEST(WrapPlacement, BendingKeepsEveryEdgeLengthAndTheClearance) {
  const Placed p = place_strap_top(true);
  const GarmentMesh& gm = p.mesh.garment;
  // Isometric: the surface keeps every length measured on it, so a triangle
  // edge keeps its pattern length unless it spans a bend, where its straight
  // chord is shorter than the arc it spans (for an arc of length l on radius
  // rho: 2 rho sin(l / 2 rho) ~ l (1 - l^2 / (24 rho^2)); the arch's bends have
  // radii of 5 cm and more, and edges here are up to ~4 cm long: < 2.7 %).
  // No edge may come out longer: that would be stretch, not bending.
  int longer = 0;
  double worst_short = 0, sum = 0;
  int edges = 0;
  for (const auto& f : gm.mesh.faces)
    for (int i = 0; i < 3; ++i) {
      const int a = f[i], b = f[(i + 1) % 3];
      const double l2 = norm(gm.mesh.uvs[a] - gm.mesh.uvs[b]);
      const double l3 = norm(gm.mesh.positions[a] - gm.mesh.positions[b]);
      longer += l3 > l2 * (1 + 1e-9);
      worst_short = std::max(worst_short, 1 - l3 / l2);
      sum += std::abs(1 - l3 / l2);
      ++edges;
    }
  EXPECT_EQ(longer, 0);
  EXPECT_LT(worst_short, 0.025);
  EXPECT_LT(sum / edges, 0.001);
  // Every vertex outside the body and at least the clearance from it (brute force).
  const ClearanceCount c = count_clearance(gm.mesh.positions, body(), PlacementOptions{}.clearance, 1e-9);
  EXPECT_EQ(c.too_close, 0);
  EXPECT_EQ(c.inside, 0);
}

namespace {

// GPG's sleeveless jacket with a hood (MIT, tests/data/patterns/PROVENANCE.txt):
// back, two fronts, two hood halves sewn along a crown seam and to the
// necklines of the back and both fronts.
Placed place_hooded_jacket(bool wrap) {
  Placed p;
  p.pattern = load_pattern(fs::path(DRAPE_TEST_DATA_DIR) / "patterns" / "gpg_jacket_hood_sleeveless.json");
  MeshingOptions mo;
  mo.particle_distance = 0.03;
  p.mesh = mesh_pattern(p.pattern, mo);
  PlacementOptions po;
  po.wrap_shoulders = wrap;
  po.wrap_hoods = wrap;
  p.result = place_on_body(p.pattern, p.mesh, body(), analyse_body(body()), po);
  return p;
}

bool is_hood(const Panel& panel) { return parse_alias(panel.alias).part == AliasPart::hood; }

// Per stitch, the widest start distance between the two vertices of its seam pairs, metres.
std::vector<double> widest_per_stitch(const Placed& p) {
  const GarmentMesh& gm = p.mesh.garment;
  std::vector<double> w(p.pattern.stitches.size(), 0.0);
  for (const SeamVertexPair& s : gm.seam_pairs)
    w[static_cast<std::size_t>(s.seam)] =
        std::max(w[static_cast<std::size_t>(s.seam)], norm(gm.mesh.positions[s.a] - gm.mesh.positions[s.b]));
  return w;
}

}  // namespace

TEST(WrapPlacement, HoodedJacketStartsWithEverySeamShortAndTheHoodRoundTheHead) {
  const Placed flat = place_hooded_jacket(false);
  const Placed p = place_hooded_jacket(true);
  const BodyFrame bf = analyse_body(body());
  // Every panel is bent: the torso over the shoulders (as without the hood), the halves round the head.
  for (std::size_t q = 0; q < p.pattern.panels.size(); ++q)
    EXPECT_TRUE(p.result.wrapped[q]) << p.pattern.panels[q].name;
  // Flat, the shoulder seams start astride the shoulders and the hood's crown
  // seam as far apart as the file laid the halves; wrapped, every seam starts short.
  // Stitches of this file (data): 0, 3 the shoulder seams, 1, 2 the side
  // seams, 4, 5 the hood's crown seam, 6-9 the hood's necklines.
  const std::vector<double> f = widest_per_stitch(flat), w = widest_per_stitch(p);
  ASSERT_EQ(w.size(), 10u);
  // (The shoulder seams: < 1 cm before the open front's halves were moved
  // apart, 5-7 mm each, OpenFrontHalvesStartApartNotEdgeOnEdge.)
  for (std::size_t s : {0u, 3u}) {
    EXPECT_GT(f[s], 0.25) << "stitch " << s;
    EXPECT_LT(w[s], 0.025) << "stitch " << s;
  }
  for (std::size_t s : {4u, 5u}) {
    EXPECT_GT(f[s], 0.15) << "stitch " << s;
    EXPECT_LT(w[s], 0.01) << "stitch " << s;
  }
  // The necklines: the back's (8, 9) start astride the shoulders flat; the
  // fronts' (6, 7) stay about as long (10 -> 12 cm): the hood's lower front
  // corners hang beside the neck, the jacket's V-neck meets at the centre front.
  for (std::size_t s : {8u, 9u}) EXPECT_GT(f[s], 0.2) << "stitch " << s;
  for (std::size_t s : {6u, 7u, 8u, 9u}) EXPECT_LT(w[s], 0.13) << "stitch " << s;
  // The head, measured on the body: its vertices above the neck.
  double xlo = 1e300, xhi = -1e300, zlo = 1e300, zhi = -1e300, top = -1e300;
  for (const Vec3& x : body().positions)
    if (x.y > bf.neck_y) {
      xlo = std::min(xlo, x.x), xhi = std::max(xhi, x.x), zlo = std::min(zlo, x.z), zhi = std::max(zhi, x.z);
      top = std::max(top, x.y);
    }
  const double hx = 0.5 * (xlo + xhi), hz = 0.5 * (zlo + zhi);
  // Hood vertices: above the shoulders, within 20 cm of the head's vertical
  // axis, on both sides of it; their crown seam over the head (the hood's top above the head's).
  const GarmentMesh& gm = p.mesh.garment;
  double hood_top = -1e300, left = 0, right = 0;
  int hood_vertices = 0;
  for (std::size_t q = 0; q < p.pattern.panels.size(); ++q) {
    if (!is_hood(p.pattern.panels[q])) continue;
    const PanelMeshRange& r = p.mesh.panels[q];
    for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v) {
      const Vec3& x = gm.mesh.positions[v];
      EXPECT_GT(x.y, bf.shoulder_y);
      EXPECT_LT(std::hypot(x.x - hx, x.z - hz), 0.2);
      hood_top = std::max(hood_top, x.y);
      (x.x > hx ? left : right) += 1;
      ++hood_vertices;
    }
  }
  EXPECT_GT(hood_vertices, 100);
  EXPECT_GT(hood_top, top + PlacementOptions{}.clearance);
  EXPECT_GT(left, 0.4 * hood_vertices);
  EXPECT_GT(right, 0.4 * hood_vertices);
  // No vertex inside the body or nearer than the clearance (brute force).
  const ClearanceCount c = count_clearance(gm.mesh.positions, body(), PlacementOptions{}.clearance, 1e-9);
  EXPECT_EQ(c.too_close, 0);
  EXPECT_EQ(c.inside, 0);
}

// The hood's halves start clear of the torso panels as well as of the body:
// the sleeveless jacket's front panels wrap over the shoulders up to the
// neck, and a hood placed to clear the body alone started with its lower
// front corners through them (4 and 5 crossing pairs by `drape check` at the
// first frame of `drape dress`, 69 self crossings at the end). Brute force
// over every hood triangle against every other panel's triangle, except
// pairs that will share a vertex once the seams are sewn (their vertices
// joined through seam pairs), as `drape check` skips adjacent triangles.
TEST(WrapPlacement, HoodHalvesStartClearOfTheTorsoPanels) {
  const Placed p = place_hooded_jacket(true);
  const GarmentMesh& gm = p.mesh.garment;
  const std::vector<Vec3>& x = gm.mesh.positions;
  std::vector<int> rep(x.size());
  for (std::size_t i = 0; i < rep.size(); ++i) rep[i] = static_cast<int>(i);
  auto find = [&](int v) {
    while (rep[static_cast<std::size_t>(v)] != v) v = rep[static_cast<std::size_t>(v)];
    return v;
  };
  for (const SeamVertexPair& s : gm.seam_pairs) rep[static_cast<std::size_t>(find(s.a))] = find(s.b);
  std::vector<char> hood_vertex(x.size(), 0);
  for (std::size_t q = 0; q < p.pattern.panels.size(); ++q)
    if (is_hood(p.pattern.panels[q]))
      for (int v : p.mesh.panels[q].vertex_ids()) hood_vertex[static_cast<std::size_t>(v)] = 1;
  std::vector<Triangle> hood, other;
  for (const Triangle& t : gm.mesh.faces)
    (hood_vertex[static_cast<std::size_t>(t[0])] ? hood : other).push_back(t);
  ASSERT_GT(hood.size(), 100u);
  int crossing = 0;
  for (const Triangle& a : hood)
    for (const Triangle& b : other) {
      bool adjacent = false;
      for (int u : a)
        for (int v : b) adjacent = adjacent || find(u) == find(v);
      if (!adjacent) crossing += triangles_intersect(x[a[0]], x[a[1]], x[a[2]], x[b[0]], x[b[1]], x[b[2]]);
    }
  EXPECT_EQ(crossing, 0);
}

namespace {

Placed place_hooded_jacket_with(const PlacementOptions& po) {
  Placed p;
  p.pattern = load_pattern(fs::path(DRAPE_TEST_DATA_DIR) / "patterns" / "gpg_jacket_hood_sleeveless.json");
  MeshingOptions mo;
  mo.particle_distance = 0.03;
  p.mesh = mesh_pattern(p.pattern, mo);
  p.result = place_on_body(p.pattern, p.mesh, body(), analyse_body(body()), po);
  return p;
}

std::size_t panel_named(const Placed& p, const std::string& name) {
  for (std::size_t q = 0; q < p.pattern.panels.size(); ++q)
    if (p.pattern.panels[q].name == name) return q;
  ADD_FAILURE() << "no panel " << name;
  return 0;
}

// Closest distance between any vertex of panel a and any of panel b (brute force), metres.
double panel_gap(const Placed& p, std::size_t a, std::size_t b) {
  const GarmentMesh& gm = p.mesh.garment;
  const PanelMeshRange &ra = p.mesh.panels[a], &rb = p.mesh.panels[b];
  double d = 1e300;
  for (int u = ra.first_vertex; u < ra.first_vertex + ra.vertex_count; ++u)
    for (int v = rb.first_vertex; v < rb.first_vertex + rb.vertex_count; ++v)
      d = std::min(d, norm(gm.mesh.positions[u] - gm.mesh.positions[v]));
  return d;
}

// Worst |placed length / pattern length - 1| over the edges of the torso panels.
double worst_torso_edge(const Placed& p) {
  const GarmentMesh& gm = p.mesh.garment;
  double worst = 0;
  for (const auto& f : gm.mesh.faces) {
    if (is_hood(p.pattern.panels[gm.panel_of_vertex[f[0]]])) continue;
    for (int i = 0; i < 3; ++i) {
      const int a = f[i], b = f[(i + 1) % 3];
      worst = std::max(worst, std::abs(norm(gm.mesh.positions[a] - gm.mesh.positions[b]) /
                                           norm(gm.mesh.uvs[a] - gm.mesh.uvs[b]) -
                                       1));
    }
  }
  return worst;
}

}  // namespace

// The jacket's two fronts are not sewn to each other: the file lays their
// front edges on the centre line, on top of each other, and the shoulder
// wrap's shifts made them overlap. They start at least the gap apart now,
// and the shoulder seams still start short.
TEST(WrapPlacement, OpenFrontHalvesStartApartNotEdgeOnEdge) {
  PlacementOptions off;
  off.separate_side_by_side = 0;
  const Placed before = place_hooded_jacket_with(off);
  const Placed p = place_hooded_jacket_with(PlacementOptions{});
  const std::size_t l = panel_named(p, "front_left"), r = panel_named(p, "front_right");
  EXPECT_LT(panel_gap(before, l, r), 0.005);
  EXPECT_GE(panel_gap(p, l, r), PlacementOptions{}.separate_side_by_side - 1e-9);
  EXPECT_EQ(p.result.separated_pairs, 1);
  const std::vector<double> w = widest_per_stitch(p);
  for (std::size_t s : {0u, 3u}) EXPECT_LT(w[s], 0.025) << "stitch " << s;
}

// The back's neckline is narrower than the neck at the arch's apex: the
// vertices pushed back to clear the neck left edges far off their pattern
// length. Relaxed, every torso edge is within 10 % of its pattern length
// (the pattern's own 2D lengths), and every vertex still clears the body
// (brute force).
TEST(WrapPlacement, PushedNecklineIsRelaxedToNearPatternLengths) {
  PlacementOptions off;
  off.relax_wrapped = false;
  const Placed before = place_hooded_jacket_with(off);
  const Placed p = place_hooded_jacket_with(PlacementOptions{});
  ASSERT_GT(p.result.wrap_pushed_vertices, 0);
  EXPECT_GT(worst_torso_edge(before), 0.3);
  EXPECT_LT(worst_torso_edge(p), 0.10);
  EXPECT_GT(p.result.wrap_relaxed_vertices, 0);
  const ClearanceCount c =
      count_clearance(p.mesh.garment.mesh.positions, body(), PlacementOptions{}.clearance, 1e-6);
  EXPECT_EQ(c.too_close, 0);
  EXPECT_EQ(c.inside, 0);
}

// Seam pairs of stitches touching a sleeve whose start segment passes
// through the body (brute force over every body triangle): the two sides
// start astride a limb or the torso.
int sleeve_pairs_through_body(const Placed& p) {
  const TriangleMesh& m = body();
  const std::vector<Vec3>& x = p.mesh.garment.mesh.positions;
  int n = 0;
  for (const SeamVertexPair& sp : p.mesh.garment.seam_pairs) {
    const Stitch& st = p.pattern.stitches[sp.seam];
    if (parse_alias(p.pattern.panels[st.a.panel].alias).part != AliasPart::sleeve &&
        parse_alias(p.pattern.panels[st.b.panel].alias).part != AliasPart::sleeve)
      continue;
    for (const auto& f : m.faces)
      if (test::segment_crosses_triangle(x[sp.a], x[sp.b], m.positions[f[0]], m.positions[f[1]],
                                         m.positions[f[2]], true)) {
        ++n;
        break;
      }
  }
  return n;
}

Placed place_with_bend(const std::string& file, bool bend) {
  Placed p;
  p.pattern = load_pattern(file);
  p.mesh = mesh_pattern(p.pattern, {.particle_distance = 0.02});
  PlacementOptions po;
  po.bend_sleeves = bend;
  p.result = place_on_body(p.pattern, p.mesh, body(), analyse_body(body()), po);
  return p;
}

// GPG's jacket has T-pose sleeves; placed rigidly on MakeHuman (arm 48.5
// degrees down) each sleeve's underarm corner starts over the torso, so its
// underarm seam starts astride the body. With PlacementOptions::bend_sleeves
// the caps are bent onto the armholes with their underarm corners in the
// armpit gap: no pair of a seam touching a sleeve starts astride any part of
// the body, the caps' top ends start on the torso's shoulder corners in the
// frontal view, and every vertex still clears the body (brute force).
TEST(WrapPlacement, BentSleevesStartWithNoSleeveSeamAstrideTheBody) {
  const std::string jacket = (fs::path(DRAPE_TEST_DATA_DIR) / "patterns" / "gpg_jacket.json").string();
  const Placed rigid = place_with_bend(jacket, false);
  const Placed bent = place_with_bend(jacket, true);
  EXPECT_GE(sleeve_pairs_through_body(rigid), 4);
  EXPECT_EQ(sleeve_pairs_through_body(bent), 0);
  // Frontal-plane (xy) distance between the sides of the armhole pairs, at
  // the cap's top (the pair farthest from the armpit, the highest) and over all.
  auto armhole_xy = [](const Placed& p) {
    double widest = 0, top_y = -1e300, top = 0;
    const std::vector<Vec3>& x = p.mesh.garment.mesh.positions;
    for (const SeamVertexPair& sp : p.mesh.garment.seam_pairs) {
      const Stitch& st = p.pattern.stitches[sp.seam];
      const bool sa = parse_alias(p.pattern.panels[st.a.panel].alias).part == AliasPart::sleeve;
      const bool sb = parse_alias(p.pattern.panels[st.b.panel].alias).part == AliasPart::sleeve;
      if (sa == sb) continue;
      const double d = std::hypot(x[sp.a].x - x[sp.b].x, x[sp.a].y - x[sp.b].y);
      widest = std::max(widest, d);
      if (x[sp.b].y > top_y) top_y = x[sp.b].y, top = d;
    }
    return std::pair{widest, top};
  };
  const auto [rigid_widest, rigid_top] = armhole_xy(rigid);
  const auto [bent_widest, bent_top] = armhole_xy(bent);
  EXPECT_GT(rigid_widest, 0.08);  // the underarm corners start 8.8 cm from the side-seam tops
  EXPECT_GT(rigid_top, 0.05);
  EXPECT_LT(bent_top, 0.001);
  EXPECT_LT(bent_widest, rigid_widest);
  int bent_sleeves = 0;
  for (std::size_t p = 0; p < bent.pattern.panels.size(); ++p) bent_sleeves += bent.result.wrapped[p];
  EXPECT_EQ(bent_sleeves, 4);
  const ClearanceCount c =
      count_clearance(bent.mesh.garment.mesh.positions, body(), PlacementOptions{}.clearance, 1e-6);
  EXPECT_EQ(c.too_close, 0);
  EXPECT_EQ(c.inside, 0);
}

// GarmentCode's shirt (sleeves drawn at an angle) starts on MakeHuman with
// no sleeve seam astride the body: the bend leaves it exactly as placed.
TEST(WrapPlacement, SleevesNotAstrideAreNotBent) {
  const std::string shirt =
      (fs::path(DRAPE_DATA_DIR) / "patterns/garmentcode/shirt_mean_specification.json").string();
  const Placed rigid = place_with_bend(shirt, false);
  const Placed bent = place_with_bend(shirt, true);
  ASSERT_EQ(sleeve_pairs_through_body(rigid), 0);
  EXPECT_EQ(bent.mesh.garment.mesh.positions, rigid.mesh.garment.mesh.positions);
}

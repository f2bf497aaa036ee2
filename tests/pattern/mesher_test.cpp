// Discretisation: areas against analytic values, triangle quality, boundary
// fidelity, seam matching and orientation, the paper's grid springs.

#include "drape/pattern/mesher.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <numbers>
#include <random>
#include <set>

#include "drape/core/exceptions.h"
#include "drape/geometry/mesh_adjacency.h"
#include "drape/pattern/pattern_io.h"

using namespace drape;
namespace fs = std::filesystem;
constexpr double kPi = std::numbers::pi;

namespace {
const fs::path kData = fs::path(DRAPE_DATA_DIR) / "patterns";
const fs::path kFixtures = fs::path(DRAPE_TEST_DATA_DIR) / "patterns";

PanelEdge line(int a, int b) { return {a, b}; }
PanelEdge arc(int a, int b, double r, bool large, bool right) {
  PanelEdge e{a, b, EdgeCurve::arc};
  e.radius = r;
  e.large_arc = large;
  e.right = right;
  return e;
}

struct Shape {
  std::string name;
  Panel panel;
  double exact_area;
};

// Synthetic outlines whose areas are known in closed form (not from the code under test).
std::vector<Shape> shapes() {
  std::vector<Shape> out;
  const double r = 0.2;
  {  // full disc from two half arcs
    Panel p;
    p.name = "disc";
    p.vertices = {{-r, 0}, {r, 0}};
    p.edges = {arc(0, 1, r, false, true), arc(1, 0, r, false, true)};
    out.push_back({"disc", p, kPi * r * r});
  }
  {  // ring sector (a flared skirt panel): angle 60 deg, radii 0.15 and 0.6, centre above it
    const double a = kPi / 3, r0 = 0.15, r1 = 0.6;
    Panel p;
    p.name = "sector";
    const Vec2 d0{std::sin(-a / 2), -std::cos(-a / 2)}, d1{std::sin(a / 2), -std::cos(a / 2)};
    p.vertices = {d0 * r0, d0 * r1, d1 * r1, d1 * r0};
    // Counter-clockwise: both arcs bulge downwards, away from the centre: the outer one (left to
    // right) to its right, the inner one (right to left) to its left.
    p.edges = {line(0, 1), arc(1, 2, r1, false, true), line(2, 3), arc(3, 0, r0, false, false)};
    out.push_back({"sector", p, a / 2 * (r1 * r1 - r0 * r0)});
  }
  {  // square with a parabolic bulge on top: 0.4 x 0.3 + 2/3 * triangle(0.4 base, 0.16 control height)
    Panel p;
    p.name = "bulge";
    p.vertices = {{0, 0}, {0.4, 0}, {0.4, 0.3}, {0, 0.3}};
    PanelEdge q{2, 3, EdgeCurve::quadratic};
    q.c1 = {0.2, 0.3 + 0.16};
    p.edges = {line(0, 1), line(1, 2), q, line(3, 0)};
    out.push_back({"bulge", p, 0.4 * 0.3 + 2.0 / 3.0 * 0.5 * 0.4 * 0.16});
  }
  {  // region under y = x^3 scaled by 0.5, plus a 0.5 x 0.1 strip below it
    Panel p;
    p.name = "cubic";
    const double s = 0.5;
    p.vertices = {{0, -0.1}, {s, -0.1}, {s, s}, {0, 0}};
    PanelEdge c{2, 3, EdgeCurve::cubic};
    c.c1 = {2.0 / 3.0 * s, 0};
    c.c2 = {1.0 / 3.0 * s, 0};
    p.edges = {line(0, 1), line(1, 2), c, line(3, 0)};
    out.push_back({"cubic", p, 0.25 * s * s + s * 0.1});
  }
  return out;
}

Pattern single(const Panel& p) {
  Pattern pat;
  pat.source = p.name;
  pat.panels = {p};
  return pat;
}

double rest_area(const PatternMesh& m, int first_face, int count, double* min_angle_deg = nullptr) {
  double a = 0, worst = 180;
  for (int f = first_face; f < first_face + count; ++f) {
    const Triangle& t = m.garment.mesh.faces[f];
    const Vec2 p0 = m.garment.rest[t[0]], p1 = m.garment.rest[t[1]], p2 = m.garment.rest[t[2]];
    a += 0.5 * cross(p1 - p0, p2 - p0);
    const Vec2 q[3] = {p0, p1, p2};
    for (int k = 0; k < 3; ++k) {
      const Vec2 u = q[(k + 1) % 3] - q[k], v = q[(k + 2) % 3] - q[k];
      worst = std::min(worst, std::acos(std::clamp(dot(u, v) / (norm(u) * norm(v)), -1.0, 1.0)) * 180 / kPi);
    }
  }
  if (min_angle_deg) *min_angle_deg = worst;
  return a;
}

// Distance from q to the panel outline, by a dense polyline of every edge.
double outline_distance(const Panel& p, Vec2 q) {
  double best = 1e300;
  for (std::size_t e = 0; e < p.edges.size(); ++e) {
    const EdgeGeometry g = edge_geometry(p, static_cast<int>(e));
    Vec2 prev = g.point(0);
    for (int i = 1; i <= 4000; ++i) {
      const Vec2 cur = g.point(i / 4000.0);
      const Vec2 d = cur - prev;
      const double t = std::clamp(dot(q - prev, d) / std::max(dot(d, d), 1e-300), 0.0, 1.0);
      best = std::min(best, norm(q - (prev + d * t)));
      prev = cur;
    }
  }
  return best;
}
}  // namespace

TEST(Mesher, TriangulatedAreaEqualsExactAreaBothMethods) {
  for (const Shape& s : shapes())
    for (MeshMethod method : {MeshMethod::quality, MeshMethod::grid})
      for (double h : {0.01, 0.02}) {
        SCOPED_TRACE(s.name + (method == MeshMethod::grid ? " grid " : " quality ") + std::to_string(h));
        const PatternMesh m = mesh_pattern(single(s.panel), {.method = method, .particle_distance = h});
        const double a = rest_area(m, 0, m.panels[0].face_count);
        EXPECT_NEAR(a, s.exact_area, 0.005 * s.exact_area);
        EXPECT_NEAR(m.panels[0].area, s.exact_area, 1e-9 * s.exact_area);
      }
}

TEST(Mesher, NoDegenerateOrInvertedTrianglesAndGoodQuality) {
  std::vector<Pattern> pats;
  for (const Shape& s : shapes()) pats.push_back(single(s.panel));
  for (const auto& e : fs::recursive_directory_iterator(kData))
    if (e.path().extension() == ".json") pats.push_back(load_pattern(e.path()));
  for (const Pattern& pat : pats)
    for (MeshMethod method : {MeshMethod::quality, MeshMethod::grid}) {
      SCOPED_TRACE(pat.source + (method == MeshMethod::grid ? " grid" : " quality"));
      const double h = 0.015;
      const PatternMesh m = mesh_pattern(pat, {.method = method, .particle_distance = h});
      for (std::size_t p = 0; p < m.panels.size(); ++p) {
        const PanelMeshRange& r = m.panels[p];
        double min_angle = 0;
        const double a = rest_area(m, r.first_face, r.face_count, &min_angle);
        EXPECT_NEAR(a, r.area, 0.005 * r.area) << pat.panels[p].name;
        // Quality: the worst angle stays well away from a sliver (the sharpest
        // outline corner here, the cubic shape's, is 18.4 degrees).
        EXPECT_GT(min_angle, method == MeshMethod::quality ? 15.0 : 8.0) << pat.panels[p].name;
        for (int f = r.first_face; f < r.first_face + r.face_count; ++f) {
          const Triangle& t = m.garment.mesh.faces[f];
          const Vec2 p0 = m.garment.rest[t[0]], p1 = m.garment.rest[t[1]], p2 = m.garment.rest[t[2]];
          ASSERT_GT(0.5 * cross(p1 - p0, p2 - p0), 0.02 * h * h) << "inverted or degenerate face " << f;
        }
      }
      // One manifold sheet per panel: no edge has more than two faces.
      EXPECT_TRUE(MeshAdjacency::build(m.garment.mesh).is_edge_manifold());
    }
}

TEST(Mesher, ParticleDistanceSetsTheEdgeLength) {
  const Shape disc = shapes()[0];
  for (double h : {0.01, 0.02}) {
    const PatternMesh m = mesh_pattern(single(disc.panel), {.particle_distance = h});
    const MeshAdjacency adj = MeshAdjacency::build(m.garment.mesh);
    double sum = 0;
    for (const MeshEdge& e : adj.edges) sum += norm(m.garment.rest[e.v0] - m.garment.rest[e.v1]);
    EXPECT_NEAR(sum / adj.edges.size(), h, 0.15 * h);
    // Near-equilateral triangles of side h: area pi r^2 / (sqrt(3)/4 h^2) faces, within 15 %.
    const double expected_faces = disc.exact_area / (std::sqrt(3.0) / 4 * h * h);
    EXPECT_NEAR(static_cast<double>(m.garment.mesh.face_count()), expected_faces, 0.15 * expected_faces);
  }
}

TEST(Mesher, BoundaryFollowsTheCurves) {
  // Disc: every boundary vertex on the circle, every boundary chord within h/10 of it.
  const Shape disc = shapes()[0];
  for (MeshMethod method : {MeshMethod::quality, MeshMethod::grid}) {
    const double h = 0.02, r = 0.2;
    const PatternMesh m = mesh_pattern(single(disc.panel), {.method = method, .particle_distance = h});
    const MeshAdjacency adj = MeshAdjacency::build(m.garment.mesh);
    int boundary = 0;
    for (const MeshEdge& e : adj.edges) {
      if (e.face1 >= 0) continue;
      ++boundary;
      const Vec2 a = m.garment.mesh.uvs[e.v0], b = m.garment.mesh.uvs[e.v1];
      EXPECT_NEAR(norm(a), r, 1e-12);
      EXPECT_LT(r - norm((a + b) * 0.5), h / 10);
    }
    EXPECT_GE(boundary, static_cast<int>(2 * kPi * r / h));
  }
  // The shirt's curved armholes and necklines, against a dense polyline of the exact curves.
  const Pattern shirt = load_pattern(kData / "garmentcode/shirt_mean_specification.json");
  const double h = 0.01;
  const PatternMesh m = mesh_pattern(shirt, {.particle_distance = h});
  const MeshAdjacency adj = MeshAdjacency::build(m.garment.mesh);
  double worst = 0;
  for (const MeshEdge& e : adj.edges) {
    if (e.face1 >= 0) continue;
    const Panel& p = shirt.panels[m.garment.panel_of_vertex[e.v0]];
    const Vec2 a = m.garment.mesh.uvs[e.v0], b = m.garment.mesh.uvs[e.v1];
    EXPECT_LT(outline_distance(p, a), 1e-6);
    worst = std::max(worst, outline_distance(p, (a + b) * 0.5));
  }
  EXPECT_LT(worst, h / 10);
}

TEST(Mesher, SeamSidesHaveEqualCountsAndRatiosAreRecorded) {
  for (const auto& e : fs::recursive_directory_iterator(kData)) {
    if (e.path().extension() != ".json") continue;
    SCOPED_TRACE(e.path().string());
    const Pattern pat = load_pattern(e.path());
    const PatternMesh m = mesh_pattern(pat, {.particle_distance = 0.02});
    ASSERT_EQ(m.seam_segments.size(), pat.stitches.size());
    ASSERT_EQ(m.garment.seam_length_ratio.size(), pat.stitches.size());
    std::map<int, int> pairs_per_seam;
    for (const SeamVertexPair& sp : m.garment.seam_pairs) ++pairs_per_seam[sp.seam];
    for (std::size_t s = 0; s < pat.stitches.size(); ++s) {
      const Stitch& st = pat.stitches[s];
      const auto& va = m.panels[st.a.panel].edge_vertices[st.a.edge];
      const auto& vb = m.panels[st.b.panel].edge_vertices[st.b.edge];
      EXPECT_EQ(va.size(), vb.size());
      EXPECT_EQ(pairs_per_seam[static_cast<int>(s)], m.seam_segments[s] + 1);
      const double la = edge_length(pat.panels[st.a.panel], st.a.edge),
                   lb = edge_length(pat.panels[st.b.panel], st.b.edge);
      // The longer side's count: at least its length over the particle distance,
      // except a tiny seam step (under half of it) that is absorbed into its neighbour.
      if (std::max(la, lb) >= 0.01) {
        EXPECT_GE(m.seam_segments[s], std::ceil(std::max(la, lb) / 0.02 - 1e-9));
      }
      EXPECT_NEAR(m.garment.seam_length_ratio[s], std::max(la, lb) / std::min(la, lb), 1e-9);
      EXPECT_GE(m.garment.seam_length_ratio[s], 1.0);
    }
    for (const SeamVertexPair& sp : m.garment.seam_pairs) {
      const Stitch& st = pat.stitches[sp.seam];
      EXPECT_EQ(m.garment.panel_of_vertex[sp.a], st.a.panel);
      EXPECT_EQ(m.garment.panel_of_vertex[sp.b], st.b.panel);
    }
  }
  // The flared skirt sews a gathered waist: its ratio is recorded and warned about.
  const Pattern skirt = load_pattern(kData / "garmentcode/flare_skirt_specification.json");
  const PatternMesh m = mesh_pattern(skirt, {.particle_distance = 0.02, .seam_ratio_warning = 1.05});
  double worst = 1;
  for (double r : m.garment.seam_length_ratio) worst = std::max(worst, r);
  EXPECT_GT(worst, 1.05);
  bool warned = false;
  for (const std::string& w : m.warnings) warned |= w.find("differ in length") != std::string::npos;
  EXPECT_TRUE(warned);
}

TEST(Mesher, TubeSeamDoesNotTwist) {
  // Two panels sewn along both sides into a tube (file placement: front z = +15 cm, back z = -15 cm).
  Pattern tube = load_pattern(kFixtures / "tube.json");
  const PatternMesh m = mesh_pattern(tube, {.particle_distance = 0.02});
  ASSERT_EQ(tube.stitches.size(), 2u);
  for (const SeamVertexPair& sp : m.garment.seam_pairs) {
    const Vec3 a = m.garment.mesh.positions[sp.a], b = m.garment.mesh.positions[sp.b];
    // Paired points face each other across the tube: same height, same side, 30 cm apart in z.
    EXPECT_NEAR(a.y, b.y, 1e-9);
    EXPECT_NEAR(a.x, b.x, 1e-9);
    EXPECT_NEAR(std::abs(a.z - b.z), 0.30, 1e-9);
  }
  // Flipping one stitch's orientation twists it: the pairs now cross heights.
  tube.stitches[0].right_wrong = true;
  const PatternMesh t = mesh_pattern(tube, {.particle_distance = 0.02});
  double worst = 0;
  for (const SeamVertexPair& sp : t.garment.seam_pairs)
    if (sp.seam == 0)
      worst = std::max(worst, std::abs(t.garment.mesh.positions[sp.a].y - t.garment.mesh.positions[sp.b].y));
  EXPECT_NEAR(worst, 0.40, 1e-9);
  // The outward normals of both panels point away from the tube's axis.
  for (std::size_t p = 0; p < m.panels.size(); ++p) {
    const PanelMeshRange& r = m.panels[p];
    for (int f = r.first_face; f < r.first_face + r.face_count; ++f) {
      const Vec3 n = m.garment.mesh.face_normal(f);
      const Vec3 c = m.garment.mesh.face_centroid(f);
      EXPECT_GT(n.z * c.z, 0);
    }
  }
}

TEST(Mesher, GridMethodEmitsThePapersSprings) {
  // A 30 x 20 cm rectangle at h = 1 cm is exactly a 30 x 20 grid inside a band.
  Panel p;
  p.name = "rect";
  p.vertices = {{0, 0}, {0.3, 0}, {0.3, 0.2}, {0, 0.2}};
  p.edges = {line(0, 1), line(1, 2), line(2, 3), line(3, 0)};
  const double h = 0.01;
  const PatternMesh m = mesh_pattern(single(p), {.method = MeshMethod::grid, .particle_distance = h});
  std::map<SpringKind, int> count;
  for (const SpringPair& s : m.garment.grid_springs) {
    ++count[s.kind];
    const double l = norm(m.garment.rest[s.a] - m.garment.rest[s.b]);
    EXPECT_GT(l, 0);
  }
  EXPECT_GT(count[SpringKind::structural], 0);
  EXPECT_GT(count[SpringKind::shear], 0);
  EXPECT_GT(count[SpringKind::bend], 0);
  // Interior grid springs have the paper's rest lengths h, sqrt(2) h, 2 h.
  int exact = 0;
  for (const SpringPair& s : m.garment.grid_springs) {
    const Vec2 a = m.garment.rest[s.a], b = m.garment.rest[s.b];
    if (std::min({a.x, b.x, a.y, b.y}) < 0.02 || std::max(a.x, b.x) > 0.28 || std::max(a.y, b.y) > 0.18)
      continue;
    const double l = norm(a - b);
    const double want = s.kind == SpringKind::structural ? h
                        : s.kind == SpringKind::shear    ? std::sqrt(2.0) * h
                                                         : 2 * h;
    EXPECT_NEAR(l, want, 1e-9);
    ++exact;
  }
  EXPECT_GT(exact, 300);
  // Every triangle edge carries a structural or shear spring.
  std::set<std::pair<int, int>> springs;
  for (const SpringPair& s : m.garment.grid_springs)
    if (s.kind != SpringKind::bend) springs.insert({std::min(s.a, s.b), std::max(s.a, s.b)});
  for (const MeshEdge& e : MeshAdjacency::build(m.garment.mesh).edges)
    EXPECT_TRUE(springs.count({e.v0, e.v1}));
  // Quads split into two triangles: the interior has 2 faces per grid cell.
  EXPECT_NEAR(rest_area(m, 0, m.panels[0].face_count), 0.06, 1e-12);
}

TEST(Mesher, RejectsBadOptions) {
  const Pattern tube = load_pattern(kFixtures / "tube.json");
  EXPECT_THROW(mesh_pattern(tube, {.particle_distance = 0}), InvalidInput);
  EXPECT_THROW(mesh_pattern(tube, {.particle_distance = NAN}), InvalidInput);
}

TEST(Mesher, RandomOutlinesAreTiledExactly) {
  // Random star-shaped outlines with random lines, Beziers and arcs, random
  // particle distances: the triangles tile the sampled outline polygon
  // exactly, none is inverted, and the area is within 0.5 % of the exact one.
  std::mt19937 rng(20261202);
  std::uniform_real_distribution<double> U(0, 1);
  int meshed = 0;
  for (int it = 0; it < 120; ++it) {
    Panel p;
    p.name = "random" + std::to_string(it);
    const int n = 3 + static_cast<int>(rng() % 9);
    const double R = 0.05 + 0.4 * U(rng);
    for (int i = 0; i < n; ++i) {
      const double a = 2 * kPi * (i + 0.3 * U(rng)) / n, r = R * (0.4 + 0.6 * U(rng));
      p.vertices.push_back({r * std::cos(a), r * std::sin(a)});
    }
    for (int i = 0; i < n; ++i) {
      PanelEdge e{i, (i + 1) % n};
      const Vec2 s = p.vertices[i], d = p.vertices[(i + 1) % n] - s;
      switch (rng() % 4) {
        case 1:
          e.curve = EdgeCurve::quadratic;
          e.c1 = s + d * U(rng) + perp(d) * (0.4 * U(rng) - 0.2);
          break;
        case 2:
          e.curve = EdgeCurve::cubic;
          e.c1 = s + d * U(rng) + perp(d) * (0.4 * U(rng) - 0.2);
          e.c2 = s + d * U(rng) + perp(d) * (0.4 * U(rng) - 0.2);
          break;
        case 3:
          e.curve = EdgeCurve::arc;
          e.radius = norm(d) * (0.55 + 2 * U(rng));
          e.right = rng() % 2;
          break;
        default:
          break;
      }
      p.edges.push_back(e);
    }
    const Pattern pat = single(p);
    try {
      validate_pattern(pat);
    } catch (const InvalidInput&) {
      continue;  // a random outline may cross itself
    }
    for (MeshMethod method : {MeshMethod::quality, MeshMethod::grid}) {
      SCOPED_TRACE(p.name);
      const double h = 0.004 + 0.03 * U(rng);
      const PatternMesh m = mesh_pattern(pat, {.method = method, .particle_distance = h});
      const GarmentMesh& g = m.garment;
      double area = 0;
      for (const Triangle& t : g.mesh.faces) {
        const double a = 0.5 * cross(g.rest[t[1]] - g.rest[t[0]], g.rest[t[2]] - g.rest[t[0]]);
        ASSERT_GT(a, 0);
        area += a;
      }
      double poly = 0;
      std::vector<int> loop;
      for (const auto& ev : m.panels[0].edge_vertices) loop.insert(loop.end(), ev.begin(), ev.end() - 1);
      for (std::size_t i = 0; i < loop.size(); ++i)
        poly += 0.5 * cross(g.mesh.uvs[loop[i]], g.mesh.uvs[loop[(i + 1) % loop.size()]]);
      EXPECT_NEAR(area, std::abs(poly), 1e-9 * area);
      EXPECT_NEAR(area, m.panels[0].area, 0.005 * m.panels[0].area);
      ++meshed;
    }
  }
  EXPECT_GT(meshed, 150);
}

TEST(Mesher, DartLegsSewTogetherWithoutSelfPairs) {
  // A V-shaped dart cut into the top edge; its two legs are stitched, tip to tip.
  Panel p;
  p.name = "darted";
  p.vertices = {{0, 0}, {0.4, 0}, {0.4, 0.3}, {0.25, 0.3}, {0.2, 0.15}, {0.15, 0.3}, {0, 0.3}};
  for (int i = 0; i < 7; ++i) p.edges.push_back(line(i, (i + 1) % 7));
  Pattern pat = single(p);
  pat.stitches = {{{0, 3}, {0, 4}}};
  const PatternMesh m = mesh_pattern(pat, {.particle_distance = 0.01});
  const int n = m.seam_segments[0];
  EXPECT_EQ(static_cast<int>(m.garment.seam_pairs.size()), n);  // n + 1 vertices, the tip dropped
  for (const SeamVertexPair& sp : m.garment.seam_pairs) {
    EXPECT_NE(sp.a, sp.b);
    // Mirror images across the dart's axis x = 0.2, at equal heights.
    const Vec2 a = m.garment.mesh.uvs[sp.a], b = m.garment.mesh.uvs[sp.b];
    EXPECT_NEAR(a.y, b.y, 1e-12);
    EXPECT_NEAR(a.x - 0.2, 0.2 - b.x, 1e-12);
  }
}

namespace {
// Vertices joined by seam pairs, grouped by a breadth-first search over the
// pairs (independent of the mesher's and the cloth's union-find).
std::vector<std::vector<int>> seam_groups(const GarmentMesh& g) {
  const std::size_t n = g.rest.size();
  std::vector<std::vector<int>> nbr(n), groups;
  for (const SeamVertexPair& sp : g.seam_pairs) {
    nbr[sp.a].push_back(sp.b);
    nbr[sp.b].push_back(sp.a);
  }
  std::vector<char> seen(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    if (seen[v] || nbr[v].empty()) continue;
    std::vector<int> group{static_cast<int>(v)};
    seen[v] = 1;
    for (std::size_t i = 0; i < group.size(); ++i)
      for (int u : nbr[group[i]])
        if (!seen[u]) seen[u] = 1, group.push_back(u);
    groups.push_back(group);
  }
  return groups;
}

// Two 20 x 30 cm panels side by side, sewn along their facing sides; each
// side is split 5 mm below the top into a long edge and a tiny one, as
// GarmentCode splits an armhole a few mm before the shoulder tip.
Pattern split_seam_pattern() {
  Pattern pat;
  pat.source = "split seam";
  Panel a, b;
  a.name = "left";
  a.vertices = {{0, 0}, {0.2, 0}, {0.2, 0.295}, {0.2, 0.3}, {0, 0.3}};
  b.name = "right";
  b.vertices = {{0.25, 0}, {0.45, 0}, {0.45, 0.3}, {0.25, 0.3}, {0.25, 0.295}};
  for (int i = 0; i < 5; ++i) {
    a.edges.push_back(line(i, (i + 1) % 5));
    b.edges.push_back(line(i, (i + 1) % 5));
  }
  pat.panels = {a, b};
  // left e1 (long) with right e4, left e2 (tiny) with right e3: ends meet starts.
  pat.stitches = {{{0, 1}, {1, 4}}, {{0, 2}, {1, 3}}};
  return pat;
}
}  // namespace

TEST(Mesher, TinySeamStepIsAbsorbedAndPairsStayConsistent) {
  const Pattern pat = split_seam_pattern();
  for (const double h : {0.02, 0.004}) {
    SCOPED_TRACE("particle distance " + std::to_string(h));
    const PatternMesh m = mesh_pattern(pat, {.particle_distance = h});
    const GarmentMesh& g = m.garment;
    // The 5 mm step is under half the particle distance at 2 cm, not at 4 mm.
    const bool absorbed = 0.005 < 0.5 * h;
    // Every boundary edge (consecutive outline vertices) is then at least half
    // the particle distance: no sub-resolution edge between two seam points.
    double shortest = 1;
    for (const PanelMeshRange& r : m.panels)
      for (const auto& ev : r.edge_vertices)
        for (std::size_t k = 0; k + 1 < ev.size(); ++k)
          shortest = std::min(shortest, norm(g.rest[ev[k + 1]] - g.rest[ev[k]]));
    if (absorbed)
      EXPECT_GE(shortest, 0.5 * h);
    else
      EXPECT_LE(shortest, 0.005 + 1e-12);  // the step's own samples
    // The split corner at y = 0.295 is a vertex only when the step is kept;
    // the panel corners at the top always are, and are sewn to each other.
    auto vertex_at = [&](Vec2 q) {
      for (std::size_t v = 0; v < g.rest.size(); ++v)
        if (norm(g.mesh.uvs[v] - q) < 1e-12) return static_cast<int>(v);
      return -1;
    };
    EXPECT_EQ(vertex_at({0.2, 0.295}) >= 0, !absorbed);
    EXPECT_EQ(vertex_at({0.25, 0.295}) >= 0, !absorbed);
    const int top_a = vertex_at({0.2, 0.3}), top_b = vertex_at({0.25, 0.3});
    ASSERT_GE(top_a, 0);
    ASSERT_GE(top_b, 0);
    // Paired points face each other: same height, one on each panel's sewn side.
    bool tops_paired = false;
    for (const SeamVertexPair& sp : g.seam_pairs) {
      const Vec2 a = g.mesh.uvs[sp.a], b = g.mesh.uvs[sp.b];
      EXPECT_NEAR(a.x, 0.2, 1e-12);
      EXPECT_NEAR(b.x, 0.25, 1e-12);
      EXPECT_NEAR(a.y, b.y, 1e-12);
      tops_paired |= sp.a == top_a && sp.b == top_b;
    }
    EXPECT_TRUE(tops_paired);
    // Each seam group is one vertex of each panel: a straight seam has no corner.
    for (const auto& group : seam_groups(g)) {
      ASSERT_EQ(group.size(), 2u);
      EXPECT_NE(g.panel_of_vertex[group[0]], g.panel_of_vertex[group[1]]);
    }
    // Nothing is cut off: the split corner lies on a straight side.
    for (const PanelMeshRange& r : m.panels)
      EXPECT_NEAR(rest_area(m, r.first_face, r.face_count), 0.06, 1e-12);
  }
}

TEST(Mesher, NoSeamGroupJoinsTwoVerticesOfOnePanel) {
  // Every shipped pattern, brute force over the pairs: a corner where several
  // seams meet joins one vertex per panel (darts excepted: none ship).
  for (const auto& e : fs::recursive_directory_iterator(kData)) {
    if (e.path().extension() != ".json") continue;
    SCOPED_TRACE(e.path().string());
    const PatternMesh m = mesh_pattern(load_pattern(e.path()), {.particle_distance = 0.02});
    for (const auto& group : seam_groups(m.garment)) {
      std::set<int> panels;
      for (int v : group) panels.insert(m.garment.panel_of_vertex[v]);
      EXPECT_EQ(panels.size(), group.size());
    }
  }
}

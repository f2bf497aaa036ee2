// Body landmarks and regions on the MakeHuman body, and placement of every
// shared pattern around it without touching it (checked by brute force).

#include "drape/pattern/placement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>

#include "drape/core/exceptions.h"
#include "drape/geometry/garment_mesh.h"
#include "drape/geometry/mesh_adjacency.h"
#include "drape/io/mesh_io.h"
#include "drape/pattern/alias.h"
#include "drape/landmarks/body_frame.h"
#include "drape/pattern/pattern_io.h"

using namespace drape;
namespace fs = std::filesystem;

namespace {
const fs::path kData = fs::path(DRAPE_DATA_DIR);
const fs::path kFixtures = fs::path(DRAPE_TEST_DATA_DIR) / "patterns";

const TriangleMesh& body() {
  static const TriangleMesh m = read_obj(kData / "bodies/makehuman/base.obj", {.group = "body"}).mesh;
  return m;
}

// Segment pq against triangle abc (Moller-Trumbore), strict interior hit.
bool segment_hits_triangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 d = q - p, e1 = b - a, e2 = c - a;
  const Vec3 h = cross(d, e2);
  const double det = dot(e1, h);
  if (std::abs(det) < 1e-18) return false;
  const double inv = 1 / det;
  const Vec3 s = p - a;
  const double u = dot(s, h) * inv;
  if (u < 0 || u > 1) return false;
  const Vec3 qv = cross(s, e1);
  const double v = dot(d, qv) * inv;
  if (v < 0 || u + v > 1) return false;
  const double t = dot(e2, qv) * inv;
  return t >= 0 && t <= 1;
}

bool triangles_intersect(const Vec3 A[3], const Vec3 B[3]) {
  for (int i = 0; i < 3; ++i) {
    if (segment_hits_triangle(A[i], A[(i + 1) % 3], B[0], B[1], B[2])) return true;
    if (segment_hits_triangle(B[i], B[(i + 1) % 3], A[0], A[1], A[2])) return true;
  }
  return false;
}

// Brute force: count cloth/body triangle pairs that intersect (boxes sorted along x to prune).
int crossing_pairs(const TriangleMesh& cloth, const TriangleMesh& b) {
  std::vector<std::pair<double, int>> order;
  for (std::size_t f = 0; f < b.faces.size(); ++f)
    order.push_back({b.face_bounds(f).min.x, static_cast<int>(f)});
  std::sort(order.begin(), order.end());
  double max_w = 0;
  for (std::size_t f = 0; f < b.faces.size(); ++f) max_w = std::max(max_w, b.face_bounds(f).extent().x);
  int hits = 0;
  for (std::size_t f = 0; f < cloth.faces.size(); ++f) {
    const Aabb cb = cloth.face_bounds(f);
    const Vec3 A[3] = {cloth.positions[cloth.faces[f][0]], cloth.positions[cloth.faces[f][1]],
                       cloth.positions[cloth.faces[f][2]]};
    auto it = std::lower_bound(order.begin(), order.end(), std::pair{cb.min.x - max_w, -1});
    for (; it != order.end() && it->first <= cb.max.x; ++it) {
      if (!b.face_bounds(it->second).overlaps(cb)) continue;
      const Triangle& t = b.faces[it->second];
      const Vec3 B[3] = {b.positions[t[0]], b.positions[t[1]], b.positions[t[2]]};
      if (triangles_intersect(A, B)) ++hits;
    }
  }
  return hits;
}

// Inside test by brute force along an oblique ray (independent of the module's +X grid ray).
bool inside_brute(const Vec3& p, const TriangleMesh& b) {
  const Vec3 far = p + normalized(Vec3{0.3141, 0.8732, 0.3721}) * 10.0;
  int n = 0;
  for (const Triangle& t : b.faces)
    n += segment_hits_triangle(p, far, b.positions[t[0]], b.positions[t[1]], b.positions[t[2]]);
  return n % 2 == 1;
}
}  // namespace

TEST(BodyFrame, MakeHumanLandmarksArePlausible) {
  const BodyFrame f = analyse_body(body());
  EXPECT_NEAR(f.floor_y, -0.8168, 2e-3);
  EXPECT_GT(f.height, 1.5);
  EXPECT_LT(f.height, 1.9);
  auto above_floor = [&](double y) { return (y - f.floor_y) / f.height; };
  EXPECT_GT(above_floor(f.crotch_y), 0.40);
  EXPECT_LT(above_floor(f.crotch_y), 0.53);
  EXPECT_GT(above_floor(f.waist_y), 0.55);
  EXPECT_LT(above_floor(f.waist_y), 0.68);
  EXPECT_GT(above_floor(f.shoulder_y), 0.76);
  EXPECT_LT(above_floor(f.shoulder_y), 0.86);
  EXPECT_GT(f.neck_y, f.shoulder_y);
  EXPECT_LT(above_floor(f.neck_y), 0.92);
  EXPECT_NEAR(f.centre_x, 0, 0.02);
  EXPECT_GT(f.torso_half_width, 0.10);
  EXPECT_LT(f.torso_half_width, 0.22);
  // A-pose: arms hang outwards and down, mirror images of each other.
  for (int s = 0; s < 2; ++s) {
    EXPECT_GT(f.arm_angle_deg[s], 25);
    EXPECT_LT(f.arm_angle_deg[s], 75);
  }
  EXPECT_NEAR(f.arm_angle_deg[0], f.arm_angle_deg[1], 5);
  EXPECT_GT(f.arm_direction[0].x, 0);
  EXPECT_LT(f.arm_direction[1].x, 0);
}

// Everything takes the shoulders across x and the front towards +z; a body
// turned a quarter about y is refused with a message naming its file, and a
// body turned half way round (facing -z) still has its shoulders across x.
TEST(BodyFrame, ABodyFacingAlongXIsRefused) {
  for (const double turn : {0.5, 1.0}) {
    TriangleMesh turned = body();
    const double a = turn * std::numbers::pi, c = std::cos(a), s = std::sin(a);
    for (Vec3& p : turned.positions) p = {c * p.x + s * p.z, p.y, -s * p.x + c * p.z};
    if (turn == 1.0) {
      EXPECT_NO_THROW(analyse_body(turned));
      continue;
    }
    try {
      analyse_body(turned, "turned.obj");
      ADD_FAILURE() << "no error";
    } catch (const InvalidInput& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.rfind("turned.obj: ", 0), 0u) << m;
      EXPECT_NE(m.find("face along x"), std::string::npos) << m;
    }
  }
}

TEST(BodyFrame, RegionsLabelEveryFaceOnce) {
  namespace br = body_region;
  const BodyFrame f = analyse_body(body());
  const std::vector<std::uint32_t> lab = label_body_regions(body(), f);
  ASSERT_EQ(lab.size(), body().face_count());
  const std::uint32_t parts[] = {br::upper,     br::lower,    br::head,     br::left_arm,
                                 br::right_arm, br::left_leg, br::right_leg};
  std::vector<int> count(7, 0);
  for (std::size_t i = 0; i < lab.size(); ++i) {
    int n = 0;
    for (int k = 0; k < 7; ++k)
      if (lab[i] & parts[k]) {
        ++n;
        ++count[k];
      }
    ASSERT_EQ(n, 1);
    ASSERT_EQ(__builtin_popcount(lab[i] & (br::left | br::right)), 1);
    ASSERT_EQ(__builtin_popcount(lab[i] & (br::front | br::back)), 1);
    const Vec3 c = body().face_centroid(i);
    if (lab[i] & br::left_arm) {
      EXPECT_GT(c.x, f.torso_half_width * 0.8);
    }
    if (lab[i] & br::right_arm) {
      EXPECT_LT(c.x, -f.torso_half_width * 0.8);
    }
    if (lab[i] & (br::left_leg | br::right_leg)) {
      EXPECT_LT(c.y, f.crotch_y);
    }
    if (lab[i] & br::head) {
      EXPECT_GT(c.y, f.shoulder_y);
    }
  }
  for (int k = 0; k < 7; ++k) EXPECT_GT(count[k], 200) << k;
  // Arms mirror each other in size.
  EXPECT_NEAR(count[3], count[4], 0.1 * count[3]);
  // The region test: a left sleeve may touch the left arm, not the right arm or the legs.
  const std::uint32_t sleeve = alias_body_regions("left_sleeve_front");
  EXPECT_TRUE(region_allows(br::left_arm | br::left | br::front, sleeve));
  EXPECT_FALSE(region_allows(br::right_arm | br::right | br::front, sleeve));
  EXPECT_FALSE(region_allows(br::left_leg | br::left | br::back, sleeve));
  EXPECT_TRUE(region_allows(br::left_leg | br::left | br::back, br::all));
  // A mask naming sides restricts them too.
  EXPECT_FALSE(region_allows(br::upper | br::right | br::front, br::upper | br::left));
  EXPECT_TRUE(region_allows(br::upper | br::left | br::back, br::upper | br::left));
  // With alias masks the test is the plain bit overlap the collision module uses.
  for (const std::string& alias : known_aliases()) {
    const std::uint32_t m = alias_body_regions(alias);
    for (std::size_t i = 0; i < lab.size(); i += 97)
      EXPECT_EQ(region_allows(lab[i], m), (lab[i] & m) != 0) << alias;
  }
  // The shirt's left sleeve may touch a fraction of the body only.
  int allowed = 0;
  for (std::uint32_t l : lab) allowed += region_allows(l, sleeve);
  EXPECT_GT(allowed, 1000);
  EXPECT_LT(allowed, static_cast<int>(lab.size()) / 2);
}

TEST(Placement, EverySharedPatternPlacesWithoutTouchingTheBody) {
  const BodyFrame frame = analyse_body(body());
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(kData / "patterns"))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  files.push_back(kFixtures / "tee.svg");
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const Pattern pat = load_pattern(file);
    PatternMesh m = mesh_pattern(pat, {.particle_distance = 0.015});
    const PlacementOptions opt;
    const PlacementResult r = place_on_body(pat, m, body(), frame, opt);
    for (const std::string& w : r.warnings) ADD_FAILURE() << w;
    const TriangleMesh& cloth = m.garment.mesh;
    // 1. No cloth triangle crosses a body triangle.
    EXPECT_EQ(crossing_pairs(cloth, body()), 0);
    // 2. No panel lies inside the body (every 7th vertex, brute-force ray parity).
    for (std::size_t v = 0; v < cloth.vertex_count(); v += 7)
      ASSERT_FALSE(inside_brute(cloth.positions[v], body())) << v;
    // 3. Panels stay flat and rigid: 3D edge lengths equal the rest lengths.
    for (const MeshEdge& e : MeshAdjacency::build(cloth).edges)
      ASSERT_NEAR(norm(cloth.positions[e.v0] - cloth.positions[e.v1]),
                  norm(m.garment.rest[e.v0] - m.garment.rest[e.v1]), 1e-9);
    // 4. Near the body, on the side their alias says, with their regions set.
    for (std::size_t p = 0; p < pat.panels.size(); ++p) {
      SCOPED_TRACE(pat.panels[p].name);
      EXPECT_GE(r.clearance[p], opt.clearance - 1e-9);
      EXPECT_LT(r.clearance[p], 0.25);
      EXPECT_EQ(m.garment.panel_regions[p], alias_body_regions(pat.panels[p].alias));
      const PanelMeshRange& pr = m.panels[p];
      Vec3 c{};
      for (int v = pr.first_vertex; v < pr.first_vertex + pr.vertex_count; ++v) c += cloth.positions[v];
      c /= static_cast<double>(pr.vertex_count);
      const AliasInfo a = parse_alias(pat.panels[p].alias);
      if (a.facing == AliasFacing::front) {
        EXPECT_GT(c.z, frame.centre_z);
      }
      if (a.facing == AliasFacing::back) {
        EXPECT_LT(c.z, frame.centre_z);
      }
      if (a.side == AliasSide::left) {
        EXPECT_GT(c.x, frame.centre_x);
      }
      if (a.side == AliasSide::right) {
        EXPECT_LT(c.x, frame.centre_x);
      }
      if (a.part == AliasPart::sleeve) {
        EXPECT_GT(std::abs(c.x - frame.centre_x), frame.torso_half_width);
      }
      if (a.part == AliasPart::skirt || a.part == AliasPart::leg || a.part == AliasPart::waistband) {
        EXPECT_LT(c.y, frame.waist_y + 0.1);
        EXPECT_GT(c.y, frame.floor_y + 0.2);
      }
      if (a.part == AliasPart::torso) {
        EXPECT_GT(c.y, frame.crotch_y);
      }
    }
    // 5. Seams close over short distances (sewing starts near its end state). The GPG
    //    template is a format demo whose side seams cross from one side to the other.
    if (file.filename() == "template_spec_with_comments.json") continue;
    for (const SeamVertexPair& sp : m.garment.seam_pairs)
      EXPECT_LT(norm(cloth.positions[sp.a] - cloth.positions[sp.b]), 0.6);
  }
}

TEST(Placement, SameGarmentDressesAScaledAndShiftedBody) {
  // A body in other units and floor height: the garment follows it.
  TriangleMesh big = body();
  big.scale(1.1);
  big.translate({0.3, 0.8168 * 1.1, -0.2});  // floor at y = 0, moved sideways and back
  const BodyFrame f0 = analyse_body(body()), f1 = analyse_body(big);
  EXPECT_NEAR(f1.floor_y, 0, 1e-3);
  EXPECT_NEAR(f1.height, 1.1 * f0.height, 1e-9);
  EXPECT_NEAR(f1.waist_y - f1.floor_y, 1.1 * (f0.waist_y - f0.floor_y), 0.02);
  const Pattern pat = load_pattern(kData / "patterns/garmentcode/flare_skirt_specification.json");
  PatternMesh m0 = mesh_pattern(pat, {.particle_distance = 0.02});
  PatternMesh m1 = m0;
  place_on_body(pat, m0, body(), f0);
  const PlacementResult r1 = place_on_body(pat, m1, big, f1);
  EXPECT_TRUE(r1.warnings.empty());
  EXPECT_EQ(crossing_pairs(m1.garment.mesh, big), 0);
  const Aabb b0 = m0.garment.mesh.bounds(), b1 = m1.garment.mesh.bounds();
  // The skirt's top sits at the (scaled) waist of each body.
  EXPECT_NEAR(b1.max.y - f1.floor_y, (b0.max.y - f0.floor_y) * 1.1, 0.05);
  EXPECT_NEAR(b1.center().x - f1.centre_x, b0.center().x - f0.centre_x, 0.03);
}

TEST(Placement, AliasPlacementWithoutTheFilesPlacement) {
  // M1 step 15 proper: the alias alone decides where each panel goes.
  const BodyFrame frame = analyse_body(body());
  for (const char* name : {"garmentcode/shirt_mean_specification.json", "gpg/pants_straight_sides.json"}) {
    SCOPED_TRACE(name);
    const Pattern pat = load_pattern(kData / "patterns" / name);
    PatternMesh m = mesh_pattern(pat, {.particle_distance = 0.02});
    PlacementOptions opt;
    opt.force_alias_placement = true;
    const PlacementResult r = place_on_body(pat, m, body(), frame, opt);
    EXPECT_TRUE(r.warnings.empty());
    EXPECT_EQ(crossing_pairs(m.garment.mesh, body()), 0);
    for (std::size_t p = 0; p < pat.panels.size(); ++p) {
      SCOPED_TRACE(pat.panels[p].name);
      const PanelMeshRange& pr = m.panels[p];
      Vec3 c{}, n = r.panel_transforms[p].rotation * Vec3{0, 0, static_cast<double>(pr.orientation)};
      for (int v = pr.first_vertex; v < pr.first_vertex + pr.vertex_count; ++v)
        c += m.garment.mesh.positions[v];
      c /= static_cast<double>(pr.vertex_count);
      const AliasInfo a = parse_alias(pat.panels[p].alias);
      // Outward normals face the alias' way; panels sit on its side.
      if (a.facing == AliasFacing::front) {
        EXPECT_GT(n.z, 0.9);
      }
      if (a.facing == AliasFacing::back) {
        EXPECT_LT(n.z, -0.9);
      }
      if (a.side == AliasSide::left) {
        EXPECT_GT(c.x, frame.centre_x);
      }
      if (a.side == AliasSide::right) {
        EXPECT_LT(c.x, frame.centre_x);
      }
      if (a.part == AliasPart::sleeve) {
        // Along the arm: the sleeve's centre lies near the arm line.
        const int s = a.side == AliasSide::left ? 0 : 1;
        const Vec3 rel = c - frame.shoulder[s];
        const Vec3 along = frame.arm_direction[s] * dot(rel, frame.arm_direction[s]);
        EXPECT_LT(std::hypot(rel.x - along.x, rel.y - along.y), 0.06);
      }
      if (a.part == AliasPart::leg) {
        EXPECT_LT(c.y, frame.waist_y);
      }
      if (a.part == AliasPart::torso) {
        EXPECT_GT(c.y, frame.waist_y);
      }
    }
  }
}

TEST(Placement, HorizontalSleevesTurnToTheArmAngle) {
  // A T-pose design (GPG-like): the shirt's sleeves made horizontal in the file.
  const BodyFrame frame = analyse_body(body());
  Pattern pat = load_pattern(kData / "patterns/garmentcode/shirt_mean_specification.json");
  for (Panel& p : pat.panels)
    if (parse_alias(p.alias).part == AliasPart::sleeve) p.rotation_deg.z = 0;
  PatternMesh m = mesh_pattern(pat, {.particle_distance = 0.02});
  const PlacementResult r = place_on_body(pat, m, body(), frame);
  EXPECT_TRUE(r.warnings.empty());
  for (int side = 0; side < 2; ++side) {
    // Axis: from the armhole seam's vertices to the sleeve panels' centre.
    Vec3 arm{}, centre{};
    int na = 0, nc = 0;
    for (std::size_t s = 0; s < pat.stitches.size(); ++s) {
      const Stitch& st = pat.stitches[s];
      const AliasInfo a = parse_alias(pat.panels[st.a.panel].alias),
                      b = parse_alias(pat.panels[st.b.panel].alias);
      const AliasSide want = side == 0 ? AliasSide::left : AliasSide::right;
      if (a.part == AliasPart::sleeve && a.side == want && b.part != AliasPart::sleeve)
        for (int v : m.panels[st.a.panel].edge_vertices[st.a.edge]) {
          arm += m.garment.mesh.positions[v];
          ++na;
        }
    }
    for (std::size_t p = 0; p < pat.panels.size(); ++p) {
      const AliasInfo a = parse_alias(pat.panels[p].alias);
      if (a.part != AliasPart::sleeve || a.side != (side == 0 ? AliasSide::left : AliasSide::right)) continue;
      for (int v = m.panels[p].first_vertex; v < m.panels[p].first_vertex + m.panels[p].vertex_count; ++v) {
        centre += m.garment.mesh.positions[v];
        ++nc;
      }
    }
    ASSERT_GT(na, 0);
    const Vec3 d = centre / nc - arm / na;
    const double angle = std::atan2(-d.y, std::abs(d.x)) * 180 / std::numbers::pi;
    EXPECT_NEAR(angle, frame.arm_angle_deg[side], 3.0) << side;
  }
  EXPECT_EQ(crossing_pairs(m.garment.mesh, body()), 0);
}

TEST(Placement, FileSleevesMeetTheirArmholesInsideTheTorso) {
  // GarmentCode leaves the shirt's sleeves out along the arm: the sleeve cap's
  // corner starts 16 cm beyond the torso's shoulder point and, with the torso
  // lifted to the shoulders, 10 cm below it, so sewing would drag the shoulder
  // point down the arm. Placed, every sleeve-torso stitch starts with its two
  // sides at the same height on average (within 3 cm), and the sleeves stay
  // inside the torso panels they overlap, as in the file, a layer gap apart.
  const BodyFrame frame = analyse_body(body());
  const Pattern pat = load_pattern(kData / "patterns/garmentcode/shirt_mean_specification.json");
  PatternMesh m = mesh_pattern(pat, {.particle_distance = 0.02});
  const PlacementOptions opt;
  const PlacementResult r = place_on_body(pat, m, body(), frame, opt);
  EXPECT_TRUE(r.warnings.empty());
  const std::vector<Vec3>& x = m.garment.mesh.positions;
  int armhole_stitches = 0;
  for (const Stitch& st : pat.stitches) {
    const AliasInfo a = parse_alias(pat.panels[st.a.panel].alias),
                    b = parse_alias(pat.panels[st.b.panel].alias);
    if ((a.part == AliasPart::sleeve) == (b.part == AliasPart::sleeve)) continue;
    const auto& va = m.panels[st.a.panel].edge_vertices[st.a.edge];
    const auto& vb = m.panels[st.b.panel].edge_vertices[st.b.edge];
    double dy = 0;
    for (int v : va) dy += x[v].y / static_cast<double>(va.size());
    for (int v : vb) dy -= x[v].y / static_cast<double>(vb.size());
    EXPECT_LT(std::abs(dy), 0.03) << pat.panels[st.a.panel].name << " e" << st.a.edge;
    ++armhole_stitches;
  }
  EXPECT_EQ(armhole_stitches, 8);
  auto z_range = [&](std::size_t p) {
    double lo = 1e300, hi = -1e300;
    for (int v = m.panels[p].first_vertex; v < m.panels[p].first_vertex + m.panels[p].vertex_count; ++v) {
      lo = std::min(lo, x[v].z);
      hi = std::max(hi, x[v].z);
    }
    return std::pair{lo, hi};
  };
  int layered = 0;
  for (std::size_t s = 0; s < pat.panels.size(); ++s)
    for (std::size_t t = 0; t < pat.panels.size(); ++t) {
      const AliasInfo a = parse_alias(pat.panels[s].alias), b = parse_alias(pat.panels[t].alias);
      if (a.part != AliasPart::sleeve || b.part != AliasPart::torso || a.side != b.side ||
          a.facing != b.facing)
        continue;
      const auto [slo, shi] = z_range(s);
      const auto [tlo, thi] = z_range(t);
      if (a.facing == AliasFacing::front) {
        EXPECT_GE(tlo - shi, opt.layer_gap - 1e-9) << pat.panels[s].name;
      }
      if (a.facing == AliasFacing::back) {
        EXPECT_GE(slo - thi, opt.layer_gap - 1e-9) << pat.panels[s].name;
      }
      ++layered;
    }
  EXPECT_EQ(layered, 4);
  EXPECT_EQ(crossing_pairs(m.garment.mesh, body()), 0);
}

// On a body narrower than the pattern's reference body (MakeHuman scaled by
// 0.8) the two halves of the shirt's front (and of its back) are mapped into
// one plane, overlapping by more than 5 cm at the centre line. They must start
// as layers, not crossing each other: the cloth cannot undo a crossing (before:
// 215 crossing pairs at the back, and a drape that tangled for minutes).
TEST(Placement, OverlappingHalvesOfAGarmentTooWideForTheBodyStartAsLayers) {
  TriangleMesh small = body();
  small.scale(0.8);
  const BodyFrame frame = analyse_body(small);
  const Pattern pat = load_pattern(kData / "patterns/garmentcode/shirt_mean_specification.json");
  PatternMesh m = mesh_pattern(pat, {.particle_distance = 0.02});
  const PlacementResult r = place_on_body(pat, m, small, frame);
  const TriangleMesh& cloth = m.garment.mesh;
  auto panel_box = [&](const std::string& name) {
    Aabb b;
    for (std::size_t p = 0; p < pat.panels.size(); ++p)
      if (pat.panels[p].name == name)
        for (int v = m.panels[p].first_vertex; v < m.panels[p].first_vertex + m.panels[p].vertex_count; ++v)
          b.expand(cloth.positions[v]);
    return b;
  };
  // The case is exercised: the front halves (and the back halves) overlap
  // across the centre line; as placed flat panels facing +z (-z) they lie in
  // planes z = const, which must be apart (layers), not one plane.
  for (const auto& [a, b] :
       {std::pair{"left_ftorso", "right_ftorso"}, std::pair{"left_btorso", "right_btorso"}}) {
    const Aabb pa = panel_box(a), pb = panel_box(b);
    ASSERT_GT(std::min(pa.max.x, pb.max.x) - std::max(pa.min.x, pb.min.x), 0.05) << a;
    EXPECT_LT(pa.extent().z, 1e-6);  // flat, facing along z
    EXPECT_GT(std::abs(pa.center().z - pb.center().z), 0.01) << a << " and " << b << " in one plane";
  }
  // No triangle of one panel crosses a triangle of another (brute force).
  int hits = 0;
  for (std::size_t p = 0; p < m.panels.size(); ++p)
    for (std::size_t q = p + 1; q < m.panels.size(); ++q)
      for (int f = m.panels[p].first_face; f < m.panels[p].first_face + m.panels[p].face_count; ++f)
        for (int g = m.panels[q].first_face; g < m.panels[q].first_face + m.panels[q].face_count; ++g) {
          if (!cloth.face_bounds(f).overlaps(cloth.face_bounds(g))) continue;
          const Vec3 A[3] = {cloth.positions[cloth.faces[f][0]], cloth.positions[cloth.faces[f][1]],
                             cloth.positions[cloth.faces[f][2]]};
          const Vec3 B[3] = {cloth.positions[cloth.faces[g][0]], cloth.positions[cloth.faces[g][1]],
                             cloth.positions[cloth.faces[g][2]]};
          hits += triangles_intersect(A, B);
        }
  EXPECT_EQ(hits, 0);
  EXPECT_EQ(crossing_pairs(cloth, small), 0);
  EXPECT_TRUE(r.warnings.empty());
}

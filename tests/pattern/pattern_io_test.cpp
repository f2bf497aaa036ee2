// GarmentCode JSON and SVG reading/writing, with the real shared patterns and bad inputs.

#include "drape/pattern/pattern_io.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "test_temp_dir.h"

using namespace drape;
namespace fs = std::filesystem;

namespace {
const fs::path kData = fs::path(DRAPE_DATA_DIR) / "patterns";
const fs::path kFixtures = fs::path(DRAPE_TEST_DATA_DIR) / "patterns";

std::vector<fs::path> shared_patterns() {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(kData))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string error_of(const fs::path& p) {
  try {
    load_pattern(p);
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(GarmentCode, EverySharedPatternLoads) {
  const auto files = shared_patterns();
  ASSERT_GE(files.size(), 5u);
  for (const fs::path& f : files) {
    SCOPED_TRACE(f.string());
    const Pattern p = load_pattern(f);
    EXPECT_GE(p.panels.size(), 2u);
    for (const Panel& panel : p.panels) EXPECT_GT(std::abs(panel_signed_area(panel)), 1e-3);
  }
}

TEST(GarmentCode, ShirtHasItsPanelsSeamsAndAliases) {
  const Pattern p = load_pattern(kData / "garmentcode/shirt_mean_specification.json");
  EXPECT_EQ(p.panels.size(), 8u);
  EXPECT_EQ(p.stitches.size(), 18u);
  EXPECT_EQ(p.frame, SourceFrame::garmentcode);
  EXPECT_DOUBLE_EQ(p.units_in_meter, 100);
  const Panel& lf = p.panels[p.find_panel("left_ftorso")];
  EXPECT_EQ(lf.alias, "left_front");
  EXPECT_EQ(p.panels[p.find_panel("right_btorso")].alias, "right_back");
  EXPECT_EQ(p.panels[p.find_panel("left_sleeve_b")].alias, "left_sleeve_back");
  // A stitched pair of side seams has equal lengths in this pattern.
  const Stitch& s = p.stitches[7];  // left_ftorso edge 1 - left_btorso edge 5
  EXPECT_NEAR(edge_length(p.panels[s.a.panel], s.a.edge), edge_length(p.panels[s.b.panel], s.b.edge), 1e-3);
  // Front torso panel: 28.7 cm wide, 46 cm tall in the file (cm -> m).
  double xmax = 0, ymax = 0;
  for (const Vec2& v : lf.vertices) {
    xmax = std::max(xmax, v.x);
    ymax = std::max(ymax, v.y);
  }
  EXPECT_NEAR(xmax, 0.287, 0.002);
  EXPECT_NEAR(ymax, 0.46, 0.002);
}

TEST(GarmentCode, GpgFramesAndUnitsAreDetected) {
  const Pattern pants = load_pattern(kData / "gpg/pants_straight_sides.json");
  EXPECT_EQ(pants.frame, SourceFrame::gpg);
  EXPECT_EQ(pants.panels[pants.find_panel("Lfront")].alias, "left_leg_front");
  EXPECT_EQ(pants.panels[pants.find_panel("Rback")].alias, "right_leg_back");
  const Pattern skirt = load_pattern(kData / "gpg/skirt_2_panels.json");
  EXPECT_EQ(skirt.panels[skirt.find_panel("front")].alias, "skirt_front");
  EXPECT_EQ(skirt.panels[skirt.find_panel("back")].alias, "skirt_back");
  // The commented template is in units of 1/300 m: its front panel is 264 units = 0.88 m wide at the hem.
  const Pattern tmpl = load_pattern(kData / "gpg/template_spec_with_comments.json");
  EXPECT_DOUBLE_EQ(tmpl.units_in_meter, 300);
  const Panel& f = tmpl.panels[tmpl.find_panel("front")];
  EXPECT_NEAR(f.vertices[2].x - f.vertices[3].x, 264.0 / 300.0, 1e-12);
}

TEST(GarmentCode, RoundTripKeepsOutlines) {
  for (const fs::path& f : shared_patterns()) {
    SCOPED_TRACE(f.string());
    const Pattern a = load_pattern(f);
    const fs::path out = drape::test::test_temp_dir() / ("drape_rt_" + f.filename().string());
    write_garmentcode(out, a);
    const Pattern b = load_pattern(out);
    ASSERT_EQ(a.panels.size(), b.panels.size());
    ASSERT_EQ(a.stitches.size(), b.stitches.size());
    for (std::size_t p = 0; p < a.panels.size(); ++p) {
      const Panel &pa = a.panels[p], &pb = b.panels[p];
      EXPECT_EQ(pa.name, pb.name);
      EXPECT_EQ(pa.alias, pb.alias);
      ASSERT_EQ(pa.edges.size(), pb.edges.size());
      for (std::size_t e = 0; e < pa.edges.size(); ++e) {
        const EdgeGeometry ga = edge_geometry(pa, static_cast<int>(e)),
                           gb = edge_geometry(pb, static_cast<int>(e));
        EXPECT_EQ(ga.curve, gb.curve);
        for (double t : {0.0, 0.25, 0.5, 0.75, 1.0}) EXPECT_NEAR(norm(ga.point(t) - gb.point(t)), 0, 1e-9);
      }
      EXPECT_NEAR(norm(pa.translation - pb.translation), 0, 1e-12);
      EXPECT_NEAR(norm(pa.rotation_deg - pb.rotation_deg), 0, 1e-12);
    }
    for (std::size_t s = 0; s < a.stitches.size(); ++s) {
      EXPECT_EQ(a.stitches[s].a.panel, b.stitches[s].a.panel);
      EXPECT_EQ(a.stitches[s].b.edge, b.stitches[s].b.edge);
      EXPECT_EQ(a.stitches[s].right_wrong, b.stitches[s].right_wrong);
    }
    fs::remove(out);
  }
}

TEST(GarmentCode, BadInputsNamePanelAndEdge) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"bad_stitch_missing_panel.json", {"stitch 0", "missing panel 'sleeve'"}},
      {"bad_stitch_missing_edge.json", {"stitch 1", "panel 'front' edge 7"}},
      {"bad_edge_index.json", {"panel 'back' edge 2", "out of range"}},
      {"bad_open_outline.json", {"panel 'front' edge", "open"}},
      {"bad_self_intersecting.json", {"panel 'front' edge", "intersects itself"}},
      {"bad_zero_length.json", {"panel 'back' edge", "zero-length"}},
      {"bad_nan.json", {"panel 'front' edge 2", "NaN"}},
      {"bad_curvature_type.json", {"panel 'front' edge 2", "unknown curvature type 'spline'"}},
      {"bad_wrong_type.json", {"panel 'front'", "'vertices' must be an array"}},
      {"bad_wrong_type_edge.json", {"panel 'back' edge 1", "must be a number"}},
      {"bad_not_json.json", {"bad_not_json.json", "not valid JSON"}},
  };
  for (const auto& [file, needles] : cases) {
    SCOPED_TRACE(file);
    const std::string msg = error_of(kFixtures / file);
    ASSERT_FALSE(msg.empty()) << "no error";
    EXPECT_NE(msg.find(file), std::string::npos) << msg;
    for (const std::string& n : needles) EXPECT_NE(msg.find(n), std::string::npos) << msg;
  }
  EXPECT_THROW(load_pattern(kFixtures / "no_such_file.json"), IoError);
}

TEST(GarmentCode, AliasOverrideAndUnknownPanels) {
  PatternLoadOptions o;
  o.aliases["front"] = "skirt_front";
  const Pattern p = load_pattern(kFixtures / "tube.json", o);
  EXPECT_EQ(p.panels[p.find_panel("front")].alias, "skirt_front");
  o.aliases = {{"nope", "front"}};
  EXPECT_THROW(load_pattern(kFixtures / "tube.json", o), InvalidInput);
  o.aliases = {{"front", "elbow_patch"}};
  EXPECT_THROW(load_pattern(kFixtures / "tube.json", o), InvalidInput);
}

TEST(Svg, PathsBecomePanelsInMetresWithYUp) {
  // 100 x 100 user units on a 100 mm page: 1 unit = 1 mm. A square with a
  // semicircular top (A command), drawn relative, under a translate.
  const std::string svg =
      R"svg(<svg xmlns="http://www.w3.org/2000/svg" width="100mm" height="100mm" viewBox="0 0 100 100">
    <g transform="translate(10 10)">
      <path id="bib" d="M 0 80 h 40 v -40 a 20 20 0 0 0 -40 0 Z"/>
      <path id="curvy" d="M0,90 L20,90 C 25,80 30,80 35,90 S 45,100 50,90 Q 55,95 60,90 T 70,90 L 70,105 L 0,105 z"/>
    </g>
    <rect id="box" x="0" y="0" width="20" height="10" transform="rotate(90)"/>
  </svg>)svg";
  const std::string side = R"({"panels": {"bib": {"alias": "front"}},
      "stitches": [[{"panel": "bib", "edge": 0}, {"panel": "box", "edge": 2}]]})";
  const Pattern p = parse_svg_pattern(svg, side, "t.svg");
  ASSERT_EQ(p.panels.size(), 3u);
  const Panel& bib = p.panels[0];
  EXPECT_EQ(bib.name, "bib");
  EXPECT_EQ(bib.alias, "front");
  ASSERT_EQ(bib.edges.size(), 4u);  // h, v, a, closing line
  // Area: 40 x 40 mm square plus a half disc of radius 20 mm, in m^2.
  const double expected = (40.0 * 40.0 + 0.5 * std::numbers::pi * 20 * 20) * 1e-6;
  EXPECT_NEAR(std::abs(panel_signed_area(bib)), expected, 1e-12);
  // y flipped: the arc bulges upwards (larger y) in pattern coordinates.
  const EdgeGeometry arc = edge_geometry(bib, 2);
  EXPECT_NEAR(arc.point(0.5).y, -(10 + 20) * 1e-3, 1e-12);
  EXPECT_NEAR(arc.point(0.5).x, (10 + 20) * 1e-3, 1e-12);
  // The rotated rect keeps its size: 20 x 10 mm.
  EXPECT_NEAR(std::abs(panel_signed_area(p.panels[2])), 200e-6, 1e-15);
  ASSERT_EQ(p.stitches.size(), 1u);
  EXPECT_EQ(p.stitches[0].b.panel, 2);
  // S and T reflect the previous control point: curvy's edges are line, cubic, cubic, quad, quad, line, line,
  // line.
  ASSERT_EQ(p.panels[1].edges.size(), 8u);
  EXPECT_EQ(p.panels[1].edges[2].curve, EdgeCurve::cubic);
  EXPECT_NEAR(p.panels[1].edges[2].c1.x, 40e-3 + 10e-3, 1e-12);  // 2*35 - 30 = 40, + translate 10
  EXPECT_EQ(p.panels[1].edges[4].curve, EdgeCurve::quadratic);
  EXPECT_NEAR(p.panels[1].edges[4].c1.x, 65e-3 + 10e-3, 1e-12);  // 2*60 - 55 = 65
}

TEST(Svg, BadSvgInputsAreNamed) {
  auto err = [](const std::string& svg, const std::string& side = "") {
    try {
      parse_svg_pattern(svg, side, "x.svg");
    } catch (const InvalidInput& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(err("<svg><path id='a' d='M0 0 L 10 0 L 10 10'/></svg>").find("panel 'a'"), std::string::npos);
  EXPECT_NE(err("<svg><path id='a' d='M0 0 L 10 0 L 10 10'/></svg>").find("open"), std::string::npos);
  EXPECT_NE(err("<svg><path id='a' d='M0 0 A 5 8 0 0 0 10 0 Z'/></svg>").find("elliptical"),
            std::string::npos);
  EXPECT_NE(err("<svg><path id='a' d='M0 0 L 10 0 X 3 Z'/></svg>").find("unknown command"),
            std::string::npos);
  EXPECT_NE(err("<svg><path").find("not valid XML"), std::string::npos);
  EXPECT_NE(err("<svg><path id='a' d='M0 0 L 10 0 L 10 10 Z'/></svg>",
                R"({"stitches": [[{"panel": "a", "edge": 5}, {"panel": "a", "edge": 0}]]})")
                .find("panel 'a' edge 5"),
            std::string::npos);
}

TEST(Svg, OpenPathsAreDrawingAidsNotPanels) {
  // A grain line next to a panel is skipped with a warning.
  const Pattern p = parse_svg_pattern(
      "<svg><path id='grain' d='M 5 5 L 5 50'/><path id='a' d='M0 0 L 10 0 L 10 10 Z'/></svg>", "", "g.svg");
  ASSERT_EQ(p.panels.size(), 1u);
  EXPECT_EQ(p.panels[0].name, "a");
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_NE(p.warnings[0].find("panel 'grain'"), std::string::npos);
}

TEST(Svg, FixtureWithSidecarLoadsByExtension) {
  const Pattern p = load_pattern(kFixtures / "tee.svg");
  EXPECT_EQ(p.panels.size(), 2u);
  EXPECT_EQ(p.stitches.size(), 2u);
  EXPECT_EQ(p.panels[p.find_panel("tee_front")].alias, "front");
  EXPECT_EQ(p.panels[p.find_panel("tee_back")].alias, "back");
}

TEST(Svg, DrawingListsEveryPanelAndSeam) {
  const Pattern p = load_pattern(kData / "garmentcode/shirt_mean_specification.json");
  const std::string svg = pattern_drawing_svg(p);
  for (const Panel& panel : p.panels) EXPECT_NE(svg.find(">" + panel.name + "<"), std::string::npos);
  for (std::size_t s = 0; s < p.stitches.size(); ++s)
    EXPECT_NE(svg.find(" S" + std::to_string(s) + "<"), std::string::npos) << s;
  // It is itself valid SVG we can read back as panels (the fill paths).
  EXPECT_NO_THROW(parse_svg_pattern(svg, "", "drawing.svg"));
}

TEST(GarmentCode, StitchesSewnWithAHalfTwistAreWarned) {
  // Two 20 cm squares 20 cm apart (front at z = +10, back at z = -10), sewn
  // along their right sides (x = 20). Drawn counter-clockwise both, the right
  // sides both run upwards: end-to-start pairing would twist the seam, while
  // right_wrong (start to start) sews it straight. With the back drawn
  // clockwise (as GarmentCode draws backs) its right side runs down, and the
  // default pairing is the straight one.
  auto text = [](bool back_clockwise, bool right_wrong) {
    const std::string ccw = R"("vertices": [[0, 0], [20, 0], [20, 20], [0, 20]])";
    const std::string cw = R"("vertices": [[0, 0], [0, 20], [20, 20], [20, 0]])";
    const std::string edges = R"("edges": [{"endpoints": [0, 1]}, {"endpoints": [1, 2]},
                                          {"endpoints": [2, 3]}, {"endpoints": [3, 0]}])";
    return std::string(R"({"properties": {"units_in_meter": 100}, "pattern": {"panels": {
      "front": {)") +
           ccw + ", " + edges + R"(, "translation": [0, 100, 10], "rotation": [0, 0, 0]},
      "back": {)" +
           (back_clockwise ? cw : ccw) + ", " + edges +
           R"(, "translation": [0, 100, -10], "rotation": [0, 0, 0]}},
      "stitches": [[{"panel": "front", "edge": 1}, {"panel": "back", "edge": )" +
           (back_clockwise ? "2" : "1") + "}" + (right_wrong ? R"(, "right_wrong")" : "") + "]]}}";
  };
  auto twist_warnings = [](const Pattern& p) {
    int n = 0;
    for (const std::string& w : p.warnings) n += w.find("half twist") != std::string::npos;
    return n;
  };
  const Pattern twisted = parse_garmentcode(text(false, false), "twisted.json");
  ASSERT_EQ(twist_warnings(twisted), 1);
  const std::string& w = twisted.warnings.back();
  EXPECT_NE(w.find("stitch 0 (panel 'front' edge 1 - panel 'back' edge 1)"), std::string::npos) << w;
  EXPECT_NE(w.find("add \"right_wrong\""), std::string::npos) << w;
  EXPECT_EQ(twist_warnings(parse_garmentcode(text(false, true), "rw.json")), 0);
  EXPECT_EQ(twist_warnings(parse_garmentcode(text(true, false), "cw.json")), 0);
  EXPECT_EQ(twist_warnings(parse_garmentcode(text(true, true), "cw_rw.json")), 1);

  // Every shared pattern sews straight, except the GPG format template, whose
  // two side seams cross from one side of the body to the other.
  for (const fs::path& f : shared_patterns()) {
    SCOPED_TRACE(f.string());
    EXPECT_EQ(twist_warnings(load_pattern(f)), f.filename() == "template_spec_with_comments.json" ? 2 : 0);
  }
}

// `drape pattern grade` through the real binary: the shared trousers shrunk
// to 80 % (too small at the hip of the MakeHuman body) come out as a
// GarmentCode file that loads, whose fit on the body (measured again by the
// library, not by the command) reaches the body's hip girth plus ease; the SVG
// drawing is written; bad input exits 2 and writes nothing.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "drape/body/body_grading.h"
#include "drape/body/body_loader.h"
#include "drape/core/atomic_file.h"
#include "drape/pattern/pattern_io.h"
#include "test_temp_dir.h"

namespace fs = std::filesystem;

namespace drape {
namespace {

const std::string kDrape = std::string(DRAPE_BINARY_DIR) + "/apps/drape/drape";
const std::string kBody = std::string(DRAPE_DATA_DIR) + "/bodies/makehuman/base.obj";

int run(const std::string& cmd) {
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct Dir {
  fs::path path = drape::test::test_temp_dir() / ("drape_grade_cli_" + std::to_string(::getpid()));
  Dir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Dir() { fs::remove_all(path); }
};

// The shared trousers with every panel shrunk to `s` about its vertices' centroid.
fs::path write_small_trousers(const fs::path& dir, double s) {
  Pattern p = load_pattern(std::string(DRAPE_DATA_DIR) + "/patterns/gpg/pants_straight_sides.json");
  for (Panel& panel : p.panels) {
    Vec2 c;
    for (const Vec2& v : panel.vertices) c += v;
    c = c / static_cast<double>(panel.vertices.size());
    for (Vec2& v : panel.vertices) v = c + (v - c) * s;
    for (PanelEdge& e : panel.edges) {
      e.c1 = c + (e.c1 - c) * s;
      e.c2 = c + (e.c2 - c) * s;
    }
  }
  const fs::path out = dir / "small_trousers.json";
  write_garmentcode(out, p);
  return out;
}

TEST(PatternGradeCli, WritesALoadablePatternThatFitsTheBody) {
  Dir d;
  const fs::path small = write_small_trousers(d.path, 0.8);
  const fs::path out = d.path / "graded.json", summary = d.path / "summary.json";
  ASSERT_EQ(run(kDrape + " pattern grade " + small.string() + " --body " + kBody + " --out " + out.string() +
                " --json > " + summary.string()),
            0);
  const auto j = nlohmann::json::parse(read_file(summary));
  EXPECT_TRUE(j["graded"].get<bool>());
  EXPECT_FALSE(j["fit_before"]["fits"].get<bool>());

  // Independent check: load the written file and measure it on the body with the library.
  const Pattern graded = load_pattern(out);
  const Body body = load_body(kBody);
  const BodyMeasurements bm = measure_body(body.mesh, "base.obj", false);
  const FitReport fit = fit_on_body(graded, body.mesh, bm, 0.03);
  EXPECT_TRUE(fit.fits);
  bool hip = false;
  for (const GirthFit& g : fit.girths)
    if (g.name == "hip") {
      hip = true;
      EXPECT_NEAR(g.garment, bm.hip * 1.04, 0.01 * bm.hip);
    }
  EXPECT_TRUE(hip);

  // The drawing.
  const fs::path svg = d.path / "graded.svg";
  ASSERT_EQ(run(kDrape + " pattern grade " + small.string() + " --body " + kBody + " --out " + svg.string() +
                " > /dev/null"),
            0);
  EXPECT_NE(read_file(svg).find("<svg"), std::string::npos);
}

TEST(PatternGradeCli, BadInputExitsTwoAndWritesNothing) {
  Dir d;
  const fs::path small = write_small_trousers(d.path, 0.8);
  const std::string quiet = " > /dev/null 2> " + (d.path / "err.txt").string();
  // An output that is neither .json nor .svg.
  EXPECT_EQ(run(kDrape + " pattern grade " + small.string() + " --body " + kBody + " --out " +
                (d.path / "g.txt").string() + quiet),
            2);
  EXPECT_FALSE(fs::exists(d.path / "g.txt"));
  // A body that does not exist.
  EXPECT_EQ(run(kDrape + " pattern grade " + small.string() + " --body " + (d.path / "none.obj").string() +
                " --out " + (d.path / "g.json").string() + quiet),
            2);
  EXPECT_NE(read_file(d.path / "err.txt").find("none.obj"), std::string::npos);
  // A pattern that is not JSON.
  write_file_atomically(d.path / "broken.json", "{ not json");
  EXPECT_EQ(run(kDrape + " pattern grade " + (d.path / "broken.json").string() + " --body " + kBody +
                " --out " + (d.path / "g.json").string() + quiet),
            2);
  EXPECT_NE(read_file(d.path / "err.txt").find("broken.json"), std::string::npos);
  // A negative ease.
  EXPECT_EQ(run(kDrape + " pattern grade " + small.string() + " --body " + kBody + " --ease -0.1 --out " +
                (d.path / "g.json").string() + quiet),
            2);
  EXPECT_FALSE(fs::exists(d.path / "g.json"));
}

}  // namespace
}  // namespace drape

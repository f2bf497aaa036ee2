// Runs the real `drape pattern ...` commands: JSON info, OBJ meshes, the SVG
// drawing, and the bad-input contract (exit code 2, panel and edge named).

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "drape/core/atomic_file.h"
#include "drape/io/mesh_io.h"
#include "test_temp_dir.h"

namespace fs = std::filesystem;

namespace {
const fs::path kData = fs::path(DRAPE_DATA_DIR) / "patterns";
const fs::path kFixtures = fs::path(DRAPE_TEST_DATA_DIR) / "patterns";

struct CliRun {
  int code;
  std::string out, err;
};

CliRun run_drape(const std::string& args) {
  const fs::path dir = drape::test::test_temp_dir() / ("drape_pattern_cli_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string cmd = std::string(DRAPE_BINARY_DIR) + "/apps/drape/drape " + args + " > " +
                          (dir / "out").string() + " 2> " + (dir / "err").string() + " < /dev/null";
  const int status = std::system(cmd.c_str());
  CliRun r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, drape::read_file(dir / "out"),
           drape::read_file(dir / "err")};
  fs::remove_all(dir);
  return r;
}

fs::path temp(const std::string& name) {
  return drape::test::test_temp_dir() / ("drape_pcli_" + std::to_string(::getpid()) + "_" + name);
}
}  // namespace

TEST(PatternCli, InfoJsonListsPanelsStitchesAreasAndRatios) {
  const CliRun r = run_drape("pattern info " +
                             (kData / "garmentcode/flare_skirt_specification.json").string() + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["panels"].size(), 4u);
  ASSERT_EQ(j["stitches"].size(), 6u);
  double total = 0;
  for (const auto& p : j["panels"]) {
    EXPECT_GT(p["area_m2"].get<double>(), 0.01);
    EXPECT_EQ(p["edges"].size(), 4u);
    total += p["area_m2"].get<double>();
  }
  EXPECT_NEAR(j["total_area_m2"].get<double>(), total, 1e-12);
  for (const auto& s : j["stitches"]) EXPECT_GE(s["length_ratio"].get<double>(), 1.0);
  EXPECT_EQ(j["panels"][0]["alias"], "skirt_front");
}

TEST(PatternCli, MeshWritesFlatAndPlacedObj) {
  const fs::path flat = temp("flat.obj"), placed = temp("placed.obj");
  const std::string shirt = (kData / "garmentcode/shirt_mean_specification.json").string();
  CliRun r =
      run_drape("pattern mesh " + shirt + " --out " + flat.string() + " --particle-distance 20 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const drape::LoadedMesh m = drape::read_obj(flat, {.unit = drape::LengthUnit::metre});
  EXPECT_EQ(m.mesh.vertex_count(), j["vertices"].get<std::size_t>());
  EXPECT_NEAR(m.mesh.bounds().extent().z, 0, 1e-9);  // flat
  r = run_drape("pattern mesh " + shirt + " --out " + placed.string() +
                " --method grid --particle-distance 20 --placed");
  ASSERT_EQ(r.code, 0) << r.err;
  // Written in the body's unit (decimetres for MakeHuman), so it overlays the body file.
  const drape::LoadedMesh p = drape::read_obj(placed, {.unit = drape::LengthUnit::decimetre});
  EXPECT_GT(p.mesh.bounds().extent().z, 0.1);
  EXPECT_GT(p.mesh.bounds().max.y, 0.3);  // shoulders of the MakeHuman body (floor at -0.82 m)
  fs::remove(flat);
  fs::remove(placed);
}

// The placed start's seam pairs astride the body (segment through it), with
// and without --bend-sleeves: GPG's T-pose jacket on MakeHuman starts with
// its sleeves' underarm pairs astride the torso; bent, only the torso's side
// seams (over the arm) are left. The unit test counts the same by brute force.
TEST(PatternCli, MeshReportsSeamPairsAstrideTheBody) {
  const fs::path out = temp("jacket.obj");
  const std::string jacket = (kFixtures / "gpg_jacket.json").string();
  const std::string cmd =
      "pattern mesh " + jacket + " --out " + out.string() + " --particle-distance 20 --placed --json";
  CliRun r = run_drape(cmd);
  ASSERT_EQ(r.code, 0) << r.err;
  const int rigid = nlohmann::json::parse(r.out)["seam_pairs_astride_body"].get<int>();
  r = run_drape(cmd + " --bend-sleeves");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const int bent = j["seam_pairs_astride_body"].get<int>();
  EXPECT_GT(rigid, bent);
  EXPECT_GT(bent, 0);
  EXPECT_GT(j["widest_seam_pair_m"].get<double>(), 0.1);  // the side seams: front to back of the body
  fs::remove(out);
}

TEST(PatternCli, SvgDrawing) {
  const fs::path out = temp("d.svg");
  const CliRun r = run_drape("pattern svg " + (kFixtures / "tee.svg").string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string svg = drape::read_file(out);
  EXPECT_NE(svg.find(">tee_front<"), std::string::npos);
  EXPECT_NE(svg.find(" S1<"), std::string::npos);
  fs::remove(out);
}

TEST(PatternCli, BadInputExitsTwoNamingPanelAndEdge) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"bad_stitch_missing_panel.json", "missing panel 'sleeve'"},
      {"bad_stitch_missing_edge.json", "panel 'front' edge 7"},
      {"bad_edge_index.json", "panel 'back' edge 2"},
      {"bad_open_outline.json", "panel 'front' edge"},
      {"bad_self_intersecting.json", "intersects itself"},
      {"bad_zero_length.json", "zero-length"},
      {"bad_nan.json", "panel 'front' edge 2"},
      {"bad_curvature_type.json", "unknown curvature type"},
      {"bad_wrong_type.json", "panel 'front'"},
      {"bad_not_json.json", "not valid JSON"},
  };
  const fs::path out = temp("never.obj");
  for (const auto& [file, needle] : cases) {
    for (const std::string& cmd :
         {std::string("pattern info "), std::string("pattern mesh --out " + out.string() + " ")}) {
      const CliRun r = run_drape(cmd + (kFixtures / file).string());
      SCOPED_TRACE(cmd + file + ": " + r.err);
      EXPECT_EQ(r.code, 2);
      EXPECT_NE(r.err.find(file), std::string::npos);
      EXPECT_NE(r.err.find(needle), std::string::npos);
      EXPECT_FALSE(fs::exists(out));
    }
  }
  EXPECT_EQ(run_drape("pattern mesh " + (kFixtures / "tube.json").string() + " --out " + out.string() +
                      " --method hexagons")
                .code,
            2);
  EXPECT_EQ(run_drape("pattern info " + (kFixtures / "tube.json").string() + " --alias front").code, 2);
  EXPECT_FALSE(fs::exists(out));
}

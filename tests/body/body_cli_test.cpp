// Every command that reads a body takes bodies as users bring them with
// default flags (no groups, glTF), writes results in the body file's frame,
// and refuses a mesh that is not a body with exit 2 and no output.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "drape/core/atomic_file.h"
#include "test_temp_dir.h"
#include "turned_body.h"

namespace fs = std::filesystem;

namespace {
const std::string kDrape = std::string(DRAPE_BINARY_DIR) + "/apps/drape/drape";
const std::string kData = DRAPE_DATA_DIR;

int run(const std::string& args) {
  const int rc = std::system((kDrape + " " + args + " > /dev/null 2>&1").c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

class BodyCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kDrape)) GTEST_SKIP() << "drape binary not built";
    std::random_device rd;
    dir_ = drape::test::test_temp_dir() / ("drape_body_cli_" + std::to_string(rd()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string tmp(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_F(BodyCli, EveryBodyCommandTakesBodiesWithoutGroupsAndGltfWithDefaultFlags) {
  const std::string skirt = kData + "/patterns/garmentcode/flare_skirt_specification.json";
  for (const std::string& body : {kData + "/bodies/garmentcode/mean_female.obj",
                                  kData + "/bodies/godot_male_base_mesh/male_base_mesh.glb"}) {
    const std::string placed = tmp("placed.obj");
    ASSERT_EQ(
        run("pattern mesh " + skirt + " --placed --particle-distance 40 --body " + body + " --out " + placed),
        0)
        << body;
    EXPECT_EQ(run("check --body " + body + " --garment " + placed), 0) << body;
    EXPECT_EQ(run("render --body " + body + " --garment " + placed + " --out " + tmp("r.png")), 0) << body;
    EXPECT_EQ(run("rig fit --body " + body + " --skeleton " + kData +
                  "/bodies/makehuman/cmu_mb.mhskel --out " + tmp("joints.json")),
              0)
        << body;
  }
}

// The MakeHuman body written Z-up facing -Y (the same digits, permuted): the
// joints `rig fit` writes are the canonical body's joints turned the same way.
TEST_F(BodyCli, RigFitWritesJointsInTheBodyFilesFrame) {
  const std::string zup = tmp("base_zup.obj");
  drape::write_file_atomically(zup,
                               drape::test::makehuman_zup_obj_text(kData + "/bodies/makehuman/base.obj"));
  const std::string skel = kData + "/bodies/makehuman/cmu_mb.mhskel";
  ASSERT_EQ(run("rig fit --skeleton " + skel + " --out " + tmp("a.json")), 0);
  ASSERT_EQ(run("rig fit --body " + zup + " --skeleton " + skel + " --out " + tmp("b.json")), 0);
  const auto a = read_json(tmp("a.json")), b = read_json(tmp("b.json"));
  ASSERT_EQ(a["bones"].size(), b["bones"].size());
  for (std::size_t i = 0; i < a["bones"].size(); ++i) {
    const auto& ha = a["bones"][i]["head"];
    const auto& hb = b["bones"][i]["head"];
    EXPECT_NEAR(hb[0].get<double>(), ha[0].get<double>(), 1e-9);
    EXPECT_NEAR(hb[1].get<double>(), -ha[2].get<double>(), 1e-9);
    EXPECT_NEAR(hb[2].get<double>(), ha[1].get<double>(), 1e-9);
  }
}

TEST_F(BodyCli, AMeshThatIsNotABodyExitsTwoWithNoOutput) {
  // A flat 2 x 2 m sheet: no up axis a standing body could have.
  const std::string sheet = tmp("sheet.obj");
  drape::write_file_atomically(sheet, "v 0 0 0\nv 2 0 0\nv 2 0 2\nv 0 0 2\nf 1 2 3\nf 1 3 4\n");
  const std::string out = tmp("dress_out");
  EXPECT_EQ(run("dress --body " + sheet + " --pattern " + kData +
                "/patterns/garmentcode/flare_skirt_specification.json --out " + out),
            2);
  EXPECT_FALSE(fs::exists(fs::path(out) / "garment.obj"));
  EXPECT_EQ(run("check --body " + sheet + " --garment " + sheet), 2);
}

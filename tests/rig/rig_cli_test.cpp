// Runs the drape binary: `rig fit` and `pose` outputs and exit codes.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "drape/io/mesh_io.h"
#include "test_temp_dir.h"

namespace fs = std::filesystem;

namespace {
const std::string kDrape = std::string(DRAPE_BINARY_DIR) + "/apps/drape/drape";
const std::string kData = DRAPE_DATA_DIR;
const std::string kTestData = std::string(DRAPE_TEST_DATA_DIR) + "/rig";

int run(const std::string& args) {
  const int rc = std::system((kDrape + " " + args + " > /dev/null 2>&1").c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}
}  // namespace

class RigCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kDrape)) GTEST_SKIP() << "drape binary not built";
  }
  fs::path tmp(const std::string& name) { return drape::test::test_temp_dir() / ("drape_rig_cli_" + name); }
};

TEST_F(RigCli, RigFitWritesJointsInTheBodyUnit) {
  const fs::path out = tmp("joints.json");
  ASSERT_EQ(run("rig fit --skeleton " + kData + "/bodies/makehuman/cmu_mb.mhskel --out " + out.string()), 0);
  std::ifstream in(out);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["unit"], "dm");
  ASSERT_EQ(j["bones"].size(), 31u);
  // Fitting to the template itself: heads are the MakeHuman joints (decimetres).
  for (const auto& b : j["bones"])
    if (b["name"] == "Hips") {
      EXPECT_NEAR(b["head"][1].get<double>(), 0.72685, 1e-6);
    }
}

TEST_F(RigCli, PoseWritesAPosedObjAndRiggedGlbReadsBack) {
  const fs::path posed = tmp("posed.obj");
  ASSERT_EQ(run("pose --skeleton " + kData + "/bodies/makehuman/cmu_mb.mhskel --motion " + kData +
                "/motion/cmu_jumping_jacks.bvh --frame 60 --skinning dqs --out " + posed.string()),
            0);
  const drape::LoadedMesh lm = drape::read_obj(posed);
  EXPECT_EQ(lm.mesh.vertex_count(), 13380u);
  EXPECT_EQ(lm.file_unit, drape::LengthUnit::decimetre);
  const fs::path glb = tmp("rigged.glb");
  EXPECT_EQ(run("rig fit --skeleton " + kData + "/bodies/makehuman/game_engine.mhskel --out " + glb.string()),
            0);
  EXPECT_GT(fs::file_size(glb), 100000u);
}

TEST_F(RigCli, MalformedInputsExitWithCode2) {
  const std::string skel = kData + "/bodies/makehuman/cmu_mb.mhskel";
  const std::string out = tmp("x.obj").string();
  EXPECT_EQ(run("pose --skeleton " + skel + " --motion " + kTestData + "/bad_channel.bvh --out " + out), 2);
  EXPECT_EQ(run("pose --skeleton " + skel + " --motion " + kTestData + "/truncated_frames.bvh --out " + out),
            2);
  EXPECT_EQ(run("pose --skeleton " + skel + " --motion " + kData +
                "/motion/cmu_jumping_jacks.bvh --frame 125 --out " + out),
            2);
  EXPECT_EQ(run("rig fit --skeleton " + kTestData + "/bad_parent.mhskel --out " + tmp("x.json").string()), 2);
  EXPECT_EQ(run("rig fit --skeleton " + kTestData + "/bad_joint.gltf --out " + tmp("x.json").string()), 2);
  EXPECT_EQ(run("rig fit --skeleton " + kTestData + "/bad_magic.glb --out " + tmp("x.json").string()), 2);
  EXPECT_EQ(run("pose --skeleton " + skel + " --motion " + kData +
                "/motion/cmu_jumping_jacks.bvh --skinning xyz --out " + out),
            2);
}

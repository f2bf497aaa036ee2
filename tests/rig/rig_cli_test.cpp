// Runs the drape binary: `rig fit` and `pose` outputs and exit codes.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
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

TEST_F(RigCli, EveryShippedBodyIsPosedByEveryShippedSkeleton) {
  // Bodies in other poses, frames and rigs (GarmentCode's T-pose OBJ, the
  // Godot man's glTF facing +X, the GDQuest mannequin's glTF) with each
  // bundled MakeHuman skeleton and with their own skins, by the CMU jumping
  // jacks at frame 64. Before the T-pose landmarks, the
  // role map and the turned skin templates, 9 of these 11 exited 2. The posed
  // mesh's highest point is a raised hand, off to one side.
  const std::string motion = " --motion " + kData + "/motion/cmu_jumping_jacks.bvh --frame 64 --out ";
  const std::vector<std::string> bodies = {"garmentcode/mean_all_tpose.obj",
                                           "godot_male_base_mesh/male_base_mesh.glb",
                                           "gdquest_mannequin/mannequiny-0.3.0.glb"};
  for (const std::string& b : bodies) {
    const std::string body = kData + "/bodies/" + b;
    std::vector<std::string> skeletons = {kData + "/bodies/makehuman/default.mhskel",
                                          kData + "/bodies/makehuman/game_engine.mhskel",
                                          kData + "/bodies/makehuman/cmu_mb.mhskel"};
    if (b.ends_with(".glb")) skeletons.push_back(body);
    for (const std::string& s : skeletons) {
      const fs::path out = tmp("posed_every.obj");
      ASSERT_EQ(run("pose --body " + body + " --skeleton " + s + motion + out.string()), 0) << b << " " << s;
      drape::MeshReadOptions raw;
      raw.group = "";
      const drape::TriangleMesh posed = drape::read_obj(out, raw).mesh;
      const drape::TriangleMesh rest = drape::read_mesh(body, raw).mesh;
      // +y is up in all three files (the Godot man faces +X, the others +Z).
      // The highest point is a hand, well to one side of the standing body's
      // vertical axis (at rest it is the top of the head, on that axis).
      std::size_t top = 0;
      for (std::size_t v = 1; v < posed.vertex_count(); ++v)
        if (posed.positions[v].y > posed.positions[top].y) top = v;
      const drape::Vec3 axis = rest.bounds().center();
      const double dx = posed.positions[top].x - axis.x, dz = posed.positions[top].z - axis.z;
      EXPECT_GT(std::hypot(dx, dz), 0.06 * rest.bounds().extent().y) << b << " " << s;
    }
  }
}

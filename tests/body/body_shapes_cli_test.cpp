// Runs the drape binary: `drape body` outputs, measures and exit codes.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "drape/io/mesh_io.h"
#include "drape/rig/gltf_skin.h"
#include "test_temp_dir.h"

namespace fs = std::filesystem;

namespace {
const std::string kDrape = std::string(DRAPE_BINARY_DIR) + "/apps/drape/drape";
const std::string kData = DRAPE_DATA_DIR;

int run(const std::string& args, std::string* out = nullptr) {
  const std::string cmd = kDrape + " " + args + (out ? " 2>/dev/null" : " > /dev/null 2>&1");
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  std::array<char, 4096> buf;
  std::size_t n;
  std::string text;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) text.append(buf.data(), n);
  const int rc = pclose(p);
  if (out) *out = text;
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}
fs::path tmp(const std::string& name) { return drape::test::test_temp_dir() / ("drape_body_cli_" + name); }
}  // namespace

class BodyShapesCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kDrape)) GTEST_SKIP() << "drape binary not built";
  }
};

TEST_F(BodyShapesCli, TallFemaleObjKeepsGroupsAndMeasuresItsOwnHeight) {
  const fs::path out = tmp("tall.obj");
  std::string text;
  ASSERT_EQ(run("body --gender 0 --height 1 --out " + out.string() + " --json", &text), 0);
  const auto j = nlohmann::json::parse(text);
  // README check value: G=0, H=1 is 231.2 cm tall.
  EXPECT_NEAR(j["measures_cm"]["height"].get<double>(), 231.2, 2.312);
  drape::MeshReadOptions o;
  o.group = "body";  // every command finds the body group
  const drape::LoadedMesh lm = drape::read_obj(out, o);
  EXPECT_EQ(lm.file_unit, drape::LengthUnit::decimetre);
  EXPECT_NEAR(lm.mesh.bounds().extent().y * 100, 231.2, 0.1);
  EXPECT_EQ(lm.groups.size(), drape::read_obj(kData + "/bodies/makehuman/base.obj").groups.size());
  // The skeleton beside it, in the OBJ's unit.
  std::ifstream jin(tmp("tall.joints.json"));
  const auto joints = nlohmann::json::parse(jin);
  EXPECT_EQ(joints["unit"], "dm");
  EXPECT_GT(joints["bones"].size(), 100u);
  // --measure of the written file agrees with the numbers printed when making it.
  ASSERT_EQ(run("body --measure " + out.string() + " --json", &text), 0);
  const auto m = nlohmann::json::parse(text);
  for (const char* k : {"height", "bust", "waist", "hip", "inseam"})
    EXPECT_NEAR(m["measures_cm"][k].get<double>(), j["measures_cm"][k].get<double>(), 0.15) << k;
}

TEST_F(BodyShapesCli, GlbHasTheSkeletonOfTheMorphedBody) {
  const std::string shape = "--gender 1 --height 0 --weight 1";
  const fs::path glb = tmp("short.glb"), obj = tmp("short.obj");
  ASSERT_EQ(run("body " + shape + " --out " + glb.string()), 0);
  ASSERT_EQ(run("body " + shape + " --out " + obj.string()), 0);
  const drape::RiggedMesh rm = drape::read_gltf_skin(glb);
  EXPECT_EQ(rm.mesh.vertex_count(), 13380u);
  EXPECT_EQ(rm.weights.size(), rm.mesh.vertex_count());
  EXPECT_NEAR(rm.mesh.bounds().extent().y, 1.364, 0.02);  // README: G=1, H=0 is 136.4 cm (weight adds little)
  // MakeHuman's joints are centroids of base.obj vertex ids (.mhskel "joints"):
  // computed here from the morphed OBJ's own vertices (all of them, helpers
  // included), they are the glTF's bone heads.
  drape::MeshReadOptions all;
  all.drop_unused_vertices = false;
  all.unit = drape::LengthUnit::decimetre;
  const std::vector<drape::Vec3> v = drape::read_obj(obj, all).mesh.positions;
  ASSERT_EQ(v.size(), 19158u);
  std::ifstream skel(kData + "/bodies/makehuman/default.mhskel");
  const auto mh = nlohmann::json::parse(skel);
  int checked = 0;
  for (const char* bone : {"upperarm01.L", "lowerarm01.R", "upperleg01.L", "spine03", "neck01"}) {
    drape::Vec3 c{0, 0, 0};
    const auto& ids = mh["joints"][mh["bones"][bone]["head"].get<std::string>()];
    for (int id : ids) c += v[id];
    c = c * (1.0 / ids.size());
    const int b = rm.skeleton.find(bone);
    ASSERT_GE(b, 0) << bone;
    EXPECT_LT(drape::norm(rm.skeleton.bones[b].head - c), 1e-4) << bone;  // metres (OBJ has 6 decimals in dm)
    ++checked;
  }
  EXPECT_EQ(checked, 5);
  fs::path joints = glb;
  joints.replace_extension(".joints.json");
  std::ifstream in(joints);
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["bones"].size(), rm.skeleton.bones.size());
}

TEST_F(BodyShapesCli, FitLandsWithinOneCentimetre) {
  std::string text;
  ASSERT_EQ(run("body --fit height=172,bust=95,waist=80,hip=100 --json", &text), 0);
  const auto j = nlohmann::json::parse(text);
  for (const char* k : {"height", "bust", "waist", "hip"})
    EXPECT_LE(std::abs(j["fit"]["residuals_cm"][k].get<double>()), 1.0) << k;
  EXPECT_NEAR(j["measures_cm"]["height"].get<double>(), 172, 1.0);
}

TEST_F(BodyShapesCli, MeasureTakesAZUpBodyInCentimetresAsTheCanonicalOne) {
  // The MakeHuman body turned to Z-up (y -> z, z -> -y) and written in cm: the
  // body loader brings it back, so every measure is the canonical body's.
  drape::MeshReadOptions o;
  o.group = "body";
  drape::TriangleMesh m = drape::read_obj(kData + "/bodies/makehuman/base.obj", o).mesh;
  for (drape::Vec3& p : m.positions) p = {p.x, -p.z, p.y};
  const fs::path zup = tmp("zup_cm.obj");
  drape::write_obj(zup, m, drape::LengthUnit::centimetre, false);
  std::string a, b;
  ASSERT_EQ(run("body --measure " + kData + "/bodies/makehuman/base.obj --json", &a), 0);
  ASSERT_EQ(run("body --measure " + zup.string() + " --json", &b), 0);
  const auto ja = nlohmann::json::parse(a), jb = nlohmann::json::parse(b);
  EXPECT_EQ(jb["file_unit"], "cm");
  for (const auto& [k, v] : ja["measures_cm"].items())
    EXPECT_NEAR(jb["measures_cm"][k].get<double>(), v.get<double>(), 0.15) << k;
}

TEST_F(BodyShapesCli, BadInputsExitWithCode2) {
  const std::string out = tmp("bad.obj").string();
  EXPECT_EQ(run("body --gender 1.5 --out " + out), 2);
  EXPECT_EQ(run("body --shoulders 0.5 --out " + out), 2);  // no such macro
  EXPECT_EQ(run("body --fit height=abc"), 2);
  EXPECT_EQ(run("body --fit chest=90"), 2);
  EXPECT_EQ(run("body --targets /nonexistent/targets --out " + out), 2);
  EXPECT_EQ(run("body --measure /nonexistent/body.obj"), 2);
  EXPECT_EQ(run("body --out " + tmp("bad.png").string()), 2);
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(run("body --fit height=300"), 3);  // taller than MakeHuman's tallest: not reached
}

#include "drape/cloth/fabric.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "drape/cloth/cloth_model.h"
#include "drape/core/exceptions.h"
#include "fabric_test_files.h"

using namespace drape;
namespace fs = std::filesystem;
using drape::test::fabric_file_error;
using drape::test::write_fabric_file;

TEST(Fabric, PresetsArePhysicallyOrdered) {
  for (const std::string& name : fabric_preset_names())
    EXPECT_NO_THROW(validate_fabric(fabric_preset(name), name));
  // Denim is heavier and stiffer in bending than cotton, silk lighter and softer, knit stretchier.
  EXPECT_GT(fabric_preset("denim").density, fabric_preset("cotton").density);
  EXPECT_GT(fabric_preset("denim").bending, fabric_preset("cotton").bending);
  EXPECT_LT(fabric_preset("silk").density, fabric_preset("cotton").density);
  EXPECT_LT(fabric_preset("silk").bending, fabric_preset("cotton").bending);
  EXPECT_LT(fabric_preset("jersey").stretch, fabric_preset("cotton").stretch / 4);
  EXPECT_EQ(fabric_preset("knit").name, "jersey");
  EXPECT_THROW(fabric_preset("tweed"), InvalidInput);
}

TEST(Fabric, JsonFileOverridesItsBase) {
  const fs::path p =
      write_fabric_file("ok.json", R"({"name": "heavy silk", "base": "silk", "density_kg_m2": 0.12})");
  const Fabric f = read_fabric_json(p);
  EXPECT_EQ(f.name, "heavy silk");
  EXPECT_DOUBLE_EQ(f.density, 0.12);
  EXPECT_DOUBLE_EQ(f.bending, fabric_preset("silk").bending);
}

TEST(Fabric, BadFilesNameFileAndField) {
  const fs::path neg = write_fabric_file("neg.json", R"({"density_kg_m2": -1})");
  std::string e = fabric_file_error(neg);
  EXPECT_NE(e.find(neg.string()), std::string::npos) << e;
  EXPECT_NE(e.find("density_kg_m2"), std::string::npos) << e;
  const fs::path soft = write_fabric_file("soft.json", R"({"stretch_N_m": -5})");
  e = fabric_file_error(soft);
  EXPECT_NE(e.find("'stretch_N_m' must be a finite number > 0"), std::string::npos) << e;
  const fs::path str = write_fabric_file("str.json", R"({"stretch_N_m": "stiff"})");
  e = fabric_file_error(str);
  EXPECT_NE(e.find("stretch_N_m"), std::string::npos) << e;
  // A key without its unit is refused, naming the key and the one to write.
  const fs::path bare = write_fabric_file("bare.json", R"({"bending": 1e-5})");
  e = fabric_file_error(bare);
  EXPECT_NE(e.find("'bending' names no unit: write 'bending_N_m'"), std::string::npos) << e;
  const fs::path unknown = write_fabric_file("unknown.json", R"({"stiffness": 3})");
  e = fabric_file_error(unknown);
  EXPECT_NE(e.find("stiffness"), std::string::npos) << e;
  const fs::path broken = write_fabric_file("broken.json", R"({"density_kg_m2": )");
  e = fabric_file_error(broken);
  EXPECT_NE(e.find(broken.string()), std::string::npos) << e;
  EXPECT_THROW(read_fabric_json("/nonexistent/fabric.json"), IoError);
}

TEST(Fabric, StretchPerDirection) {
  // An isotropic preset: warp = weft = bias = the old single modulus.
  const Fabric cotton = fabric_preset("cotton");
  EXPECT_TRUE(fabric_stretch_isotropic(cotton));
  EXPECT_EQ(fabric_stretch_weft(cotton), cotton.stretch);
  EXPECT_EQ(fabric_stretch_bias(cotton), cotton.stretch);
  // Denim: warp stiffer than weft; bias the mean when not given.
  const Fabric denim = fabric_preset("denim");
  EXPECT_FALSE(fabric_stretch_isotropic(denim));
  EXPECT_GT(denim.stretch, 2 * fabric_stretch_weft(denim));
  EXPECT_DOUBLE_EQ(fabric_stretch_bias(denim), 0.5 * (denim.stretch + fabric_stretch_weft(denim)));
  // Y(theta) passes through warp (cos^2 = 1), bias (1/2) and weft (0).
  Fabric f = cotton;
  f.stretch = 900;
  f.stretch_weft = 300;
  f.stretch_bias = 100;
  EXPECT_DOUBLE_EQ(fabric_stretch_at(f, 1), 900);
  EXPECT_DOUBLE_EQ(fabric_stretch_at(f, 0.5), 100);
  EXPECT_DOUBLE_EQ(fabric_stretch_at(f, 0), 300);
  // ... and at 30 degrees from the warp: a + b cos 60 + c cos 120 with
  // a = (900 + 300) / 4 + 100 / 2 = 350, b = 300, c = 300 - 50 = 250.
  EXPECT_NEAR(fabric_stretch_at(f, 0.75), 350 + 300 / 2.0 - 250 / 2.0, 1e-9);
}

TEST(Fabric, StretchKeysPerDirection) {
  // stretch_N_m on an anisotropic base makes the fabric isotropic.
  Fabric f = read_fabric_json(write_fabric_file("iso.json", R"({"base": "denim", "stretch_N_m": 20000})"));
  EXPECT_TRUE(fabric_stretch_isotropic(f));
  EXPECT_EQ(f.stretch, 20000);
  // One direction set: the others keep the base's (cotton: 12,000 N/m).
  f = read_fabric_json(write_fabric_file("weft.json", R"({"stretch_weft_N_m": 6000})"));
  EXPECT_EQ(f.stretch, 12000);
  EXPECT_EQ(fabric_stretch_weft(f), 6000);
  EXPECT_EQ(fabric_stretch_bias(f), 9000);
  f = read_fabric_json(write_fabric_file(
      "all.json", R"({"stretch_warp_N_m": 8000, "stretch_weft_N_m": 4000, "stretch_bias_N_m": 1000})"));
  EXPECT_EQ(f.stretch, 8000);
  EXPECT_EQ(fabric_stretch_weft(f), 4000);
  EXPECT_EQ(fabric_stretch_bias(f), 1000);
  // Refused, naming the key: a negative weft, the isotropic key with the warp's.
  std::string e = fabric_file_error(write_fabric_file("negweft.json", R"({"stretch_weft_N_m": -1})"));
  EXPECT_NE(e.find("'stretch_weft_N_m' must be a finite number > 0"), std::string::npos) << e;
  e = fabric_file_error(write_fabric_file(
      "bias.json", R"({"stretch_warp_N_m": 10000, "stretch_weft_N_m": 10000, "stretch_bias_N_m": 1})"));
  EXPECT_EQ(e, "");  // Y(theta) = 5000.5 + 4999.5 cos 4 theta: 1 N/m at 45 degrees, positive
  // A bias under the edge springs' floor is a fabric (the triangle model takes
  // it); the springs refuse it when a garment is built, naming the file and key.
  const fs::path soft = write_fabric_file(
      "bias2.json", R"({"stretch_warp_N_m": 10000, "stretch_weft_N_m": 1000, "stretch_bias_N_m": 1})");
  EXPECT_EQ(fabric_file_error(soft), "");
  const Fabric soft_bias = read_fabric_json(soft);
  EXPECT_EQ(soft_bias.source, soft.string());
  try {
    resolve_stretch_model(GarmentMesh{}, soft_bias, StretchModel::springs, true);
    ADD_FAILURE() << "the springs took a bias their Y(theta) cannot have";
  } catch (const InvalidInput& err) {
    e = err.what();
  }
  EXPECT_NE(e.find(soft.string() + ": key 'stretch_bias_N_m' (1 N/m) is too small"), std::string::npos) << e;
  EXPECT_NE(e.find("--stretch-model triangle"), std::string::npos) << e;
  e = fabric_file_error(write_fabric_file("both.json", R"({"stretch_N_m": 1000, "stretch_warp_N_m": 2000})"));
  EXPECT_NE(e.find("stretch_warp_N_m"), std::string::npos) << e;
}

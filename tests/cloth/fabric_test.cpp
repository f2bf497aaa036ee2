#include "drape/cloth/fabric.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "drape/core/exceptions.h"
#include "test_temp_dir.h"

using namespace drape;
namespace fs = std::filesystem;

namespace {
fs::path write_temp(const std::string& name, const std::string& text) {
  const fs::path p = drape::test::test_temp_dir() / ("drape_fabric_" + name);
  std::ofstream(p) << text;
  return p;
}
std::string error_of(const fs::path& p) {
  try {
    read_fabric_json(p);
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "";
}
}  // namespace

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
      write_temp("ok.json", R"({"name": "heavy silk", "base": "silk", "density_kg_m2": 0.12})");
  const Fabric f = read_fabric_json(p);
  EXPECT_EQ(f.name, "heavy silk");
  EXPECT_DOUBLE_EQ(f.density, 0.12);
  EXPECT_DOUBLE_EQ(f.bending, fabric_preset("silk").bending);
}

TEST(Fabric, BadFilesNameFileAndField) {
  const fs::path neg = write_temp("neg.json", R"({"density_kg_m2": -1})");
  std::string e = error_of(neg);
  EXPECT_NE(e.find(neg.string()), std::string::npos) << e;
  EXPECT_NE(e.find("density_kg_m2"), std::string::npos) << e;
  const fs::path soft = write_temp("soft.json", R"({"stretch_N_m": -5})");
  e = error_of(soft);
  EXPECT_NE(e.find("'stretch_N_m' must be a finite number > 0"), std::string::npos) << e;
  const fs::path str = write_temp("str.json", R"({"stretch_N_m": "stiff"})");
  e = error_of(str);
  EXPECT_NE(e.find("stretch_N_m"), std::string::npos) << e;
  // A key without its unit is refused, naming the key and the one to write.
  const fs::path bare = write_temp("bare.json", R"({"bending": 1e-5})");
  e = error_of(bare);
  EXPECT_NE(e.find("'bending' names no unit: write 'bending_N_m'"), std::string::npos) << e;
  const fs::path unknown = write_temp("unknown.json", R"({"stiffness": 3})");
  e = error_of(unknown);
  EXPECT_NE(e.find("stiffness"), std::string::npos) << e;
  const fs::path broken = write_temp("broken.json", R"({"density_kg_m2": )");
  e = error_of(broken);
  EXPECT_NE(e.find(broken.string()), std::string::npos) << e;
  EXPECT_THROW(read_fabric_json("/nonexistent/fabric.json"), IoError);
}

// `drape fabric test --json` on a fabric file: the keys named with their units,
// the answers computed from the file's own numbers, the pictures written.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "drape/core/atomic_file.h"
#include "test_temp_dir.h"

namespace fs = std::filesystem;

TEST(FabricCli, CantileverOfAFabricFileAgainstItsOwnNumbers) {
  const fs::path dir = drape::test::test_temp_dir() / ("drape_fabric_cli_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path fabric = dir / "stiff.json";
  std::ofstream(fabric)
      << R"({"name": "stiff", "base": "cotton", "density_kg_m2": 0.2, "bending_N_m": 2e-5})";
  const fs::path out = dir / "result.json";
  const std::string cmd = std::string(DRAPE_BINARY_DIR) + "/apps/drape/drape fabric test --fabric '" +
                          fabric.string() + "' --test cantilever --json --out '" + (dir / "lab").string() +
                          "' > '" + out.string() + "'";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  const auto j = nlohmann::json::parse(drape::read_file(out));
  ASSERT_EQ(j["fabrics"].size(), 1u);
  const auto& f = j["fabrics"][0];
  EXPECT_EQ(f["fabric"], "stiff");
  const double w = 0.2 * 9.81;
  EXPECT_NEAR(f["weight_N_m2"].get<double>(), w, 1e-9);
  EXPECT_NEAR(f["flexural_rigidity_N_m"].get<double>(), 2e-5, 1e-15);
  const double c = std::cbrt(2e-5 / w);  // Peirce's bending length
  EXPECT_NEAR(f["bending_length_peirce_m"].get<double>(), c, 1e-9);
  EXPECT_NEAR(f["bending_length_elastica_m"].get<double>(), c, 1e-3 * c);  // overhang 2.000 c at 41.5 degrees
  EXPECT_NEAR(f["bending_length_sim_m"].get<double>(), c, 0.05 * c);
  EXPECT_TRUE(fs::exists(dir / "lab" / "fabric_test.json"));
  EXPECT_TRUE(fs::exists(dir / "lab" / "stiff_cantilever.png"));
  fs::remove_all(dir);
}

// `drape fabric test --fabric FABRIC --test tensile --particle-distance 20
// --json` printed into `out` and read back; null (and a test failure) when
// the command does not exit 0.
nlohmann::json tensile_json(const fs::path& fabric, const fs::path& out) {
  const std::string cmd = std::string(DRAPE_BINARY_DIR) + "/apps/drape/drape fabric test --fabric '" +
                          fabric.string() + "' --test tensile --particle-distance 20 --json > '" +
                          out.string() + "'";
  const int status = std::system(cmd.c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return nullptr;
  return nlohmann::json::parse(drape::read_file(out));
}

TEST(FabricCli, TensilePerDirectionAgainstTheFileModuli) {
  // A fabric file with warp, weft and bias moduli: `drape fabric test --test
  // tensile` cuts a strip along each and reads the file's own modulus in each
  // direction, within 2 % (docs/FABRICS.md, "Tensile").
  const fs::path dir = drape::test::test_temp_dir() / ("drape_fabric_cli_t_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path fabric = dir / "woven.json";
  std::ofstream(fabric) << R"({"name": "woven", "stretch_warp_N_m": 20000, "stretch_weft_N_m": 10000,
                              "stretch_bias_N_m": 6000})";
  const nlohmann::json j = tensile_json(fabric, dir / "result.json");
  ASSERT_FALSE(j.is_null());
  const auto& t = j["fabrics"][0]["tensile"];
  const std::pair<const char*, double> expected[] = {{"warp", 20000}, {"weft", 10000}, {"bias", 6000}};
  for (const auto& [direction, modulus] : expected) {
    ASSERT_TRUE(t.contains(direction)) << direction;
    EXPECT_EQ(t[direction]["stretch_modulus_N_m"].get<double>(), modulus) << direction;
    ASSERT_EQ(t[direction]["points"].size(), 4u);
    for (const auto& p : t[direction]["points"])
      EXPECT_NEAR(p["force_per_width_sim_N_m"].get<double>() / (modulus * p["strain"].get<double>()), 1, 0.02)
          << direction << " " << p["strain"];
  }
  fs::remove_all(dir);
}

TEST(FabricCli, TensileCurveOfABiphasicFabricFile) {
  // A fabric file with a warp curve soft to 2 % then five times stiffer:
  // `drape fabric test --test tensile --json` (20 mm: the command's plumbing;
  // the lab's accuracy at 10 mm is NonlinearTensile's) gives the file's curve and the
  // simulated one per direction, each point within 2 % of the file's force at
  // the simulated strain (docs/FABRICS.md, "Non-linear stretch").
  const fs::path dir = drape::test::test_temp_dir() / ("drape_fabric_cli_c_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path fabric = dir / "biphasic.json";
  std::ofstream(fabric)
      << R"({"name": "biphasic", "stretch_curve_warp_N_m": [[0, 0], [0.02, 40], [0.06, 440]],
                              "stretch_weft_N_m": 3000})";
  const nlohmann::json j = tensile_json(fabric, dir / "result.json");
  ASSERT_FALSE(j.is_null());
  const auto& warp = j["fabrics"][0]["tensile"]["warp"];
  EXPECT_EQ(warp["stretch_modulus_N_m"].get<double>(), 2000);
  ASSERT_EQ(warp["stretch_curve_N_m"].size(), 3u);
  EXPECT_EQ(warp["stretch_curve_N_m"][2][1].get<double>(), 440);
  auto file_force = [](double e) { return e <= 0.02 ? 2000 * e : 40 + 10000 * (e - 0.02); };
  ASSERT_EQ(warp["points"].size(), 4u);  // the middle and the end of each segment
  for (const auto& p : warp["points"]) {
    const double e = p["strain"].get<double>();
    EXPECT_NEAR(p["force_per_width_sim_N_m"].get<double>() / file_force(e), 1, 0.02) << e;
  }
  EXPECT_GT(warp["points"][3]["strain"].get<double>(), 0.05);
  // The weft stays linear: no curve, the linear samples.
  EXPECT_FALSE(j["fabrics"][0]["tensile"]["weft"].contains("stretch_curve_N_m"));
  EXPECT_EQ(j["fabrics"][0]["tensile"]["weft"]["points"].size(), 4u);
  fs::remove_all(dir);
}

TEST(FabricCli, StretchModelChoosesTheSpecimensModel) {
  // A bias under the edge springs' floor (docs/FABRICS.md, "Warp, weft and
  // bias"): the default springs refuse the file with exit 2 naming it and the
  // way out; `--stretch-model triangle` runs it and says so in the JSON.
  const fs::path dir = drape::test::test_temp_dir() / ("drape_fabric_cli_m_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path fabric = dir / "soft_bias.json";
  std::ofstream(fabric) << R"({"name": "soft bias", "base": "poplin", "stretch_bias_N_m": 150})";
  const std::string base = std::string(DRAPE_BINARY_DIR) + "/apps/drape/drape fabric test --fabric '" +
                           fabric.string() + "' --test cantilever --particle-distance 20 --json";
  const fs::path out = dir / "result.json", err = dir / "stderr.txt";
  int status = std::system((base + " > '" + out.string() + "' 2> '" + err.string() + "'").c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
  const std::string message = drape::read_file(err);
  EXPECT_NE(message.find(fabric.string() + ": key 'stretch_bias_N_m' (150 N/m) is too small"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("--stretch-model triangle"), std::string::npos) << message;
  status = std::system((base + " --stretch-model triangle > '" + out.string() + "'").c_str());
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  const auto j = nlohmann::json::parse(drape::read_file(out));
  EXPECT_EQ(j["fabrics"][0]["stretch_model"], "triangle");
  EXPECT_GT(j["fabrics"][0]["bending_length_sim_m"].get<double>(), 0);
  fs::remove_all(dir);
}

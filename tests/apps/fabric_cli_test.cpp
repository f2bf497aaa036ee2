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

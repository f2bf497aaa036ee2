// `drape check --json --list` on a garment with one known crossing: the count
// and the listed pair (faces and where) against the hand-computed answer.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "drape/core/atomic_file.h"
#include "test_temp_dir.h"

namespace fs = std::filesystem;

TEST(CheckCli, ListsTheCrossingPairAndWhereItIs) {
  const fs::path dir = drape::test::test_temp_dir() / ("drape_check_cli_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  // Two triangles far from the body (decimetres, the default body's unit): A
  // lies in y = 0, B stands in z = 0.5 and passes through A; they share no vertex.
  const fs::path garment = dir / "crossing.obj";
  std::ofstream(garment) << "v 100 0 0\nv 102 0 0\nv 101 0 2\n"
                            "v 100.5 -1 0.5\nv 101.5 -1 0.5\nv 101 1 0.5\n"
                            "f 1 2 3\nf 4 5 6\n";
  const fs::path out = dir / "check.json";
  const std::string cmd = std::string(DRAPE_BINARY_DIR) + "/apps/drape/drape check --garment '" +
                          garment.string() + "' --json --list > '" + out.string() + "'";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  const auto j = nlohmann::json::parse(drape::read_file(out));
  EXPECT_EQ(j["garment_unit"], "dm");
  EXPECT_EQ(j["vertices_inside_body"], 0);
  EXPECT_EQ(j["body_crossing_pairs"], 0);
  ASSERT_EQ(j["self_crossing_pairs"], 1);
  ASSERT_EQ(j["self_crossings"].size(), 1u);
  const auto& p = j["self_crossings"][0];
  EXPECT_EQ(p["a"], 0);
  EXPECT_EQ(p["b"], 1);
  // Midpoint of the centroids (101, 0, 2/3) and (101, -1/3, 1/2), in the garment's unit.
  EXPECT_NEAR(p["at"][0].get<double>(), 101.0, 1e-6);
  EXPECT_NEAR(p["at"][1].get<double>(), -1.0 / 6, 1e-6);
  EXPECT_NEAR(p["at"][2].get<double>(), 7.0 / 12, 1e-6);
  EXPECT_TRUE(j["body_crossings"].empty());
  EXPECT_FALSE(j["clean"].get<bool>());
  fs::remove_all(dir);
}

// `drape dress --write-start DIR`: the sewn start a peer drapes from
// (bench/peers/blender_dress.py). Its garment is the one the job simulates
// (vertex and seam pair counts as report.json gives them), placed clear of the
// body it is written with (`drape check`: nothing inside, nothing crossing),
// and that body is the input body's mesh (its vertex count), in its unit.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "drape/core/atomic_file.h"
#include "test_temp_dir.h"

namespace fs = std::filesystem;

namespace {

int run(const std::string& args, const fs::path& stdout_file) {
  const std::string cmd =
      std::string(DRAPE_BINARY_DIR) + "/apps/drape/drape " + args + " > '" + stdout_file.string() + "'";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::size_t count_lines_starting(const fs::path& file, const std::string& prefix) {
  std::ifstream in(file);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) n += line.rfind(prefix, 0) == 0;
  return n;
}

}  // namespace

TEST(WriteStartCli, WritesTheSimulatedGarmentClearOfTheBodyWithItsSeamPairs) {
  const fs::path dir = drape::test::test_temp_dir() / ("drape_write_start_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path start = dir / "start";
  const std::string data = DRAPE_DATA_DIR;
  ASSERT_EQ(run("dress --pattern '" + data + "/patterns/gpg/skirt_2_panels.json' --body '" + data +
                    "/bodies/makehuman/base.obj' --particle-distance 40 --max-frames 2 --no-render --json "
                    "--out '" +
                    (dir / "out").string() + "' --write-start '" + start.string() + "'",
                dir / "report.json"),
            0);
  const auto report = nlohmann::json::parse(drape::read_file(dir / "report.json"));
  const auto seams = nlohmann::json::parse(drape::read_file(start / "seams.json"));
  EXPECT_EQ(seams["unit"], "dm");
  const std::size_t vertices = count_lines_starting(start / "start.obj", "v ");
  EXPECT_EQ(seams["vertices"].get<std::size_t>(), vertices);
  EXPECT_EQ(report["result"]["vertices"].get<std::size_t>(), vertices);
  ASSERT_EQ(seams["pairs_0_based"].size(), report["result"]["seams"]["pairs"].get<std::size_t>());
  ASSERT_GT(seams["pairs_0_based"].size(), 10u);
  for (const auto& p : seams["pairs_0_based"]) {
    EXPECT_LT(p[0].get<std::size_t>(), vertices);
    EXPECT_LT(p[1].get<std::size_t>(), vertices);
    EXPECT_NE(p[0], p[1]);
  }
  EXPECT_EQ(count_lines_starting(start / "body.obj", "v "),
            report["inputs"]["body"]["vertices"].get<std::size_t>());
  ASSERT_EQ(run("check --garment '" + (start / "start.obj").string() + "' --body '" +
                    (start / "body.obj").string() + "' --json",
                dir / "check.json"),
            0);
  const auto check = nlohmann::json::parse(drape::read_file(dir / "check.json"));
  EXPECT_EQ(check["vertices_inside_body"], 0);
  EXPECT_EQ(check["body_crossing_pairs"], 0);
  fs::remove_all(dir);
}

// `drape bench cloth --shape`: the tube of the field notes' peer set-up is a
// cylinder (every start vertex at one distance from the axis, unlike the
// cone), it runs to the end with finite figures, and an unknown shape is
// refused with exit code 2 and a message that names the option.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "drape/core/atomic_file.h"
#include "drape/io/mesh_io.h"
#include "test_temp_dir.h"

namespace fs = std::filesystem;

namespace {

int run(const std::string& args, const fs::path& out, const fs::path& err) {
  const std::string cmd = std::string(DRAPE_BINARY_DIR) + "/apps/drape/drape --threads 1 bench cloth " +
                          args + " > '" + out.string() + "' 2> '" + err.string() + "'";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Spread of the start vertices' distances from the vertical axis through their centroid.
double radius_spread(const fs::path& obj) {
  const drape::LoadedMesh m = drape::read_mesh(obj.string(), {});
  drape::Vec3 c{};
  for (const drape::Vec3& p : m.mesh.positions) c += p;
  c /= static_cast<double>(m.mesh.positions.size());
  double lo = 1e300, hi = 0;
  for (const drape::Vec3& p : m.mesh.positions) {
    const double r = std::hypot(p.x - c.x, p.z - c.z);
    lo = std::min(lo, r);
    hi = std::max(hi, r);
  }
  return (hi - lo) / hi;
}

}  // namespace

TEST(BenchClothCli, TubeIsACylinderAndABadShapeIsRefused) {
  const fs::path dir = drape::test::test_temp_dir() / ("drape_bench_cloth_cli_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const std::string shape : {"tube", "cone"}) {
    ASSERT_EQ(run("--shape " + shape + " --vertices 300 --frames 2 --substeps 2 --json --write '" +
                      dir.string() + "'",
                  dir / "out.json", dir / "err.txt"),
              0)
        << drape::read_file(dir / "err.txt");
    const auto j = nlohmann::json::parse(drape::read_file(dir / "out.json"));
    EXPECT_EQ(j["shape"], shape);
    ASSERT_EQ(j["runs"].size(), 1u);
    EXPECT_NEAR(j["runs"][0]["vertices"].get<double>(), 300, 40);
    EXPECT_TRUE(std::isfinite(j["runs"][0]["ms_per_step"].get<double>()));
    const double spread = radius_spread(dir / (shape + "_300_start.obj"));  // named by the size asked for
    if (shape == "tube")
      EXPECT_LT(spread, 1e-6);
    else
      EXPECT_GT(spread, 0.2);  // the cone flares from 0.118 to 0.18 body heights
  }
  EXPECT_EQ(run("--shape sphere --vertices 300 --frames 1", dir / "out.json", dir / "err.txt"), 2);
  EXPECT_NE(drape::read_file(dir / "err.txt").find("--shape"), std::string::npos);
  fs::remove_all(dir);
}

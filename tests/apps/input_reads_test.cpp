// `drape dress` reads each input file once (issue 21): the opens that strace
// records, counted per canonical path, against the list of inputs the job has.
// With --pose the job also reads the motion, the skeletons it chooses among,
// the weights, and MakeHuman's base.obj as the template body (the same file as
// the body here: read once for both).

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "test_temp_dir.h"

namespace fs = std::filesystem;

namespace {

const fs::path kData = DRAPE_DATA_DIR;

// Successful openat calls of existing regular files, by canonical path.
std::map<fs::path, int> opens_of(const std::string& args, const fs::path& dir) {
  const fs::path log = dir / "strace.txt";
  const std::string cmd = "strace -f -qq -e trace=openat -o '" + log.string() + "' " +
                          std::string(DRAPE_BINARY_DIR) + "/apps/drape/drape dress " + args + " --out '" +
                          (dir / "out").string() + "' --no-render --quiet > /dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << cmd;
  std::map<fs::path, int> count;
  std::ifstream in(log);
  const std::regex open_re(R"re(openat\([^,]+, "([^"]+)", [^)]*\) = \d+)re");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, open_re)) continue;
    const fs::path p = m[1].str();
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) continue;
    ++count[fs::canonical(p)];
  }
  return count;
}

bool have_strace() { return std::system("strace -V > /dev/null 2>&1") == 0; }

}  // namespace

TEST(InputReads, DressOpensTheBodyAndThePatternOnce) {
  if (!have_strace()) GTEST_SKIP() << "strace is not installed (scripts/setup installs it)";
  const fs::path dir = drape::test::test_temp_dir() / ("drape_input_reads_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path body = kData / "bodies/makehuman/base.obj";
  const fs::path pattern = kData / "patterns/gpg/skirt_2_panels.json";
  const auto opens = opens_of("--body '" + body.string() + "' --pattern '" + pattern.string() +
                                  "' --particle-distance 60 --max-frames 3",
                              dir);
  EXPECT_EQ(opens.count(fs::canonical(body)) ? opens.at(fs::canonical(body)) : 0, 1);
  EXPECT_EQ(opens.count(fs::canonical(pattern)) ? opens.at(fs::canonical(pattern)) : 0, 1);
  fs::remove_all(dir);
}

TEST(InputReads, DressWithAPoseOpensEveryRigFileOnce) {
  if (!have_strace()) GTEST_SKIP() << "strace is not installed (scripts/setup installs it)";
  const fs::path dir =
      drape::test::test_temp_dir() / ("drape_input_reads_pose_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path mh = kData / "bodies/makehuman";
  const fs::path body = mh / "base.obj";
  const fs::path pattern = kData / "patterns/gpg/skirt_2_panels.json";
  const fs::path motion = kData / "motion/cmu_jumping_jacks.bvh";
  const auto opens =
      opens_of("--body '" + body.string() + "' --pattern '" + pattern.string() + "' --pose '" +
                   motion.string() + "' --frame 10 --pose-frames 2 --particle-distance 60 --max-frames 3",
               dir);
  // The motion picks cmu_mb among the bundled skeletons; its weights come from
  // default_weights.mhw, handed down through default.mhskel.
  for (const fs::path& p :
       {body, pattern, motion, mh / "cmu_mb.mhskel", mh / "default.mhskel", mh / "default_weights.mhw"}) {
    const fs::path c = fs::canonical(p);
    EXPECT_EQ(opens.count(c) ? opens.at(c) : 0, 1) << p;
  }
  fs::remove_all(dir);
}

// `drape dress` opens each input file once (issue 16), with and without a
// pose: counted by the kernel's own record of the run, `strace -e
// trace=openat`. Skipped where strace is missing or may not trace.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "drape/core/atomic_file.h"
#include "test_temp_dir.h"

namespace fs = std::filesystem;

namespace {

const std::string kDrape = std::string(DRAPE_BINARY_DIR) + "/apps/drape/drape";
const fs::path kData = DRAPE_DATA_DIR;

int run(const std::string& cmd) {
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Successful openat calls in an strace log, per canonical path.
std::map<fs::path, int> opens(const fs::path& log) {
  std::map<fs::path, int> n;
  std::istringstream in(drape::read_file(log));
  const std::regex re(R"(openat\([^"]*"([^"]+)\".*\) = \d+)");
  std::string line;
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_search(line, m, re)) {
      std::error_code ec;
      const fs::path p = fs::weakly_canonical(fs::path(m[1].str()), ec);
      ++n[ec ? fs::path(m[1].str()) : p];
    }
  return n;
}

// Runs `drape COMMAND ARGS` under strace; the opens, or nullopt when strace cannot trace here.
std::optional<std::map<fs::path, int>> traced(const std::string& command, const std::string& args,
                                              const std::string& name) {
  const fs::path dir = drape::test::test_temp_dir() / name;
  fs::create_directories(dir);
  // strace must be there and allowed to trace (no ptrace in some sandboxes).
  if (run("strace -f -qq -e trace=openat -o /dev/null true >/dev/null 2>&1") != 0) return std::nullopt;
  const fs::path log = dir / "strace.txt";
  // LeakSanitizer cannot run under ptrace: an ASan build's leak check is off for this run.
  const int rc = run("ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 strace -f -qq -e trace=openat -o '" +
                     log.string() + "' '" + kDrape + "' " + command + " " + args + " --out '" +
                     (dir / "out").string() + "' --quiet >'" + (dir / "stdout.txt").string() + "' 2>&1");
  if (rc != 0) {
    ADD_FAILURE() << "exit " << rc << ": " << drape::read_file(dir / "stdout.txt");
    return std::map<fs::path, int>{};
  }
  return opens(log);
}

std::optional<std::map<fs::path, int>> traced_dress(const std::string& args, const std::string& name) {
  return traced("dress", args + " --no-render", name);
}

int count(const std::map<fs::path, int>& n, const fs::path& p) {
  const fs::path c = fs::weakly_canonical(p);
  return n.count(c) ? n.at(c) : 0;
}

}  // namespace

TEST(InputReads, DressOpensBodyAndPatternOnce) {
  const fs::path body = kData / "bodies/makehuman/base.obj",
                 pattern = kData / "patterns/gpg/skirt_2_panels.json";
  const auto n = traced_dress("--body '" + body.string() + "' --pattern '" + pattern.string() +
                                  "' --particle-distance 40 --max-frames 2",
                              "rest");
  if (!n) GTEST_SKIP() << "strace cannot trace here";
  for (const fs::path& p : {body, pattern}) EXPECT_EQ(count(*n, p), 1) << p;
}

// A glTF body rigged by its own skin (no --skeleton; the arms are raised
// with it): the skin is read from the bytes the body loader read. Before:
// opened twice (load_body, then the skin reader).
TEST(InputReads, DressOpensARiggedGltfBodyOnce) {
  const fs::path body = kData / "bodies/gdquest_mannequin/mannequiny-0.3.0.glb",
                 pattern = kData / "patterns/gpg/skirt_2_panels.json";
  const auto n = traced_dress("--body '" + body.string() + "' --pattern '" + pattern.string() +
                                  "' --particle-distance 40 --max-frames 2 --json",
                              "gltf");
  if (!n) GTEST_SKIP() << "strace cannot trace here";
  for (const fs::path& p : {body, pattern}) EXPECT_EQ(count(*n, p), 1) << p;
  // Rigged by its own skin, not a bundled skeleton: no .mhskel was opened.
  for (const auto& [path, count] : *n) EXPECT_NE(path.extension(), ".mhskel") << path;
}

// With a pose the body (also the template body of the skeleton), the BVH, the
// chosen skeleton, MakeHuman's default skeleton (a candidate and the weights'
// reference) and the weights: each once. Before: base.obj and the BVH twice,
// cmu_mb.mhskel three times, default.mhskel twice.
TEST(InputReads, DressWithAPoseOpensEveryInputOnce) {
  const fs::path body = kData / "bodies/makehuman/base.obj",
                 pattern = kData / "patterns/gpg/skirt_2_panels.json",
                 motion = kData / "motion/cmu_jumping_jacks.bvh";
  const auto n =
      traced_dress("--body '" + body.string() + "' --pattern '" + pattern.string() + "' --pose '" +
                       motion.string() + "' --frame 5 --pose-frames 1 --particle-distance 40 --max-frames 2",
                   "pose");
  if (!n) GTEST_SKIP() << "strace cannot trace here";
  const fs::path mh = kData / "bodies/makehuman";
  for (const fs::path& p : {body, pattern, motion, mh / "cmu_mb.mhskel", mh / "default.mhskel"})
    EXPECT_EQ(count(*n, p), 1) << p;
  EXPECT_LE(count(*n, mh / "default_weights.mhw"), 1);
}

// `drape animate` on a glTF body rigged by its own skin: the body is read
// once for the rig and the dress job takes it as read. The other read is the
// checkpoint fingerprint's hash of every input (the pattern and the BVH are
// read twice for the same reason). Before: four times (the fingerprint, the
// skin, the dress job's body, its skin again).
TEST(InputReads, AnimateReadsARiggedGltfBodyForTheRigOnce) {
  const fs::path body = kData / "bodies/gdquest_mannequin/mannequiny-0.3.0.glb",
                 pattern = kData / "patterns/gpg/skirt_2_panels.json",
                 motion = kData / "motion/cmu_jumping_jacks.bvh";
  const auto n = traced("animate",
                        "--body '" + body.string() + "' --pattern '" + pattern.string() + "' --motion '" +
                            motion.string() +
                            "' --frames 0:1 --particle-distance 40 --max-frames 2 --blend-frames 1"
                            " --settle-frames 0 --sheet-frames 0 --no-mp4",
                        "animate");
  if (!n) GTEST_SKIP() << "strace cannot trace here";
  EXPECT_EQ(count(*n, body), 2);
}

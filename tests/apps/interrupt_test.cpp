// SIGINT to a running `drape dress`: it stops after the current frame with
// exit code 130, leaves its checkpoint and no result; `--resume` finishes it.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "test_temp_dir.h"

namespace fs = std::filesystem;

namespace {

const std::string kDrape = std::string(DRAPE_BINARY_DIR) + "/apps/drape/drape";
const std::string kData = DRAPE_DATA_DIR;

pid_t spawn(const std::vector<std::string>& args) {
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(kDrape.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    freopen("/dev/null", "w", stdout);
    freopen("/dev/null", "w", stderr);
    execv(kDrape.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

int wait_exit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST(CliInterrupt, SigintCheckpointsAndResumeFinishes) {
  if (!fs::exists(kDrape)) GTEST_SKIP() << "drape binary not built";
  const fs::path out = drape::test::test_temp_dir() / "drape_cli_interrupt";
  fs::remove_all(out);
  const std::vector<std::string> args = {"--threads",
                                         "1",
                                         "dress",
                                         "--body",
                                         kData + "/bodies/makehuman/base.obj",
                                         "--pattern",
                                         kData + "/patterns/garmentcode/flare_skirt_specification.json",
                                         "--particle-distance",
                                         "30",
                                         "--max-frames",
                                         "100000",
                                         "--no-render",
                                         "--quiet",
                                         "--checkpoint-every",
                                         "5",
                                         "--out",
                                         out.string()};
  const pid_t pid = spawn(args);
  ASSERT_GT(pid, 0);
  // Interrupt once the first checkpoint is on disk (the run cannot finish first:
  // equilibrium needs far more than 5 frames).
  const fs::path ck = out / "checkpoint" / "checkpoint.bin";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!fs::exists(ck) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(fs::exists(ck));
  kill(pid, SIGINT);
  EXPECT_EQ(wait_exit(pid), 130);
  EXPECT_TRUE(fs::exists(ck));
  EXPECT_FALSE(fs::exists(out / "garment.obj"));
  EXPECT_FALSE(fs::exists(out / "report.json"));

  // Resume with a short frame limit would be another job (refused, exit 2);
  // the same command with --resume finishes (frame limit 100000 is never hit:
  // the skirt reaches equilibrium).
  std::vector<std::string> other = args;
  other[10] = "50";
  other.insert(other.end(), {"--resume", out.string()});
  EXPECT_EQ(wait_exit(spawn(other)), 2);
  std::vector<std::string> resume = args;
  resume.insert(resume.end(), {"--resume", out.string()});
  EXPECT_EQ(wait_exit(spawn(resume)), 0);
  EXPECT_TRUE(fs::exists(out / "garment.obj"));
  EXPECT_FALSE(fs::exists(out / "checkpoint"));
}

// The same for `drape animate`, at frame granularity: SIGINT after the first
// saved animation frame exits 130 leaving animation.bin and no caches; the
// same command with --resume finishes and removes the checkpoint.
TEST(CliInterrupt, SigintStopsAnAnimationAndResumeFinishesIt) {
  if (!fs::exists(kDrape)) GTEST_SKIP() << "drape binary not built";
  const fs::path out = drape::test::test_temp_dir() / "drape_cli_interrupt_animate";
  const std::vector<std::string> args = {"--threads",
                                         "1",
                                         "animate",
                                         "--body",
                                         kData + "/bodies/makehuman/base.obj",
                                         "--pattern",
                                         kData + "/patterns/garmentcode/flare_skirt_specification.json",
                                         "--particle-distance",
                                         "40",
                                         "--max-frames",
                                         "30",
                                         "--motion",
                                         kData + "/motion/cmu_jumping_jacks.bvh",
                                         "--frames",
                                         "40:49",
                                         "--blend-frames",
                                         "20",
                                         "--settle-frames",
                                         "2",
                                         "--sheet-frames",
                                         "0",
                                         "--no-mp4",
                                         "--quiet",
                                         "--checkpoint-every",
                                         "1",
                                         "--out",
                                         out.string()};
  const pid_t pid = spawn(args);
  ASSERT_GT(pid, 0);
  const fs::path ck = out / "checkpoint" / "animation.bin";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
  while (!fs::exists(ck) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_TRUE(fs::exists(ck));
  kill(pid, SIGINT);
  EXPECT_EQ(wait_exit(pid), 130);
  EXPECT_TRUE(fs::exists(ck));
  EXPECT_FALSE(fs::exists(out / "garment.pc2"));
  EXPECT_FALSE(fs::exists(out / "report.json"));
  std::vector<std::string> resume = args;
  resume.insert(resume.end(), {"--resume", out.string()});
  EXPECT_EQ(wait_exit(spawn(resume)), 0);
  EXPECT_TRUE(fs::exists(out / "garment.pc2"));
  EXPECT_FALSE(fs::exists(out / "checkpoint"));
}

// Runs the real `drape` binary on every file of the bad-input corpus
// (tests/data/bad/, see manifest.json) and checks the contract for bad input:
// exit code 2, one clear error line that names the file, no output written.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "drape/core/atomic_file.h"
#include "test_temp_dir.h"

namespace fs = std::filesystem;

namespace {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct RunResult {
  int exit_code;
  std::string stderr_text;
};

RunResult run_drape(const std::vector<std::string>& args, const fs::path& err_file) {
  std::string cmd = shell_quote(std::string(DRAPE_BINARY_DIR) + "/apps/drape/drape");
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " > /dev/null 2> " + shell_quote(err_file.string()) + " < /dev/null";
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, drape::read_file(err_file)};
}

}  // namespace

TEST(BadInputCorpus, EveryFileExitsTwoWithOneLineNamingItAndWritesNothing) {
  const fs::path dir = fs::path(DRAPE_TEST_DATA_DIR) / "bad";
  const auto manifest = nlohmann::json::parse(drape::read_file(dir / "manifest.json"));
  const fs::path work = drape::test::test_temp_dir() / ("drape_bad_input_" + std::to_string(::getpid()));
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const fs::path file = entry.path();
    const std::string name = file.filename().string();
    if (name == "manifest.json" || name.starts_with(".")) continue;
    nlohmann::json commands;
    for (const auto& rule : manifest["rules"])
      if (name.starts_with(rule["prefix"].get<std::string>())) {
        commands = rule.contains("commands") ? rule["commands"] : nlohmann::json::array({rule["args"]});
        break;
      }
    if (commands.is_null()) {
      ADD_FAILURE() << name << ": no rule for it in manifest.json";
      continue;
    }
    for (const auto& args : commands) {
      fs::remove_all(work);
      fs::create_directories(work / "out");
      std::vector<std::string> argv;
      for (std::string a : args) {
        for (auto [key, value] : {std::pair{"{file}", file.string()},
                                  {"{out}", (work / "out").string()},
                                  {"{data}", std::string(DRAPE_DATA_DIR)}}) {
          if (auto p = a.find(key); p != std::string::npos) a.replace(p, std::string(key).size(), value);
        }
        argv.push_back(a);
      }
      const RunResult r = run_drape(argv, work / "stderr.txt");
      SCOPED_TRACE(name + " (drape " + argv[0] + (argv.size() > 1 ? " " + argv[1] : "") +
                   "): " + r.stderr_text);
      EXPECT_EQ(r.exit_code, 2);
      EXPECT_NE(r.stderr_text.find(name), std::string::npos) << "the error must name the file";
      const auto lines = std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n');
      EXPECT_EQ(lines, 1) << "one clear line";
      // The user's terms, not the C++ library's (vector::_M_default_append, std::bad_alloc, stoi ...).
      for (const char* library :
           {"_M_", "std::", "bad_alloc", "max_size()", "stoi", "stod", "basic_string", "internal error"})
        EXPECT_EQ(r.stderr_text.find(library), std::string::npos) << "a C++ library message: " << library;
      EXPECT_TRUE(fs::is_empty(work / "out")) << "no output may be written";
      // Refused for the reason the manifest names, not an earlier one.
      if (manifest.contains("messages") && manifest["messages"].contains(name)) {
        EXPECT_NE(r.stderr_text.find(manifest["messages"][name].get<std::string>()), std::string::npos)
            << "the error must say: " << manifest["messages"][name].get<std::string>();
      }
      ++checked;
    }
  }
  fs::remove_all(work);
  EXPECT_GE(checked, 30);
  // Every file a message is given for exists.
  if (manifest.contains("messages")) {
    for (const auto& [name, message] : manifest["messages"].items())
      EXPECT_TRUE(fs::exists(dir / name)) << name << ": in manifest.json's messages, not in the corpus";
  }
}

// Cloth flags out of range are refused by the command line, naming the flag
// and its range, before anything is loaded or written.
TEST(BadInputFlags, StallResewsOutOfRangeExitTwoNamingTheFlagAndWriteNothing) {
  const fs::path work = drape::test::test_temp_dir() / ("drape_bad_flags_" + std::to_string(::getpid()));
  fs::create_directories(work);
  const std::string data = DRAPE_DATA_DIR;
  for (const auto& [flag, value] : {std::pair{"--stall-resews", "-1"}, std::pair{"--stall-resews", "101"},
                                    std::pair{"--resew-frames", "0"}}) {
    const fs::path out = work / "out";
    const RunResult r =
        run_drape({"dress", "--body", data + "/bodies/makehuman/base.obj", "--pattern",
                   data + "/patterns/gpg/skirt_2_panels.json", flag, value, "--out", out.string()},
                  work / "stderr.txt");
    SCOPED_TRACE(std::string(flag) + " " + value + ": " + r.stderr_text);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.stderr_text.find(flag), std::string::npos);
    EXPECT_NE(r.stderr_text.find("not in range"), std::string::npos);
    EXPECT_FALSE(fs::exists(out));
  }
  fs::remove_all(work);
}

#pragma once
// Test support: one fresh temporary folder per test process, so that two runs
// of the suite on one machine (or two tests run in parallel by ctest, each its
// own process) never share a file name. Made with mkdtemp on first use under
// the system temp folder, removed with everything in it when the process ends.

#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace drape::test {

class TestTempDir {
 public:
  TestTempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "drape_test_XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + pattern);
    path_ = pattern;
  }
  ~TestTempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TestTempDir(const TestTempDir&) = delete;
  TestTempDir& operator=(const TestTempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

/// This process's own fresh temporary folder (use it where a test would use
/// std::filesystem::temp_directory_path()).
inline const std::filesystem::path& test_temp_dir() {
  static const TestTempDir dir;
  return dir.path();
}

}  // namespace drape::test

#include "drape/core/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>

#include "drape/core/exceptions.h"
#include "test_temp_dir.h"

using namespace drape;
namespace fs = std::filesystem;

TEST(AtomicFile, WritesAndReadsBack) {
  const fs::path dir = drape::test::test_temp_dir() / "drape_atomic_test";
  fs::create_directories(dir);
  const fs::path p = dir / "a.txt";
  write_file_atomically(p, std::string_view("hello"));
  EXPECT_EQ(read_file(p), "hello");
  fs::remove_all(dir);
}

TEST(AtomicFile, FailureKeepsOldFileAndLeavesNoTemporary) {
  const fs::path dir = drape::test::test_temp_dir() / "drape_atomic_fail";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path p = dir / "a.txt";
  write_file_atomically(p, std::string_view("old"));
  EXPECT_THROW(write_file_atomically(p,
                                     [](std::ostream& o) {
                                       o << "partial";
                                       throw std::runtime_error("boom");
                                     }),
               std::runtime_error);
  EXPECT_EQ(read_file(p), "old");
  int files = 0;
  for (auto& e : fs::directory_iterator(dir)) (void)e, ++files;
  EXPECT_EQ(files, 1);
  fs::remove_all(dir);
}

TEST(AtomicFile, MissingFileIsIoError) {
  EXPECT_THROW(read_file("/nonexistent/drape/file"), IoError);
  EXPECT_THROW(write_file_atomically("/nonexistent/drape/file", std::string_view("x")), IoError);
}

// Point Cache 2 writer: exact bytes for a tiny cache, and bad caches refused
// with nothing written.

#include "drape/io/point_cache.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "test_temp_dir.h"

using namespace drape;
namespace fs = std::filesystem;

TEST(PointCache, TwoPointsTwoSamplesGiveTheDocumentedBytes) {
  const fs::path p = drape::test::test_temp_dir() / "tiny.pc2";
  write_pc2(p, {{{1, 2, 3}, {4, 5, 6}}, {{-1, 0.5, 0}, {0, 0, 7}}}, 12, 1);
  const std::string b = read_file(p);
  ASSERT_EQ(b.size(), 32u + 2 * 2 * 12);
  EXPECT_EQ(b.substr(0, 12), std::string("POINTCACHE2\0", 12));
  // Little-endian fields built by hand: version 1, 2 points, start 12.0f, sampling 1.0f, 2 samples.
  const unsigned char header[20] = {1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0x40, 0x41, 0, 0, 0x80, 0x3f, 2, 0, 0, 0};
  EXPECT_EQ(std::memcmp(b.data() + 12, header, 20), 0);
  float v[12];
  std::memcpy(v, b.data() + 32, sizeof v);
  const float want[12] = {1, 2, 3, 4, 5, 6, -1, 0.5f, 0, 0, 0, 7};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(v[i], want[i]) << i;
}

TEST(PointCache, BadCachesAreRefusedAndNothingIsWritten) {
  const fs::path p = drape::test::test_temp_dir() / "bad.pc2";
  EXPECT_THROW(write_pc2(p, {}), InvalidInput);
  EXPECT_THROW(write_pc2(p, {{{0, 0, 0}}, {{0, 0, 0}, {1, 1, 1}}}), InvalidInput);  // sizes differ
  EXPECT_THROW(write_pc2(p, {{{0, NAN, 0}}}), InvalidInput);
  EXPECT_THROW(write_pc2(p, {{{0, 0, 0}}}, 0, 0), InvalidInput);  // sampling 0
  EXPECT_FALSE(fs::exists(p));
}

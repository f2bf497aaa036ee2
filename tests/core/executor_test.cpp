#include "drape/core/executor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

using namespace drape;

TEST(Executor, CoversEveryIndexExactlyOnce) {
  for (int threads : {1, 2, 4}) {
    Executor ex(threads);
    EXPECT_EQ(ex.thread_count(), threads);
    std::vector<int> hits(100003, 0);
    ex.for_each(0, hits.size(), [&](std::size_t i) { hits[i] += 1; }, 64);
    for (int h : hits) ASSERT_EQ(h, 1);
  }
}

TEST(Executor, EmptyRangeDoesNothing) {
  Executor ex(2);
  int calls = 0;
  ex.for_range(5, 5, [&](std::size_t, std::size_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST(Executor, GatherResultIndependentOfThreadCount) {
  std::vector<double> a(50000), b(50000);
  Executor(1).for_each(0, a.size(), [&](std::size_t i) { a[i] = std::sin(double(i)) * 3.0; });
  Executor(3).for_each(0, b.size(), [&](std::size_t i) { b[i] = std::sin(double(i)) * 3.0; });
  EXPECT_EQ(a, b);
}

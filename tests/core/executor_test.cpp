#include "drape/core/executor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

using namespace drape;

TEST(Executor, CoversEveryIndexExactlyOnce) {
  for (int threads : {1, 2, 4}) {
    Executor ex(threads);
    EXPECT_EQ(ex.thread_count(), threads);
    std::vector<int> hits(100003, 0);
    ex.for_each(
        0, hits.size(), [&](std::size_t i) { hits[i] += 1; }, 64);
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

TEST(Executor, GlobalTakenBeforeAThreadChangeStaysUsable) {
  // A caller holds global() while another thread changes the count: the held
  // executor must still run every index (it would be freed memory if replaced).
  drape::Executor::set_global_threads(2);
  const drape::Executor& held = drape::Executor::global();
  EXPECT_EQ(held.thread_count(), 2);
  drape::Executor::set_global_threads(1);
  EXPECT_EQ(drape::Executor::global().thread_count(), 1);
  std::vector<int> hit(1000, 0);
  held.for_each(0, hit.size(), [&](std::size_t i) { hit[i] += 1; });
  EXPECT_EQ(std::count(hit.begin(), hit.end(), 1), 1000);
  EXPECT_EQ(held.thread_count(), 2);
  drape::Executor::set_global_threads(0);
}

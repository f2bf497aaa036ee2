// percentile() against a brute-force answer: sort everything and count ranks.

#include "drape/cloth/percentile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "drape/core/exceptions.h"

namespace {

// Brute force: the smallest value v of the set such that more than floor(q n)
// values are <= v (counted one by one, no sort involved).
double brute_force_rank(const std::vector<double>& v, double q) {
  const std::size_t n = v.size();
  const std::size_t k = std::min(n - 1, static_cast<std::size_t>(q * static_cast<double>(n)));
  double best = 0;
  bool found = false;
  for (double c : v) {
    const auto at_most =
        static_cast<std::size_t>(std::count_if(v.begin(), v.end(), [&](double x) { return x <= c; }));
    if (at_most > k && (!found || c < best)) {
      best = c;
      found = true;
    }
  }
  return best;
}

}  // namespace

TEST(Percentile, MatchesBruteForceOnRandomSetsWithTies) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 1 + rng() % 300;
    std::vector<double> v(n);
    // Values on a coarse grid so ties happen.
    for (double& x : v) x = static_cast<double>(rng() % 50) * 0.01;
    for (double q : {0.0, 0.5, 0.95, 0.99, 1.0}) {
      const std::vector<double> before = v;
      EXPECT_EQ(drape::percentile(v, q), brute_force_rank(v, q)) << "n=" << n << " q=" << q;
      EXPECT_EQ(v, before);  // input untouched
    }
  }
}

TEST(Percentile, SortedIndexConventionAndEdges) {
  std::vector<double> v(1000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(999 - i);  // reversed 0..999
  EXPECT_EQ(drape::percentile(v, 0.99), 990.0);                                    // the 991st smallest
  EXPECT_EQ(drape::percentile(v, 1.0), 999.0);
  EXPECT_EQ(drape::percentile(v, 0.0), 0.0);
  EXPECT_EQ(drape::percentile(std::vector<double>{}, 0.99), 0.0);
  EXPECT_THROW(drape::percentile(v, 1.5), drape::InvalidInput);
  EXPECT_THROW(drape::percentile(v, -0.1), drape::InvalidInput);
}

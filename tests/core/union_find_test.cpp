#include "drape/core/union_find.h"

#include <gtest/gtest.h>

#include <random>

using namespace drape;

TEST(UnionFind, RepresentativeIsTheSmallestIdWhateverTheOrder) {
  // Random unions against a brute-force labelling (flood fill over the union list).
  std::mt19937 rng(3);
  const int n = 200;
  std::uniform_int_distribution<int> pick(0, n - 1);
  std::vector<std::pair<int, int>> unions;
  for (int k = 0; k < 120; ++k) unions.push_back({pick(rng), pick(rng)});
  std::vector<int> label(n);
  for (int i = 0; i < n; ++i) label[i] = i;
  for (bool changed = true; changed;) {  // smallest id reachable through the unions
    changed = false;
    for (const auto& [a, b] : unions) {
      const int m = std::min(label[a], label[b]);
      if (label[a] != m || label[b] != m) label[a] = label[b] = m, changed = true;
    }
  }
  for (int order = 0; order < 2; ++order) {
    UnionFind uf(n);
    if (order == 1) std::reverse(unions.begin(), unions.end());
    for (const auto& [a, b] : unions) uf.unite(a, b);
    EXPECT_EQ(uf.representatives(), label);
    for (int i = 0; i < n; ++i) EXPECT_EQ(uf.find(i), label[i]);
  }
}

#pragma once
// Disjoint sets over 0..n-1 (union-find with path halving). The smaller id of
// two united sets represents both, so representatives do not depend on the
// order of the unions: seam welding, self-collision aliases and seam-corner
// groups rely on that for deterministic ids.

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

namespace drape {

class UnionFind {
 public:
  explicit UnionFind(std::size_t n = 0) { reset(n); }

  /// Makes 0..n-1 singletons again, reusing the storage.
  void reset(std::size_t n) {
    parent_.resize(n);
    std::iota(parent_.begin(), parent_.end(), 0);
  }

  /// The representative of a's set: its smallest id.
  int find(int a) {
    while (parent_[a] != a) a = parent_[a] = parent_[parent_[a]];
    return a;
  }

  void unite(int a, int b) {
    a = find(a);
    b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

  /// For every element, its representative.
  std::vector<int> representatives() {
    std::vector<int> rep;
    representatives(rep);
    return rep;
  }
  /// The same into `rep`, reusing its storage.
  void representatives(std::vector<int>& rep) {
    rep.resize(parent_.size());
    for (std::size_t i = 0; i < rep.size(); ++i) rep[i] = find(static_cast<int>(i));
  }

  std::size_t size() const { return parent_.size(); }

 private:
  std::vector<int> parent_;
};

}  // namespace drape

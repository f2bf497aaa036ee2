#pragma once
// A 4-wide view of a binary Bvh for fast queries: every wide node holds the
// boxes of up to four binary nodes (found by collapsing the binary tree, the
// largest child opened first) as structure-of-arrays floats, so one SSE
// instruction tests four boxes. The boxes are copies of the binary nodes'
// outward-rounded float boxes: refit the binary tree, then call refit().
//
// Used by TriangleMeshBvh for ray casts and closest points; the binary tree
// stays the one for refits, tree-vs-tree and self traversal.

#include <cstdint>
#include <vector>

#include "drape/bvh/bvh.h"

namespace drape {

/// One 4-wide node: 128 bytes, two cache lines. Lane i is a binary node:
/// inner (count[i] == 0, child[i] = wide node index), leaf (count[i] > 0,
/// primitives primitive_order()[child[i] .. child[i] + count[i])) or empty
/// (count[i] == -1, box lo = +inf, hi = -inf).
struct alignas(64) BvhWideNode {
  /// Rows 0-2: lo x, y, z; rows 3-5: hi x, y, z; columns: lanes.
  float bounds[6][4];
  std::int32_t child[4];
  std::int32_t count[4];
};
static_assert(sizeof(BvhWideNode) == 128);

class BvhWide {
 public:
  BvhWide() = default;
  /// Collapses `tree` (empty tree: empty wide tree).
  explicit BvhWide(const Bvh& tree);

  /// Copies the current boxes of the binary nodes (call after the binary
  /// tree's refit or transform). No allocation.
  void refit(const Bvh& tree);

  bool empty() const { return nodes_.empty(); }
  std::span<const BvhWideNode> nodes() const { return nodes_; }
  /// True when every box coordinate of the root lies within +-2^60 (checked at
  /// build and refit); the float traversals need it to be exact-conservative.
  bool in_float_range() const { return in_range_; }

 private:
  std::vector<BvhWideNode, CacheAlignedAllocator<BvhWideNode>> nodes_;
  std::vector<std::int32_t> source_;  // binary node of every lane (4 per wide node), -1 for empty
  bool in_range_ = false;
  void update_range(const Bvh& tree);
};

}  // namespace drape

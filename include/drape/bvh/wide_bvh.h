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

  /// Calls f(primitive) for every primitive of `tree` (the binary tree this was
  /// collapsed from, refitted alike) whose box overlaps `query`: the same
  /// answer as tree.for_each_overlap() (a superset up to float rounding) with
  /// about half the node visits, four boxes per test.
  template <class F>
  void for_each_overlap(const Bvh& tree, const Aabb& query, F&& f) const;
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

template <class F>
void BvhWide::for_each_overlap(const Bvh& tree, const Aabb& query, F&& f) const {
  if (nodes_.empty()) return;
  const BvhBox q = BvhBox::from(query);
  const BvhBox* boxes = tree.primitive_boxes().data();
  const int* order = tree.primitive_order().data();
  // Each visit pops one node and pushes at most four.
  int stack[3 * Bvh::kMaxDepth + 4];
  int sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const BvhWideNode& n = nodes_[stack[--sp]];
    int hit = 0;
#if defined(__SSE2__)
    __m128 ok = _mm_cmple_ps(_mm_load_ps(n.bounds[0]), _mm_set1_ps(q.hi[0]));
    for (int a = 0; a < 3; ++a) {
      if (a > 0) ok = _mm_and_ps(ok, _mm_cmple_ps(_mm_load_ps(n.bounds[a]), _mm_set1_ps(q.hi[a])));
      ok = _mm_and_ps(ok, _mm_cmple_ps(_mm_set1_ps(q.lo[a]), _mm_load_ps(n.bounds[3 + a])));
    }
    hit = _mm_movemask_ps(ok);
#else
    for (int l = 0; l < 4; ++l) {
      bool in = true;
      for (int a = 0; a < 3; ++a) in = in & (n.bounds[a][l] <= q.hi[a]) & (q.lo[a] <= n.bounds[3 + a][l]);
      hit |= static_cast<int>(in) << l;
    }
#endif
    for (int l = 0; l < 4; ++l) {  // empty lanes (inverted boxes) never hit
      if (!(hit >> l & 1)) continue;
      if (n.count[l] == 0) {
        stack[sp++] = n.child[l];
        continue;
      }
      for (int i = n.child[l]; i < n.child[l] + n.count[l]; ++i)
        if (boxes[i].overlaps_branch_free(q)) f(order[i]);
    }
  }
}

}  // namespace drape

#pragma once
// AABB tree over generic primitives given by their boxes (docs/METHODS.md
// "AABB trees", after van den Bergen 1997): top-down build (the paper's longest-axis
// midpoint split or binned SAH), strictly bottom-up refit, rigid motion by the
// 8 transformed corners, box queries, tree-vs-tree and self traversal.
//
// Layout: a flat array of 32-byte nodes with float boxes rounded outwards (so
// they always contain the double boxes they were made from). The two children
// of an inner node are adjacent and share one 64-byte cache line; children
// always come after their parent, so a reverse sweep is bottom-up.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include "drape/core/executor.h"
#include "drape/core/mat3.h"
#include "drape/geometry/aabb.h"

namespace drape {

enum class BvhBuilder {
  midpoint,   ///< the paper's (docs/METHODS.md "AABB trees", step 6): split the node box at the middle of its
              ///< longest axis
  binned_sah  ///< surface area heuristic over 16 bins per axis
};

struct BvhBuildOptions {
  BvhBuilder builder = BvhBuilder::binned_sah;
  /// Largest number of primitives in a leaf (the paper: midpoint with 1).
  int max_leaf_size = 4;
};

/// A float box that contains a double box (min rounded down, max rounded up).
struct BvhBox {
  float lo[3] = {std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity(),
                 std::numeric_limits<float>::infinity()};
  float hi[3] = {-std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                 -std::numeric_limits<float>::infinity()};

  /// A float <= d (d finite): d moved down by 2^-22 relative (more than the
  /// 2^-24 of float rounding) plus a tiny absolute amount, then rounded.
  /// Branch-free, so refits do not pay for unpredictable rounding directions.
  static float down(double d) { return static_cast<float>(d - std::abs(d) * 0x1p-22 - 1e-30); }
  /// A float >= d (d finite).
  static float up(double d) { return static_cast<float>(d + std::abs(d) * 0x1p-22 + 1e-30); }
  /// Infinite bounds stay infinite (a query box may be unbounded).
  static BvhBox from(const Aabb& b) {
    BvhBox r;
    for (int a = 0; a < 3; ++a) {
      r.lo[a] = std::isinf(b.min[a]) ? static_cast<float>(b.min[a]) : down(b.min[a]);
      r.hi[a] = std::isinf(b.max[a]) ? static_cast<float>(b.max[a]) : up(b.max[a]);
    }
    return r;
  }
  Aabb to_aabb() const { return {{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}}; }
  void expand(const BvhBox& o) {
    for (int a = 0; a < 3; ++a) {
      lo[a] = o.lo[a] < lo[a] ? o.lo[a] : lo[a];
      hi[a] = o.hi[a] > hi[a] ? o.hi[a] : hi[a];
    }
  }
  /// Separating axes of the three coordinate axes (docs/METHODS.md "AABB trees", step 7): six compares.
  bool overlaps(const BvhBox& o) const {
    return lo[0] <= o.hi[0] && o.lo[0] <= hi[0] && lo[1] <= o.hi[1] && o.lo[1] <= hi[1] && lo[2] <= o.hi[2] &&
           o.lo[2] <= hi[2];
  }
  bool overlaps(const Aabb& o) const {
    return lo[0] <= o.max.x && o.min.x <= hi[0] && lo[1] <= o.max.y && o.min.y <= hi[1] && lo[2] <= o.max.z &&
           o.min.z <= hi[2];
  }
  /// As overlaps(), all six compares evaluated (no unpredictable branches).
  bool overlaps_branch_free(const BvhBox& o) const {
    return (lo[0] <= o.hi[0]) & (o.lo[0] <= hi[0]) & (lo[1] <= o.hi[1]) & (o.lo[1] <= hi[1]) &
           (lo[2] <= o.hi[2]) & (o.lo[2] <= hi[2]);
  }
  /// Squared distance from p to the box (0 inside); branch-free (max, not if).
  double squared_distance(const Vec3& p) const {
    const double x = std::max(std::max(lo[0] - p.x, p.x - hi[0]), 0.0);
    const double y = std::max(std::max(lo[1] - p.y, p.y - hi[1]), 0.0);
    const double z = std::max(std::max(lo[2] - p.z, p.z - hi[2]), 0.0);
    return x * x + y * y + z * z;
  }
};

/// One tree node: 32 bytes. Inner node: count == 0, children are `index` and
/// `index + 1`. Leaf: primitives primitive_order()[index .. index + count).
struct alignas(32) BvhNode {
  float lo[3];
  std::int32_t index;
  float hi[3];
  std::int32_t count;

  bool is_leaf() const { return count > 0; }
  BvhBox box() const { return {{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}}; }
  void set_box(const BvhBox& b) {
    for (int a = 0; a < 3; ++a) {
      lo[a] = b.lo[a];
      hi[a] = b.hi[a];
    }
  }
  bool overlaps(const BvhNode& o) const {
    return lo[0] <= o.hi[0] && o.lo[0] <= hi[0] && lo[1] <= o.hi[1] && o.lo[1] <= hi[1] && lo[2] <= o.hi[2] &&
           o.lo[2] <= hi[2];
  }
  bool overlaps(const Aabb& o) const { return box().overlaps(o); }
};
static_assert(sizeof(BvhNode) == 32);

/// 64-byte aligned storage so that sibling nodes share a cache line.
template <class T>
struct CacheAlignedAllocator {
  using value_type = T;
  CacheAlignedAllocator() = default;
  template <class U>
  CacheAlignedAllocator(const CacheAlignedAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{64})); }
  void deallocate(T* p, std::size_t) { ::operator delete (p, std::align_val_t{64}); }
  template <class U>
  bool operator==(const CacheAlignedAllocator<U>&) const {
    return true;
  }
};

class Bvh {
 public:
  /// Deepest tree the traversal stacks allow; the builders fall back to median
  /// splits below depth 40, which keeps any tree of up to 2^31 primitives within it.
  static constexpr int kMaxDepth = 96;

  Bvh() = default;

  /// Builds a tree over primitives 0..n-1 with the given boxes; the split
  /// position of a primitive is its box centre.
  /// \throw InvalidInput when a box has a NaN or infinite coordinate, or min > max.
  static Bvh build(std::span<const Aabb> primitive_boxes, const BvhBuildOptions& options = {},
                   const Executor& executor = Executor::global());
  /// As above with explicit split positions (e.g. triangle centroids, the paper's rule).
  /// `centroids` has one entry per primitive.
  static Bvh build(std::span<const Aabb> primitive_boxes, std::span<const Vec3> centroids,
                   const BvhBuildOptions& options = {}, const Executor& executor = Executor::global());

  /// docs/METHODS.md "AABB trees", step 8, deformation: new boxes for the same primitives (same count and
  /// order as at build time); refits parents strictly bottom-up. No allocation.
  /// \throw InvalidInput when the count differs.
  void refit(std::span<const Aabb> primitive_boxes);
  /// Refit from boxes already stored in leaf order (see primitive_boxes_mutable()).
  void refit_from_leaf_boxes();

  /// docs/METHODS.md "AABB trees", step 8, rigid motion: every box becomes the box of its 8 transformed
  /// corners.
  void transform(const RigidTransform& t);

  bool empty() const { return nodes_.empty(); }
  int primitive_count() const { return static_cast<int>(order_.size()); }
  int node_count() const { return static_cast<int>(nodes_.size()); }
  int depth() const { return depth_; }
  int leaf_count() const;
  /// Box of the whole tree (empty Aabb for an empty tree).
  Aabb bounds() const { return empty() ? Aabb{} : nodes_[0].box().to_aabb(); }

  std::span<const BvhNode> nodes() const { return nodes_; }
  /// Primitive ids in leaf order; leaves index into this.
  std::span<const int> primitive_order() const { return order_; }
  /// Primitive boxes in leaf order (primitive_boxes()[i] belongs to primitive_order()[i]).
  std::span<const BvhBox> primitive_boxes() const { return boxes_; }
  /// For fast refits by callers who compute boxes in leaf order themselves;
  /// call refit_from_leaf_boxes() afterwards.
  std::span<BvhBox> primitive_boxes_mutable() { return boxes_; }
  /// Parent of every node (-1 for the root).
  std::vector<int> parents() const;

  /// Calls f(int primitive) for every primitive whose box overlaps `query`.
  template <class F>
  void for_each_overlap(const Aabb& query, F&& f) const;

  /// Tree-vs-tree (docs/METHODS.md "AABB trees", step 9): calls f(primitive_of_this, primitive_of_other)
  /// for every pair whose primitive boxes overlap. Descends the node with the
  /// larger box first; stops where boxes are disjoint.
  template <class F>
  void for_each_overlapping_pair(const Bvh& other, F&& f) const;

  /// Self traversal: calls f(a, b) with a < b for every pair of distinct
  /// primitives whose boxes overlap.
  template <class F>
  void for_each_self_overlap(F&& f) const {
    for_each_self_overlap(f, [](int) { return false; });
  }
  /// As above; `skip_within(node)` returning true means the pairs inside that
  /// node's subtree need not be reported (e.g. a flat, connected region: docs/METHODS.md "AABB trees", step
  /// 10). Pairs between that subtree and the rest are still reported.
  template <class F, class Skip>
  void for_each_self_overlap(F&& f, Skip&& skip_within) const;

 private:
  std::vector<BvhNode, CacheAlignedAllocator<BvhNode>> nodes_;
  std::vector<int> order_;
  std::vector<BvhBox> boxes_;
  int depth_ = 0;
};

// ---------------------------------------------------------------------------
// Template traversals.

template <class F>
void Bvh::for_each_overlap(const Aabb& query, F&& f) const {
  if (nodes_.empty()) return;
  // The query rounded outwards to float once, so that each test is six float
  // compares with no conversions and no branches (candidate searches spend most
  // of their time here); as conservative as the tree's own float boxes.
  const BvhBox q = BvhBox::from(query);
#if defined(__SSE2__)
  const __m128 q_lo = _mm_setr_ps(q.lo[0], q.lo[1], q.lo[2], 0.0f);
  const __m128 q_hi = _mm_setr_ps(q.hi[0], q.hi[1], q.hi[2], 0.0f);
  // Rows lo x y z | index and hi x y z | count: lanes 0-2 decide.
  const auto hits = [&](const BvhNode& n) {
    const __m128 ok =
        _mm_and_ps(_mm_cmple_ps(_mm_load_ps(n.lo), q_hi), _mm_cmple_ps(q_lo, _mm_load_ps(n.hi)));
    return (_mm_movemask_ps(ok) & 7) == 7;
  };
#else
  const auto hits = [&](const BvhNode& n) { return n.box().overlaps_branch_free(q); };
#endif
  if (!hits(nodes_[0])) return;
  int stack[kMaxDepth + 2];
  int sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const BvhNode& n = nodes_[stack[--sp]];
    if (n.is_leaf()) {
      for (int i = n.index; i < n.index + n.count; ++i)
        if (boxes_[i].overlaps_branch_free(q)) f(order_[i]);
      continue;
    }
    if (hits(nodes_[n.index + 1])) stack[sp++] = n.index + 1;
    if (hits(nodes_[n.index])) stack[sp++] = n.index;
  }
}

template <class F>
void Bvh::for_each_overlapping_pair(const Bvh& other, F&& f) const {
  if (nodes_.empty() || other.nodes_.empty() || !nodes_[0].overlaps(other.nodes_[0])) return;
  std::array<std::pair<int, int>, 2 * kMaxDepth + 4> stack;
  int sp = 0;
  stack[sp++] = {0, 0};
  while (sp > 0) {
    const auto [ia, ib] = stack[--sp];
    const BvhNode& a = nodes_[ia];
    const BvhNode& b = other.nodes_[ib];
    if (a.is_leaf() && b.is_leaf()) {
      for (int i = a.index; i < a.index + a.count; ++i) {
        if (!boxes_[i].overlaps(b.box())) continue;
        for (int j = b.index; j < b.index + b.count; ++j)
          if (boxes_[i].overlaps(other.boxes_[j])) f(order_[i], other.order_[j]);
      }
      continue;
    }
    // Descend the inner node with the larger box (or the only inner one).
    bool descend_a = !a.is_leaf();
    if (descend_a && !b.is_leaf()) {
      const float ea = (a.hi[0] - a.lo[0]) + (a.hi[1] - a.lo[1]) + (a.hi[2] - a.lo[2]);
      const float eb = (b.hi[0] - b.lo[0]) + (b.hi[1] - b.lo[1]) + (b.hi[2] - b.lo[2]);
      descend_a = ea >= eb;
    }
    if (descend_a) {
      if (nodes_[a.index + 1].overlaps(b)) stack[sp++] = {a.index + 1, ib};
      if (nodes_[a.index].overlaps(b)) stack[sp++] = {a.index, ib};
    } else {
      if (a.overlaps(other.nodes_[b.index + 1])) stack[sp++] = {ia, b.index + 1};
      if (a.overlaps(other.nodes_[b.index])) stack[sp++] = {ia, b.index};
    }
  }
}

template <class F, class Skip>
void Bvh::for_each_self_overlap(F&& f, Skip&& skip_within) const {
  if (nodes_.empty()) return;
  // Entries (n, -1): all pairs inside node n; (a, b): pairs between two disjoint subtrees.
  std::array<std::pair<int, int>, 4 * kMaxDepth + 8> stack;
  int sp = 0;
  stack[sp++] = {0, -1};
  auto emit = [&](int i, int j) {
    const int pa = order_[i], pb = order_[j];
    if (pa < pb)
      f(pa, pb);
    else
      f(pb, pa);
  };
  while (sp > 0) {
    const auto [ia, ib] = stack[--sp];
    const BvhNode& a = nodes_[ia];
    if (ib < 0) {
      if (skip_within(ia)) continue;
      if (a.is_leaf()) {
        for (int i = a.index; i < a.index + a.count; ++i)
          for (int j = i + 1; j < a.index + a.count; ++j)
            if (boxes_[i].overlaps(boxes_[j])) emit(i, j);
        continue;
      }
      stack[sp++] = {a.index + 1, -1};
      stack[sp++] = {a.index, -1};
      if (nodes_[a.index].overlaps(nodes_[a.index + 1])) stack[sp++] = {a.index, a.index + 1};
      continue;
    }
    const BvhNode& b = nodes_[ib];
    if (a.is_leaf() && b.is_leaf()) {
      for (int i = a.index; i < a.index + a.count; ++i) {
        if (!boxes_[i].overlaps(b.box())) continue;
        for (int j = b.index; j < b.index + b.count; ++j)
          if (boxes_[i].overlaps(boxes_[j])) emit(i, j);
      }
      continue;
    }
    bool descend_a = !a.is_leaf();
    if (descend_a && !b.is_leaf()) {
      const float ea = (a.hi[0] - a.lo[0]) + (a.hi[1] - a.lo[1]) + (a.hi[2] - a.lo[2]);
      const float eb = (b.hi[0] - b.lo[0]) + (b.hi[1] - b.lo[1]) + (b.hi[2] - b.lo[2]);
      descend_a = ea >= eb;
    }
    if (descend_a) {
      if (nodes_[a.index + 1].overlaps(b)) stack[sp++] = {a.index + 1, ib};
      if (nodes_[a.index].overlaps(b)) stack[sp++] = {a.index, ib};
    } else {
      if (a.overlaps(nodes_[b.index + 1])) stack[sp++] = {ia, b.index + 1};
      if (a.overlaps(nodes_[b.index])) stack[sp++] = {ia, b.index};
    }
  }
}

}  // namespace drape

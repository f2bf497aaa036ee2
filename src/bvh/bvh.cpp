#include "drape/bvh/bvh.h"

#include <algorithm>
#include <string>

#include "drape/core/exceptions.h"

namespace drape {
namespace {

constexpr int kBins = 16;
// Below this depth every split is a median split: bounds the depth (and the
// fixed traversal stacks) for any input, e.g. exponentially spaced primitives.
constexpr int kMedianDepth = 40;

struct BuildItem {
  int node, begin, end, depth;
};

struct Builder {
  std::span<const Aabb> boxes;
  std::span<const Vec3> centroids;
  BvhBuildOptions options;
  std::vector<int>& order;
  std::vector<BvhNode, CacheAlignedAllocator<BvhNode>>& nodes;
  int max_depth = 0;

  Aabb range_box(int b, int e) const {
    Aabb r;
    for (int i = b; i < e; ++i) r.expand(boxes[order[i]]);
    return r;
  }
  Aabb centroid_box(int b, int e) const {
    Aabb r;
    for (int i = b; i < e; ++i) r.expand(centroids[order[i]]);
    return r;
  }

  int median_split(int b, int e, int axis) {
    const int m = b + (e - b) / 2;
    std::nth_element(order.begin() + b, order.begin() + m, order.begin() + e,
                     [&](int x, int y) { return centroids[x][axis] < centroids[y][axis]; });
    return m;
  }

  // The paper's split (docs/METHODS.md "AABB trees", step 6); returns the first index of the positive side.
  int midpoint_split(int b, int e, const Aabb& box) {
    const int axis = box.longest_axis();
    const double mid = box.center()[axis];
    const auto it = std::partition(order.begin() + b, order.begin() + e,
                                   [&](int p) { return !(centroids[p][axis] > mid); });
    const int m = static_cast<int>(it - order.begin());
    if (m == b || m == e) return median_split(b, e, box.longest_axis());
    return m;
  }

  // Binned SAH. Returns the split index, or -1 for a leaf.
  int sah_split(int b, int e) {
    const int n = e - b;
    // A node of at most max_leaf_size primitives is always a leaf: the query
    // trees test up to four triangles of a leaf in one SIMD sequence (the ray
    // pre-test, the closest-point bound), so splitting one only adds node
    // visits and single-triangle leaves, which skip those tests (closest point
    // on the body: -10 % instructions, rays -2.5 %; bvh-speed-3).
    if (n <= options.max_leaf_size) return -1;
    const Aabb cb = centroid_box(b, e);
    double best_cost = std::numeric_limits<double>::infinity();
    int best_axis = -1, best_bin = -1;
    for (int axis = 0; axis < 3; ++axis) {
      const double lo = cb.min[axis], ext = cb.max[axis] - lo;
      if (!(ext > 0)) continue;
      const double scale = kBins / ext;
      Aabb bin_box[kBins];
      int bin_count[kBins] = {};
      for (int i = b; i < e; ++i) {
        const int p = order[i];
        const int k = std::min(kBins - 1, static_cast<int>((centroids[p][axis] - lo) * scale));
        bin_box[k].expand(boxes[p]);
        ++bin_count[k];
      }
      double right_area[kBins];
      int right_count[kBins];
      Aabb acc;
      int cnt = 0;
      for (int k = kBins - 1; k > 0; --k) {
        acc.expand(bin_box[k]);
        cnt += bin_count[k];
        right_area[k] = acc.surface_area();
        right_count[k] = cnt;
      }
      acc = Aabb{};
      cnt = 0;
      for (int k = 0; k < kBins - 1; ++k) {
        acc.expand(bin_box[k]);
        cnt += bin_count[k];
        if (cnt == 0 || right_count[k + 1] == 0) continue;
        const double cost = acc.surface_area() * cnt + right_area[k + 1] * right_count[k + 1];
        if (cost < best_cost) {
          best_cost = cost;
          best_axis = axis;
          best_bin = k;
        }
      }
    }
    if (best_axis < 0) return b + n / 2;  // all centroids coincide
    const double lo = cb.min[best_axis], scale = kBins / (cb.max[best_axis] - lo);
    const auto it = std::partition(order.begin() + b, order.begin() + e, [&](int p) {
      return std::min(kBins - 1, static_cast<int>((centroids[p][best_axis] - lo) * scale)) <= best_bin;
    });
    const int m = static_cast<int>(it - order.begin());
    if (m == b || m == e) return median_split(b, e, best_axis);
    return m;
  }

  // Builds the subtree of `root` (whose node already exists). With `deferred`,
  // subtrees of at most `defer_below` primitives are listed there instead of
  // built (the caller builds them in parallel).
  void run_from(BuildItem root, int defer_below, std::vector<BuildItem>* deferred) {
    std::vector<BuildItem> work{root};
    while (!work.empty()) {
      const BuildItem it = work.back();
      work.pop_back();
      if (deferred && it.node != root.node && it.end - it.begin <= defer_below) {
        deferred->push_back(it);
        continue;
      }
      max_depth = std::max(max_depth, it.depth);
      const int count = it.end - it.begin;
      const Aabb box = range_box(it.begin, it.end);
      nodes[it.node].set_box(BvhBox::from(box));
      int split = -1;
      if (count > 1) {
        if (it.depth >= kMedianDepth) {
          split = count > options.max_leaf_size
                      ? median_split(it.begin, it.end, centroid_box(it.begin, it.end).longest_axis())
                      : -1;
        } else if (options.builder == BvhBuilder::midpoint) {
          split = count > options.max_leaf_size ? midpoint_split(it.begin, it.end, box) : -1;
        } else {
          split = sah_split(it.begin, it.end);
        }
      }
      if (split < 0) {
        nodes[it.node].index = it.begin;
        nodes[it.node].count = count;
        continue;
      }
      if (nodes.size() % 2 == 1) {  // siblings start at an even index: one cache line
        BvhNode pad{};
        pad.count = -1;
        nodes.push_back(pad);
      }
      const int left = static_cast<int>(nodes.size());
      nodes.push_back({});
      nodes.push_back({});
      nodes[it.node].index = left;
      nodes[it.node].count = 0;
      work.push_back({left + 1, split, it.end, it.depth + 1});
      work.push_back({left, it.begin, split, it.depth + 1});
    }
  }
};

void check_boxes(std::span<const Aabb> boxes) {
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const Aabb& b = boxes[i];
    if (!is_finite(b.min) || !is_finite(b.max))
      throw InvalidInput("Bvh::build: primitive " + std::to_string(i) +
                         " has a NaN or infinite box coordinate");
    if (b.min.x > b.max.x || b.min.y > b.max.y || b.min.z > b.max.z)
      throw InvalidInput("Bvh::build: primitive " + std::to_string(i) + " has an inverted box (min > max)");
  }
}

}  // namespace

Bvh Bvh::build(std::span<const Aabb> primitive_boxes, const BvhBuildOptions& options,
               const Executor& executor) {
  std::vector<Vec3> centroids(primitive_boxes.size());
  check_boxes(primitive_boxes);
  executor.for_each(
      0, primitive_boxes.size(), [&](std::size_t i) { centroids[i] = primitive_boxes[i].center(); }, 4096);
  return build(primitive_boxes, centroids, options, executor);
}

Bvh Bvh::build(std::span<const Aabb> primitive_boxes, std::span<const Vec3> centroids,
               const BvhBuildOptions& options, const Executor& executor) {
  if (centroids.size() != primitive_boxes.size())
    throw InvalidInput("Bvh::build: " + std::to_string(centroids.size()) + " centroids for " +
                       std::to_string(primitive_boxes.size()) + " boxes");
  if (options.max_leaf_size < 1)
    throw InvalidInput("Bvh::build: max_leaf_size must be at least 1, got " +
                       std::to_string(options.max_leaf_size));
  check_boxes(primitive_boxes);
  for (std::size_t i = 0; i < centroids.size(); ++i)
    if (!is_finite(centroids[i]))
      throw InvalidInput("Bvh::build: primitive " + std::to_string(i) + " has a NaN or infinite centroid");
  if (primitive_boxes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max() / 2))
    throw InvalidInput("Bvh::build: too many primitives");
  Bvh t;
  if (primitive_boxes.empty()) return t;
  t.order_.resize(primitive_boxes.size());
  for (std::size_t i = 0; i < t.order_.size(); ++i) t.order_[i] = static_cast<int>(i);
  // Top of the tree sequentially; subtrees below a size that depends only on
  // n (not on the thread count, so the layout is the same for any executor)
  // in parallel, each into its own array, then appended in a fixed order.
  const int n = static_cast<int>(t.order_.size());
  const int defer_below = n >= 16384 ? std::max(4096, n / 64) : 0;
  Builder top{primitive_boxes, centroids, options, t.order_, t.nodes_};
  t.nodes_.reserve(2 * static_cast<std::size_t>(n) + 2);
  t.nodes_.push_back({});
  std::vector<BuildItem> deferred;
  top.run_from({0, 0, n, 0}, defer_below, defer_below > 0 ? &deferred : nullptr);
  std::vector<std::vector<BvhNode, CacheAlignedAllocator<BvhNode>>> sub(deferred.size());
  std::vector<int> sub_depth(deferred.size(), 0);
  executor.for_each(
      0, deferred.size(),
      [&](std::size_t k) {
        Builder b{primitive_boxes, centroids, options, t.order_, sub[k]};
        sub[k].push_back({});
        BuildItem it = deferred[k];
        it.node = 0;
        b.run_from(it, 0, nullptr);
        sub_depth[k] = b.max_depth;
      },
      1);
  int depth = top.max_depth;
  for (std::size_t k = 0; k < deferred.size(); ++k) {
    const auto& local = sub[k];
    // local[1] is the padding after the local root; map local i -> i + shift
    // with an even shift so that sibling pairs stay on even indices.
    if (t.nodes_.size() % 2 == 0) {
      BvhNode pad{};
      pad.count = -1;
      t.nodes_.push_back(pad);
    }
    const int shift = static_cast<int>(t.nodes_.size()) - 1;
    for (std::size_t i = 1; i < local.size(); ++i) {
      BvhNode nd = local[i];
      if (nd.count == 0) nd.index += shift;
      t.nodes_.push_back(nd);
    }
    BvhNode root = local[0];
    if (root.count == 0) root.index += shift;
    t.nodes_[deferred[k].node] = root;
    depth = std::max(depth, sub_depth[k]);
  }
  t.depth_ = depth;
  t.boxes_.resize(t.order_.size());
  executor.for_each(
      0, t.order_.size(), [&](std::size_t i) { t.boxes_[i] = BvhBox::from(primitive_boxes[t.order_[i]]); },
      4096);
  return t;
}

void Bvh::refit(std::span<const Aabb> primitive_boxes) {
  if (primitive_boxes.size() != order_.size())
    throw InvalidInput("Bvh::refit: " + std::to_string(primitive_boxes.size()) + " boxes for a tree of " +
                       std::to_string(order_.size()) + " primitives");
  for (std::size_t i = 0; i < order_.size(); ++i) boxes_[i] = BvhBox::from(primitive_boxes[order_[i]]);
  refit_from_leaf_boxes();
}

void Bvh::refit_from_leaf_boxes() {
  // Children come after their parents: a reverse sweep is strictly bottom-up.
  for (int i = static_cast<int>(nodes_.size()) - 1; i >= 0; --i) {
    BvhNode& n = nodes_[i];
    if (n.count < 0) continue;  // cache-line padding
    BvhBox b;
    if (n.count > 0) {
      b = boxes_[n.index];
      for (int k = n.index + 1; k < n.index + n.count; ++k) b.expand(boxes_[k]);
    } else {
      b = nodes_[n.index].box();
      b.expand(nodes_[n.index + 1].box());
    }
    n.set_box(b);
  }
}

void Bvh::transform(const RigidTransform& t) {
  for (BvhNode& n : nodes_)
    if (n.count >= 0) n.set_box(BvhBox::from(n.box().to_aabb().transformed(t)));
  for (BvhBox& b : boxes_) b = BvhBox::from(b.to_aabb().transformed(t));
}

int Bvh::leaf_count() const {
  int c = 0;
  for (const BvhNode& n : nodes_) c += n.count > 0;
  return c;
}

std::vector<int> Bvh::parents() const {
  std::vector<int> p(nodes_.size(), -1);
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].count == 0) p[nodes_[i].index] = p[nodes_[i].index + 1] = static_cast<int>(i);
  return p;
}

}  // namespace drape

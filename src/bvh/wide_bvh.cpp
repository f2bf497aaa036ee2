#include "drape/bvh/wide_bvh.h"

#include <cmath>
#include <limits>
#include <utility>

#include "simd4.h"

namespace drape {
namespace {

float half_area(const BvhNode& n) {
  const float x = n.hi[0] - n.lo[0], y = n.hi[1] - n.lo[1], z = n.hi[2] - n.lo[2];
  return x * y + y * z + z * x;
}

}  // namespace

BvhWide::BvhWide(const Bvh& tree) {
  const auto bin = tree.nodes();
  if (bin.empty()) return;
  // Work list of (wide node, binary node whose children it collapses).
  std::vector<std::pair<int, int>> work;
  auto add_node = [&] {
    BvhWideNode n;
    for (int l = 0; l < 4; ++l) {
      for (int a = 0; a < 3; ++a) {
        n.bounds[a][l] = std::numeric_limits<float>::infinity();
        n.bounds[3 + a][l] = -std::numeric_limits<float>::infinity();
      }
      n.child[l] = 0;
      n.count[l] = -1;
    }
    nodes_.push_back(n);
    for (int l = 0; l < 4; ++l) source_.push_back(-1);
    return static_cast<int>(nodes_.size()) - 1;
  };
  add_node();
  if (bin[0].is_leaf()) {
    source_[0] = 0;
    nodes_[0].child[0] = bin[0].index;
    nodes_[0].count[0] = bin[0].count;
  } else {
    work.push_back({0, 0});
  }
  while (!work.empty()) {
    const auto [w, b] = work.back();
    work.pop_back();
    int lanes[4] = {bin[b].index, bin[b].index + 1, -1, -1};
    int n = 2;
    while (n < 4) {  // open the inner lane with the largest box
      int best = -1;
      float best_area = -1;
      for (int l = 0; l < n; ++l)
        if (!bin[lanes[l]].is_leaf() && half_area(bin[lanes[l]]) > best_area) {
          best_area = half_area(bin[lanes[l]]);
          best = l;
        }
      if (best < 0) break;
      const int open = lanes[best];
      lanes[best] = bin[open].index;
      lanes[n++] = bin[open].index + 1;
    }
    for (int l = 0; l < n; ++l) {
      const BvhNode& c = bin[lanes[l]];
      source_[4 * static_cast<std::size_t>(w) + l] = lanes[l];
      if (c.is_leaf()) {
        nodes_[w].child[l] = c.index;
        nodes_[w].count[l] = c.count;
      } else {
        const int child = add_node();  // may reallocate: index, not reference
        nodes_[w].child[l] = child;
        nodes_[w].count[l] = 0;
        work.push_back({child, lanes[l]});
      }
    }
  }
  refit(tree);
}

void BvhWide::refit(const Bvh& tree) {
  const BvhNode* bin = tree.nodes().data();
  alignas(32) static const BvhNode kEmpty = [] {
    BvhNode e{};
    for (int a = 0; a < 3; ++a) {
      e.lo[a] = std::numeric_limits<float>::infinity();
      e.hi[a] = -std::numeric_limits<float>::infinity();
    }
    return e;
  }();
  for (std::size_t w = 0; w < nodes_.size(); ++w) {
    BvhWideNode& n = nodes_[w];
    const std::int32_t* src = &source_[4 * w];
    const BvhNode* b[4];
    for (int l = 0; l < 4; ++l) b[l] = src[l] < 0 ? &kEmpty : bin + src[l];
#ifdef DRAPE_BVH_SSE2
    // Two 4x4 transposes: (lo x, y, z, index) of four nodes -> rows lo x, lo y, lo z.
    __m128 r0 = _mm_load_ps(b[0]->lo), r1 = _mm_load_ps(b[1]->lo), r2 = _mm_load_ps(b[2]->lo),
           r3 = _mm_load_ps(b[3]->lo);
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    _mm_store_ps(n.bounds[0], r0);
    _mm_store_ps(n.bounds[1], r1);
    _mm_store_ps(n.bounds[2], r2);
    r0 = _mm_load_ps(b[0]->hi);
    r1 = _mm_load_ps(b[1]->hi);
    r2 = _mm_load_ps(b[2]->hi);
    r3 = _mm_load_ps(b[3]->hi);
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    _mm_store_ps(n.bounds[3], r0);
    _mm_store_ps(n.bounds[4], r1);
    _mm_store_ps(n.bounds[5], r2);
#else
    for (int l = 0; l < 4; ++l)
      for (int a = 0; a < 3; ++a) {
        n.bounds[a][l] = b[l]->lo[a];
        n.bounds[3 + a][l] = b[l]->hi[a];
      }
#endif
  }
  update_range(tree);
}

void BvhWide::update_range(const Bvh& tree) {
  in_range_ = false;
  if (tree.empty()) return;
  const BvhNode& r = tree.nodes()[0];
  constexpr float kLimit = 0x1p60f;
  bool ok = true;
  for (int a = 0; a < 3; ++a) ok = ok && r.lo[a] >= -kLimit && r.hi[a] <= kLimit;  // false for NaN
  in_range_ = ok;
}

}  // namespace drape

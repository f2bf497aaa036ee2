#include <algorithm>
#include <cmath>
#include <string>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/core/exceptions.h"
#include "wide_traversal.h"

// Closest-point and distance queries of the triangle tree (float 4-wide
// traversal with rigorous float bounds before the exact test, a double
// binary fallback).

namespace drape {
using namespace bvh_detail;

TriangleMeshBvh::PointQuery TriangleMeshBvh::closest_point(const Vec3& q, double max_distance) const {
#ifdef DRAPE_BVH_AVX2
  if (uses_avx2()) return closest_point_avx2(q, max_distance);
#endif
  return closest_point_wide<false>(q, max_distance);
}
TriangleMeshBvh::PointQuery TriangleMeshBvh::closest_point_binary(const Vec3& q, double max_distance) const {
  PointQuery best;
  const auto nodes = tree_.nodes();
  const Vec3* p = mesh_->positions.data();
  double best_d2 = max_distance * max_distance;
  const auto pboxes = tree_.primitive_boxes();
  StackEntry stack[Bvh::kMaxDepth + 2];
  int sp = 0;
  const double d_root = nodes[0].box().squared_distance(q);
  if (d_root > best_d2) return best;
  stack[sp++] = {0, d_root};
  while (sp > 0) {
    const StackEntry e = stack[--sp];
    if (e.key > best_d2) continue;
    const BvhNode& n = nodes[e.node];
    if (n.is_leaf()) {
      for (int i = n.index; i < n.index + n.count; ++i) {
        if (pboxes[i].squared_distance(q) > best_d2) continue;  // cheap reject before the exact test
        const Triangle& t = leaf_tris_[i];
        const ClosestPoint cp = closest_point_on_triangle(q, p[t[0]], p[t[1]], p[t[2]]);
        const double d2 = squared_norm(cp.point - q);
        if (d2 < best_d2 || (d2 <= best_d2 && (best.face < 0 || leaf_faces_[i] < best.face))) {
          best_d2 = d2;
          best.face = leaf_faces_[i];
          best.point = cp.point;
          best.u = cp.u;
          best.v = cp.v;
          best.w = cp.w;
        }
      }
      continue;
    }
    const double d0 = nodes[n.index].box().squared_distance(q);
    const double d1 = nodes[n.index + 1].box().squared_distance(q);
    if (d0 <= d1) {
      if (d1 <= best_d2) stack[sp++] = {n.index + 1, d1};
      if (d0 <= best_d2) stack[sp++] = {n.index, d0};
    } else {
      if (d0 <= best_d2) stack[sp++] = {n.index, d0};
      if (d1 <= best_d2) stack[sp++] = {n.index + 1, d1};
    }
  }
  if (best.face >= 0) best.distance = std::sqrt(best_d2);
  return best;
}

template <bool kPairs>
DRAPE_INLINE_ALWAYS TriangleMeshBvh::PointQuery TriangleMeshBvh::closest_point_wide(
    const Vec3& q, double max_distance) const {
  PointQuery best;
  if (tree_.empty() || !is_finite(q) || !(max_distance >= 0)) return best;
  const WidePoint wq(q);
  const BvhWide& wide = fresh_wide_blocks();
  if (!wq.ok || !wide.in_float_range()) return closest_point_binary(q, max_distance);
  const BvhWideNode* nodes = wide.nodes().data();
  const Vec3* p = mesh_->positions.data();
  const TriangleBlock* blocks = lazy_->tri_blocks.data();
  const std::int32_t* block_of = lazy_->block_of.data();
  const PointPretest pre(q);
  double best_d2 = max_distance * max_distance;
  float best_f = float_up(best_d2);
  float best_r = float_up(std::sqrt(best_d2));  // >= the best distance, for the pre-test's bounds
  WideEntry stack[kWideStack];
  int sp = 0;
  WideEntry cur{0, 0, 0.0f};
  auto exact = [&](int i) DRAPE_LAMBDA_INLINE {
    const Triangle& t = leaf_tris_[i];
    const ClosestPoint cp = closest_point_on_triangle(q, p[t[0]], p[t[1]], p[t[2]]);
    const double d2 = squared_norm(cp.point - q);
    // Equally near faces (a shared vertex or edge): the smallest face id, so
    // that the answer does not depend on the traversal order (a wide tree
    // collapsed after a refit orders its lanes differently from one refitted).
    if (d2 < best_d2 || (d2 <= best_d2 && (best.face < 0 || leaf_faces_[i] < best.face))) {
      best_d2 = d2;
      best_f = std::min(best_f, float_up(d2));  // the radius may already be below (upper bounds)
      best_r = std::min(best_r, float_up(std::sqrt(d2)));
      best.face = leaf_faces_[i];
      best.point = cp.point;
      best.u = cp.u;
      best.v = cp.v;
      best.w = cp.w;
    }
  };
  // Exact tests are deferred: a triangle whose lower bound is within the
  // radius is kept as a candidate, and tested only if its bound is still
  // within the radius when the traversal ends (or the list is full). The
  // radius shrinks with the blocks' float upper bounds, so most candidates
  // met on the way are dropped untested (exact tests per query on the body
  // 8.95 -> 3.16). The answer is the same: every face whose computed distance
  // equals the smallest has a bound within every radius, so it is tested.
  constexpr int kCandidates = 32;
  std::int32_t cand[kCandidates + 4];
  float cand_lb[kCandidates + 4];
  int n_cand = 0;
  auto test_candidates = [&]() DRAPE_LAMBDA_INLINE {
    for (int k = 0; k < n_cand; ++k)
      if (!(cand_lb[k] > best_r)) exact(cand[k]);  // NaN bounds are tested
    n_cand = 0;
  };
  // Shrinks the radius to the smallest of the upper bounds and keeps the
  // candidates of one block of `lanes` triangles from `first`.
  auto take_bounds = [&](int first, int lanes, const float* lb, const float* ub) DRAPE_LAMBDA_INLINE {
    float r = ub[0];
    for (int l = 1; l < lanes; ++l) r = std::min(r, ub[l]);
    if (r < best_r) {
      best_r = r;
      best_f = std::min(best_f, float_up(static_cast<double>(r) * r));  // r^2 is exact in double
    }
    for (int l = 0; l < lanes; ++l) {  // branch-free append
      cand[n_cand] = first + l;
      cand_lb[n_cand] = lb[l];
      n_cand += !(lb[l] > best_r);
    }
    if (n_cand > kCandidates - 4) test_candidates();
  };
  for (;;) {
    if (cur.count == 1) {
      exact(cur.child);  // a single primitive's box is the lane's, already tested
#ifdef DRAPE_BVH_F8
    } else if (kPairs && cur.count > 1 && cur.count <= 4 && sp > 0 && stack[sp - 1].count > 1 &&
               stack[sp - 1].count <= 4 && !(stack[sp - 1].key > best_f)) {
      // Two leaves of one block each, the nearest and the next on the stack
      // (often a sibling): their bounds in one 8-lane pass.
      const WideEntry other = stack[--sp];
      const TriangleBlock* b0 = blocks + block_of[cur.child];
      const TriangleBlock* b1 = blocks + block_of[other.child];
      simd::F8 upper;
      alignas(32) float lb[8], ub[8];
      simd::store(lb, pre.bound2(&b0->v[0][0], b0->s, &b1->v[0][0], b1->s, upper));
      simd::store(ub, upper);
      take_bounds(cur.child, cur.count, lb, ub);
      take_bounds(other.child, other.count, lb + 4, ub + 4);
#endif
    } else if (cur.count > 1) {
      // Float lower and upper bounds of the distances to four triangles at a
      // time: the upper bounds shrink the radius, the lower bounds keep the
      // candidates.
      const TriangleBlock* b = blocks + block_of[cur.child];
      for (int j = 0; j < cur.count; j += 4, ++b) {
        simd::F4 upper;
        alignas(16) float lb[4], ub[4];
        simd::store(lb, pre.bound(&b->v[0][0], b->s, upper));
        simd::store(ub, upper);
        take_bounds(cur.child + j, std::min(4, cur.count - j), lb, ub);
      }
    } else {
      const BvhWideNode& n = nodes[cur.child];
      simd::F4 key;
      const int mask = wq.test(n, best_f, key);
      if (mask) {
        // Prefetch what the lanes will read (random points are bound by
        // memory latency: about 30 nodes and 15 leaf blocks per query).
        for (int m = mask; m; m &= m - 1) {
          const int l = std::countr_zero(static_cast<unsigned>(m));
          const char* addr = n.count[l] == 0  ? reinterpret_cast<const char*>(nodes + n.child[l])
                             : n.count[l] > 1 ? reinterpret_cast<const char*>(blocks + block_of[n.child[l]])
                                              : nullptr;
          if (addr) {
            prefetch(addr);
            prefetch(addr + 64);
            prefetch(addr + 128);
          }
        }
        cur = push_sorted(n, mask, key, stack, sp);
        continue;
      }
    }
    do {
      if (sp == 0) {
        test_candidates();
        if (best.face >= 0) best.distance = std::sqrt(best_d2);
        return best;
      }
      cur = stack[--sp];
    } while (cur.key > best_f);
  }
}

#ifdef DRAPE_BVH_AVX2
DRAPE_TARGET_AVX2 TriangleMeshBvh::PointQuery TriangleMeshBvh::closest_point_avx2(const Vec3& q,
                                                                                  double max_distance) const {
  return closest_point_wide<DRAPE_BVH_F8_PAIRS>(q, max_distance);
}
#endif

double TriangleMeshBvh::distance(const Vec3& p, double radius) const {
  const PointQuery c = closest_point(p, radius);
  return c.face < 0 ? radius : std::min(c.distance, radius);
}

void TriangleMeshBvh::closest_points(std::span<const Vec3> points, std::span<PointQuery> results,
                                     double max_distance, const Executor& executor) const {
  if (results.size() != points.size())
    throw InvalidInput("TriangleMeshBvh::closest_points: " + std::to_string(results.size()) +
                       " results for " + std::to_string(points.size()) + " points");
  fresh_wide_blocks();
  executor.for_each(
      0, points.size(), [&](std::size_t i) { results[i] = closest_point(points[i], max_distance); }, 64);
}

}  // namespace drape

#include <algorithm>
#include <string>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/core/exceptions.h"
#include "wide_traversal.h"

// Ray queries of the triangle tree: closest hit (float 4-wide traversal with
// an exact leaf test, a double binary fallback), any hit, every hit.

namespace drape {
using namespace bvh_detail;

namespace {
// The exact (double) test of a leaf triangle against `wr` clipped to best_t;
// a nearer hit replaces best_t and `best`. Returns whether it did.
DRAPE_INLINE_ALWAYS bool nearer_hit(WatertightRay& wr, const Vec3* p, const Triangle& t, int face,
                                    double& best_t, RayHit& best) {
  double tt, u, v;
  wr.t_max = best_t;
  if (!intersect_ray_triangle(wr, p[t[0]], p[t[1]], p[t[2]], tt, u, v)) return false;
  best_t = tt;
  best = {face, tt, u, v};
  return true;
}
}  // namespace

std::optional<RayHit> TriangleMeshBvh::intersect_binary(const Ray& ray, WatertightRay& wr) const {
  const SlabRay sr(ray);
  const auto nodes = tree_.nodes();
  const Vec3* p = mesh_->positions.data();
  RayHit best;
  double best_t = ray.t_max;
  StackEntry stack[Bvh::kMaxDepth + 2];
  int sp = 0;
  const double t_root = sr.enter(nodes[0], ray.t_min, best_t);
  if (t_root == std::numeric_limits<double>::infinity()) return std::nullopt;
  stack[sp++] = {0, t_root};
  while (sp > 0) {
    const StackEntry e = stack[--sp];
    if (e.key > best_t) continue;
    const BvhNode& n = nodes[e.node];
    if (n.is_leaf()) {
      for (int i = n.index; i < n.index + n.count; ++i)
        nearer_hit(wr, p, leaf_tris_[i], leaf_faces_[i], best_t, best);
      continue;
    }
    const double t0 = sr.enter(nodes[n.index], ray.t_min, best_t);
    const double t1 = sr.enter(nodes[n.index + 1], ray.t_min, best_t);
    constexpr double kInf = std::numeric_limits<double>::infinity();
    if (t0 != kInf && t1 != kInf) {
      // Nearer child on top of the stack: ordered traversal.
      if (t0 <= t1) {
        stack[sp++] = {n.index + 1, t1};
        stack[sp++] = {n.index, t0};
      } else {
        stack[sp++] = {n.index, t0};
        stack[sp++] = {n.index + 1, t1};
      }
    } else if (t0 != kInf) {
      stack[sp++] = {n.index, t0};
    } else if (t1 != kInf) {
      stack[sp++] = {n.index + 1, t1};
    }
  }
  if (best.face < 0) return std::nullopt;
  return best;
}

namespace {
// Binary fallback of visit_ray_leaves: visits every leaf the ray's segment passes; `leaf(n)` returns true to
// stop.
template <class F>
void visit_ray_leaves_binary(const Bvh& tree, const Ray& ray, F&& leaf) {
  if (tree.empty()) return;
  const SlabRay sr(ray);
  const auto nodes = tree.nodes();
  int stack[Bvh::kMaxDepth + 2];
  int sp = 0;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (sr.enter(nodes[0], ray.t_min, ray.t_max) == kInf) return;
  stack[sp++] = 0;
  while (sp > 0) {
    const BvhNode& n = nodes[stack[--sp]];
    if (n.is_leaf()) {
      if (leaf(n.index, n.count)) return;
      continue;
    }
    if (sr.enter(nodes[n.index + 1], ray.t_min, ray.t_max) != kInf) stack[sp++] = n.index + 1;
    if (sr.enter(nodes[n.index], ray.t_min, ray.t_max) != kInf) stack[sp++] = n.index;
  }
}

// Visits every leaf the ray's segment may pass; `leaf(first, count)` returns true to stop.
template <class F>
void visit_ray_leaves(const Bvh& tree, const BvhWide& wide, const Ray& ray, F&& leaf) {
  if (tree.empty()) return;
  const WideRay wr(ray);
  if (!wr.ok || !wide.in_float_range()) return visit_ray_leaves_binary(tree, ray, leaf);
  const BvhWideNode* nodes = wide.nodes().data();
  int stack[Bvh::kMaxDepth * 3 + 8];
  int sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const BvhWideNode& n = nodes[stack[--sp]];
    simd::F4 key;
    int mask = wr.test(n, simd::splat(wr.t_max), key);
    while (mask) {
      const int l = std::countr_zero(static_cast<unsigned>(mask));
      mask &= mask - 1;
      if (n.count[l] > 0) {
        if (leaf(n.child[l], n.count[l])) return;
      } else {
        stack[sp++] = n.child[l];
      }
    }
  }
}
}  // namespace

std::optional<RayHit> TriangleMeshBvh::intersect(const Ray& ray) const {
#ifdef DRAPE_BVH_AVX2
  if (uses_avx2()) return intersect_avx2(ray);
#endif
  return intersect_wide(ray);
}
DRAPE_INLINE_ALWAYS std::optional<RayHit> TriangleMeshBvh::intersect_wide(const Ray& ray) const {
  WatertightRay wr(ray);
  if (!wr.valid || tree_.empty() || !(ray.t_min <= ray.t_max)) return std::nullopt;
  const WideRay sr(ray);
  const BvhWide& wide = fresh_wide_blocks();
  if (!sr.ok || !wide.in_float_range()) return intersect_binary(ray, wr);
  const BvhWideNode* nodes = wide.nodes().data();
  const Vec3* p = mesh_->positions.data();
  const TriangleBlock* blocks = lazy_->tri_blocks.data();
  const std::int32_t* block_of = lazy_->block_of.data();
  const TrianglePretest pre(wr);
  RayHit best;
  double best_t = ray.t_max;
  float t_max = sr.t_max;
  simd::F4 t_max4 = simd::splat(t_max);
  WideEntry stack[kWideStack];
  int sp = 0;
  WideEntry cur{0, 0, sr.t_min};
  for (;;) {
    if (cur.count > 0) {
      auto exact = [&](int i) DRAPE_LAMBDA_INLINE {
        if (nearer_hit(wr, p, leaf_tris_[i], leaf_faces_[i], best_t, best)) {
          t_max = sr.scaled_up(best_t);
          t_max4 = simd::splat(t_max);
        }
      };
      if (cur.count == 1) {
        // One triangle: its box was the lane's, so straight to the exact test
        // (a pre-test block per triangle cost more memory traffic than it saved).
        exact(cur.child);
      } else {
        // Float pre-test of four triangles at a time, then the exact test on
        // the candidates, in primitive order (so the answer is the exact one).
        const TriangleBlock* b = blocks + block_of[cur.child];
        for (int j = 0; j < cur.count; j += 4, ++b) {
          int mask = pre.test(&b->v[0][0], b->s) & ((1 << std::min(4, cur.count - j)) - 1);
          while (mask) {
            exact(cur.child + j + std::countr_zero(static_cast<unsigned>(mask)));
            mask &= mask - 1;
          }
        }
      }
    } else {
      const BvhWideNode& n = nodes[cur.child];
      simd::F4 key;
      const int mask = sr.test(n, t_max4, key);
      if (mask) {
        cur = push_sorted(n, mask, key, stack, sp);  // nearest child next, the others on the stack
        continue;
      }
    }
    do {
      if (sp == 0) return best.face < 0 ? std::nullopt : std::optional<RayHit>(best);
      cur = stack[--sp];
    } while (cur.key > t_max);
  }
}

namespace {
// Calls hit(i, t, u, v) for every leaf-order primitive i the ray hits (any
// order); hit returns true to stop. Nothing for an invalid ray or range.
template <class F>
void for_each_hit(const Bvh& tree, const BvhWide& wide, const Vec3* p, const std::vector<Triangle>& leaf_tris,
                  const Ray& ray, F&& hit) {
  const WatertightRay wr(ray);
  if (!wr.valid || !(ray.t_min <= ray.t_max)) return;
  visit_ray_leaves(tree, wide, ray, [&](int first, int count) {
    for (int i = first; i < first + count; ++i) {
      const Triangle& t = leaf_tris[i];
      double tt, u, v;
      if (intersect_ray_triangle(wr, p[t[0]], p[t[1]], p[t[2]], tt, u, v) && hit(i, tt, u, v)) return true;
    }
    return false;
  });
}
}  // namespace

bool TriangleMeshBvh::intersects_any(const Ray& ray) const {
  bool any = false;
  for_each_hit(tree_, fresh_wide(), mesh_->positions.data(), leaf_tris_, ray,
               [&](int, double, double, double) { return any = true; });
  return any;
}

int TriangleMeshBvh::count_hits(const Ray& ray) const {
  int hits = 0;
  for_each_hit(tree_, fresh_wide(), mesh_->positions.data(), leaf_tris_, ray,
               [&](int, double, double, double) {
                 ++hits;
                 return false;
               });
  return hits;
}

std::vector<RayHit> TriangleMeshBvh::all_hits(const Ray& ray) const {
  std::vector<RayHit> out;
  for_each_hit(tree_, fresh_wide(), mesh_->positions.data(), leaf_tris_, ray,
               [&](int i, double t, double u, double v) {
                 out.push_back({leaf_faces_[i], t, u, v});
                 return false;
               });
  std::sort(out.begin(), out.end(),
            [](const RayHit& a, const RayHit& b) { return a.t < b.t || (a.t == b.t && a.face < b.face); });
  return out;
}

int TriangleMeshBvh::signed_crossings(const Ray& ray) const {
  const Vec3* p = mesh_->positions.data();
  int sum = 0;
  for_each_hit(tree_, fresh_wide(), p, leaf_tris_, ray, [&](int i, double, double, double) {
    const Triangle& t = leaf_tris_[i];
    sum += orient3d_sign(p[t[0]], p[t[1]], p[t[2]], ray.origin);
    return false;
  });
  return sum;
}

void TriangleMeshBvh::intersect(std::span<const Ray> rays, std::span<std::optional<RayHit>> hits,
                                const Executor& executor) const {
  if (hits.size() != rays.size())
    throw InvalidInput("TriangleMeshBvh::intersect: " + std::to_string(hits.size()) + " results for " +
                       std::to_string(rays.size()) + " rays");
  fresh_wide_blocks();  // once here rather than under the lock in every task
  executor.for_each(
      0, rays.size(), [&](std::size_t i) { hits[i] = intersect(rays[i]); }, 64);
}
#ifdef DRAPE_BVH_AVX2
DRAPE_TARGET_AVX2 std::optional<RayHit> TriangleMeshBvh::intersect_avx2(const Ray& ray) const {
  return intersect_wide(ray);
}
#endif

}  // namespace drape

#include "drape/bvh/triangle_mesh_bvh.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>

#include "drape/core/exceptions.h"
#include "wide_traversal.h"

// The triangle tree's build, refit and rigid motion, the lazily refreshed
// wide copy and triangle blocks, and the run-time choice of SSE2 / AVX2 code.

namespace drape {
using namespace bvh_detail;

TriangleMeshBvh::TriangleMeshBvh(const TriangleMesh& mesh, const BvhBuildOptions& options,
                                 const Executor& executor)
    : mesh_(&mesh) {
  faces_.resize(mesh.face_count());
  for (std::size_t f = 0; f < faces_.size(); ++f) faces_[f] = static_cast<int>(f);
  init(options, executor);
}

std::shared_ptr<const TriangleMeshBvh> make_shared_tree(TriangleMesh mesh, const BvhBuildOptions& options,
                                                        const Executor& executor) {
  // The mesh and the tree that references it, in one allocation; the tree is
  // handed out through shared_ptr's aliasing constructor.
  struct Owned {
    TriangleMesh mesh;
    TriangleMeshBvh tree;
    Owned(TriangleMesh m, const BvhBuildOptions& o, const Executor& e)
        : mesh(std::move(m)), tree(mesh, o, e) {}
  };
  const auto owned = std::make_shared<const Owned>(std::move(mesh), options, executor);
  return std::shared_ptr<const TriangleMeshBvh>(owned, &owned->tree);
}

TriangleMeshBvh::TriangleMeshBvh(const TriangleMesh& mesh, std::span<const int> faces,
                                 const BvhBuildOptions& options, const Executor& executor)
    : mesh_(&mesh), faces_(faces.begin(), faces.end()) {
  for (std::size_t i = 0; i < faces_.size(); ++i)
    if (faces_[i] < 0 || static_cast<std::size_t>(faces_[i]) >= mesh.face_count())
      throw InvalidInput("TriangleMeshBvh: face id " + std::to_string(faces_[i]) + " (entry " +
                         std::to_string(i) + ") out of range for a mesh of " +
                         std::to_string(mesh.face_count()) + " faces");
  init(options, executor);
}

void TriangleMeshBvh::init(const BvhBuildOptions& options, const Executor& executor) {
  const TriangleMesh& m = *mesh_;
  m.validate("TriangleMeshBvh mesh");
  const std::size_t n = faces_.size();
  std::vector<Aabb> boxes(n);
  std::vector<Vec3> centroids(n);
  executor.for_each(
      0, n,
      [&](std::size_t i) {
        const Triangle& t = m.faces[faces_[i]];
        Aabb b;
        for (int v : t) b.expand(m.positions[v]);
        boxes[i] = b;
        centroids[i] = (m.positions[t[0]] + m.positions[t[1]] + m.positions[t[2]]) / 3.0;
      },
      4096);
  tree_ = Bvh::build(boxes, centroids, options, executor);
  // The wide tree is collapsed here, from the boxes the binary tree was built
  // with, and only refitted afterwards: the collapse picks lanes by box area,
  // so collapsing at the first query would make the layout, and with it the
  // traversal order, depend on where the mesh was when that query came (a
  // resumed simulation would then differ from an uninterrupted one).
  lazy_->wide = BvhWide(tree_);
  lazy_->wide_fresh.store(true, std::memory_order_relaxed);
  const auto order = tree_.primitive_order();
  leaf_tris_.resize(n);
  leaf_faces_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    leaf_faces_[i] = faces_[order[i]];
    leaf_tris_[i] = m.faces[leaf_faces_[i]];
  }
}

void TriangleMeshBvh::refit(double margin) {
  const Vec3* p = mesh_->positions.data();
  auto boxes = tree_.primitive_boxes_mutable();
#ifdef DRAPE_BVH_SSE2
  // The scalar loop below, two coordinates per instruction: the same
  // operations in the same order (min/max operand order as std::min/max,
  // down(d) = (d - |d| 2^-22) - 1e-30), so the boxes are bit-identical.
  static_assert(sizeof(Vec3) == 3 * sizeof(double) && sizeof(BvhBox) == 6 * sizeof(float));
  const __m128d sign = _mm_set1_pd(-0.0), rel = _mm_set1_pd(0x1p-22), tiny = _mm_set1_pd(1e-30);
  const __m128d m = _mm_set1_pd(margin);
  // Lanes (z min, z max): negate the rounding terms of the min.
  const __m128d z_sign = _mm_set_pd(0.0, -0.0);
  for (std::size_t i = 0; i < leaf_tris_.size(); ++i) {
    const Triangle& t = leaf_tris_[i];
    const double *a = &p[t[0]].x, *b = &p[t[1]].x, *c = &p[t[2]].x;
    const __m128d axy = _mm_loadu_pd(a), bxy = _mm_loadu_pd(b), cxy = _mm_loadu_pd(c);
    const __m128d az = _mm_load_sd(a + 2), bz = _mm_load_sd(b + 2), cz = _mm_load_sd(c + 2);
    const __m128d lo_xy = _mm_sub_pd(_mm_min_pd(_mm_min_pd(cxy, bxy), axy), m);
    const __m128d hi_xy = _mm_add_pd(_mm_max_pd(_mm_max_pd(cxy, bxy), axy), m);
    const __m128d lo_z = _mm_sub_sd(_mm_min_sd(_mm_min_sd(cz, bz), az), m);
    const __m128d hi_z = _mm_add_sd(_mm_max_sd(_mm_max_sd(cz, bz), az), m);
    const __m128d zz = _mm_unpacklo_pd(lo_z, hi_z);
    // down: (d - |d| rel) - tiny; up: (d + |d| rel) + tiny.
    const __m128d dlo = _mm_sub_pd(_mm_sub_pd(lo_xy, _mm_mul_pd(_mm_andnot_pd(sign, lo_xy), rel)), tiny);
    const __m128d dhi = _mm_add_pd(_mm_add_pd(hi_xy, _mm_mul_pd(_mm_andnot_pd(sign, hi_xy), rel)), tiny);
    const __m128d dz =
        _mm_add_pd(_mm_add_pd(zz, _mm_xor_pd(_mm_mul_pd(_mm_andnot_pd(sign, zz), rel), z_sign)),
                   _mm_xor_pd(tiny, z_sign));
    const __m128 flo = _mm_cvtpd_ps(dlo), fhi = _mm_cvtpd_ps(dhi), fz = _mm_cvtpd_ps(dz);
    // lo x, lo y, lo z | hi x, hi y, hi z
    float* out = boxes[i].lo;
    _mm_storel_pi(reinterpret_cast<__m64*>(out), flo);
    _mm_store_ss(out + 2, fz);
    _mm_storel_pi(reinterpret_cast<__m64*>(out + 3), fhi);
    _mm_store_ss(out + 5, _mm_shuffle_ps(fz, fz, 1));
  }
#else
  for (std::size_t i = 0; i < leaf_tris_.size(); ++i) {
    const Triangle& t = leaf_tris_[i];
    const Vec3 &a = p[t[0]], &b = p[t[1]], &c = p[t[2]];
    BvhBox& box = boxes[i];
    for (int k = 0; k < 3; ++k) {
      box.lo[k] = BvhBox::down(std::min(a[k], std::min(b[k], c[k])) - margin);
      box.hi[k] = BvhBox::up(std::max(a[k], std::max(b[k], c[k])) + margin);
    }
  }
#endif
  tree_.refit_from_leaf_boxes();
  lazy_->wide_fresh.store(false, std::memory_order_relaxed);
  lazy_->blocks_fresh.store(false, std::memory_order_relaxed);
  lazy_->caps_fresh.store(false, std::memory_order_relaxed);
}

void TriangleMeshBvh::transform(const RigidTransform& t) {
  tree_.transform(t);
  lazy_->wide_fresh.store(false, std::memory_order_relaxed);
  lazy_->blocks_fresh.store(false, std::memory_order_relaxed);
  lazy_->caps_fresh.store(false, std::memory_order_relaxed);
}

const BvhWide& TriangleMeshBvh::update_wide() const {
  Lazy& l = *lazy_;
  {
    const std::lock_guard<std::mutex> lock(l.wide_mutex);
    if (!l.wide_fresh.load(std::memory_order_relaxed)) {
      l.wide.refit(tree_);  // collapsed in init()
      l.wide_fresh.store(true, std::memory_order_release);
    }
  }
  return l.wide;
}

void TriangleMeshBvh::update_blocks() const {
  Lazy& l = *lazy_;
  const std::lock_guard<std::mutex> lock(l.wide_mutex);
  if (l.blocks_fresh.load(std::memory_order_relaxed)) return;
  if (l.block_of.size() != leaf_tris_.size()) {  // first time: one block per 4 primitives of each leaf
    l.block_of.assign(leaf_tris_.size(), -1);
    int blocks = 0;
    for (const BvhNode& n : tree_.nodes())
      if (n.is_leaf() && n.count > 1) {  // single triangles go straight to the exact test
        l.block_of[n.index] = blocks;
        blocks += (n.count + 3) / 4;
      }
    l.tri_blocks.assign(blocks, TriangleBlock{});  // empty lanes stay zero: only used lanes are written below
  }
  const Vec3* p = mesh_->positions.data();
  for (const BvhNode& n : tree_.nodes()) {
    if (!n.is_leaf() || n.count <= 1) continue;
    const int first_block = l.block_of[n.index];
    for (int q = 0; 4 * q < n.count; ++q) {
      TriangleBlock& rb = l.tri_blocks[first_block + q];
      const int lanes = std::min(4, n.count - 4 * q);
      for (int lane = 0; lane < lanes; ++lane) {
        const Triangle& t = leaf_tris_[n.index + 4 * q + lane];
        float m = 0;
        for (int k = 0; k < 3; ++k) {
          const Vec3& v = p[t[k]];
          const float x = static_cast<float>(v.x), y = static_cast<float>(v.y), z = static_cast<float>(v.z);
          rb.v[3 * k][lane] = x;
          rb.v[3 * k + 1][lane] = y;
          rb.v[3 * k + 2][lane] = z;
          m = std::max(m, std::max(std::abs(x), std::max(std::abs(y), std::abs(z))));
        }
        rb.s[lane] = m;  // the 2^-19 relative bound of the pre-test covers |x| <= m (1 + 2^-24)
      }
    }
  }
  l.blocks_fresh.store(true, std::memory_order_release);
}
// Run-time choice of the code for rays and closest points: the same source
// compiled for SSE2 (the x86-64 baseline) and, through a function target
// attribute, for AVX2 (VEX encoding: three-operand instructions, fewer
// register copies; no FMA, so every rounding is the same and the answers are
// bit-identical). Chosen by the CPU at start-up; force_sse2() for tests.
#ifdef DRAPE_BVH_AVX2
namespace {
const bool kCpuAvx2 = [] {
  __builtin_cpu_init();  // needed before __builtin_cpu_supports during static initialisation
  return __builtin_cpu_supports("avx2") != 0;
}();
std::atomic<bool> g_force_sse2{false};
}  // namespace
void TriangleMeshBvh::force_sse2(bool on) { g_force_sse2.store(on, std::memory_order_relaxed); }
bool TriangleMeshBvh::uses_avx2() { return kCpuAvx2 && !g_force_sse2.load(std::memory_order_relaxed); }
#else
void TriangleMeshBvh::force_sse2(bool) {}
bool TriangleMeshBvh::uses_avx2() { return false; }
#endif

}  // namespace drape

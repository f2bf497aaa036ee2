#pragma once
// An AABB tree over the faces of a TriangleMesh with exact leaf tests: ray
// casts (closest, any, every hit), closest point and distance, generalized
// winding number and inside/outside (also for open and multi-piece meshes),
// tree-vs-tree and self intersection (docs/METHODS.md "AABB trees", steps 5-10). The one
// spatial query structure over a body: placement, collision and rig fitting
// all use it. Sources: build/refit in triangle_mesh_bvh.cpp, then
// triangle_mesh_{ray,point,pair}_queries.cpp and triangle_mesh_winding.cpp.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "drape/bvh/bvh.h"
#include "drape/bvh/wide_bvh.h"
#include "drape/geometry/triangle_mesh.h"
#include "drape/geometry/triangle_queries.h"

namespace drape {

class TriangleMeshBvh {
 public:
  /// Builds a tree over all faces of `mesh`. The mesh is referenced, not
  /// copied: it must outlive the tree; after its positions change call refit()
  /// (or rebuild), after a rigid motion of all positions call transform().
  /// Faces and vertex count must not change.
  /// \throw InvalidInput when a position is NaN/Inf or a face index is out of range.
  explicit TriangleMeshBvh(const TriangleMesh& mesh, const BvhBuildOptions& options = {},
                           const Executor& executor = Executor::global());
  /// Tree over a subset of faces (docs/METHODS.md "Patterns and placement", step 16: the body tree restricted
  /// to a region). Results report mesh face ids. \throw InvalidInput as above, or for a face id out of range.
  TriangleMeshBvh(const TriangleMesh& mesh, std::span<const int> faces, const BvhBuildOptions& options = {},
                  const Executor& executor = Executor::global());

  /// docs/METHODS.md "AABB trees", step 8: recomputes the leaf boxes from the current positions
  /// (inflated by `margin`, metres) and refits parents bottom-up. No allocation.
  void refit(double margin = 0);
  /// docs/METHODS.md "AABB trees", step 8, rigid motion: call after applying `t` to every mesh position;
  /// boxes become the boxes of their 8 transformed corners (looser than a refit).
  void transform(const RigidTransform& t);

  /// Rays and closest points traverse a 4-wide copy of the tree (bvh/wide_bvh.h)
  /// that the first such query builds, and the first one after refit() or
  /// transform() updates; this does it now instead (thread-safe, like the
  /// queries). Optional.
  void prepare_queries() const { fresh_wide_blocks(); }

  /// On x86-64 CPUs with AVX2, rays and closest points run the same code
  /// compiled for AVX2 (chosen at run time; no FMA, so the answers are
  /// bit-identical). force_sse2(true) makes every tree use the SSE2 code
  /// (process-wide; tests cover the fallback with it).
  static void force_sse2(bool on);
  /// True when rays and closest points currently run the AVX2 code.
  static bool uses_avx2();

  /// Closest hit along the ray within [t_min, t_max]; nullopt when none.
  std::optional<RayHit> intersect(const Ray& ray) const;
  /// True when the ray hits any face within [t_min, t_max].
  bool intersects_any(const Ray& ray) const;
  /// True when the segment from a to b meets a face (a seam pair astride the
  /// body); false when a == b.
  bool intersects_segment(const Vec3& a, const Vec3& b) const {
    return squared_norm(b - a) > 0 && intersects_any(Ray{a, b - a, 0, 1});
  }
  /// Batched closest hits, parallel through `executor`; hits.size() == rays.size().
  void intersect(std::span<const Ray> rays, std::span<std::optional<RayHit>> hits,
                 const Executor& executor = Executor::global()) const;
  /// Number of faces the ray hits within [t_min, t_max] (every crossing, not only the closest).
  int count_hits(const Ray& ray) const;
  /// Every hit within [t_min, t_max], sorted by t (equal t: by face id). A
  /// ray through a shared edge or vertex of a closed mesh reports one hit
  /// where it crosses the surface (the watertight test's tie-break).
  std::vector<RayHit> all_hits(const Ray& ray) const;

  struct PointQuery {
    int face = -1;  ///< -1 when nothing is within max_distance
    Vec3 point;
    double u = 0, v = 0, w = 0;  ///< barycentrics of the face's vertices 0, 1, 2
    double distance = std::numeric_limits<double>::infinity();
  };
  /// Closest point on the mesh to p among faces within max_distance.
  PointQuery closest_point(const Vec3& p,
                           double max_distance = std::numeric_limits<double>::infinity()) const;
  /// Batched closest points, parallel through `executor`.
  void closest_points(std::span<const Vec3> points, std::span<PointQuery> results,
                      double max_distance = std::numeric_limits<double>::infinity(),
                      const Executor& executor = Executor::global()) const;
  /// Distance from p to the nearest face when it is below `radius` (metres
  /// or the mesh's unit), else `radius`: the closest point search bounded by
  /// the radius, for "is anything within r" tests.
  double distance(const Vec3& p, double radius) const;

  /// Generalized winding number of the tree's faces at p (Jacobson, Kavan,
  /// Sorkine-Hornung 2013): the sum of the faces' signed solid angles over
  /// 4 pi. 1 inside and 0 outside a closed, outward-oriented surface (an
  /// integer for any closed one: -1 inside an inward-oriented one, 2 where
  /// two closed pieces overlap); near a hole or for an open piece it varies
  /// smoothly in between. Exact up to rounding (no far-field approximation),
  /// evaluated as the winding number of the surface closed by caps over its
  /// boundary loops (a signed crossing count along one ray: an integer) plus
  /// the solid angles of the caps, so a closed mesh costs one ray and an open
  /// one a ray plus O(boundary edges) (see docs/BVH.md). The boundary is
  /// taken from the faces' vertex ids (faces that share a position but not a
  /// vertex id are not joined: still exact, only more cap triangles).
  /// Undefined on the surface itself (any value may come back there).
  double winding_number(const Vec3& p) const;
  /// Inside test that tolerates holes, open pieces and separate or nested
  /// pieces: |winding_number(p)| >= 1/2. For a closed mesh this is the exact
  /// inside test (also when the ray meets edges or vertices); points on the
  /// surface may go either way. Caps far from p and from its ray enter only
  /// through a bound on their solid angle unless the bound could change the
  /// answer (docs/BVH.md). Like the boxes, the caps follow refit() and
  /// transform(): positions changed without either are not seen.
  bool contains(const Vec3& p) const;
  /// Number of edges of the boundary of the tree's faces (edges used by the
  /// faces in one direction more often than in the other, counted with that
  /// multiplicity): 0 for a closed, consistently oriented mesh.
  std::size_t boundary_edge_count() const;

  /// Tree-vs-tree (docs/METHODS.md "AABB trees", step 9): (face of this mesh, face of other) for every
  /// pair of triangles that truly intersect (exact test at the leaves), sorted.
  std::vector<std::pair<int, int>> intersecting_pairs(const TriangleMeshBvh& other) const;

  /// Self intersections: pairs (a < b) of faces that intersect, skipping pairs
  /// that share a vertex; sorted. With normal_cone_cull_angle > 0 (radians,
  /// at most pi/2), a subtree whose faces are edge-connected and whose normals
  /// all lie within a cone of that half-angle is not tested against itself
  /// (docs/METHODS.md "AABB trees", step 10: a low-curvature region cannot fold onto itself); it is still
  /// tested against the rest of the mesh.
  struct SelfStats {
    long long candidate_pairs =
        0;                       ///< box-overlapping pairs given to the exact test (adjacent ones excluded)
    long long culled_nodes = 0;  ///< subtrees skipped by the normal-cone test
  };
  std::vector<std::pair<int, int>> self_intersecting_pairs(double normal_cone_cull_angle = 0,
                                                           SelfStats* stats = nullptr) const;
  /// For every tree node: true when its faces form one edge-connected patch
  /// (computed once from MeshAdjacency, lazily; topology is fixed).
  const std::vector<std::uint8_t>& node_connected() const;

  const Bvh& tree() const { return tree_; }
  const TriangleMesh& mesh() const { return *mesh_; }
  /// Face id of tree primitive i.
  int face_of_primitive(int i) const { return faces_[i]; }
  std::size_t face_count() const { return faces_.size(); }

 private:
  void init(const BvhBuildOptions& options, const Executor& executor);
  // Sum over the faces the ray hits of +1 where the ray leaves through the
  // face's back (the origin lies behind it), -1 where it enters (exact signs).
  int signed_crossings(const Ray& ray) const;
  // Double-precision traversals of the binary tree, for rays and points the
  // float wide traversal cannot bound (coordinates beyond 2^60, directions
  // with a component below 2^-60 of the largest).
  std::optional<RayHit> intersect_binary(const Ray& ray, WatertightRay& wr) const;
  PointQuery closest_point_binary(const Vec3& q, double max_distance) const;
  // The float 4-wide traversals, compiled twice (SSE2 and AVX2, bvh/triangle_mesh_bvh.cpp).
  std::optional<RayHit> intersect_wide(const Ray& ray) const;
  // kPairs: bound the blocks of two leaves in one 8-lane pass (the AVX2 copy).
  template <bool kPairs>
  PointQuery closest_point_wide(const Vec3& q, double max_distance) const;
  std::optional<RayHit> intersect_avx2(const Ray& ray) const;
  PointQuery closest_point_avx2(const Vec3& q, double max_distance) const;
  const TriangleMesh* mesh_;
  std::vector<int> faces_;           // primitive -> mesh face
  std::vector<Triangle> leaf_tris_;  // vertex ids in leaf order (saves one indirection)
  std::vector<int> leaf_faces_;      // mesh face ids in leaf order
  Bvh tree_;
  // The 4-wide copy of tree_ for rays and closest points, collapsed when the
  // tree is built and brought up to date by the first such query after a
  // refit or transform (so trees used only for pair queries never refit it).
  const BvhWide& fresh_wide() const {
    return lazy_->wide_fresh.load(std::memory_order_acquire) ? lazy_->wide : update_wide();
  }
  const BvhWide& update_wide() const;
  // The vertices of the triangles of every leaf of two or more, four per
  // block (a leaf of more than four uses consecutive blocks): rows a x, y, z, b x, y, z,
  // c x, y, z rounded to float (columns: triangles; empty columns zero),
  // and each triangle's largest |float coordinate|. Rays: a float pre-test of
  // four triangles with a rigorous error bound rejects those whose exact edge
  // functions certainly have mixed signs before the exact double test.
  // Closest points: a rigorous float lower bound of the distance to each of the
  // four triangles skips the exact test where it exceeds the best (see BVH.md).
  struct alignas(16) TriangleBlock {
    float v[9][4];
    float s[4];
  };
  struct Lazy {
    std::once_flag once;
    std::vector<std::uint8_t> connected;
    std::mutex wide_mutex;
    std::atomic<bool> wide_fresh{false};
    // tri_blocks up to date (closest-hit rays and closest points use them)
    std::atomic<bool> blocks_fresh{false};
    BvhWide wide;
    std::vector<TriangleBlock, CacheAlignedAllocator<TriangleBlock>> tri_blocks;
    std::vector<std::int32_t> block_of;  // leaf-order primitive starting a leaf of >= 2 -> its first block
    // The boundary 1-chain of the tree's faces (topology only, so it survives
    // refits): directed edges a -> b with their multiplicity, grouped by
    // connected boundary component; the winding number caps each component
    // by a fan from the centroid of its vertices.
    std::once_flag boundary_once;
    struct BoundaryEdge {
      int a, b, multiplicity, component;
    };
    std::vector<BoundaryEdge> boundary;  // sorted by component
    std::vector<int> edge_start;         // component -> its first boundary edge (one past the end last)
    std::vector<int> component_start, component_vertices;  // CSR: component -> its vertex ids
    // Per component, from the positions at the last refresh (the first
    // winding query after construction, refit() or transform()): the fan's
    // apex, the radius of a ball about it that holds the fan, and the fan's
    // area (with multiplicity). contains() bounds a far fan's solid angle by
    // area / (distance - radius)^2 instead of summing it.
    struct Cap {
      Vec3 apex;
      double radius = 0, area = 0;
    };
    std::vector<Cap> caps;
    std::atomic<bool> caps_fresh{false};
  };
  const Lazy& boundary() const;
  const std::vector<Lazy::Cap>& fresh_caps() const;
  // The exact contribution of boundary component k's fan at p: its solid
  // angle over 4 pi minus its signed crossings with `ray` (from p).
  double cap_winding(int k, const Vec3& p, const WatertightRay& ray) const;
  void update_blocks() const;
  // The wide tree plus the triangle blocks, brought up to date by the first
  // closest-hit ray or closest point after a refit (pair-query users never pay for them).
  const BvhWide& fresh_wide_blocks() const {
    const BvhWide& w = fresh_wide();
    if (!lazy_->blocks_fresh.load(std::memory_order_acquire)) update_blocks();
    return w;
  }
  std::unique_ptr<Lazy> lazy_ = std::make_unique<Lazy>();
};

/// A tree over all faces of its own copy of `mesh` (tree->mesh()), kept alive
/// with it: the one structure over a body that several users share and
/// none may change (e.g. in `drape dress`: placement, the rig fit and the body
/// collider). Read-only: a user whose mesh moves needs its own tree.
/// \throw InvalidInput as the constructor.
std::shared_ptr<const TriangleMeshBvh> make_shared_tree(TriangleMesh mesh,
                                                        const BvhBuildOptions& options = {},
                                                        const Executor& executor = Executor::global());

}  // namespace drape

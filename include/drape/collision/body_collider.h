#pragma once
// Collision queries against the body (docs/METHODS.md "M1 Virtual dressing", steps 9, 11, 16): the body's
// trees are built once; a garment panel may be restricted to the body faces of its regions. A moving body (a
// pose transition) keeps its topology and trees: move_vertices() refits them.

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/core/executor.h"
#include "drape/geometry/triangle_mesh.h"

namespace drape {

/// The body surface near a point.
struct BodyContact {
  int face = -1;               ///< body face, -1 when none within the query distance
  Vec3 point;                  ///< closest point on the body
  Vec3 normal;                 ///< unit outward direction from the body at `point` towards the outside
  double signed_distance = 0;  ///< > 0 outside, < 0 inside (by the closest face's normal)
};

class BodyCollider {
 public:
  /// \param body the body (metres), copied; outward-oriented, ideally closed.
  /// \param face_regions per body face its body_region bits, or empty (no restriction).
  /// \throw InvalidInput when face_regions has the wrong size or the body is empty / invalid.
  BodyCollider(const TriangleMesh& body, std::vector<std::uint32_t> face_regions,
               const Executor& executor = Executor::global());
  /// The same over a body tree the caller built (make_shared_tree) and shares
  /// with others: the collider queries it instead of building its own, until
  /// move_vertices() (then it builds its own over its copy of the body first).
  /// \param body_tree a tree over all faces of the body (body_tree->mesh()).
  BodyCollider(std::shared_ptr<const TriangleMeshBvh> body_tree, std::vector<std::uint32_t> face_regions,
               const Executor& executor = Executor::global());
  ~BodyCollider();
  BodyCollider(const BodyCollider&) = delete;
  BodyCollider& operator=(const BodyCollider&) = delete;

  /// Index of the tree for a panel's region mask: the body faces whose bits meet
  /// `mask` (all faces when there are no face regions, the mask is all, or no
  /// face matches). Builds the tree on first use; call during setup, not while stepping.
  int group_for_mask(std::uint32_t mask);

  /// Closest body point within max_distance of p, among the faces of `group`.
  BodyContact query(const Vec3& p, int group, double max_distance) const;

  /// True when p is inside the body: the whole body tree's generalized winding
  /// number is at least 1/2 (TriangleMeshBvh::contains; holes and separate pieces tolerated).
  bool contains(const Vec3& p) const;

  /// Body features sharper than the cloth (a body edge or vertex poking through a
  /// cloth triangle whose vertices are all outside): every body vertex within
  /// `thickness` of a cloth triangle, on its body side, pushes that triangle out
  /// along the body's vertex normal; every body edge that passes through a cloth
  /// triangle's interior pushes it out along the edge's normal by `thickness`
  /// per call (a coarse cloth stretched over large body triangles: neither
  /// side's vertices are inside the other, the edges cross). Inverse-mass
  /// weighted over the triangle's vertices; parallel search, sequential
  /// deterministic response.
  /// \param faces cloth triangles; \param face_masks per cloth triangle its region mask.
  /// \return the number of contacts answered.
  std::size_t push_cloth_triangles(const std::vector<Triangle>& faces,
                                   const std::vector<std::uint32_t>& face_masks, std::vector<Vec3>& x,
                                   const std::vector<double>& inv_mass, double thickness,
                                   const Executor& executor);

  /// Moves the body's vertices (same topology: one position per body vertex,
  /// metres): normals are recomputed and every tree refitted bottom-up.
  /// Not thread-safe against concurrent queries; call between steps.
  /// \throw InvalidInput when the count differs or a position is not finite.
  void move_vertices(const std::vector<Vec3>& positions);

  const TriangleMesh& mesh() const { return *mesh_; }
  const TriangleMeshBvh& tree() const { return *full_; }
  /// Number of faces in a group's tree.
  std::size_t group_face_count(int group) const;

 private:
  std::unique_ptr<TriangleMesh> mesh_;
  std::vector<std::uint32_t> regions_;
  std::vector<Vec3> face_normals_;
  // The tree over the whole body: shared (given) or own (built here, or at the
  // first move_vertices, which must refit it); full_ is the one in use.
  std::shared_ptr<const TriangleMeshBvh> shared_full_;
  std::unique_ptr<TriangleMeshBvh> own_full_;
  const TriangleMeshBvh* full_ = nullptr;
  struct Group {
    std::uint32_t mask;
    std::unique_ptr<TriangleMeshBvh> tree;  // null: the full tree
  };
  std::vector<Group> groups_;
  // Body vertices as points in a tree, with their normals and region bits.
  Bvh vertex_tree_;
  std::vector<Vec3> vertex_normals_;
  std::vector<std::uint32_t> vertex_regions_;
  struct TriContact {
    int body_vertex;
    float b0, b1, b2;
  };
  static constexpr int kMaxTriContacts = 4;
  std::vector<TriContact> tri_contacts_;
  std::vector<int> tri_contact_count_;
  // Body edges (each once) in a tree, with their outward normals and region bits.
  std::vector<std::array<int, 2>> edges_;
  Bvh edge_tree_;
  std::vector<std::uint32_t> edge_regions_;
  struct EdgeContact {
    int body_edge;
    float b0, b1, b2;  // barycentrics of the crossing point on the cloth triangle
  };
  static constexpr int kMaxEdgeContacts = 4;
  std::vector<EdgeContact> edge_contacts_;
  std::vector<int> edge_contact_count_;
  void init(const Executor& executor);  // everything but the full tree
  void build_edge_boxes(std::vector<Aabb>& boxes) const;
  Vec3 edge_normal(int e) const;
  const Executor* executor_;
};

}  // namespace drape

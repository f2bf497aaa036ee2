#pragma once
// Collision queries against the body (docs/METHODS.md "M1 Virtual dressing", steps 9, 11, 16): the body's
// trees are built once; a garment panel may be restricted to the body faces of its regions. A moving body (a
// pose transition) keeps its topology and trees: move_vertices() refits them.

#include <array>
#include <cstdint>
#include <memory>
#include <span>
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

/// Cloth vertices that move as one: the copies of a seam vertex whose pairs
/// are joined (welded to their mean after every step). A push on one copy is
/// a push on the set: with the copy's own inverse mass, the weld that follows
/// would keep only its share (a third at a three-panel corner).
struct WeldedCopies {
  std::vector<int> next;  ///< per cloth vertex the next copy of its set, circular (itself when alone)
  std::vector<double>
      inv_mass;  ///< per cloth vertex its set's inverse mass (1 / the summed mass; 0 when pinned)
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

  /// query() for vertex `vertex` of a cloth whose vertices keep their ids and
  /// groups between calls: a vertex found with no face within max_distance +
  /// `margin` is not searched for again until it has moved `margin` from there
  /// or the body moved (its answer, no face, is known: a Verlet skip). Call
  /// prepare_vertex_queries(vertex count) first, outside parallel loops;
  /// calls for different vertices may then run in parallel.
  BodyContact query_vertex(std::size_t vertex, const Vec3& p, int group, double max_distance, double margin);
  void prepare_vertex_queries(std::size_t vertices);
  /// The next query_vertex(vertex, p, ...) with p near where it was last asked skips the search (for tests).
  bool vertex_known_far(std::size_t vertex) const { return vertex < far_.size() && far_[vertex]; }
  /// True when query_vertex last found `vertex` with no face of its group
  /// within its radius (max_distance + margin) at a point from which x0 and x1
  /// both lie less than that radius less `distance` away (the body has not
  /// moved since): every point of the segment x0-x1 is then more than
  /// `distance` from the group's faces. False when not known.
  bool segment_known_clear(std::size_t vertex, const Vec3& x0, const Vec3& x1, double distance) const;

  /// Continuous collision of one cloth vertex with the body over a step
  /// (docs/CLOTH.md "No tunnelling"; body_sweep.cpp). The vertex moves linearly
  /// from x0 to x1; the body's vertices move linearly from `body_start` (one
  /// position per body vertex; empty: the body is static) to their current
  /// positions, none further than `body_reach` (m). Candidates are the faces of
  /// `group`'s tree whose boxes meet the segment's box grown by gap + tolerance
  /// + body_reach (no second structure: a face's box at the step's end grown by
  /// body_reach holds the face over the whole step). Each is tested by
  /// vertex_triangle_ccd (continuous_collision.h) with `gap` and `tolerance`
  /// (m). A contact counts when it comes from the face's front (outer) side
  /// (the body is outward-oriented: a vertex leaving the body is let go) and
  /// the vertex would end the step less than `thickness` in front of the
  /// face's plane at the step's end.
  struct SweptContact {
    int face = -1;  ///< the earliest such face, -1 when none
    double t = 1;   ///< its time of impact, fraction of the step
    Vec3 normal;    ///< the face's unit outward normal at the step's end
    Vec3 point;     ///< the contact's point on the face at the step's end (its barycentrics at t)
    Vec3 motion;    ///< that point's displacement over the step (zero on a static body)
  };
  SweptContact sweep_vertex(const Vec3& x0, const Vec3& x1, int group, double gap, double tolerance,
                            double thickness, std::span<const Vec3> body_start, double body_reach) const;

  /// True when p is inside the body: the whole body tree's generalized winding
  /// number is at least 1/2 (TriangleMeshBvh::contains; holes and separate pieces tolerated).
  bool contains(const Vec3& p) const;

  /// Body features sharper than the cloth (a body edge or vertex poking through a
  /// cloth triangle whose vertices are all outside): every body vertex within
  /// `thickness` of a cloth triangle, on its body side, pushes that triangle out
  /// along the body's vertex normal; every body edge that passes through a cloth
  /// triangle, or lies under it within `thickness` (a coarse cloth stretched
  /// over large body triangles and their sharp edges: neither side's vertices
  /// are inside the other, the edges cross), pushes it out along the edge's
  /// normal until the edge's part under the triangle is `thickness` below it,
  /// at most 2 `thickness` per call: a cloth pulled onto a ridge step after
  /// step comes back to the same place, so it can come to rest. Inverse-mass
  /// weighted over the triangle's vertices; parallel search, sequential
  /// deterministic response, in up to three rounds over the contacts found
  /// (an answer moves corners of triangles answered before it; an edge's
  /// pushes over the rounds share its cap).
  /// \param faces cloth triangles; \param face_masks per cloth triangle its region mask.
  /// \param copies when given, a triangle vertex that is a copy of a welded set
  ///        weighs as the set (its inverse mass) and its move is every copy's
  ///        move, so the weld after the step keeps the push whole; a vertex
  ///        alone answers exactly as without.
  /// \param only_faces when given (one entry per cloth triangle), only the
  ///        triangles marked 1 are searched and pushed.
  /// \return the number of contacts answered.
  std::size_t push_cloth_triangles(const std::vector<Triangle>& faces,
                                   const std::vector<std::uint32_t>& face_masks, std::vector<Vec3>& x,
                                   const std::vector<double>& inv_mass, double thickness,
                                   const Executor& executor, const WeldedCopies* copies = nullptr,
                                   const std::vector<unsigned char>* only_faces = nullptr);

  /// How many times push_cloth_triangles listed a cloth triangle's body
  /// vertices and edges (its Verlet lists; for tests).
  std::size_t push_listings() const { return push_listings_; }

  /// Moves the body's vertices (same topology: one position per body vertex,
  /// metres): the normals and boxes a moved vertex touches are recomputed, the
  /// whole-body tree, the vertex and edge trees and the region trees that hold
  /// a face with a moved vertex are refitted bottom-up (a region tree with no
  /// moved vertex keeps its boxes); bit-identical to recomputing everything.
  /// The same positions again change nothing (the Verlet lists and skips stay).
  /// Not thread-safe against concurrent queries; call between steps.
  /// \throw InvalidInput when the count differs or a position is not finite.
  void move_vertices(const std::vector<Vec3>& positions);

  /// How many region trees move_vertices refitted (for tests).
  std::size_t region_refits() const { return region_refits_; }

  const TriangleMesh& mesh() const { return *mesh_; }
  const TriangleMeshBvh& tree() const { return *full_; }
  /// Number of faces in a group's tree.
  std::size_t group_face_count(int group) const;

 private:
  // move_vertices' two paths (body_collider_motion.cpp): the vertices in
  // moved_ and what they touch, or every vertex, face and edge in parallel.
  void move_some_vertices(const std::vector<Vec3>& positions);
  void move_every_vertex(const std::vector<Vec3>& positions);
  // What both paths compute per element (body_collider_motion.cpp).
  void update_face(int f);
  void update_vertex_normal(int u);
  void update_vertex_leaf(int v);
  void update_edge_leaf(int e);
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
    int body_edge;  // through the cloth triangle, or within the thickness under it
  };
  static constexpr int kMaxEdgeContacts = 4;
  std::vector<EdgeContact> edge_contacts_;
  std::vector<int> edge_contact_count_;
  std::vector<double> edge_push_budget_;  // per edge contact end: push left in this call's rounds
  // Verlet lists of push_cloth_triangles: per cloth triangle, the body
  // vertices and edges whose boxes meet its reach (its box grown by the
  // thickness and a margin when it was listed), in the trees' order. While the
  // triangle's query box stays inside its reach and the body has not moved,
  // the trees would give exactly the listed primitives whose boxes meet the
  // query box, in that order: the same contacts without a traversal.
  static constexpr int kMaxListed = 32;
  std::vector<Aabb> push_reach_;                          // an empty box: not listed
  std::vector<int> push_vertices_, push_edges_;           // kMaxListed slots per triangle
  std::vector<int> push_vertex_count_, push_edge_count_;  // -1: more than kMaxListed, use the trees
  std::vector<BvhBox> vertex_fbox_, edge_fbox_;  // the trees' own (float) boxes of body vertices, edges
  bool body_moved_ = false;                      // by move_vertices since the last push_cloth_triangles
  bool moved_before_last_ = false;               // by move_vertices before the last push_cloth_triangles
  bool lists_valid_ = false;                     // made since the body last moved
  std::size_t push_listings_ = 0;
  std::vector<unsigned char> listed_;  // per triangle: listed in this call
  void update_primitive_boxes();
  // query_vertex's skips: per cloth vertex, found far at far_at_ (1) or not
  // (0), and how many calls to wait before asking again when it was not.
  std::vector<unsigned char> far_, far_wait_;
  std::vector<Vec3> far_at_;
  std::vector<double> far_radius_;      // the max_distance + margin far_at_ was found clear within
  bool far_valid_ = false;              // false: the body moved since
  void init(const Executor& executor);  // everything but the full tree
  void build_edge_boxes(std::vector<Aabb>& boxes) const;
  Vec3 edge_normal(int e) const;
  const Executor* executor_;
  // move_vertices: faces and edges around each vertex (CSR, faces in
  // increasing order), leaf slots of vertices and edges in their trees, each
  // face's edge cross product (a vertex normal sums them in face order), and
  // scratch (marks all zero between calls).
  std::vector<int> vertex_face_offsets_, vertex_faces_, vertex_edge_offsets_, vertex_edges_;
  std::vector<int> vertex_leaf_, edge_leaf_;
  std::vector<int> moved_, touched_faces_, touched_vertices_;
  std::vector<unsigned char> face_mark_, vertex_mark_;
  std::vector<Vec3> face_cross_;  // per face the (unnormalised) cross product of its edges
  std::size_t region_refits_ = 0;
};

}  // namespace drape

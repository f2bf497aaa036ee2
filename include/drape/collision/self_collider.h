#pragma once
// Cloth self-collision (M1 steps 10-11): vertex-triangle and edge-edge
// proximity within a thickness, answered by moving the points apart
// (position-based, inverse-mass weighted), with the side taken from the
// previous step's positions so that the answer never pushes through.
//
// Candidates come from AABB trees over the cloth's triangles and edges
// (refitted, M1 step 8) with a search radius of thickness + 2 * slack.
// Invariant (the reuse rule): a pair that is not a candidate was at least the
// radius apart at the last search of its lists, and each of its vertices has
// moved at most `slack` since, relative to the cloth's centroid (a common
// translation changes no distance), so it is still at least the thickness
// apart. A vertex that moves more than `slack` therefore marks every vertex
// whose lists may involve it (within thickness + 4 slack + the longest edges
// at both) for a new search; a cloth at rest costs no search at all
// (docs/CLOTH.md gives the argument).
// M1 step 10: a vertex and a triangle (or two edges) within two rings of each
// other in a low-curvature neighbourhood are not candidates.
// A vertex beside the cloth's free boundary (its nearest point on a triangle
// lies on an edge with one face, seams counted as joined, or on a vertex of
// such an edge) is pushed along the separation, away from the boundary: two
// free edges meeting side by side in one plane (an open front's edges) slide
// apart in that plane instead of each being lifted over the other's cloth,
// which interlocks them.

#include <array>
#include <cstddef>
#include <limits>
#include <vector>

#include "drape/bvh/bvh.h"
#include "drape/bvh/wide_bvh.h"
#include "drape/core/executor.h"
#include "drape/geometry/triangle_mesh.h"

namespace drape {

struct SelfCollisionStats {
  std::size_t vertex_triangle_contacts = 0;
  std::size_t edge_edge_contacts = 0;
  bool searched = false;  ///< the candidate search ran in this update
  /// Vertices and edges with candidates whose pairs were not tested: their
  /// distance bound showed that none can be within the thickness.
  std::size_t items_skipped = 0;
};

class SelfCollider {
 public:
  /// \param faces the cloth's triangles; \param positions initial positions (for the trees).
  /// \param thickness minimum distance kept between cloth parts, m.
  /// \param cone_angle neighbourhoods whose normals differ by less than this
  ///        (radians) are flat and are not tested against themselves (M1 step 10).
  /// \param vertex_alias optional, per vertex a representative id: vertices with the
  ///        same representative (e.g. the two sides of a seam) count as one vertex for
  ///        adjacency, so a seam is never pushed open. Empty = every vertex is its own.
  /// \param slack motion allowed between candidate searches, m (default: the thickness).
  SelfCollider(const std::vector<Triangle>& faces, const std::vector<Vec3>& positions, double thickness,
               double cone_angle, std::vector<int> vertex_alias = {}, double slack = -1);

  /// Searches candidates again (tree refit + traversal) when some vertex moved more
  /// than the slack since the last search, or when `force`. Returns true when it searched.
  bool update(const std::vector<Vec3>& x, const Executor& executor, bool force = false);

  /// Resolves contacts among the candidates (finding: parallel; answering:
  /// sequential in a fixed order, deterministic). Calls update() first, which
  /// searches again only when something moved past the slack. A vertex's
  /// (an edge's) candidates are not tested when a bound from its last test,
  /// less how far both sides can have moved since, shows none within the
  /// thickness (the same contacts; self_collider_resolve.cpp).
  /// \param x positions to correct; \param x_prev positions at the start of the step (decide sides).
  /// \param inv_mass 0 = pinned.
  SelfCollisionStats resolve(std::vector<Vec3>& x, const std::vector<Vec3>& x_prev,
                             const std::vector<double>& inv_mass, const Executor& executor);

  /// Recomputes which faces lie in a flat neighbourhood (e.g. once per frame); the
  /// next update() searches again.
  void update_curvature(const std::vector<Vec3>& x, const Executor& executor);

  /// Per vertex a group id (-1 = none): a vertex and a triangle (two edges) that
  /// share a group are not tested against each other, e.g. the panels meeting at a
  /// seam corner while its pairs are still open. Empty = none. The next update() searches again.
  void set_exempt_groups(std::vector<int> groups);

  /// The cached candidate pairs, canonical and sorted (for tests): vertex-triangle
  /// pairs as {vertex, face}, edge-edge pairs as {a0, a1, b0, b1} with a0 < a1,
  /// b0 < b1 and (a0, a1) < (b0, b1). Right after a search they are every
  /// pair within radius() that adjacency, exemption and flat culling keep.
  std::vector<std::array<int, 2>> vertex_triangle_candidates() const;
  std::vector<std::array<int, 4>> edge_edge_candidates() const;
  /// Candidate radius: thickness + 2 * slack.
  double radius() const { return radius_; }

  /// Candidates dropped because a vertex or edge had more than the per-item capacity (should stay 0).
  std::size_t overflow() const { return overflow_; }
  std::size_t searches() const { return searches_; }

 private:
  static constexpr int kMaxCandidates = 40;  // at most 64 (NearestList)
  static constexpr int kMaxContacts = 8;
  struct VtContact {
    int tri;
    float b0, b1, b2;
    Vec3 n;  // side-corrected direction from triangle to vertex
  };
  // An edge pair in canonical orientation (lo < hi, s along lo, t along hi),
  // whichever edge's list found it: after an incremental search a pair can sit
  // in either list, or both, and the answer must not depend on which.
  struct EeContact {
    int lo, hi;
    float s, t;
    Vec3 n;  // direction from edge hi to edge lo
  };
  // Searches the candidates of the marked vertices (all when `all`) and of the
  // edges with a marked end point.
  void search(const std::vector<Vec3>& x, const Executor& executor, bool all);
  bool near_and_flat(int va, int vb) const;
  void mark_free_boundary();
  // The closest point with barycentrics (u, v, w) on face f lies on the free boundary.
  bool on_free_boundary(int f, double u, double v, double w, double eps) const;
  bool exempt(int v, const Triangle& t) const;
  bool exempt(int a0, int a1, int b0, int b1) const;

  std::vector<Triangle> faces_;
  std::vector<Triangle> alias_faces_;  // faces_ with vertex ids replaced by their alias
  // Per face, bit i: the edge opposite corner i has no other face (by alias).
  std::vector<unsigned char> free_edge_bits_;
  std::vector<unsigned char> free_vertex_;  // per vertex: on a free edge (by alias)
  std::vector<int> alias_;
  std::vector<int> exempt_group_;  // empty = none
  std::vector<std::array<int, 2>> edges_;
  std::vector<int> vertex_face_offsets_, vertex_faces_;  // by alias
  std::vector<int> ring_offsets_, ring_;                 // two-ring neighbours by alias, sorted
  double thickness_, slack_, radius_;
  double cos_cone_;
  Bvh tri_tree_, edge_tree_;
  BvhWide tri_wide_, edge_wide_;  // their 4-wide copies: the candidate searches' box queries
  std::vector<Aabb> tri_boxes_, edge_boxes_;
  std::vector<Vec3> face_normals_;
  std::vector<unsigned char> flat_, vertex_flat_;
  std::vector<Vec3> ref_x_;  // position minus the cloth's centroid at the vertex's last search
  bool need_search_ = true;
  std::vector<int> vcand_, vcand_count_, ecand_, ecand_count_;
  std::vector<VtContact> vt_;
  std::vector<int> vt_count_;
  std::vector<EeContact> ee_;
  std::vector<int> ee_count_;
  std::vector<int> ee_order_;  // resolve order: ee_ slots sorted by (lo, hi)
  std::vector<int> item_overflow_;
  // Incremental search: vertices that moved more than the slack mark the
  // vertices within reach of them (update() says how far) for a new search.
  Bvh vertex_tree_;
  std::vector<Aabb> vertex_boxes_;
  std::vector<unsigned char> marked_, lost_flat_;
  std::vector<int> moved_list_;
  std::vector<double> edge_bound_;  // per vertex: longest edge of its faces at the last marking
  // Contacts skipped where they cannot be: per vertex (edge) a bound from its
  // last test in the current epoch (far_apart in self_collider.cpp; unknown:
  // -infinity); per vertex its offset, its distance from where it was when the
  // epoch began relative to the cloth's centroid (drift_), and per face (edge)
  // its vertices' largest. A new epoch begins (every bound unknown) once more
  // than 1 / kEpochShare of the vertices are off by kEpochDrift thicknesses.
  static constexpr double kBoundMargin = 1e-3;  // of the thickness, against rounding
  static constexpr double kEpochDrift = 0.25;
  static constexpr std::size_t kEpochShare = 20;
  static constexpr double kUnknown = -std::numeric_limits<double>::infinity();
  std::vector<double> vbound_, ebound_, drift_, face_drift_, edge_drift_;
  std::vector<Vec3> epoch_x_;           // position minus the centroid when the epoch began
  std::vector<unsigned char> skipped_;  // per vertex, then per edge: skipped in this resolve
  bool epoch_started_ = false;
  void update_drift(const std::vector<Vec3>& x, const Executor& executor);
  std::size_t overflow_ = 0, searches_ = 0;
};

}  // namespace drape

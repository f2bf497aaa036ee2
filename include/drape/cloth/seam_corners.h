#pragma once
// Seam corners: vertices in more than one seam pair, where several panels
// meet (an armpit, a crotch). Two rules live here.
//
// Pass-through: panels placed flat around a body can start with another
// panel's corner between the two sides of a corner pair (a shirt's front
// sleeve between the torso's side-seam tops). Self-collision would hold them
// apart for good, so the cloth within a few rings of each corner forms a
// group that self-collision exempts from testing against itself
// (SelfCollider::set_exempt_groups) while the group's pairs are open.
//
// Untangling: once a group's pairs are all joined (or its time is up), the
// crossings it may have left are removed by intersection contour
// minimisation; a group none of whose triangles crosses another is released
// (its vertices back to -1), and self-collision keeps it apart from then on.

#include <functional>
#include <vector>

#include "drape/cloth/cloth_model.h"
#include "drape/collision/contour_untangle.h"
#include "drape/core/union_find.h"

namespace drape {

/// Per vertex 1 when it takes part in more than one seam pair.
std::vector<unsigned char> seam_corner_vertices(const ClothModel& model);

/// Grows the vertex set `in` (per vertex 0/1) by `rings` rings: each ring adds
/// the triangles' vertices around the set, then both sides of every seam pair
/// with one side in it. When `sets` is given, every vertex reached is united
/// with a vertex it was reached from (one set per connected region).
void grow_by_rings(const ClothModel& model, int rings, std::vector<unsigned char>& in, UnionFind* sets);

/// Per vertex 1 when it lies within `rings` rings of a seam corner.
std::vector<unsigned char> near_seam_corners(const ClothModel& model, int rings);

/// The pass-through groups: per vertex within `rings` rings of a seam corner
/// its group id (the smallest vertex id of its connected region), -1 for the
/// other vertices; empty when the garment has no seam corner.
std::vector<int> corner_pass_through_groups(const ClothModel& model, int rings);

/// Untangles and releases corner groups. Holds scratch so that a call per frame
/// allocates nothing once warmed up (except the crossing-pair lists of groups
/// that cross).
class CornerUntangler {
 public:
  /// For every group in `corner_group` that is closed (all its seam pairs
  /// joined, or every group when `release_all`): up to `iterations` contour
  /// minimisation steps of `step` m on the positions as they will be welded
  /// (joined pairs at their mean), the displacement applied to `x`; a group
  /// with no crossing triangle left is released (its entries set to -1).
  /// `corner_group` is cleared when no group is left.
  /// \return true when some group was released (the exemptions changed).
  bool untangle_closed_groups(const ClothModel& model, const std::vector<unsigned char>& joined,
                              bool release_all, int iterations, double step, std::vector<Vec3>& x,
                              std::vector<int>& corner_group);

  /// The same minimisation over the whole cloth (every face against every
  /// other, as welded), for crossings that form while the body moves (an arm
  /// lowered onto a sleeve) or that no corner group holds once every group is
  /// released: up to `iterations` steps of `step` m, stopping as soon as no
  /// triangle crosses another. When `blocked(v, from, to)` is given, a vertex
  /// whose step it refuses (e.g. into the body) keeps its place for that step.
  /// \return the crossing pairs left (0: untangled).
  using StepFilter = std::function<bool(std::size_t vertex, const Vec3& from, const Vec3& to)>;
  std::size_t untangle_everywhere(const ClothModel& model, const std::vector<unsigned char>& joined,
                                  int iterations, double step, std::vector<Vec3>& x,
                                  const StepFilter& blocked = {});

 private:
  // Contour minimisation (welded by rep_) until no face crosses another or
  // `iterations` steps are done: of every face against every other
  // (`all_faces`, one refitted tree) or of the faces in faces_. Returns the
  // crossing pairs left.
  std::size_t minimise_crossings(const ClothModel& model, int iterations, double step, std::vector<Vec3>& x,
                                 const StepFilter& blocked, bool all_faces);

  std::vector<unsigned char> open_;
  std::vector<std::pair<int, int>> group_faces_;
  UnionFind welded_;
  std::vector<int> rep_, count_, faces_;
  std::vector<Vec3> xw_, before_;
  FaceCrossingCache everywhere_;  // untangle_everywhere's tree over every face, refitted per call
};

}  // namespace drape

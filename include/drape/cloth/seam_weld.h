#pragma once
// Joined seam pairs as one vertex: the welded representatives, positions
// averaged over each welded set, the body's pushes kept at a weld, and the
// welded result mesh of a drape.

#include <vector>

#include "drape/cloth/cloth_model.h"
#include "drape/core/union_find.h"
#include "drape/geometry/halfspace_projection.h"
#include "drape/geometry/triangle_mesh.h"

namespace drape {

/// Per vertex the representative of its welded set: vertices joined through
/// joined seam pairs (transitively) share the smallest id among them.
/// \param joined per seam pair 1 when joined; \param sets, \param rep scratch and result (storage reused).
void welded_representatives(const ClothModel& model, const std::vector<unsigned char>& joined,
                            UnionFind& sets, std::vector<int>& rep);

/// out[v] = the mean of x over the vertices sharing v's representative, summed
/// in vertex order (every caller gets the same bits). `count` is scratch.
/// Storage of `out` and `count` is reused.
void mean_by_representative(const std::vector<Vec3>& x, const std::vector<int>& rep, std::vector<Vec3>& out,
                            std::vector<int>& count);

/// Storage reused by keep_body_answers_at_welds from step to step.
struct WeldScratch {
  struct Set {
    Vec3 sum;  // mass-weighted
    double mass = 0;
    bool pinned = false;
    std::size_t count = 0;  // half-spaces used (at most kMaxHalfSpaces)
    HalfSpace hs[kMaxHalfSpaces];
    Vec3 place;
    bool move = false;
  };
  UnionFind sets;
  std::vector<int> members;  // the vertices of joined pairs, in seam order
  std::vector<int> set_of;   // per vertex its index in `found` (-1 when not a member)
  std::vector<Set> found;
};

/// After a step's weld of joined pairs to their mean (weld_joined_pairs), each
/// welded set (vertices joined through joined pairs, transitively) whose
/// copies the body pushed goes to the point nearest its mean that lies in
/// every half-space its copies' pushes put them in: pushes[2 v] and
/// pushes[2 v + 1] are copy v's (the contact plane of the body's vertex
/// response, {p : p . n >= p_v . n} with n the contact normal and p_v where
/// the response put it; the plane of a push by a body feature, normal along
/// the push, through the pushed place; a zero normal when there is none).
/// So a push on one copy reaches the welded vertex whole (averaged with
/// partners the body did not push, it was halved, a quarter at a four-panel
/// corner, and cloth at a seam over a sharp body edge stayed through the
/// body), and copies pushed different ways (an armpit: the torso side out of
/// the torso, the sleeve side out of the arm) are each honoured; keeping only
/// the longest push put the other side in.
///
/// A set already in every half-space (with a tolerance of 1e-12 m), a set
/// with a pinned vertex, and a set whose half-spaces do not meet (the pushes
/// ask for more room than there is) keep the weld's positions; a set takes the
/// first kMaxHalfSpaces half-spaces in seam order. Sequential, in seam order:
/// the same bits on any thread count. Every vertex moved is marked in `moved`.
/// Returns the number of sets moved.
std::size_t keep_body_answers_at_welds(const ClothModel& model, const std::vector<unsigned char>& joined,
                                       const std::vector<HalfSpace>& pushes, std::vector<Vec3>& x,
                                       std::vector<unsigned char>& moved, WeldScratch& scratch);

/// The garment with its joined seam pairs welded into shared vertices (smallest
/// id represents, position = mean); triangles that collapse are dropped.
/// \param vertex_map out: per garment vertex its vertex in the result.
/// \param face_map out: per result face its garment face.
TriangleMesh weld_joined_seams(const ClothModel& model, const std::vector<Vec3>& x,
                               const std::vector<unsigned char>& joined, std::vector<int>& vertex_map,
                               std::vector<int>& face_map);

}  // namespace drape

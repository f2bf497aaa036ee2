#pragma once
// Untangling crossing cloth by intersection contour minimisation (ICM,
// Volino & Magnenat-Thalmann, "Resolving surface collisions through
// intersection contour minimization", SIGGRAPH 2006), in its local form.
//
// Proximity-based self-collision keeps each point on the side it came from,
// so a crossing that exists once (e.g. panels let pass through each other
// while a seam corner closes) is locked in. Two crossing triangles meet along
// a segment of the intersection contour; moving one triangle against the
// other along the gradient of that segment's length shrinks the contour, and
// summed over the segments of a closed contour the steps pull the two
// surfaces back through each other until the contour vanishes.

#include <cstddef>
#include <utility>
#include <vector>

#include "drape/bvh/bvh.h"
#include "drape/geometry/triangle_mesh.h"

namespace drape {

/// The pairs among `faces` (indices into `all_faces`) and every face of
/// `all_faces` whose triangles intersect, sharing no vertex (after mapping each
/// vertex through `vertex_rep`, e.g. the two sides of a joined seam as one).
/// \param all_faces the cloth's triangles; \param x positions, one per vertex.
/// \param faces the faces to test (e.g. a region); \param vertex_rep per vertex a
///        representative id; empty = each vertex its own.
/// \return (smaller face, larger face) pairs, sorted, each once.
std::vector<std::pair<int, int>> crossing_face_pairs(const std::vector<Triangle>& all_faces,
                                                     const std::vector<Vec3>& x,
                                                     const std::vector<int>& faces,
                                                     const std::vector<int>& vertex_rep = {});

/// What crossing_face_pairs_all keeps between calls about one cloth: the tree
/// over its faces' boxes and the boxes' storage. Empty before the first call.
struct FaceCrossingCache {
  Bvh tree;
  std::vector<Aabb> boxes;
  std::size_t builds = 0;  ///< how often the tree was built (not refitted)
};

/// crossing_face_pairs() with `faces` = every face of `all_faces` (the same
/// answer), for a caller that asks again and again about one cloth as it moves:
/// `cache` keeps a tree over the faces' boxes between calls, refitted when it
/// has one leaf per face (built otherwise), and one traversal of the tree
/// against itself meets each pair of faces once, where the general function
/// builds a tree per call and meets each pair from both sides.
std::vector<std::pair<int, int>> crossing_face_pairs_all(const std::vector<Triangle>& all_faces,
                                                         const std::vector<Vec3>& x,
                                                         const std::vector<int>& vertex_rep,
                                                         FaceCrossingCache& cache);

/// One ICM step: for each crossing pair, the gradient of its intersection
/// segment's length with respect to moving the first triangle against the
/// second; every vertex of the first moves against it and every vertex of the
/// second along it, by `step` (m) in the direction of its summed gradient.
/// Vertices with inv_mass 0 (pinned) stay. Pairs that do not intersect (any
/// more) are skipped.
/// \return the number of vertices moved.
std::size_t contour_minimization_step(const std::vector<Triangle>& all_faces, std::vector<Vec3>& x,
                                      const std::vector<double>& inv_mass,
                                      const std::vector<std::pair<int, int>>& pairs, double step);

}  // namespace drape

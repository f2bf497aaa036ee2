#pragma once
// The intersection measures every drape reports and `drape check` prints, counted
// the same way for any garment mesh (ours or another tool's):
//  - cloth vertices inside the body (ray parity against the closed body),
//  - cloth-body triangle pairs that intersect (exact test),
//  - non-adjacent cloth-cloth triangle pairs that intersect (pairs sharing a
//    vertex are adjacent and not counted; exact test).

#include <cstddef>
#include <utility>
#include <vector>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/core/executor.h"
#include "drape/geometry/triangle_mesh.h"

namespace drape {

struct IntersectionCounts {
  std::size_t vertices_inside_body = 0;
  std::size_t body_crossing_pairs = 0;
  std::size_t self_crossing_pairs = 0;
  /// The crossing pairs themselves, filled only when asked (`keep_pairs`):
  /// (body face, garment face) and (garment face, garment face), sorted.
  std::vector<std::pair<int, int>> body_pairs;
  std::vector<std::pair<int, int>> self_pairs;
};

/// Counts the garment's intersections with the body and with itself.
/// \param body_tree tree over the (closed) body.
/// \param garment the garment mesh (metres), seams welded into shared vertices.
/// \param self_cone_angle docs/METHODS.md "AABB trees", step 10 culling half-angle for the self test, radians
///        (0 = test every pair; culling never changes the count for a region that
///        is truly flat and connected).
/// \param keep_pairs also return the crossing triangle pairs (to find where they are).
/// \throw InvalidInput when the garment has NaN/Inf positions or bad indices.
IntersectionCounts count_intersections(const TriangleMeshBvh& body_tree, const TriangleMesh& garment,
                                       double self_cone_angle = 0,
                                       const Executor& executor = Executor::global(),
                                       bool keep_pairs = false);

}  // namespace drape

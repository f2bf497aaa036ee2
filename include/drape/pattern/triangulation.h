#pragma once
// Constrained Delaunay triangulation of a planar point set (incremental
// Bowyer-Watson insertion, constraint recovery by edge flips after Sloan,
// inside/outside by flood fill across the boundary constraints). Used to
// triangulate pattern panels; small and dependency-free on purpose.

#include <array>
#include <utility>
#include <vector>

#include "drape/core/vec.h"

namespace drape {

struct CdtInput {
  std::vector<Vec2> points;
  /// Closed boundary loops (point indices in order); crossing one toggles
  /// inside/outside. The region returned is the points with odd crossing count.
  std::vector<std::pair<int, int>> boundary_segments;
  /// Further edges that must appear in the triangulation (do not toggle inside).
  std::vector<std::pair<int, int>> extra_segments;
};

/// Triangles (counter-clockwise point index triples) covering the inside of
/// the boundary loops. Points outside are left unused; duplicate points are
/// merged into the first copy.
/// \throw InvalidInput when a constraint cannot be recovered (crossing
///        constraints) or the input has NaN coordinates.
std::vector<std::array<int, 3>> constrained_delaunay(const CdtInput& input);

}  // namespace drape

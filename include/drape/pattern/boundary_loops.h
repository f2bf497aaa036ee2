#pragma once
// The free boundary of a sewn garment: the panel edges no stitch sews,
// chained end to end through the corners the seams join. A skirt has two
// loops (waist and hem), trousers three (waist, two leg hems), a T-shirt four
// (neck, hem, two cuffs). The top loop of a skirt or trousers is its opening,
// and its length in the pattern is what a tape measure gives along the
// waistband, however curved the edge is drawn (a flared skirt's waist is an
// arc); a horizontal section through the placed panels cuts such a curve only
// in part.

#include <vector>

#include "drape/pattern/mesher.h"
#include "drape/pattern/pattern.h"

namespace drape {

struct BoundaryLoop {
  /// The free panel edges in chain order; each runs from the corner where
  /// the previous one ends (through the seams) to the corner where the next
  /// one starts. `reversed[i]`: edges[i] is walked from its end to its start.
  std::vector<StitchSide> edges;
  std::vector<bool> reversed;
  /// Global mesh vertex ids along the loop in walking order (each edge's
  /// samples; a corner shared by two edges appears once per edge).
  std::vector<int> vertices;
  /// Summed rest (pattern) length of its edges, metres.
  double rest_length = 0;
};

/// The closed loops of the free boundary of `mesh` (from mesh_pattern, any
/// positions). Corners are identified through mesh.garment.seam_pairs; free
/// edges that do not close into a loop (a chain ending at a corner with no
/// free edge to go on, as at a slit that opens at a seam) are left out.
/// Deterministic: loops start at their lowest (panel, edge) and are listed
/// in that order.
std::vector<BoundaryLoop> boundary_loops(const Pattern& pattern, const PatternMesh& mesh);

/// The same for the part of the garment made of the panels p with
/// `within[p]` set: an edge sewn only to panels outside it is free there (a
/// torso's armhole sewn to a sleeve is the boundary of the torso alone);
/// edges of panels outside it are never in a loop.
std::vector<BoundaryLoop> boundary_loops(const Pattern& pattern, const PatternMesh& mesh,
                                         const std::vector<char>& within);

}  // namespace drape

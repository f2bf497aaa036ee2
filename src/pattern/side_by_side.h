#pragma once
// Internal: panels that start side by side, edge to edge, are moved apart.
//
// A pattern may lay two panels that are not sewn to each other edge to edge
// in one plane (GPG's open-front jackets: the two fronts meet at the centre
// line, their free front edges on top of each other), and the shoulder
// wrap's across-body shifts can even make them overlap by a few millimetres.
// Cloth that starts edge on edge, or overlapping in one surface, has no side
// to keep: the self-collision lifts each edge over the other's cloth and the
// two interlock into a zip of spikes (300 % strain, self crossings at rest).
// separate_side_by_side() finds every pair of panels not sewn to each other
// that face the same way and come within the gap of each other, and moves
// each of the two half the way apart in 2 mm steps, along the line between
// their centres with its part along their mean normal removed (in their
// surface), until no vertex of one is within the gap of a vertex of the other.

#include <string>
#include <vector>

#include "drape/pattern/mesher.h"
#include "drape/pattern/pattern.h"

namespace drape::detail {

struct SideBySideResult {
  int separated_pairs = 0;  ///< panel pairs moved apart
  std::vector<std::string> warnings;
};

/// \param normals per panel: its outward unit normal of the flat placement.
/// \param gap smallest distance kept between their vertices, metres.
/// \param positions per mesh vertex, metres; the two panels of a pair move rigidly.
SideBySideResult separate_side_by_side(const Pattern& pattern, const PatternMesh& mesh,
                                       const std::vector<Vec3>& normals, double gap,
                                       std::vector<Vec3>& positions);

}  // namespace drape::detail

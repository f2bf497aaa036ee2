#pragma once
// Internal: relaxes where placement that wraps distorted a panel.
//
// Bending over the shoulders or round the head is isometric except where a
// vertex is pushed off the surface to clear the body (a neckline narrower
// than the neck: its middle vertices move straight back, their neighbours
// stay, and an edge there starts twice its pattern length) or where the hood
// bend shrinks lengths inside the crown seam's corner. A start strained like
// that can fold the cloth over itself before it settles (GPG's sleeveless
// tee: 200 % strain at the back neck at rest, self crossings there).
// relax_distorted_placement() finds the vertices of the wrapped panels with
// an edge more than 10 % off its pattern length and relaxes a few rings
// around them: Gauss-Seidel passes over the edge lengths (towards the
// pattern's), each vertex moving at most half the clearance per pass
// and then kept at least the clearance from the body (pushed out along the closest body point's direction).
// Vertices further away do not move, so a garment that placed without distortion places exactly as before.
// The relaxed positions are kept only when the worst edge got better.

#include <vector>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/pattern/mesher.h"

namespace drape::detail {

struct PlacementRelaxResult {
  int distorted_vertices = 0;  ///< vertices with an edge more than 10 % off, before
  int relaxed_vertices = 0;    ///< vertices free to move (the distorted ones and their rings)
  double worst_before = 0;     ///< worst |length / pattern length - 1| over the panels' edges
  double worst_after = 0;      ///< the same after (equal to before when nothing was kept)
};

/// \param panels per panel: 1 for those to check (the wrapped ones).
/// \param body the body's tree; \param clearance smallest body distance kept, metres.
/// \param positions per mesh vertex, metres (body frame); changed only around distorted vertices.
PlacementRelaxResult relax_distorted_placement(const PatternMesh& mesh, const std::vector<char>& panels,
                                               const TriangleMeshBvh& body, double clearance,
                                               std::vector<Vec3>& positions);

}  // namespace drape::detail

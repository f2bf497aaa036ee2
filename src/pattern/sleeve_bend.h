#pragma once
// Internal: bends placed sleeve panels so their caps start on the armholes
// they are sewn to (placement that wraps, never astride a limb).
//
// place_on_body() places each sleeve panel rigidly: turned to the body's arm
// angle and moved so its armhole samples meet their partners on the torso on
// average. When the pattern's arm angle differs from the body's (GPG's
// T-pose sleeves on an A-pose body) no rigid motion fits both the arm and the
// armhole: the cap stands turned against the torso's armhole by about the
// difference, its underarm corner starts over the torso (9 cm inside the
// torso's side-seam top on MakeHuman for GPG's jacket) and the underarm seam
// starts astride the body. bend_sleeve_caps() keeps the rigid placement of
// the sleeve's far end and bends the rest: every vertex moves in the frontal
// (xy) plane by the offset from its nearest cap point to that point's partner
// (interpolated along the cap), faded out with the vertex's distance from the
// cap (smoothstep, zero at the sleeve's farthest vertex). The cap then lies
// on the armhole in the frontal view (underarm corner at the side-seam top,
// cap top at the torso's shoulder corner); depth (z) is kept, so the sleeve
// stays the layer it was placed as. Vertices left nearer the body than the
// clearance move out along their panel's normal until clear. A sleeve placed
// at the body's arm angle already meets its armhole and moves by the small
// residual only.

#include <vector>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/pattern/mesher.h"
#include "drape/pattern/pattern.h"

namespace drape::detail {

struct SleeveBendResult {
  std::vector<char> bent;  ///< per panel: 1 when its cap was bent onto its armhole
  /// Largest frontal-plane move of a cap vertex (the misfit removed), metres.
  double largest_cap_move = 0;
  /// Vertices moved along their panel's normal afterwards to clear the body.
  int pushed_vertices = 0;
};

/// Bends every sleeve panel (alias part sleeve) that has an edge sewn to a
/// panel that is not a sleeve or cuff.
/// \param normals per panel: the outward unit normal of its flat placement.
/// \param clearance smallest distance kept between a moved vertex and the body, metres.
/// \param positions per mesh vertex, metres (body frame): in, the placement
///        so far (the armholes' panels final); out, the sleeves bent.
SleeveBendResult bend_sleeve_caps(const Pattern& pattern, const PatternMesh& mesh,
                                  const TriangleMeshBvh& body, const std::vector<Vec3>& normals,
                                  double clearance, std::vector<Vec3>& positions);

}  // namespace drape::detail

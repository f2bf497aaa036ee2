#pragma once
// Internal: bends placed sleeves whose own seams start astride the body so
// that their caps start on the armholes with the underarm corner in the
// armpit (placement that wraps, never astride a limb). Off by default
// (PlacementOptions::bend_sleeves; docs/PATTERNS.md "Sleeve caps bent onto
// the armhole").
//
// place_on_body() places every panel flat and each sleeve group rigidly,
// turned to the body's arm angle and moved so its armhole samples meet
// their partners on average. In the frontal view each cap then stands turned
// against its armhole (55-59 degrees for GPG's T-pose jacket and for
// GarmentCode's A-pose shirt on MakeHuman); for GPG's jacket the sleeve's
// underarm corner starts over the torso, 8.8 cm inside the side-seam top it
// is sewn to, and the underarm seam starts astride the torso. For each
// sleeve group (sleeve and cuff panels sewn among themselves) with a seam
// pair of its own whose start segment passes through the body,
// bend_sleeve_caps():
//  1. finds the armpit in the frontal view (z rays through the body: going
//     down, the first height below where the arm joins the silhouette at
//     which a gap of at least 2 cm opens between torso and arm; its middle);
//  2. takes as the caps' targets the armholes with each torso panel's
//     armhole corner (its lowest armhole vertex, the side-seam top, which on
//     MakeHuman lies over the arm) moved to the armpit in the frontal (xy)
//     plane, the move fading out (smoothstep) over max(12 cm, 2.5 x the move)
//     of pattern distance; the torso itself does not move (moved in its
//     plane it starts compressed and buckles);
//  3. moves every sleeve vertex by the frontal offset from its cap to those
//     targets (inverse-square-distance weights over the cap samples in
//     pattern coordinates: exact on the cap), fading out to zero at the
//     group's farthest vertex from the cap, so the far end keeps the rigid
//     placement along the arm.
// Depth (z) is kept, so panels stay the layers they were placed as; sleeve
// vertices left nearer the body than the clearance move out along their
// panel's normal. Not isometric: the sleeve near the cap starts compressed
// or stretched. A group whose seams start clear of the body is not touched.

#include <vector>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/landmarks/body_frame.h"
#include "drape/pattern/mesher.h"
#include "drape/pattern/pattern.h"

namespace drape::detail {

struct SleeveBendResult {
  std::vector<char> bent;  ///< per panel: 1 when it is a bent sleeve
  /// Largest frontal-plane move of a cap vertex (the misfit removed), metres.
  double largest_cap_move = 0;
  /// Largest frontal-plane distance from a torso's armhole corner to the armpit, metres.
  double largest_corner_move = 0;
  /// The armpit points used (frontal view, z = the body's centre), one per sleeve group.
  std::vector<Vec3> armpits;
  /// Sleeve vertices moved along their panel's normal afterwards to clear the body.
  int pushed_vertices = 0;
};

/// Bends every sleeve group with an edge sewn to a panel that is not a sleeve
/// or cuff and a seam pair of its own starting astride the body (steps 1-3
/// above); where no armpit gap is found above the waist, the caps' targets
/// are their partners as placed.
/// \param normals per panel: the outward unit normal of its flat placement.
/// \param clearance smallest distance kept between a moved vertex and the body, metres.
/// \param positions per mesh vertex, metres (body frame): in, the placement
///        so far (the torso panels final); out, the sleeves bent.
SleeveBendResult bend_sleeve_caps(const Pattern& pattern, const PatternMesh& mesh,
                                  const TriangleMeshBvh& body, const BodyFrame& frame,
                                  const std::vector<Vec3>& normals, double clearance,
                                  std::vector<Vec3>& positions);

}  // namespace drape::detail

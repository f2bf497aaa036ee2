#pragma once
// Internal: bends placed hood halves round the head (placement that wraps).
//
// A hood made of halves sewn together along a crown seam (GPG's Lhood /
// Rhood: the seam runs over the top of the head and down its back) is placed
// by place_on_body() as two flat panels, each in a sagittal plane beside the
// head, wherever the file put them. wrap_around_head() bends each half so the
// crown seam lies in the body's mid-sagittal plane, above and behind the head
// at a clearance, and the half curves down beside the head: a vertex at
// distance d from the crown seam (measured in the panel's plane) moves out
// sideways along a quarter circle of radius R (the head's half width plus
// twice the clearance) and in towards the seam by what that costs, so lengths
// across the seam are kept; beyond a quarter turn the half hangs straight
// down beside the head at R. The hood is then moved (in the sagittal plane)
// so its neckline meets the neckline it is sewn to, and raised in 1 cm steps
// (and moved up to 8 cm forward or back) until every vertex clears the body;
// a head that no such place clears (deeper than the hood reaches) is searched
// further back, up to the head's depth, never further forward.

#include <string>
#include <vector>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/landmarks/body_frame.h"
#include "drape/pattern/mesher.h"
#include "drape/pattern/pattern.h"

namespace drape::detail {

struct HoodWrapResult {
  std::vector<char> wrapped;  ///< per panel: 1 when bent round the head
  /// Vertices moved sideways, away from the head, to clear the body after the
  /// lowest clear lift was not found; 0 = every vertex on the bent surface.
  int pushed_vertices = 0;
  std::vector<std::string> warnings;
};

/// Bends hood halves (alias part hood, flat normal mostly along x, sewn to a
/// hood panel on the other side of the body) round the head.
/// \param body_mesh the body (metres); `body` answers distance / inside queries on it.
/// \param frame landmarks of the body: the head is the body above `frame.neck_y`.
/// \param normals per panel: the outward unit normal of its flat placement.
/// \param clearance smallest distance between any hood vertex and the body (metres).
/// \param positions per mesh vertex: in, the placement so far (metres, body
///        frame; the torso necklines already final); out, the hood halves bent.
/// Groups that cannot be placed clear of the body keep their flat placement,
/// with a warning naming the panels.
HoodWrapResult wrap_around_head(const Pattern& pattern, const PatternMesh& mesh,
                                const TriangleMesh& body_mesh, const TriangleMeshBvh& body,
                                const BodyFrame& frame, const std::vector<Vec3>& normals, double clearance,
                                std::vector<Vec3>& positions);

}  // namespace drape::detail

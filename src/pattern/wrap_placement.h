#pragma once
// Internal: bends placed torso panels over the shoulders (placement that wraps).
//
// Torso panels joined across their tops (shoulder seams, straps) are placed
// flat in front of and behind the body by place_on_body(); their top seams
// then start astride the shoulders, as far apart as the body is deep, and the
// body holds the two sides apart. wrap_over_shoulders() maps each such panel
// isometrically onto a generalised cylinder whose generator runs across the
// body (left-right) and whose profile (in the body's sagittal plane) runs
// level from an apex line over the shoulders, turns down through a 5 cm
// corner, then follows the body's silhouette (seen from the side, over the
// panels' width) at twice the clearance, never turning back in going down and
// smoothed; the front panels take the front profile, the back ones the back
// profile, so each top seam starts with both sides on the apex line. A
// cylinder is developable: every length measured on the panel equals its
// pattern length (a triangle edge across a bend is a chord, up to ~2 %
// shorter at 4 cm edges); strain starts near 0. The side with the shorter path
// down gets a longer level top, so side seams start level; panels that lay in
// layers keep their order (each stays as far out of its side's innermost
// panel as it lay flat).

#include <string>
#include <vector>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/landmarks/body_frame.h"
#include "drape/pattern/mesher.h"
#include "drape/pattern/pattern.h"

namespace drape::detail {

struct ShoulderWrapResult {
  std::vector<char> wrapped;  ///< per panel: 1 when bent over the shoulders
  /// Vertices moved off the arch (along the body's depth) to clear the body,
  /// e.g. a neckline narrower than the neck; 0 = every panel bent isometrically.
  int pushed_vertices = 0;
  std::vector<std::string> warnings;
};

/// Bends torso panels joined by top seams to opposite-facing torso panels over
/// an arch above the shoulders.
/// \param body_mesh the body (metres); `body` answers distance queries on it.
/// \param positions per mesh vertex: in, the flat placement (metres, body
///        frame); out, the wrapped positions of the panels bent over.
/// \param normals per panel: the outward unit normal of its flat placement.
/// \param clearance smallest distance between any wrapped vertex and the
///        body (metres); the apex is raised in 1 cm steps (at most `max_lift`
///        above the flat seams' height) and the apex line moved between the
///        panels' planes until it holds; where no arch holds, the fewest
///        vertices left too close are moved forward / back until clear (a
///        neckline narrower than the neck), else the group stays flat with a
///        warning naming its panels. Groups sewn to sleeves stay flat.
ShoulderWrapResult wrap_over_shoulders(const Pattern& pattern, const PatternMesh& mesh,
                                       const TriangleMesh& body_mesh, const TriangleMeshBvh& body,
                                       const std::vector<Vec3>& normals, double clearance, double max_lift,
                                       std::vector<Vec3>& positions);

}  // namespace drape::detail

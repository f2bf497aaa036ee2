#pragma once
// Initial 3D placement of meshed panels around a body (docs/METHODS.md "Patterns and placement", steps
// 15-16).
//
// Each panel stays flat and rigid. Its start position is either
//  - the file's own placement (GarmentCode / GPG), mapped from the reference
//    body the file was designed on (1.72 m, floor y = 0, A-pose; or GPG's
//    T-pose frame with the floor at y = -1.121 m) to the target body by a
//    per-axis affine map of the panel's centre (height ratio, floor, centre);
//    sleeves are then turned about their shoulder end to the body's arm angle;
//  - or, without a file placement, its alias: torso pieces in front of /
//    behind the chest, skirts and legs from the waist down, sleeves along
//    the arms, waistbands at the waist, collars at the neck, hoods behind the head.
// Then each panel is moved along its outward normal (away from the body's
// axis) to the nearest position where every vertex lies outside the body at
// least `clearance` away from it. Finally torso panels joined across their
// tops (shoulder seams, straps) are bent over an arch above the shoulders
// (isometric: edge lengths kept), so those seams start closed.

#include <string>
#include <vector>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/geometry/triangle_mesh.h"
#include "drape/landmarks/body_frame.h"
#include "drape/pattern/mesher.h"
#include "drape/pattern/pattern.h"

namespace drape {

struct PlacementOptions {
  /// Smallest distance between a placed panel's vertices and the body, metres.
  double clearance = 0.015;
  /// Step of the search along the panel's normal, metres.
  double step = 0.005;
  /// Farthest a panel is moved out before giving up (with a warning), metres.
  double max_push = 0.5;
  /// Also pull panels that start far out towards the body (down to clearance + pull_slack).
  bool pull_in = true;
  double pull_slack = 0.01;
  /// File-placed sleeves: turn each side's sleeve panels about their armhole
  /// to the body's arm angle, then move them in the frontal (xy) plane so that
  /// their armhole seam samples meet their partners on the torso in the least
  /// squares sense (the mean offset), so that no seam has to drag a sleeve cap
  /// over the shoulder.
  bool fit_sleeves = true;
  /// Panels that face the same way and overlap seen along their normal keep
  /// the file's order (the outer one stays outside) with at least this gap
  /// after the clearance step, metres; the outer panel moves out. 0 = off.
  double layer_gap = 0.03;
  /// Ignore the file's placement and place every panel by its alias.
  bool force_alias_placement = false;
  /// Bend torso panels joined across their tops (shoulder seams, straps) over
  /// an arch above the shoulders, isometrically (a cylinder across the body),
  /// so that those seams start with both sides together instead of astride
  /// the shoulders (src/pattern/wrap_placement.h).
  bool wrap_shoulders = true;
  /// Highest the arch's apex may be raised above the flat top seams to clear
  /// the body, metres.
  double wrap_max_lift = 0.08;
  /// Bend hood halves (sewn together along a crown seam) round the head, the
  /// crown seam over the top and back of the head, the neckline at the
  /// torso's neckline (src/pattern/hood_placement.h).
  bool wrap_hoods = true;
  /// Relax the wrapped panels where a vertex pushed to clear the body left an
  /// edge more than 10 % off its pattern length (src/pattern/placement_relax.h).
  bool relax_wrapped = true;
  /// Bend each sleeve group whose own seams start astride the body so its
  /// caps start on the armholes with the underarm corner in the armpit gap
  /// (frontal view), the sleeve's far end keeping the rigid placement along
  /// the arm (src/pattern/sleeve_bend.h). Off by default: mixed results on
  /// the corpus (docs/PATTERNS.md "Sleeve caps bent onto the armhole").
  bool bend_sleeves = false;
  /// Panels not sewn to each other that face the same way and start closer
  /// than this (edge to edge, e.g. an open front's halves) are moved apart
  /// in their surface to this gap, metres (src/pattern/side_by_side.h); 0 = off.
  double separate_side_by_side = 0.01;
};

struct PlacementResult {
  /// Per panel: the rigid map from panel coordinates (x, y, 0) to body space
  /// (for a panel bent over the shoulders: its flat placement before bending).
  std::vector<RigidTransform> panel_transforms;
  /// Per panel: 1 when it was bent over the shoulders (isometrically), for a
  /// hood half round the head, or for a sleeve onto its armhole.
  std::vector<char> wrapped;
  /// Vertices of bent panels moved off the arch to clear the body (0: every
  /// bent panel keeps its pattern's edge lengths exactly).
  int wrap_pushed_vertices = 0;
  /// Sleeve vertices moved along their panel's normal after the cap bend to clear the body.
  int sleeve_pushed_vertices = 0;
  /// Vertices of bent panels relaxed around distorted edges (0: none distorted).
  int wrap_relaxed_vertices = 0;
  /// Pairs of panels moved apart because they started edge to edge.
  int separated_pairs = 0;
  /// Per panel: how far it was moved along its outward normal after the
  /// initial placement (negative = pulled in), metres.
  std::vector<double> offsets;
  /// Per panel: smallest vertex distance to the body after placement, metres.
  std::vector<double> clearance;
  std::vector<std::string> warnings;
};

/// Places every panel of `mesh` (meshed from `pattern`) around `body`,
/// rewriting mesh.garment.mesh.positions (metres, body frame) and
/// mesh.garment.panel_regions (from the aliases). `body` must be closed.
/// \throw InvalidInput when the mesh does not belong to the pattern.
PlacementResult place_on_body(const Pattern& pattern, PatternMesh& mesh, const TriangleMesh& body,
                              const BodyFrame& frame, const PlacementOptions& options = {});
/// As above, with the body's query tree built by the caller (the body is
/// `body.mesh()`), so one tree serves placement, rig fitting and the checks.
PlacementResult place_on_body(const Pattern& pattern, PatternMesh& mesh, const TriangleMeshBvh& body,
                              const BodyFrame& frame, const PlacementOptions& options = {});

}  // namespace drape

#pragma once
// Body measurements of any standing body (+Y up, facing +Z, metres), taken
// the way a tape measure takes them: a girth is the perimeter of the convex
// hull of one piece of a plane section (the torso's, a leg's, an arm's), at
// landmarks from landmarks/body_frame's analyse_body.
//
// Definitions (H = body height):
// - height: the y-extent of the mesh;
// - bust: the largest horizontal torso girth from the waist up to just below
//   the armpits (where the arms join the torso piece);
// - waist: the smallest horizontal torso girth within 1.5 % H of
//   BodyFrame::waist_y (the narrowest torso width);
// - hip: the largest horizontal torso girth between the crotch and the waist;
// - inseam: crotch height above the floor (BodyFrame::crotch_y - floor);
// - neck: the horizontal girth at BodyFrame::neck_y (narrowest above the shoulders);
// - thigh: the largest horizontal girth of the left leg within 6 % H below the crotch;
// - upper arm: the left arm's girth perpendicular to its axis, 9 % H from the shoulder;
// - arm length: along the left arm's axis from the shoulder joint estimate
//   (BodyFrame::shoulder) to the wrist (the narrowest perpendicular arm
//   section before the hand widens);
// - head: the largest horizontal girth 3.5-6.5 % H below the top (forehead level).
// Arms: the left arm (+X); the right one is used when the left one cannot be followed.

#include <string>
#include <utility>
#include <vector>

#include "drape/geometry/triangle_mesh.h"
#include "drape/landmarks/body_frame.h"

namespace drape {

/// All lengths in metres; a measure that could not be taken is 0.
struct BodyMeasurements {
  double height = 0, bust = 0, waist = 0, hip = 0, inseam = 0, arm_length = 0, neck = 0;
  double thigh = 0, upper_arm = 0, head = 0;
  /// Heights above the floor (metres) where the horizontal girths were taken.
  double bust_y = 0, waist_y = 0, hip_y = 0, neck_y = 0, thigh_y = 0;
  /// (height above the floor, left leg girth) every 0.2 % H over the thigh
  /// band (6 % H to 0.5 % H below the crotch), lowest first: what trouser
  /// legs are checked against (garment_fit.h). Empty without the limbs.
  std::vector<std::pair<double, double>> thigh_profile;
  /// (height above the floor, torso girth) every 0.2 % H from the hip up to
  /// 10 % H above the waist, lowest first: what the opening of a garment the
  /// shoulders do not hold must go round where it sits (garment_fit.h).
  std::vector<std::pair<double, double>> torso_profile;
  BodyFrame frame;  ///< the landmarks used

  /// The torso girth at `height` above the floor (metres), linearly between
  /// torso_profile's samples; 0 outside it.
  double torso_girth_at_height(double height) const;
};

/// Girth (metres) of the torso piece of the horizontal section at height y
/// (world metres): the piece containing the body's centre line
/// (frame.centre_x, frame.centre_z), else the piece nearest it, grown by the
/// pieces centred within its x-range that meet it front or back (a body of
/// several shells, e.g. front and back halves); 0 when the
/// plane misses the body.
double torso_girth(const TriangleMesh& body, const BodyFrame& frame, double y);

/// Measures a standing body; with `limbs_and_head` false only height, bust,
/// waist, hip and inseam (about three times faster: what --fit needs).
/// \throw InvalidInput starting with `source` when the mesh is not a
///        plausible standing body (as analyse_body), or the torso cannot be found.
BodyMeasurements measure_body(const TriangleMesh& body, const std::string& source = "body",
                              bool limbs_and_head = true);

/// As above with the body's landmarks already found (`frame` =
/// analyse_body(body)), so that a caller holding them does not analyse the body twice.
/// \throw InvalidInput starting with `source` when the torso cannot be found.
BodyMeasurements measure_body(const TriangleMesh& body, const BodyFrame& frame, const std::string& source,
                              bool limbs_and_head = true);

}  // namespace drape

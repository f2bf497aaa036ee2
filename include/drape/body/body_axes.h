#pragma once
// Which way a body file stands: its up axis and the axis it faces, and the
// rotation into drape's canonical body frame (+Y up, facing +Z, the
// character's left at +X: MakeHuman's, GarmentCode's and SMPL's axes).
//
// Real bodies come Y-up (MakeHuman, glTF), Z-up (Blender, 3ds Max), facing
// +Z, -Z, +X or -Y. Everything that reasons about a body (landmarks,
// placement, rig fitting) works in the canonical frame; results go back into
// the file's own frame with the inverse rotation, so they overlay the input.

#include <optional>
#include <string>

#include "drape/core/mat3.h"
#include "drape/geometry/triangle_mesh.h"

namespace drape {

/// A signed coordinate axis of a file: axis 0 = x, 1 = y, 2 = z; sign +1 or -1.
struct SignedAxis {
  int axis = 1;
  int sign = 1;
  bool operator==(const SignedAxis&) const = default;
};

/// Parses "+y", "-z", "x" (= "+x"), case-insensitive.
/// \throw InvalidInput naming `option` when the text is none of these.
SignedAxis parse_signed_axis(const std::string& text, const std::string& option);

/// "+x", "-z", ...
std::string to_string(SignedAxis a);

/// The up and front axes of a body file. Invariant: up.axis != front.axis.
struct BodyAxes {
  SignedAxis up{1, 1};
  SignedAxis front{2, 1};
  bool operator==(const BodyAxes&) const = default;

  /// Rotation R with canonical = R * file: its rows are the file-frame unit
  /// vectors of the character's left (up x front), up and front. A proper
  /// rotation (det +1): a body is never mirrored.
  Mat3 to_canonical() const;
  bool is_canonical() const { return up == SignedAxis{1, 1} && front == SignedAxis{2, 1}; }
  /// "+y up, facing +z".
  std::string describe() const;
};

/// Finds the up and front axes of a standing human (A-, T- or any arms-out
/// pose) from its surface alone, by three cues measured on area-weighted
/// face centroids:
///  - left-right: the axis about whose middle the body is most nearly
///    mirror-symmetric; of the other two, up is the longer, front-back the
///    shorter;
///  - up's sign: the head end is narrow across left-right, the feet end wide
///    (two feet apart) - compared over the last 5 % of the height at each end;
///  - front's sign: the feet reach far forward of the shins (toes) and little
///    behind (heels).
/// `mesh` is in metres (any position); `source` names the file in errors.
/// \throw InvalidInput when a cue is too weak to decide (not a standing human,
///        or cropped feet): the message names the file and suggests --up/--front.
BodyAxes detect_body_axes(const TriangleMesh& mesh, const std::string& source);

/// As detect_body_axes, with either axis given (the other detected; with
/// both given nothing is detected).
/// \throw InvalidInput when up and front are the same axis.
BodyAxes resolve_body_axes(const TriangleMesh& mesh, const std::string& source,
                           const std::optional<SignedAxis>& up, const std::optional<SignedAxis>& front);

}  // namespace drape

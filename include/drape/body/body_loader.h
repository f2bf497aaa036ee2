#pragma once
// The one way every command reads a body: OBJ (group `body` when the file has
// it, else every face), glTF/GLB (every mesh, node transforms applied; a
// skinned mesh placed by its joints, as Blender places it); vertices at the
// same position welded (a surface split along UV seams is closed again); unit given or detected; up axis and
// facing given or detected (body_axes.h); the mesh brought into drape's
// canonical frame (metres, +Y up, facing +Z). Outputs go back into the file's
// frame with Body::to_file() and its unit with Body::file_unit.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "drape/body/body_axes.h"
#include "drape/geometry/triangle_mesh.h"
#include "drape/geometry/units.h"

namespace drape {

struct BodyLoadOptions {
  /// OBJ group to read. nullopt: `body` when the file has it, else every
  /// face; "" = every face; a name = that group (an error when missing).
  std::optional<std::string> group{};
  std::optional<LengthUnit> unit{};  ///< nullopt = detect from the body's size
  std::optional<SignedAxis> up{};    ///< nullopt = detect
  std::optional<SignedAxis> front{};
};

struct Body {
  std::filesystem::path source;
  std::string sha256;  ///< of the file's bytes as read (hex)
  TriangleMesh mesh;   ///< canonical frame, metres; source_vertex = the file's vertex ids
  LengthUnit file_unit = LengthUnit::metre;
  bool unit_detected = false;
  std::string group;                ///< the OBJ group read ("" = every face; always "" for glTF)
  std::vector<std::string> groups;  ///< the OBJ groups in the file
  BodyAxes axes;                    ///< the file's up and front axes
  bool axes_detected = false;       ///< true when neither was given
  /// Every vertex of the file, in file order, canonical frame, metres (OBJ:
  /// helper geometry included, e.g. MakeHuman's joint cubes that its
  /// skeletons index; glTF: the mesh's vertices).
  std::vector<Vec3> all_vertices;
  /// glTF only: the file's bytes as read (its skin is read from them, so a
  /// `drape dress` opens the body file once); empty for OBJ.
  std::string gltf_bytes;

  /// Rotation from the canonical frame back to the file's (canonical = R * file).
  Mat3 to_file() const { return axes.to_canonical().transposed(); }
  Mat3 to_canonical() const { return axes.to_canonical(); }
  /// `m` (canonical frame, metres) rotated into the file's frame (still metres).
  TriangleMesh in_file_frame(TriangleMesh m) const;
  /// `m` (file frame, metres) rotated into the canonical frame.
  TriangleMesh in_canonical_frame(TriangleMesh m) const;
};

/// Reads a body (see the file comment).
/// \throw IoError when unreadable; InvalidInput naming the file for bad
///        content (as read_mesh), a missing named group, or a mesh whose axes
///        cannot be told (not a standing human: detect_body_axes).
Body load_body(const std::filesystem::path& path, const BodyLoadOptions& options = {});

/// `m` with every position multiplied by `r` (a rotation about the origin).
TriangleMesh rotated(TriangleMesh m, const Mat3& r);

}  // namespace drape

#pragma once
// MakeHuman's base.obj as a body to morph: every vertex by file id (targets
// and .mhskel joints index all 19158, helpers included) plus the `body` group,
// and the morphed mesh written back as the same OBJ with new vertex lines.

#include <filesystem>
#include <vector>

#include "drape/core/vec.h"
#include "drape/geometry/triangle_mesh.h"
#include "drape/geometry/units.h"

namespace drape {

struct MorphableBody {
  std::filesystem::path path;  ///< the base OBJ
  std::vector<Vec3> base;      ///< every `v` of the file by id, metres
  TriangleMesh body;           ///< the `body` group (all faces when there is none); source_vertex = file ids
  LengthUnit file_unit = LengthUnit::decimetre;

  /// The body group with its vertices taken from `all` (metres, by file id, base.size() of them).
  TriangleMesh body_at(const std::vector<Vec3>& all) const;
};

/// Reads a base OBJ (MakeHuman's base.obj); unit detected from the height.
/// \throw IoError / InvalidInput as read_obj.
MorphableBody load_morphable_body(const std::filesystem::path& base_obj);

/// Writes the text of `base_obj` with its i-th `v` line replaced by
/// positions[i] (metres, written in `unit`, 6 decimals); every other line
/// (groups, texture coordinates, faces) is kept as it is. Atomic.
/// \throw InvalidInput when the file's `v` count differs from positions.size();
///        IoError when it cannot be read or written.
void write_morphed_obj(const std::filesystem::path& base_obj, const std::filesystem::path& out,
                       const std::vector<Vec3>& positions, LengthUnit unit);

}  // namespace drape

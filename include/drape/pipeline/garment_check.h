#pragma once
// `drape check` as a library call: read a garment file the way the command
// does and count its intersections with a body (collision/intersection_count.h).
// Shared by `drape check` and `drape sweep`, so a sweep's crossing counts are
// the counts `drape check` prints for the same garment.obj.

#include <filesystem>
#include <optional>
#include <string>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/collision/intersection_count.h"
#include "drape/core/executor.h"
#include "drape/geometry/units.h"
#include "drape/io/mesh_io.h"

namespace drape {

struct GarmentCheck {
  LoadedMesh garment;       ///< the garment as read (metres)
  LengthUnit garment_unit;  ///< the unit it was read in
  IntersectionCounts counts;
};

/// Reads `garment_path` and counts its intersections with the body.
/// \param body_tree tree over the body (metres), e.g. of read_mesh(body).mesh.
/// \param body_file_unit the body file's unit: the garment's unit when
///        `garment_unit` is not given (a drape is written in its body's unit; a
///        garment alone is too small to detect its unit).
/// \param garment_group OBJ group of the garment ("" = all faces).
/// \param self_cone_angle self-test culling half-angle, radians (0 = every pair,
///        the `drape check` default).
/// \param keep_pairs also return the crossing pairs.
/// \throw IoError / InvalidInput from reading the garment, InvalidInput for NaN positions.
GarmentCheck check_garment_file(const TriangleMeshBvh& body_tree, LengthUnit body_file_unit,
                                const std::filesystem::path& garment_path,
                                const std::string& garment_group = "",
                                std::optional<LengthUnit> garment_unit = std::nullopt,
                                double self_cone_angle = 0, const Executor& executor = Executor::global(),
                                bool keep_pairs = false);

}  // namespace drape

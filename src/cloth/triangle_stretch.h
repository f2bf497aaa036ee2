#pragma once
// Building the per-triangle stretch constraints of StretchModel::triangle
// into a ClothModel (cloth_model.cpp calls it; docs/FABRICS.md "Warp, weft
// and bias").

#include <vector>

#include "drape/cloth/cloth_model.h"

namespace drape {

/// Fills model.tri_weights, tri_stiffness and the face colouring for every
/// face of `garment` from its flat rest (garment.rest) and its panels' grain
/// (garment.panel_grain), and sets model.stretch_triangles. `face_area` is
/// each face's rest area. Expects resolve_stretch_model() to have accepted
/// the garment and fabric.
void build_triangle_stretch(ClothModel& model, const GarmentMesh& garment, const Fabric& fabric,
                            const std::vector<double>& face_area);

}  // namespace drape

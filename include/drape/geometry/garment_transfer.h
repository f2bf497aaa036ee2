#pragma once
// Carrying a draped garment's state from one meshing of its panels to
// another (coarse-to-fine draping: docs/CLOTH.md "Coarse to fine").
//
// Both meshes come from the same panels, so every vertex has a rest (flat
// pattern) position in its panel (GarmentMesh::rest, the same isometric copy
// of the panel's coordinates in both). A vertex of the target mesh takes the
// position the source's deformation gives its rest point: the source triangle
// of the same panel that contains that point (or, for a point outside every
// source triangle, e.g. on a curved boundary sampled more finely, the nearest
// one, clamped to it), interpolated linearly (barycentric).

#include <vector>

#include "drape/geometry/garment_mesh.h"

namespace drape {

/// Where `to`'s vertices go when `from` (same panels, another meshing) has
/// its vertices at `from_positions`: per vertex of `to`, the barycentric
/// interpolation of from_positions over the triangle of the same panel nearest
/// its rest point (containing it when one does).
/// \throw InvalidInput when the meshes do not have the same panels, or a panel
///        of `to` has no triangle in `from`, or from_positions has the wrong size.
std::vector<Vec3> transfer_positions(const GarmentMesh& from, const std::vector<Vec3>& from_positions,
                                     const GarmentMesh& to);

/// Moves every group of vertices that `garment`'s seam pairs sew together
/// (pairs sharing a vertex form one group: a corner sewn to several) to the
/// group's centroid, so that every seam starts closed.
void close_seams(const GarmentMesh& garment, std::vector<Vec3>& positions);

}  // namespace drape

#pragma once
// Specimens of the fabric lab: flat meshes in the horizontal plane (y = 0,
// gravity -y) with their rest shape, and the quasi-static settling of a
// specimen in the cloth simulator.

#include <vector>

#include "drape/cloth/cloth_simulation.h"
#include "drape/cloth/fabric.h"
#include "drape/geometry/garment_mesh.h"

namespace drape {

/// A rectangular strip [x0, x0 + length] x [0, width] of nx x ny square-ish
/// cells with alternating diagonals; vertex (i, j) is j * (nx + 1) + i.
GarmentMesh strip_specimen(double x0, double length, double width, int nx, int ny);

/// A strip of equilateral triangles: rows of nx + 1 vertices spaced
/// length / nx along x, every other row shifted by half a spacing (its last
/// vertex clipped to the strip), rows sqrt(3)/2 spacings apart across the width.
GarmentMesh equilateral_strip_specimen(double length, int nx, int rows);

/// A disc of the given radius in concentric rings about the origin (ring k has
/// 6k vertices at radius k * radius / rings): near-equilateral triangles and a
/// round edge.
GarmentMesh disc_specimen(double radius, int rings);

/// Settings of a lab run: XPBD with isometric bending, no body, no zero-gravity
/// phase, `iterations` solver iterations, collisions off unless `self_collision`.
ClothSettings lab_settings(int iterations, bool self_collision);

/// The fabric as the lab simulates it: its own numbers with more air damping so
/// that a specimen settles sooner (damping does not change a static shape).
Fabric lab_fabric(const Fabric& fabric);

/// Advances until no vertex moves more than `tolerance` (m) in a frame, or
/// `max_frames`; returns the frames run.
/// \throw SolverError when a frame diverges.
int settle(ClothSimulation& sim, int max_frames, double tolerance);

}  // namespace drape

#pragma once
// A synthetic garment for benchmarks: an open cone (a flared skirt shape),
// one panel, whose placed shape is its rest shape (a cone is developable).

#include "drape/geometry/garment_mesh.h"

namespace drape {

/// An open cone of about `target_vertices` vertices with near-equilateral
/// triangles, axis along y through (cx, cz): radius r0 at height y0 (top ring)
/// to r1 at y1 (hem), metres. One panel "skirt", unrestricted body regions, no seams.
GarmentMesh open_cone_garment(int target_vertices, double r0, double r1, double y0, double y1, double cx,
                              double cz);

}  // namespace drape

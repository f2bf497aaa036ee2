#pragma once
// Test helper: a garment-like mesh made from the body itself (the torso's
// faces pushed outwards along the vertex normals), with a per-vertex strain
// computed from how much that offset stretched the edges. Used by the render
// tests and by render_scene_fixture, which writes a scene.glb for the viewer's
// browser test until `drape demo` exists.

#include <filesystem>
#include <vector>

#include "drape/geometry/triangle_mesh.h"

namespace drape::test {

/// The MakeHuman reference body (group "body"), metres.
TriangleMesh load_reference_body();

struct ShirtLike {
  TriangleMesh mesh;
  /// Per vertex: mean relative length change of its edges, offset vs body.
  std::vector<double> strain;
};

/// Faces of `body` whose centroid lies in the torso box (y in [y_min, y_max],
/// |x| <= half_width), copied and pushed `offset` metres along the vertex normals.
ShirtLike make_shirt_like(const TriangleMesh& body, double offset = 0.02, double y_min = 0.0,
                          double y_max = 0.52, double half_width = 0.2);

/// Per-vertex linear RGB from the strain ramp (auto range), for COLOR_0.
std::vector<Vec3> strain_colors(const std::vector<double>& strain);

}  // namespace drape::test

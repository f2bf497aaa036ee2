#pragma once
// Z-buffered triangle rasteriser with Lambert + ambient shading.

#include <span>
#include <vector>

#include "drape/core/executor.h"
#include "drape/core/vec.h"
#include "drape/geometry/triangle_mesh.h"
#include "drape/render/camera.h"
#include "drape/render/image.h"

namespace drape {

/// Colour and depth targets; colours are linear floats in [0,1] until resolved.
struct Framebuffer {
  int width = 0;
  int height = 0;
  std::vector<Vec3> color;   ///< width*height, row-major, row 0 on top
  std::vector<float> depth;  ///< larger = nearer; -inf where nothing was drawn

  Framebuffer(int width, int height, const Vec3& background);
  /// True when a triangle covered pixel (x, y).
  bool covered(int x, int y) const;
  /// Averages factor x factor blocks into an 8-bit image (anti-aliasing by
  /// supersampling). `factor` must divide width and height.
  /// \throw InvalidInput when it does not.
  Image resolve(int factor = 1) const;
};

/// Directional light in camera space, plus ambient.
struct Lighting {
  /// Direction towards the light in camera axes (right, up, toward_viewer).
  Vec3 to_light{-0.35, 0.5, 1.0};
  double ambient = 0.32;
  double diffuse = 0.68;
  /// Light faces from both sides (|n.l|): cloth and open meshes have no inside.
  bool two_sided = true;
};

/// One mesh to draw.
struct RenderItem {
  const TriangleMesh* mesh = nullptr;
  /// Colour used when vertex_colors is empty.
  Vec3 color{0.8, 0.8, 0.8};
  /// Optional per-vertex colours (size = mesh->vertex_count()), interpolated.
  std::span<const Vec3> vertex_colors;
};

/// Shade of a surface with unit normal `n` (world) under `light` seen by `camera`:
/// ambient + diffuse * max(0, n.l) (or |n.l| when two-sided), l the normalised
/// light direction in world space.
double lambert(const Vec3& n, const OrthoCamera& camera, const Lighting& light);

/// Rasterises `item` into `fb` through `camera` (fb and camera sizes must match):
/// pixel centres inside a triangle (top-left rule on shared edges) whose
/// interpolated depth is nearer than the stored one get the Gouraud-shaded,
/// colour-interpolated value. Rows are split into bands over `executor`; each
/// band walks the triangles in order, so the result does not depend on threads.
/// \throw InvalidInput when sizes do not match or vertex_colors has the wrong size.
void draw_mesh(Framebuffer& fb, const OrthoCamera& camera, const RenderItem& item, const Lighting& light,
               const Executor& executor = Executor::global());

}  // namespace drape

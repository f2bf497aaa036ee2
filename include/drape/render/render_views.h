#pragma once
// render.png: body and garment from the front, side and back, shaded, and a
// strain map of the garment with a legend, side by side in one image.

#include <optional>
#include <span>
#include <string>

#include "drape/core/executor.h"
#include "drape/geometry/triangle_mesh.h"
#include "drape/render/colormap.h"
#include "drape/render/image.h"
#include "drape/render/rasterizer.h"

namespace drape {

struct RenderOptions {
  /// Size of each of the four panels, pixels (the image is 4*width x height).
  int panel_width = 360;
  int panel_height = 720;
  /// Supersampling factor per axis for anti-aliasing (1 = none).
  int supersample = 3;
  /// Free border around the figure, fraction of the panel, each side.
  double margin = 0.06;
  Vec3 background{1.0, 1.0, 1.0};
  Vec3 body_color{0.87, 0.69, 0.57};         ///< skin tone
  Vec3 garment_color{0.48, 0.30, 0.72};      ///< shaded views (purple: not on the strain ramp)
  Vec3 strain_body_color{0.78, 0.78, 0.78};  ///< body in the strain panel
  Lighting lighting{};
  /// Strain range of the ramp; nullopt = auto_strain_range(strain).
  std::optional<StrainRange> strain_range;
  /// Panel titles and the legend.
  bool labels = true;
  /// Optional caption written at the bottom-left (e.g. the garment's name).
  std::string caption;
};

/// Renders the four-panel image: shaded front, side and back views of body and
/// garment, then the front view with the garment coloured by strain and a
/// legend. Both meshes are framed together at one scale (fit_scale).
///
/// \param body            body mesh, metres (may be empty: garment alone)
/// \param garment         garment mesh, metres (may be empty: body alone)
/// \param garment_strain  per garment vertex strain (dimensionless, 0.05 = 5 %),
///                        or empty: the strain panel then shows the garment
///                        plain and says "no strain data"
/// \throw InvalidInput when both meshes are empty, strain has the wrong size,
///        or the options are out of range.
Image render_views(const TriangleMesh& body, const TriangleMesh& garment,
                   std::span<const double> garment_strain, const RenderOptions& options = {},
                   const Executor& executor = Executor::global());

/// Renders a single shaded view of `items` framed on `bounds`, supersampled.
/// \throw InvalidInput as render_views.
Image render_view(std::span<const RenderItem> items, const Aabb& bounds, View view, int width, int height,
                  const RenderOptions& options = {}, const Executor& executor = Executor::global());

}  // namespace drape

#pragma once
// Orthographic camera for the software renderer. World is Y-up (MakeHuman
// and glTF); the body faces +Z.

#include <span>

#include "drape/core/vec.h"
#include "drape/geometry/aabb.h"

namespace drape {

/// Standard views of a Y-up, +Z-facing body.
enum class View {
  front,  ///< camera on +Z looking towards -Z
  side,   ///< camera on +X (the body's left) looking towards -X
  back,   ///< camera on -Z looking towards +Z
};

/// Orthographic camera: screen x grows along `right`, screen y grows downwards
/// (against `up`), depth grows towards the viewer along `toward_viewer`.
struct OrthoCamera {
  Vec3 right{1, 0, 0};
  Vec3 up{0, 1, 0};
  Vec3 toward_viewer{0, 0, 1};
  /// World point mapped to the image centre.
  Vec3 center{};
  /// Scale, pixels per metre.
  double pixels_per_metre = 100;
  /// Image size in pixels.
  int width = 100;
  int height = 100;

  /// Pixel coordinates (x right, y down; pixel (i,j) covers [i,i+1) x [j,j+1))
  /// and depth (larger = nearer the viewer) of world point p.
  Vec3 project(const Vec3& p) const {
    const Vec3 d = p - center;
    return {0.5 * width + dot(d, right) * pixels_per_metre, 0.5 * height - dot(d, up) * pixels_per_metre,
            dot(d, toward_viewer)};
  }
};

/// A camera for `view` at the given scale, centred on `center`.
OrthoCamera make_camera(View view, const Vec3& center, double pixels_per_metre, int width, int height);

/// Width and height, in metres, that `bounds` occupies on screen in `view`.
Vec2 screen_extent(const Aabb& bounds, View view);

/// Pixels per metre that fit every one of `views` of `bounds` into a
/// width x height image with `margin` (fraction of the image, each side) left
/// free; the same scale for all views so they can be compared.
/// \throw InvalidInput when bounds is empty or the image has no room.
double fit_scale(const Aabb& bounds, std::span<const View> views, int width, int height,
                 double margin = 0.05);

}  // namespace drape

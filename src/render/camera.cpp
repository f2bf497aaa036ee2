#include "drape/render/camera.h"

#include <algorithm>

#include "drape/core/exceptions.h"

namespace drape {

OrthoCamera make_camera(View view, const Vec3& center, double pixels_per_metre, int width, int height) {
  OrthoCamera c;
  c.center = center;
  c.pixels_per_metre = pixels_per_metre;
  c.width = width;
  c.height = height;
  c.up = {0, 1, 0};
  switch (view) {
    case View::front:
      c.toward_viewer = {0, 0, 1};
      c.right = {1, 0, 0};
      break;
    case View::side:
      c.toward_viewer = {1, 0, 0};
      c.right = {0, 0, -1};
      break;
    case View::back:
      c.toward_viewer = {0, 0, -1};
      c.right = {-1, 0, 0};
      break;
  }
  return c;
}

Vec2 screen_extent(const Aabb& bounds, View view) {
  const Vec3 e = bounds.extent();
  return {view == View::side ? e.z : e.x, e.y};
}

double fit_scale(const Aabb& bounds, std::span<const View> views, int width, int height, double margin) {
  if (bounds.empty()) throw InvalidInput("fit_scale: nothing to frame (empty bounds)");
  const double w = width * (1 - 2 * margin), h = height * (1 - 2 * margin);
  if (!(w > 0) || !(h > 0)) throw InvalidInput("fit_scale: image too small for the margin");
  double ew = 0, eh = 0;
  for (View v : views) {
    const Vec2 e = screen_extent(bounds, v);
    ew = std::max(ew, e.x);
    eh = std::max(eh, e.y);
  }
  // A flat or point-like object still gets a finite scale.
  const double s = std::min(ew > 0 ? w / ew : 1e300, eh > 0 ? h / eh : 1e300);
  return s < 1e299 ? s : 1.0;
}

}  // namespace drape

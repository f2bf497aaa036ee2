#include "drape/fabric_lab/lab_pictures.h"

#include <algorithm>
#include <cmath>

#include "drape/fabric_lab/elastica.h"

namespace drape {
namespace {

// A line of 2 px width (simple DDA, clipped).
void draw_line(Image& img, double x0, double y0, double x1, double y1, Rgb8 c) {
  const int steps = static_cast<int>(std::ceil(std::max(std::abs(x1 - x0), std::abs(y1 - y0)))) + 1;
  for (int k = 0; k <= steps; ++k) {
    const double t = static_cast<double>(k) / steps;
    const int x = static_cast<int>(std::lround(x0 + t * (x1 - x0)));
    const int y = static_cast<int>(std::lround(y0 + t * (y1 - y0)));
    for (int dy = 0; dy < 2; ++dy)
      for (int dx = 0; dx < 2; ++dx)
        if (img.contains(x + dx, y + dy)) img.set(x + dx, y + dy, c);
  }
}

}  // namespace

Image cantilever_picture(const CantileverResult& r) {
  const int w = 640, h = 400;
  Image img(w, h, Rgb8{255, 255, 255});
  const double span = std::max(r.overhang_sim, 1e-3) * 1.6;  // metres across the picture
  const double scale = (w - 40) / span;
  const double ox = 20 + 0.3 * (w - 40), oy = 80;  // the ledge edge, pixels
  auto px = [&](double x) { return ox + x * scale; };
  auto py = [&](double y) { return oy - y * scale; };
  // Ledge: a dark block left of the edge.
  for (int y = static_cast<int>(oy) + 2; y < h; ++y)
    for (int x = 0; x <= static_cast<int>(ox); ++x) img.set(x, y, Rgb8{90, 90, 100});
  // The 41.5 degree line.
  const double len = span;
  draw_line(img, px(0), py(0), px(len * std::cos(kCantileverAngle)), py(-len * std::sin(kCantileverAngle)),
            Rgb8{200, 60, 60});
  // The strip.
  for (std::size_t i = 1; i < r.centre_line.size(); ++i)
    draw_line(img, px(r.centre_line[i - 1].x), py(r.centre_line[i - 1].y), px(r.centre_line[i].x),
              py(r.centre_line[i].y), Rgb8{40, 90, 200});
  return img;
}

}  // namespace drape

#include "text.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

// stb_easy_font is header-only with static functions: no implementation macro.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <stb/stb_easy_font.h>
#pragma GCC diagnostic pop

namespace drape::render_detail {

Vec2 text_size(const std::string& text, int scale) {
  std::string t = text;
  return {static_cast<double>(stb_easy_font_width(t.data()) * scale),
          static_cast<double>(stb_easy_font_height(t.data()) * scale)};
}

void fill_rect(Image& image, int x0, int y0, int x1, int y1, Rgb8 color) {
  x0 = std::max(x0, 0);
  y0 = std::max(y0, 0);
  x1 = std::min(x1, image.width);
  y1 = std::min(y1, image.height);
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) image.set(x, y, color);
}

void draw_text(Image& image, int x, int y, const std::string& text, Rgb8 color, int scale) {
  std::string t = text;
  // 16 bytes per vertex (x, y, z floats + 4 colour bytes), 4 vertices per quad.
  std::vector<char> buffer(400 * (t.size() + 1));
  const int quads =
      stb_easy_font_print(0, 0, t.data(), nullptr, buffer.data(), static_cast<int>(buffer.size()));
  for (int q = 0; q < quads; ++q) {
    float xs[4], ys[4];
    for (int k = 0; k < 4; ++k) {
      float v[2];
      std::memcpy(v, buffer.data() + (q * 4 + k) * 16, sizeof v);
      xs[k] = v[0];
      ys[k] = v[1];
    }
    const float qx0 = *std::min_element(xs, xs + 4), qx1 = *std::max_element(xs, xs + 4);
    const float qy0 = *std::min_element(ys, ys + 4), qy1 = *std::max_element(ys, ys + 4);
    fill_rect(image, x + static_cast<int>(std::lround(qx0 * scale)),
              y + static_cast<int>(std::lround(qy0 * scale)), x + static_cast<int>(std::lround(qx1 * scale)),
              y + static_cast<int>(std::lround(qy1 * scale)), color);
  }
}

}  // namespace drape::render_detail

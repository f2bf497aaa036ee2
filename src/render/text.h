#pragma once
// Internal: crisp bitmap text for labels (stb_easy_font quads, filled as
// axis-aligned rectangles at an integer scale).

#include <string>

#include "drape/render/image.h"

namespace drape::render_detail {

/// Width and height in pixels of `text` drawn at `scale`.
Vec2 text_size(const std::string& text, int scale);

/// Draws `text` with its top-left corner at (x, y), clipped to the image.
void draw_text(Image& image, int x, int y, const std::string& text, Rgb8 color, int scale = 1);

/// Fills the rectangle [x0, x1) x [y0, y1), clipped.
void fill_rect(Image& image, int x0, int y0, int x1, int y1, Rgb8 color);

}  // namespace drape::render_detail

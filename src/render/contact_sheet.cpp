#include "drape/render/contact_sheet.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "drape/core/exceptions.h"
#include "text.h"

namespace drape {
namespace {

using render_detail::draw_text;
using render_detail::fill_rect;
using render_detail::text_size;

// `line` cut with ".." so it is at most `width` pixels wide at scale 1.
std::string fit_line(const std::string& line, int width) {
  if (text_size(line, 1).x <= width) return line;
  std::string s = line;
  while (!s.empty() && text_size(s + "..", 1).x > width) s.pop_back();
  return s + "..";
}

// `text` broken into lines at most `width` pixels wide at scale 1 (at '\n',
// else after the last space or '/' that fits, else anywhere).
std::vector<std::string> wrap(const std::string& text, int width) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    while (!line.empty()) {
      std::size_t n = line.size();
      while (n > 1 && text_size(line.substr(0, n), 1).x > width) --n;
      if (n < line.size()) {
        const std::size_t brk = line.substr(0, n).find_last_of(" /");
        if (brk != std::string::npos && brk > 0) n = brk + 1;
      }
      out.push_back(line.substr(0, n));
      line.erase(0, n);
    }
  }
  return out;
}

}  // namespace

Image contact_sheet(std::span<const ContactCell> cells, const ContactSheetOptions& o) {
  if (cells.empty()) throw InvalidInput("contact sheet: no cells");
  if (o.cell_width < 1 || o.cell_height < 1 || o.columns < 1 || o.label_height < 0 ||
      o.label_height >= o.cell_height || o.marker_size < 0 || o.marker_size > o.cell_width ||
      o.marker_size > o.cell_height)
    throw InvalidInput("contact sheet: cell size, label strip, columns or marker out of range");
  const int n = static_cast<int>(cells.size());
  const int cols = std::min(n, o.columns);
  const int rows = (n + cols - 1) / cols;
  const Rgb8 bg{255, 255, 255}, ink{40, 40, 40}, rule{200, 200, 200}, strip{242, 242, 242};
  const Rgb8 green{30, 160, 60}, red{210, 40, 40};
  Image sheet(cols * o.cell_width, rows * o.cell_height, bg);
  const int pic_h = o.cell_height - o.label_height;
  for (int i = 0; i < n; ++i) {
    const ContactCell& c = cells[static_cast<std::size_t>(i)];
    const int x0 = (i % cols) * o.cell_width, y0 = (i / cols) * o.cell_height;
    // The picture, centred in its area and clipped to it.
    if (c.image.width > 0 && c.image.height > 0) {
      Image pic(o.cell_width, pic_h, bg);
      pic.blit(c.image, (o.cell_width - c.image.width) / 2, (pic_h - c.image.height) / 2);
      sheet.blit(pic, x0, y0);
    } else {
      int y = y0 + 24;
      for (const std::string& line : wrap(c.empty_text, o.cell_width - 12)) {
        if (y + 10 > y0 + pic_h) break;
        draw_text(sheet, x0 + 6, y, line, red, 1);
        y += 11;
      }
    }
    // Label strip.
    fill_rect(sheet, x0, y0 + pic_h, x0 + o.cell_width, y0 + o.cell_height, strip);
    std::istringstream lines(c.label);
    int y = y0 + pic_h + 4;
    for (std::string line; std::getline(lines, line) && y + 10 <= y0 + o.cell_height; y += 11)
      draw_text(sheet, x0 + 4, y, fit_line(line, o.cell_width - 8), ink, 1);
    // Status marker and cell border.
    fill_rect(sheet, x0 + 3, y0 + 3, x0 + 3 + o.marker_size, y0 + 3 + o.marker_size, c.ok ? green : red);
    fill_rect(sheet, x0 + o.cell_width - 1, y0, x0 + o.cell_width, y0 + o.cell_height, rule);
    fill_rect(sheet, x0, y0 + o.cell_height - 1, x0 + o.cell_width, y0 + o.cell_height, rule);
  }
  return sheet;
}

}  // namespace drape

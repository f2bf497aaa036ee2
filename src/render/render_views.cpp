#include "drape/render/render_views.h"

#include <array>
#include <cmath>
#include <cstdio>

#include "drape/core/exceptions.h"
#include "text.h"

namespace drape {

using render_detail::draw_text;
using render_detail::fill_rect;
using render_detail::text_size;

namespace {

void check_options(const RenderOptions& o) {
  if (o.panel_width < 16 || o.panel_height < 16 || o.panel_width > 8192 || o.panel_height > 8192)
    throw InvalidInput("render: panel size must be within 16..8192 pixels");
  if (o.supersample < 1 || o.supersample > 8) throw InvalidInput("render: supersample must be within 1..8");
  if (!(o.margin >= 0 && o.margin < 0.45)) throw InvalidInput("render: margin must be in [0, 0.45)");
  if (o.strain_range && !(o.strain_range->max > o.strain_range->min))
    throw InvalidInput("render: strain range max must exceed min");
}

Image draw_panel(std::span<const RenderItem> items, View view, const Vec3& center, double scale, int width,
                 int height, const RenderOptions& o, const Executor& ex) {
  const int ss = o.supersample;
  Framebuffer fb(width * ss, height * ss, o.background);
  const OrthoCamera cam = make_camera(view, center, scale * ss, width * ss, height * ss);
  for (const RenderItem& item : items) draw_mesh(fb, cam, item, o.lighting, ex);
  return fb.resolve(ss);
}

std::string percent(double v) {
  if (std::abs(v) < 5e-4) return "0%";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", v * 100.0);
  return buf;
}

void draw_centered(Image& img, int cx, int y, const std::string& text, Rgb8 c, int scale) {
  draw_text(img, cx - static_cast<int>(text_size(text, scale).x / 2), y, text, c, scale);
}

}  // namespace

Image render_view(std::span<const RenderItem> items, const Aabb& bounds, View view, int width, int height,
                  const RenderOptions& options, const Executor& executor) {
  check_options(options);
  const std::array<View, 1> views{view};
  const double scale = fit_scale(bounds, views, width, height, options.margin);
  return draw_panel(items, view, bounds.center(), scale, width, height, options, executor);
}

Image render_views(const TriangleMesh& body, const TriangleMesh& garment,
                   std::span<const double> garment_strain, const RenderOptions& o, const Executor& ex) {
  check_options(o);
  if (body.faces.empty() && garment.faces.empty())
    throw InvalidInput("render: both the body and the garment are empty");
  if (!garment_strain.empty() && garment_strain.size() != garment.vertex_count())
    throw InvalidInput("render: " + std::to_string(garment_strain.size()) +
                       " strain values for a garment of " + std::to_string(garment.vertex_count()) +
                       " vertices");

  body.validate("render: body");
  garment.validate("render: garment");
  Aabb bounds;
  if (!body.faces.empty()) bounds.expand(body.bounds());
  if (!garment.faces.empty()) bounds.expand(garment.bounds());
  constexpr std::array<View, 3> views{View::front, View::side, View::back};
  const int pw = o.panel_width, ph = o.panel_height;
  const double scale = fit_scale(bounds, views, pw, ph, o.margin);
  const Vec3 center = bounds.center();

  const int title_h = o.labels ? 36 : 0;
  const int legend_w = o.labels ? 160 : 0;
  const Rgb8 bg = to_rgb8(o.background), ink{40, 40, 40}, rule{215, 215, 215};
  Image out(4 * pw + legend_w, title_h + ph, bg);

  const std::array<RenderItem, 2> shaded{RenderItem{&body, o.body_color, {}},
                                         RenderItem{&garment, o.garment_color, {}}};
  const std::array<const char*, 3> titles{"front", "side (left)", "back"};
  for (int k = 0; k < 3; ++k)
    out.blit(draw_panel(shaded, views[k], center, scale, pw, ph, o, ex), k * pw, title_h);

  // Strain panel: the front view with the garment coloured by the ramp.
  const StrainRange range = o.strain_range.value_or(auto_strain_range(garment_strain));
  std::vector<Vec3> colors;
  colors.reserve(garment_strain.size());
  for (double s : garment_strain) colors.push_back(strain_color(s, range));
  const std::array<RenderItem, 2> strained{
      RenderItem{&body, o.strain_body_color, {}},
      RenderItem{&garment, o.garment_color, std::span<const Vec3>(colors)}};
  out.blit(draw_panel(strained, View::front, center, scale, pw, ph, o, ex), 3 * pw, title_h);

  if (!o.labels) return out;
  for (int k = 1; k <= 4; ++k) fill_rect(out, k * pw, 0, k * pw + 1, out.height, rule);
  for (int k = 0; k < 3; ++k) draw_centered(out, k * pw + pw / 2, 8, titles[k], ink, 2);
  draw_centered(out, 3 * pw + pw / 2, 8, "strain", ink, 2);

  // Legend: a vertical ramp, maximum on top, labelled in percent.
  const int lx = 4 * pw + 14, bar_w = 22;
  const int top = title_h + ph / 8, bottom = title_h + ph * 7 / 8;
  if (garment_strain.empty()) {
    draw_text(out, lx, top, "no strain\ndata", ink, 2);
  } else {
    draw_text(out, lx, top - 30, "strain", ink, 2);
    fill_rect(out, lx - 1, top - 1, lx + bar_w + 1, bottom + 1, ink);
    for (int y = top; y < bottom; ++y) {
      const double t = 1.0 - (y - top + 0.5) / (bottom - top);
      fill_rect(out, lx, y, lx + bar_w, y + 1,
                to_rgb8(strain_color(range.min + t * (range.max - range.min), range)));
    }
    auto tick = [&](double value) {
      const double t = (value - range.min) / (range.max - range.min);
      const int y = bottom - static_cast<int>(std::lround(t * (bottom - top)));
      fill_rect(out, lx + bar_w + 1, y, lx + bar_w + 6, y + 1, ink);
      draw_text(out, lx + bar_w + 9, y - 6, percent(value), ink, 2);
    };
    tick(range.max);
    tick(range.min);
    if (range.min < 0 && range.max > 0)
      tick(0.0);
    else
      tick(0.5 * (range.min + range.max));
  }
  if (!o.caption.empty()) draw_text(out, 8, out.height - 20, o.caption, ink, 1);
  return out;
}

}  // namespace drape

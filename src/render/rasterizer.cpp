#include "drape/render/rasterizer.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "drape/core/exceptions.h"

namespace drape {

Framebuffer::Framebuffer(int w, int h, const Vec3& background)
    : width(w),
      height(h),
      color(static_cast<std::size_t>(std::max(w, 0)) * std::max(h, 0), background),
      depth(color.size(), -std::numeric_limits<float>::infinity()) {
  if (w <= 0 || h <= 0) throw InvalidInput("Framebuffer: size must be positive");
}

bool Framebuffer::covered(int x, int y) const {
  return depth[static_cast<std::size_t>(y) * width + x] > -std::numeric_limits<float>::infinity();
}

Image Framebuffer::resolve(int f) const {
  if (f < 1 || width % f || height % f)
    throw InvalidInput("Framebuffer::resolve: factor " + std::to_string(f) + " does not divide the size");
  Image img(width / f, height / f);
  const double inv = 1.0 / (f * f);
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      Vec3 sum;
      for (int j = 0; j < f; ++j)
        for (int i = 0; i < f; ++i) sum += color[static_cast<std::size_t>(y * f + j) * width + (x * f + i)];
      img.set(x, y, to_rgb8(sum * inv));
    }
  return img;
}

namespace {
Vec3 world_light(const OrthoCamera& c, const Lighting& l) {
  return normalized(c.right * l.to_light.x + c.up * l.to_light.y + c.toward_viewer * l.to_light.z);
}
double shade(const Vec3& n, const Vec3& l, const Lighting& light) {
  double d = dot(n, l);
  d = light.two_sided ? std::abs(d) : std::max(0.0, d);
  return light.ambient + light.diffuse * d;
}

struct ScreenTriangle {
  Vec2 p[3];
  double z[3];
  int v[3];
  double inv_area;  // 1 / signed doubled area
  int y0, y1;       // pixel rows possibly covered, inclusive
};
}  // namespace

double lambert(const Vec3& n, const OrthoCamera& camera, const Lighting& light) {
  return shade(normalized(n), world_light(camera, light), light);
}

void draw_mesh(Framebuffer& fb, const OrthoCamera& camera, const RenderItem& item, const Lighting& light,
               const Executor& executor) {
  if (!item.mesh) return;
  const TriangleMesh& m = *item.mesh;
  if (fb.width != camera.width || fb.height != camera.height)
    throw InvalidInput("draw_mesh: camera and framebuffer sizes differ");
  if (!item.vertex_colors.empty() && item.vertex_colors.size() != m.vertex_count())
    throw InvalidInput("draw_mesh: " + std::to_string(item.vertex_colors.size()) + " vertex colours for " +
                       std::to_string(m.vertex_count()) + " vertices");
  if (m.faces.empty()) return;

  const std::vector<Vec3> normals = m.vertex_normals();
  const Vec3 l = world_light(camera, light);
  std::vector<Vec3> proj(m.vertex_count());
  executor.for_each(0, proj.size(), [&](std::size_t i) { proj[i] = camera.project(m.positions[i]); });

  // Set up every triangle once (a gather over faces), then rasterise in bands.
  std::vector<ScreenTriangle> tris(m.face_count());
  std::vector<char> keep(m.face_count(), 0);
  executor.for_each(0, tris.size(), [&](std::size_t f) {
    ScreenTriangle& t = tris[f];
    double ymin = 1e300, ymax = -1e300, xmin = 1e300, xmax = -1e300;
    for (int k = 0; k < 3; ++k) {
      const int v = m.faces[f][k];
      t.v[k] = v;
      t.p[k] = {proj[v].x, proj[v].y};
      t.z[k] = proj[v].z;
      ymin = std::min(ymin, t.p[k].y);
      ymax = std::max(ymax, t.p[k].y);
      xmin = std::min(xmin, t.p[k].x);
      xmax = std::max(xmax, t.p[k].x);
    }
    const double area = cross(t.p[1] - t.p[0], t.p[2] - t.p[0]);
    // Also drops triangles with non-finite corners (every comparison with NaN fails).
    if (!(std::abs(area) > 1e-12) || !(xmax >= 0) || !(xmin <= fb.width) || !(ymax >= 0) ||
        !(ymin <= fb.height) || !std::isfinite(area))
      return;
    t.inv_area = 1.0 / area;
    // Pixel row j has its centre at j + 0.5.
    // Clamp in floating point before converting: far-off vertices must not overflow int.
    t.y0 = static_cast<int>(std::max(0.0, std::ceil(ymin - 0.5)));
    t.y1 = static_cast<int>(std::min(fb.height - 1.0, std::floor(ymax - 0.5)));
    keep[f] = t.y0 <= t.y1;
  });

  constexpr int band = 16;
  const int bands = (fb.height + band - 1) / band;
  executor.for_each(
      0, static_cast<std::size_t>(bands),
      [&](std::size_t b) {
        const int by0 = static_cast<int>(b) * band, by1 = std::min(fb.height - 1, by0 + band - 1);
        for (std::size_t f = 0; f < tris.size(); ++f) {
          if (!keep[f]) continue;
          const ScreenTriangle& t = tris[f];
          const int y0 = std::max(by0, t.y0), y1 = std::min(by1, t.y1);
          if (y0 > y1) continue;
          const double xmin = std::min({t.p[0].x, t.p[1].x, t.p[2].x});
          const double xmax = std::max({t.p[0].x, t.p[1].x, t.p[2].x});
          const int x0 = static_cast<int>(std::max(0.0, std::ceil(xmin - 0.5)));
          const int x1 = static_cast<int>(std::min(fb.width - 1.0, std::floor(xmax - 0.5)));
          for (int y = y0; y <= y1; ++y) {
            for (int x = x0; x <= x1; ++x) {
              const Vec2 c{x + 0.5, y + 0.5};
              // Barycentric weights; the sign of the area normalises orientation.
              const double w0 = cross(t.p[2] - t.p[1], c - t.p[1]) * t.inv_area;
              const double w1 = cross(t.p[0] - t.p[2], c - t.p[2]) * t.inv_area;
              const double w2 = 1.0 - w0 - w1;
              if (w0 < 0 || w1 < 0 || w2 < 0) continue;
              const float z = static_cast<float>(w0 * t.z[0] + w1 * t.z[1] + w2 * t.z[2]);
              const std::size_t i = static_cast<std::size_t>(y) * fb.width + x;
              if (!(z > fb.depth[i])) continue;  // earlier triangles win ties
              fb.depth[i] = z;
              const Vec3 n = normalized(normals[t.v[0]] * w0 + normals[t.v[1]] * w1 + normals[t.v[2]] * w2);
              const Vec3 base = item.vertex_colors.empty()
                                    ? item.color
                                    : item.vertex_colors[t.v[0]] * w0 + item.vertex_colors[t.v[1]] * w1 +
                                          item.vertex_colors[t.v[2]] * w2;
              fb.color[i] = base * shade(n, l, light);
            }
          }
        }
      },
      1);
}

}  // namespace drape

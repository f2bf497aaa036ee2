#include "drape/fabric_lab/cusick.h"

#include <algorithm>
#include <cmath>

#include "drape/core/exceptions.h"
#include "drape/fabric_lab/specimen.h"

namespace drape {
namespace {
constexpr double kPi = 3.14159265358979323846;
}

double projected_area(const std::vector<Vec3>& x, const std::vector<Triangle>& faces, double extent,
                      double pixel, std::vector<unsigned char>* mask) {
  const int n = static_cast<int>(std::ceil(2 * extent / pixel));
  std::vector<unsigned char> covered(static_cast<std::size_t>(n) * n, 0);
  for (const Triangle& t : faces) {
    const Vec2 a{x[t[0]].x, x[t[0]].z}, b{x[t[1]].x, x[t[1]].z}, c{x[t[2]].x, x[t[2]].z};
    const double area2 = (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y);
    if (std::abs(area2) < 1e-18) continue;
    auto cell = [&](double v) { return static_cast<int>(std::floor((v + extent) / pixel)); };
    const int i0 = std::max(0, cell(std::min({a.x, b.x, c.x}))),
              i1 = std::min(n - 1, cell(std::max({a.x, b.x, c.x})));
    const int j0 = std::max(0, cell(std::min({a.y, b.y, c.y}))),
              j1 = std::min(n - 1, cell(std::max({a.y, b.y, c.y})));
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        // Pixel centre inside the triangle (either orientation).
        const Vec2 p{-extent + (i + 0.5) * pixel, -extent + (j + 0.5) * pixel};
        const double w0 = (b.x - p.x) * (c.y - p.y) - (c.x - p.x) * (b.y - p.y);
        const double w1 = (c.x - p.x) * (a.y - p.y) - (a.x - p.x) * (c.y - p.y);
        const double w2 = (a.x - p.x) * (b.y - p.y) - (b.x - p.x) * (a.y - p.y);
        if ((w0 >= 0 && w1 >= 0 && w2 >= 0) || (w0 <= 0 && w1 <= 0 && w2 <= 0))
          covered[static_cast<std::size_t>(j) * n + i] = 1;
      }
  }
  std::size_t count = 0;
  for (unsigned char c : covered) count += c;
  if (mask) *mask = std::move(covered);
  return static_cast<double>(count) * pixel * pixel;
}

int count_nodes(const std::vector<double>& r) {
  if (r.size() < 3) return 0;
  const auto [lo, hi] = std::minmax_element(r.begin(), r.end());
  double mean = 0;
  for (double v : r) mean += v;
  mean /= static_cast<double>(r.size());
  const double band = 0.1 * (*hi - *lo);
  if (!(*hi - *lo > 1e-4)) return 0;  // under 0.1 mm of variation: a circle
  // Start from a sample below the band, walk once round, count rises above it.
  std::size_t start = 0;
  while (start < r.size() && r[start] > mean - band) ++start;
  if (start == r.size()) return 0;
  int nodes = 0;
  bool above = false;
  for (std::size_t k = 0; k < r.size(); ++k) {
    const double v = r[(start + k) % r.size()];
    if (!above && v > mean + band) {
      above = true;
      ++nodes;
    } else if (above && v < mean - band) {
      above = false;
    }
  }
  return nodes;
}

CusickResult cusick_test(const Fabric& fabric, const CusickOptions& o) {
  validate_fabric(fabric, "fabric '" + fabric.name + "'");
  if (!(o.particle_distance > 0) || !(o.support_radius > 0) || !(o.specimen_radius > o.support_radius))
    throw InvalidInput("Cusick test: needs particle distance > 0 and specimen radius > support radius > 0");
  const int rings = std::max(2, static_cast<int>(std::lround(o.specimen_radius / o.particle_distance)));
  const GarmentMesh disc = disc_specimen(o.specimen_radius, rings);
  ClothSettings settings = lab_settings(o.iterations, true);
  settings.model.stretch_model = o.stretch_model;
  settings.substeps = o.substeps;
  for (std::size_t v = 0; v < disc.rest.size(); ++v)
    if (norm(disc.rest[v]) <= o.support_radius + 1e-9) settings.pinned.push_back(static_cast<int>(v));
  // A real specimen is never perfectly flat: a 0.1 mm tilt of the annulus (one
  // period round the edge, so that it favours no node count) breaks the
  // symmetry of the flat start; deterministic.
  GarmentMesh start = disc;
  for (std::size_t v = 0; v < start.rest.size(); ++v) {
    const double r = norm(start.rest[v]);
    if (r > o.support_radius) {
      const double a = std::atan2(start.rest[v].y, start.rest[v].x);
      start.mesh.positions[v].y = 1e-4 * (r - o.support_radius) / o.specimen_radius * std::sin(a);
    }
  }
  ClothSimulation sim(start, TriangleMesh{}, {}, lab_fabric(fabric), settings);
  CusickResult res;
  res.fabric = fabric.name;
  res.vertices = static_cast<int>(disc.rest.size());
  res.frames = settle(sim, o.max_frames, 2e-5);
  const std::vector<Vec3>& x = sim.positions();
  for (const Triangle& t : disc.mesh.faces) {
    const Vec2 a = disc.rest[t[0]], b = disc.rest[t[1]], c = disc.rest[t[2]];
    res.specimen_area += 0.5 * std::abs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y));
  }
  res.support_area = kPi * o.support_radius * o.support_radius;
  const double extent = o.specimen_radius * 1.05;
  std::vector<unsigned char> mask;
  res.shadow_area = projected_area(x, disc.mesh.faces, extent, o.pixel, &mask);
  res.drape_coefficient = (res.shadow_area - res.support_area) / (res.specimen_area - res.support_area);
  // Edge radius by angle: the outermost ring in order.
  std::vector<double> radius;
  const int first = 1 + 3 * rings * (rings - 1);
  for (std::size_t v = first; v < x.size(); ++v) radius.push_back(std::hypot(x[v].x, x[v].z));
  res.nodes = count_nodes(radius);
  // The picture: 1 pixel per `pixel`, shadow grey, support dark, specimen outline.
  const int n = static_cast<int>(std::ceil(2 * extent / o.pixel));
  res.shadow = Image(n, n, Rgb8{255, 255, 255});
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const double px = -extent + (i + 0.5) * o.pixel, pz = -extent + (j + 0.5) * o.pixel;
      const double r = std::hypot(px, pz);
      Rgb8 c{255, 255, 255};
      if (mask[static_cast<std::size_t>(j) * n + i]) c = Rgb8{150, 150, 160};
      if (r <= o.support_radius) c = Rgb8{60, 60, 70};
      if (std::abs(r - o.specimen_radius) < 1.5 * o.pixel) c = Rgb8{200, 60, 60};
      res.shadow.set(i, n - 1 - j, c);
    }
  return res;
}

}  // namespace drape

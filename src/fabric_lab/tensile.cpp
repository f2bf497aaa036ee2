#include "drape/fabric_lab/tensile.h"

#include <algorithm>
#include <cmath>

#include "drape/cloth/stretch_curve.h"
#include "drape/core/exceptions.h"
#include "drape/fabric_lab/specimen.h"

namespace drape {

const char* tensile_direction_name(TensileDirection d) {
  switch (d) {
    case TensileDirection::weft:
      return "weft";
    case TensileDirection::bias:
      return "bias";
    case TensileDirection::warp:
      break;
  }
  return "warp";
}

namespace {

StretchDirection stretch_direction(TensileDirection d) {
  switch (d) {
    case TensileDirection::weft:
      return StretchDirection::weft;
    case TensileDirection::bias:
      return StretchDirection::bias;
    case TensileDirection::warp:
      break;
  }
  return StretchDirection::warp;
}

// The default samples: the linear ones, or every point of the curve and every
// segment's middle.
std::vector<double> sample_strains(const StretchCurve& curve) {
  if (curve.points.size() < 2) return {0.005, 0.01, 0.02, 0.03};
  std::vector<double> s;
  for (std::size_t i = 1; i < curve.points.size(); ++i) {
    s.push_back(0.5 * (curve.points[i - 1].strain + curve.points[i].strain));
    s.push_back(curve.points[i].strain);
  }
  return s;
}

}  // namespace

TensileResult tensile_test(const Fabric& fabric, const TensileOptions& o) {
  validate_fabric(fabric, "fabric '" + fabric.name + "'");
  if (!(o.particle_distance > 0) || !(o.length > 0) || !(o.width > 0))
    throw InvalidInput("tensile test: particle distance, length and width must be > 0");
  const int nx = std::max(4, static_cast<int>(std::lround(o.length / o.particle_distance)));
  const double h = o.length / nx;
  const int rows = std::max(1, static_cast<int>(std::lround(o.width / (h * std::sqrt(3.0) / 2))));
  GarmentMesh strip = equilateral_strip_specimen(o.length, nx, rows);
  // The grain line, counter-clockwise from the specimen's +y: along x (-90
  // degrees) for a warp strip, along y for a weft strip, 45 degrees to x for bias.
  const double pi = 3.14159265358979323846;
  double modulus = fabric.stretch;
  strip.panel_grain = {-pi / 2};
  if (o.direction == TensileDirection::weft) {
    strip.panel_grain = {0};
    modulus = fabric_stretch_weft(fabric);
  } else if (o.direction == TensileDirection::bias) {
    strip.panel_grain = {-pi / 4};
    modulus = fabric_stretch_bias(fabric);
  }
  const StretchCurve curve = fabric_stretch_curve(fabric, stretch_direction(o.direction));
  const double hy = h * std::sqrt(3.0) / 2, width = rows * hy;
  // The fixed clamp holds the vertices at x = 0; the moving clamp is a dead
  // weight on the vertices at x = length, each carrying its share of the width
  // (half a row at the two edges), free to move otherwise.
  ClothSettings settings = lab_settings(o.iterations, false);
  settings.gravity = {0, 0, 0};
  settings.substeps = o.substeps;
  std::vector<double> share(strip.rest.size(), 0.0);
  for (std::size_t v = 0; v < strip.rest.size(); ++v) {
    if (strip.rest[v].x < 1e-9) settings.pinned.push_back(static_cast<int>(v));
    if (strip.rest[v].x > o.length - 1e-9) {
      const bool edge = strip.rest[v].y < 1e-9 || strip.rest[v].y > width - 1e-9;
      share[v] = (edge ? 0.5 : 1.0) * hy;
    }
  }
  // The gauge: the vertices on two sections a quarter of the length in from
  // each clamp (every other row has one there), away from the clamps' ends.
  const int i1 = static_cast<int>(std::lround(0.25 * nx)), i2 = nx - i1;
  std::vector<int> gauge1, gauge2;
  for (std::size_t v = 0; v < strip.rest.size(); ++v) {
    if (std::abs(strip.rest[v].x - i1 * h) < 1e-9) gauge1.push_back(static_cast<int>(v));
    if (std::abs(strip.rest[v].x - i2 * h) < 1e-9) gauge2.push_back(static_cast<int>(v));
  }
  auto mean_x = [](const std::vector<Vec3>& x, const std::vector<int>& vs) {
    double m = 0;
    for (int v : vs) m += x[v].x;
    return m / static_cast<double>(vs.size());
  };
  TensileResult r;
  r.fabric = fabric.name;
  r.direction = tensile_direction_name(o.direction);
  r.modulus = modulus;
  if (curve.points.size() >= 2) r.curve = curve.points;
  for (double sample : o.strains.empty() ? sample_strains(curve) : o.strains) {
    const double load = curve.force(sample);
    settings.vertex_loads.assign(strip.rest.size(), Vec3{});
    for (std::size_t v = 0; v < share.size(); ++v) settings.vertex_loads[v] = {load * share[v], 0, 0};
    // Start uniformly drawn to the sample strain along x and let it settle.
    GarmentMesh pulled = strip;
    for (Vec3& p : pulled.mesh.positions) p.x *= 1 + sample;
    ClothSimulation sim(pulled, TriangleMesh{}, {}, lab_fabric(fabric), settings);
    TensilePoint p;
    p.frames = settle(sim, o.max_frames, o.tolerance);
    const std::vector<Vec3>& x = sim.positions();
    p.sample_strain = sample;
    p.strain = (mean_x(x, gauge2) - mean_x(x, gauge1)) / ((i2 - i1) * h) - 1;
    p.force_per_width = load;
    p.fabric_force_per_width = curve.force(p.strain);
    r.max_error = std::max(r.max_error, std::abs(p.force_per_width / p.fabric_force_per_width - 1));
    r.points.push_back(p);
  }
  return r;
}

}  // namespace drape

#include "drape/fabric_lab/tensile.h"

#include <algorithm>
#include <cmath>

#include "drape/cloth/orthotropic.h"
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
  const double pi = 3.14159265358979323846;
  // The strip: x along its length, sections of vertices every `dx` along x.
  GarmentMesh strip;
  int sections = 0;  // the sections are at i dx, i = 0..sections (x = length at the last)
  double dx = 0, width = 0;
  if (!o.across_edges) {
    sections = std::max(4, static_cast<int>(std::lround(o.length / o.particle_distance)));
    dx = o.length / sections;
    const int rows = std::max(1, static_cast<int>(std::lround(o.width / (dx * std::sqrt(3.0) / 2))));
    strip = equilateral_strip_specimen(o.length, sections, rows);
    width = rows * dx * std::sqrt(3.0) / 2;
  } else {
    // The lattice's rows run across the strip, sqrt(3)/2 spacings apart.
    sections =
        std::max(4, static_cast<int>(std::lround(o.length / (o.particle_distance * std::sqrt(3.0) / 2))));
    dx = o.length / sections;
    const double h = dx * 2 / std::sqrt(3.0);
    const int across = std::max(2, static_cast<int>(std::lround(o.width / h)));
    width = across * h;
    strip = equilateral_strip_specimen(width, across, sections);
    for (std::size_t v = 0; v < strip.rest.size(); ++v) {
      strip.rest[v] = {strip.rest[v].y, strip.rest[v].x};
      strip.mesh.positions[v] = {strip.rest[v].x, 0, strip.rest[v].y};
    }
    for (Triangle& t : strip.mesh.faces) std::swap(t[1], t[2]);
  }
  // The grain line, counter-clockwise from the specimen's +y: along x (-90
  // degrees) for a warp strip, along y for a weft strip, 45 degrees to x for
  // bias, theta to x for a grain_angle theta.
  double modulus = fabric.stretch;
  strip.panel_grain = {-pi / 2};
  if (o.grain_angle) {
    strip.panel_grain = {*o.grain_angle - pi / 2};
  } else if (o.direction == TensileDirection::weft) {
    strip.panel_grain = {0};
    modulus = fabric_stretch_weft(fabric);
  } else if (o.direction == TensileDirection::bias) {
    strip.panel_grain = {-pi / 4};
    modulus = fabric_stretch_bias(fabric);
  }
  const StretchModel model = resolve_stretch_model(strip, fabric, o.stretch_model, true);
  StretchCurve curve = fabric_stretch_curve(fabric, stretch_direction(o.direction));
  if (o.grain_angle) {
    if (!fabric_stretch_linear(fabric))
      throw InvalidInput("tensile test: a strip at a grain angle needs a linear fabric");
    const double c2 = std::cos(*o.grain_angle) * std::cos(*o.grain_angle);
    modulus = model == StretchModel::triangle
                  ? orthotropic_stretch_at(fabric.stretch, fabric_stretch_weft(fabric),
                                           fabric_orthotropic_shear_modulus(fabric), c2)
                  : fabric_stretch_at(fabric, c2);
    curve = StretchCurve{};
    curve.tail_slope = modulus;
  }
  // The fixed clamp holds the vertices at x = 0; the moving clamp is a dead
  // weight on the vertices at x = length, each carrying its share of the width
  // (half the distance to each neighbour across the strip, to the edge at the
  // ends), free to move otherwise.
  ClothSettings settings = lab_settings(o.iterations, false);
  settings.gravity = {0, 0, 0};
  settings.substeps = o.substeps;
  settings.model.stretch_model = model;
  std::vector<double> share(strip.rest.size(), 0.0);
  std::vector<int> loaded;
  for (std::size_t v = 0; v < strip.rest.size(); ++v) {
    if (strip.rest[v].x < 1e-9) settings.pinned.push_back(static_cast<int>(v));
    if (strip.rest[v].x > o.length - 1e-9) loaded.push_back(static_cast<int>(v));
  }
  std::sort(loaded.begin(), loaded.end(), [&](int a, int b) { return strip.rest[a].y < strip.rest[b].y; });
  for (std::size_t i = 0; i < loaded.size(); ++i) {
    const double lo = i == 0 ? 0.0 : 0.5 * (strip.rest[loaded[i - 1]].y + strip.rest[loaded[i]].y);
    const double hi =
        i + 1 == loaded.size() ? width : 0.5 * (strip.rest[loaded[i]].y + strip.rest[loaded[i + 1]].y);
    share[loaded[i]] = hi - lo;
  }
  // The gauge: the vertices on two sections a quarter of the length in from
  // each clamp, away from the clamps' ends.
  const int i1 = static_cast<int>(std::lround(0.25 * sections)), i2 = sections - i1;
  std::vector<int> gauge1, gauge2;
  for (std::size_t v = 0; v < strip.rest.size(); ++v) {
    if (std::abs(strip.rest[v].x - i1 * dx) < 1e-9) gauge1.push_back(static_cast<int>(v));
    if (std::abs(strip.rest[v].x - i2 * dx) < 1e-9) gauge2.push_back(static_cast<int>(v));
  }
  auto mean_x = [](const std::vector<Vec3>& x, const std::vector<int>& vs) {
    double m = 0;
    for (int v : vs) m += x[v].x;
    return m / static_cast<double>(vs.size());
  };
  TensileResult r;
  r.fabric = fabric.name;
  r.direction = o.grain_angle ? "angle" : tensile_direction_name(o.direction);
  r.stretch_model = stretch_model_name(model);
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
    p.strain = (mean_x(x, gauge2) - mean_x(x, gauge1)) / ((i2 - i1) * dx) - 1;
    p.force_per_width = load;
    p.fabric_force_per_width = curve.force(p.strain);
    r.max_error = std::max(r.max_error, std::abs(p.force_per_width / p.fabric_force_per_width - 1));
    r.points.push_back(p);
  }
  return r;
}

}  // namespace drape

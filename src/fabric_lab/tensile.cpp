#include "drape/fabric_lab/tensile.h"

#include <algorithm>
#include <cmath>

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

TensileResult tensile_test(const Fabric& fabric, const TensileOptions& o) {
  validate_fabric(fabric, "fabric '" + fabric.name + "'");
  if (!(o.particle_distance > 0) || !(o.length > 0) || !(o.width > 0))
    throw InvalidInput("tensile test: particle distance, length and width must be > 0");
  const int nx = std::max(2, static_cast<int>(std::lround(o.length / o.particle_distance)));
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
  const double width = rows * h * std::sqrt(3.0) / 2;
  // Clamps: the vertices at the strip's two ends.
  ClothSettings settings = lab_settings(o.iterations, false);
  settings.gravity = {0, 0, 0};
  settings.substeps = o.substeps;
  std::vector<char> right(strip.rest.size(), 0);
  for (std::size_t v = 0; v < strip.rest.size(); ++v) {
    if (strip.rest[v].x < 1e-9) settings.pinned.push_back(static_cast<int>(v));
    if (strip.rest[v].x > o.length - 1e-9) {
      settings.pinned.push_back(static_cast<int>(v));
      right[v] = 1;
    }
  }
  TensileResult r;
  r.fabric = fabric.name;
  r.direction = tensile_direction_name(o.direction);
  r.modulus = modulus;
  for (double strain : o.strains) {
    // Start uniformly drawn along x (no lateral contraction yet) and let it settle.
    GarmentMesh pulled = strip;
    for (Vec3& p : pulled.mesh.positions) p.x *= 1 + strain;
    ClothSimulation sim(pulled, TriangleMesh{}, {}, lab_fabric(fabric), settings);
    settle(sim, o.max_frames, o.tolerance);
    // The force through a section near the middle, a quarter spacing off any
    // vertex (vertices lie at multiples of half a spacing): every spring crossing it.
    const ClothModel& m = sim.model();
    const std::vector<Vec3>& x = sim.positions();
    const double cut = (nx / 2) * h + 0.25 * h;
    double force = 0;
    for (std::size_t s = 0; s < m.spring_a.size(); ++s) {
      if (m.spring_family[s] != SpringFamily::stretch) continue;
      const int a = m.spring_a[s], b = m.spring_b[s];
      const double ra = strip.rest[a].x, rb = strip.rest[b].x;
      if ((ra < cut) == (rb < cut)) continue;
      const Vec3 d = x[b] - x[a];
      const double len = norm(d);
      const double tension = m.spring_stiffness[s] * (len - m.spring_rest[s]);
      force += tension * std::abs(d.x) / len;
    }
    TensilePoint p;
    p.strain = strain;
    p.force_per_width = force / width;
    p.fabric_force_per_width = modulus * strain;
    r.max_error = std::max(r.max_error, std::abs(p.force_per_width / p.fabric_force_per_width - 1));
    r.points.push_back(p);
  }
  return r;
}

}  // namespace drape

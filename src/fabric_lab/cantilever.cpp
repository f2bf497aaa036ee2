#include "drape/fabric_lab/cantilever.h"

#include <algorithm>
#include <cmath>

#include "drape/core/exceptions.h"
#include "drape/fabric_lab/elastica.h"
#include "drape/fabric_lab/specimen.h"

namespace drape {
namespace {

constexpr double kGravity = 9.81;

struct Trial {
  double overhang = 0, angle = 0;
  int frames = 0;
  std::vector<Vec3> centre_line;
};

// One overhang L, measured from the ledge edge: the strip settled under
// gravity, the chord angle of its tip seen from the edge.
//
// Where the ledge edge is in the discrete strip: the clamp pins the node
// columns at x = -hx and x = 0, and the first hinge (at x = 0) turns by the
// chord slope of the cell [0, hx], about kappa hx / 2 near a clamp at x = 0,
// so it would store half the continuum's energy B kappa^2 / 2 over [0, hx / 2]
// there. Read as a clamp at x = -hx / 2 instead, every hinge i (at x = i hx)
// stands for the cell [(i - 1/2) hx, (i + 1/2) hx] of the continuum, the
// root one included: the ledge edge is half a cell behind the last pinned node
// (docs/FABRICS.md, "Cantilever").
Trial run_overhang(const Fabric& fabric, double overhang, const CantileverOptions& o) {
  const int nx = std::max(2, static_cast<int>(std::lround(overhang / o.particle_distance - 0.5)));
  const int ny = std::max(1, static_cast<int>(std::lround(o.width / o.particle_distance)));
  const double hx = overhang / (nx + 0.5);
  const double edge = -0.5 * hx;
  GarmentMesh strip = strip_specimen(-hx, (nx + 1) * hx, o.width, nx + 1, ny);
  ClothSettings settings = lab_settings(o.iterations, false);
  settings.substeps = o.substeps;
  settings.model.bending = o.bending;
  settings.model.stretch_model = o.stretch_model;
  for (int j = 0; j <= ny; ++j) {
    settings.pinned.push_back(j * (nx + 2));
    settings.pinned.push_back(j * (nx + 2) + 1);
  }
  ClothSimulation sim(strip, TriangleMesh{}, {}, lab_fabric(fabric), settings);
  Trial t;
  t.overhang = overhang;
  t.frames = settle(sim, o.max_frames, o.tolerance);
  const std::vector<Vec3>& x = sim.positions();
  Vec3 tip{};
  for (int j = 0; j <= ny; ++j) tip += x[j * (nx + 2) + nx + 1];
  tip = tip / (ny + 1);
  t.angle = std::atan2(-tip.y, tip.x - edge);
  t.centre_line.push_back({edge, 0, 0});
  for (int i = 1; i <= nx + 1; ++i) {
    Vec3 c{};
    for (int j = 0; j <= ny; ++j) c += x[j * (nx + 2) + i];
    c = c / (ny + 1);
    t.centre_line.push_back({c.x - edge, c.y, c.z});
  }
  return t;
}

}  // namespace

CantileverResult cantilever_test(const Fabric& fabric, const CantileverOptions& o) {
  validate_fabric(fabric, "fabric '" + fabric.name + "'");
  if (!(fabric.bending > 0))
    throw InvalidInput("cantilever test: fabric '" + fabric.name + "' has no bending");
  if (!(o.particle_distance > 0) || !(o.width > 0))
    throw InvalidInput("cantilever test: particle distance and width must be > 0");
  CantileverResult r;
  r.fabric = fabric.name;
  r.weight = fabric.density * kGravity;
  r.flexural_rigidity = fabric.bending;
  const double c = std::cbrt(fabric.bending / r.weight);
  r.bending_length_peirce = c;
  const double lambda = elastica_overhang_over_c(kCantileverAngle);
  r.bending_length_elastica = 0.5 * lambda * c;

  // Secant on the overhang; the chord angle rises with it (as (L / c)^3 at first).
  Trial a = run_overhang(fabric, 2 * c, o);
  Trial b = run_overhang(fabric, 2.2 * c, o);
  r.frames = a.frames + b.frames;
  r.overhangs_tried = 2;
  for (int it = 0; it < 12 && std::abs(b.angle - kCantileverAngle) > o.angle_tolerance; ++it) {
    double next = b.overhang;
    if (std::abs(b.angle - a.angle) > 1e-9)
      next = b.overhang + (kCantileverAngle - b.angle) * (b.overhang - a.overhang) / (b.angle - a.angle);
    next = std::clamp(next, 0.5 * b.overhang, 2.0 * b.overhang);
    a = std::move(b);
    b = run_overhang(fabric, next, o);
    r.frames += b.frames;
    ++r.overhangs_tried;
  }
  if (std::abs(b.angle - kCantileverAngle) > 5 * o.angle_tolerance)
    throw SolverError("cantilever test: the overhang search did not reach 41.5 degrees for fabric '" +
                      fabric.name + "'");
  // The last step of the secant, interpolated to the exact angle.
  double overhang = b.overhang;
  if (std::abs(b.angle - a.angle) > 1e-9)
    overhang = b.overhang + (kCantileverAngle - b.angle) * (b.overhang - a.overhang) / (b.angle - a.angle);
  r.overhang_sim = overhang;
  r.chord_angle_sim = b.angle;
  r.bending_length_sim = overhang / 2;
  r.flexural_rigidity_sim = r.weight * std::pow(overhang / lambda, 3);
  r.centre_line = std::move(b.centre_line);
  return r;
}

}  // namespace drape

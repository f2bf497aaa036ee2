#pragma once
// Shared by fuzz_pattern and fuzz_svg: a pattern that loads is also meshed,
// since meshing a weird but valid pattern must not crash or hang either.

#include <algorithm>
#include <cmath>

#include "drape/pattern/mesher.h"
#include "drape/pattern/pattern.h"

namespace drape::fuzz {

/// Coarse particle distance so one input meshes in milliseconds.
inline constexpr double kFuzzParticleDistance = 0.05;

/// True when meshing `p` at kFuzzParticleDistance is bounded work: at most
/// 200 edges and a total bounding area (vertices, Bezier controls and arc
/// radii) of at most 20000 particle cells (~50 m^2). Larger patterns are valid
/// but only slow, which is not what the fuzzer looks for.
inline bool mesh_work_is_bounded(const Pattern& p) {
  std::size_t edges = 0;
  double cells = 0;
  for (const Panel& panel : p.panels) {
    edges += panel.edges.size();
    double lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY, r = 0;
    auto grow = [&](Vec2 v) {
      lo_x = std::min(lo_x, v.x), hi_x = std::max(hi_x, v.x);
      lo_y = std::min(lo_y, v.y), hi_y = std::max(hi_y, v.y);
    };
    for (const Vec2& v : panel.vertices) grow(v);
    for (const PanelEdge& e : panel.edges) {
      if (e.curve == EdgeCurve::quadratic || e.curve == EdgeCurve::cubic) grow(e.c1);
      if (e.curve == EdgeCurve::cubic) grow(e.c2);
      if (e.curve == EdgeCurve::arc) r = std::max(r, std::abs(e.radius));
    }
    const double w = hi_x - lo_x + 2 * r, h = hi_y - lo_y + 2 * r;
    cells += w * h / (kFuzzParticleDistance * kFuzzParticleDistance);
  }
  return edges <= 200 && std::isfinite(cells) && cells <= 20000;
}

/// Meshes `p` coarsely when that is bounded work (see mesh_work_is_bounded).
inline void mesh_if_bounded(const Pattern& p) {
  if (!mesh_work_is_bounded(p)) return;
  MeshingOptions o;
  o.particle_distance = kFuzzParticleDistance;
  mesh_pattern(p, o);
  o.method = MeshMethod::grid;
  mesh_pattern(p, o);
}

}  // namespace drape::fuzz

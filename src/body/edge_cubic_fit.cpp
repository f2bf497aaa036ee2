#include "edge_cubic_fit.h"

#include <algorithm>
#include <cmath>

namespace drape {

Hermite hermite_of(const EdgeGeometry& g) {
  switch (g.curve) {
    case EdgeCurve::quadratic:
      return {(g.c1 - g.p0) * 2.0, (g.p1 - g.c1) * 2.0};
    case EdgeCurve::cubic:
      return {(g.c1 - g.p0) * 3.0, (g.p1 - g.c2) * 3.0};
    case EdgeCurve::arc: {
      // One cubic per arc: handle 4/3 r tan(sweep / 4) along the arc's tangents.
      const double s = std::abs(g.sweep);
      const double k = s > 1e-12 ? 4 * std::tan(s / 4) / s : 1.0;
      return {g.derivative(0) * k, g.derivative(1) * k};
    }
    default:
      return {g.p1 - g.p0, g.p1 - g.p0};
  }
}

Vec2 cubic_point(Vec2 p0, Vec2 c1, Vec2 c2, Vec2 p1, double t) {
  const double s = 1 - t;
  return p0 * (s * s * s) + c1 * (3 * s * s * t) + c2 * (3 * s * t * t) + p1 * (t * t * t);
}

double nearest_parameter(Vec2 p0, Vec2 c1, Vec2 c2, Vec2 p1, Vec2 q, double t) {
  for (int it = 0; it < 8; ++it) {
    const double s = 1 - t;
    const Vec2 d1 = (c1 - p0) * (3 * s * s) + (c2 - c1) * (6 * s * t) + (p1 - c2) * (3 * t * t);
    const Vec2 d2 = (c2 - c1 * 2.0 + p0) * (6 * s) + (p1 - c2 * 2.0 + c1) * (6 * t);
    const Vec2 r = cubic_point(p0, c1, c2, p1, t) - q;
    const double den = dot(d1, d1) + dot(r, d2);
    if (!(std::abs(den) > 1e-300)) break;
    t = std::clamp(t - dot(r, d1) / den, 0.0, 1.0);
  }
  return t;
}

bool fit_handles(Vec2 p0, Vec2 d0, Vec2 d1, Vec2 p1, const std::vector<double>& ts,
                 const std::vector<Vec2>& qs, double& a, double& b) {
  double m00 = 0, m01 = 0, m11 = 0, r0 = 0, r1 = 0;
  for (std::size_t i = 0; i < ts.size(); ++i) {
    const double t = ts[i], s = 1 - t;
    const Vec2 base = cubic_point(p0, p0, p1, p1, t);
    const Vec2 x0 = d0 * (3 * s * s * t), x1 = d1 * (-3 * s * t * t);
    const Vec2 r = qs[i] - base;
    m00 += dot(x0, x0);
    m01 += dot(x0, x1);
    m11 += dot(x1, x1);
    r0 += dot(x0, r);
    r1 += dot(x1, r);
  }
  const double det = m00 * m11 - m01 * m01;
  if (!(std::abs(det) > 1e-300)) return false;
  a = (r0 * m11 - r1 * m01) / det;
  b = (m00 * r1 - m01 * r0) / det;
  return a > 0 && b > 0;
}

}  // namespace drape

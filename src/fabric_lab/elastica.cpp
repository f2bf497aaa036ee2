#include "drape/fabric_lab/elastica.h"

#include <cmath>

#include "drape/core/exceptions.h"

namespace drape {
namespace {

// State along the dimensionless arc length u = s / L in [0, 1]:
// theta, theta' (d/du), x / L, y / L (down).
struct State {
  double theta, dtheta, x, y;
};

State derivative(const State& s, double u, double beta) {
  return {s.dtheta, -beta * (1 - u) * std::cos(s.theta), std::cos(s.theta), std::sin(s.theta)};
}

State axpy(const State& a, double h, const State& d) {
  return {a.theta + h * d.theta, a.dtheta + h * d.dtheta, a.x + h * d.x, a.y + h * d.y};
}

// Integrates from the clamp with initial curvature p; the end state.
State integrate(double p, double beta, int steps) {
  State s{0, p, 0, 0};
  const double h = 1.0 / steps;
  for (int i = 0; i < steps; ++i) {
    const double u = i * h;
    const State k1 = derivative(s, u, beta);
    const State k2 = derivative(axpy(s, h / 2, k1), u + h / 2, beta);
    const State k3 = derivative(axpy(s, h / 2, k2), u + h / 2, beta);
    const State k4 = derivative(axpy(s, h, k3), u + h, beta);
    s.theta += h / 6 * (k1.theta + 2 * k2.theta + 2 * k3.theta + k4.theta);
    s.dtheta += h / 6 * (k1.dtheta + 2 * k2.dtheta + 2 * k3.dtheta + k4.dtheta);
    s.x += h / 6 * (k1.x + 2 * k2.x + 2 * k3.x + k4.x);
    s.y += h / 6 * (k1.y + 2 * k2.y + 2 * k3.y + k4.y);
  }
  return s;
}

}  // namespace

ElasticaTip heavy_elastica(double beta, int steps) {
  if (!(beta >= 0) || steps < 10) throw InvalidInput("heavy_elastica: needs beta >= 0 and >= 10 steps");
  // theta'(1) as a function of the clamp curvature p rises monotonically from
  // -(load) at p = 0; the root lies in [0, beta / 2] (the small-deflection
  // answer, the largest curvature the weight can cause).
  double lo = 0, hi = beta / 2 + 1e-12;
  for (int it = 0; it < 200 && hi - lo > 1e-14 * (1 + hi); ++it) {
    const double mid = 0.5 * (lo + hi);
    (integrate(mid, beta, steps).dtheta < 0 ? lo : hi) = mid;
  }
  const State end = integrate(0.5 * (lo + hi), beta, steps);
  ElasticaTip tip;
  tip.x_over_length = end.x;
  tip.y_over_length = end.y;
  tip.tip_slope = end.theta;
  tip.chord_angle = std::atan2(end.y, end.x);
  return tip;
}

double elastica_overhang_over_c(double chord_angle) {
  if (!(chord_angle > 0 && chord_angle < 1.5))
    throw InvalidInput("elastica_overhang_over_c: angle out of (0, 1.5) rad");
  // The chord angle grows with the load beta = (L / c)^3: bisect on L / c.
  double lo = 0, hi = 1;
  while (heavy_elastica(hi * hi * hi).chord_angle < chord_angle) hi *= 2;
  for (int it = 0; it < 80; ++it) {
    const double mid = 0.5 * (lo + hi);
    (heavy_elastica(mid * mid * mid).chord_angle < chord_angle ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

double peirce_c_over_overhang(double chord_angle) {
  return std::cbrt(std::cos(chord_angle / 2) / (8 * std::tan(chord_angle)));
}

}  // namespace drape

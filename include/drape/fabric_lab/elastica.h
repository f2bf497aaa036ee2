#pragma once
// The heavy elastica: a clamped cantilever strip bending under its own weight,
// solved from its ODE independently of the cloth simulator (the analytic side
// of the cantilever test, ASTM D1388 / Peirce 1930).

namespace drape {

/// Shape of a clamped cantilever of length L, flexural rigidity B (N m) and
/// weight w (N/m^2), in the dimensionless load beta = w L^3 / B: with s the arc
/// length from the clamp and theta the slope below the horizontal,
///   B theta''(s) = -w (L - s) cos theta,  theta(0) = 0,  theta'(L) = 0.
struct ElasticaTip {
  double x_over_length = 1;  ///< horizontal reach of the tip / L
  double y_over_length = 0;  ///< drop of the tip / L (positive down)
  double tip_slope = 0;      ///< theta(L), radians
  /// Angle below the horizontal of the chord from the clamp edge to the tip, radians.
  double chord_angle = 0;
};

/// Solves the heavy elastica at load beta >= 0 by shooting on theta'(0) with
/// RK4 (`steps` steps over the length).
ElasticaTip heavy_elastica(double beta, int steps = 2000);

/// The overhang, in units of c = (B / w)^(1/3), at which the chord from the
/// clamp edge to the tip makes `chord_angle` (radians, 0 < angle < pi/2) with
/// the horizontal: the answer of the cantilever test.
double elastica_overhang_over_c(double chord_angle);

/// Peirce's approximation: overhang l at chord angle theta gives
/// c = l * (cos(theta / 2) / (8 tan theta))^(1/3); at 41.5 degrees, c = l / 2.
double peirce_c_over_overhang(double chord_angle);

/// The chord angle of ASTM D1388's fixed-angle cantilever, radians (41.5 degrees).
constexpr double kCantileverAngle = 41.5 * 3.14159265358979323846 / 180;

}  // namespace drape

#pragma once
// Non-linear stretch (docs/FABRICS.md, "Non-linear stretch"): a fabric's
// tensile curves along the warp, the weft and the bias, continuous and
// piecewise linear, put on common knots so that every direction's curve is
// the directional law Y(theta) of the three slopes, segment by segment.

#include <cstdint>
#include <string>
#include <vector>

#include "drape/cloth/fabric.h"

namespace drape {

enum class StretchDirection : std::uint8_t { warp, weft, bias };

/// Y(theta) = a + b cos 2 theta + c cos 4 theta through warp Y(0), bias
/// Y(45 deg) and weft Y(90 deg): the lowest-order even, 180-degree periodic
/// curve through the three.
struct DirectionalStretch {
  double a, b, c;
  DirectionalStretch(double warp, double weft, double bias);
  /// Y at u = cos 2 theta (cos 4 theta = 2 u^2 - 1).
  double at_u(double u) const { return a + b * u + c * (2 * u * u - 1); }
  /// Y at the angle theta from the grain given as cos^2 theta (0..1).
  double at_cos_squared(double cos_squared) const;
  /// The smallest Y over all directions.
  double minimum() const;
};

/// A direction's tensile curve as the model uses it: points from (0, 0) and
/// the slope past the last one, N/m.
struct StretchCurve {
  std::vector<StretchPoint> points{{0, 0}};
  double tail_slope = 0;
  /// Force per width at strain >= 0, N/m (0 at and below 0).
  double force(double strain) const;
  /// The slope of the segment that holds `strain` (the tail past the last point), N/m.
  double slope(double strain) const;
};

/// The curve along `direction`: the fabric's points, else the line of that
/// direction's modulus; a bias with neither its own curve nor its own modulus
/// is the mean of the warp and weft curves (as its modulus is their mean).
StretchCurve fabric_stretch_curve(const Fabric& fabric, StretchDirection direction);

/// Checks a curve as a file gives it: at least two points, the first (0, 0),
/// strain and force finite and strictly increasing.
/// \throw InvalidInput naming `source`, `key` and the offending point.
void check_stretch_curve(const std::vector<StretchPoint>& curve, const std::string& source,
                         const std::string& key);

/// The three directions' curves on their common knots: segment j runs from
/// knots[j] (knots[0] = 0) to knots[j + 1] (the last one has no end) with the
/// slopes warp[j], weft[j], bias[j], N/m.
struct StretchSegments {
  std::vector<double> knots;
  std::vector<double> warp, weft, bias;
  explicit StretchSegments(const Fabric& fabric);
  /// Every segment's slope at the angle theta from the grain (cos^2 theta),
  /// by Y(theta) of that segment's three slopes, N/m.
  std::vector<double> slopes_at(double cos_squared) const;
  /// The smallest slope of segment j over all directions, N/m.
  double minimum_slope(std::size_t j) const;
};

}  // namespace drape

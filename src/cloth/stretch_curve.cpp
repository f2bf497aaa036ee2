#include "drape/cloth/stretch_curve.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "drape/core/exceptions.h"

namespace drape {

DirectionalStretch::DirectionalStretch(double warp, double weft, double bias)
    : a(0.25 * (warp + weft) + 0.5 * bias), b(0.5 * (warp - weft)), c(0.25 * (warp + weft) - 0.5 * bias) {}

double DirectionalStretch::at_cos_squared(double cos_squared) const {
  return at_u(2 * std::clamp(cos_squared, 0.0, 1.0) - 1);
}

double DirectionalStretch::minimum() const {
  double m = std::min(at_u(-1), at_u(1));
  if (c > 0) {
    const double u = -b / (4 * c);
    if (u > -1 && u < 1) m = std::min(m, at_u(u));
  }
  return m;
}

double StretchCurve::force(double strain) const {
  if (!(strain > 0)) return 0;
  for (std::size_t i = 1; i < points.size(); ++i)
    if (strain <= points[i].strain) {
      const StretchPoint &p = points[i - 1], &q = points[i];
      return p.force + (q.force - p.force) * (strain - p.strain) / (q.strain - p.strain);
    }
  return points.back().force + tail_slope * (strain - points.back().strain);
}

double StretchCurve::slope(double strain) const {
  for (std::size_t i = 1; i < points.size(); ++i)
    if (strain < points[i].strain)
      return (points[i].force - points[i - 1].force) / (points[i].strain - points[i - 1].strain);
  return tail_slope;
}

namespace {

StretchCurve curve_of(const std::vector<StretchPoint>& points, double modulus) {
  StretchCurve c;
  if (points.size() < 2) {
    c.tail_slope = modulus;
    return c;
  }
  c.points = points;
  const StretchPoint &p = points[points.size() - 2], &q = points.back();
  c.tail_slope = (q.force - p.force) / (q.strain - p.strain);
  return c;
}

std::vector<double> merged_knots(const std::vector<const StretchCurve*>& curves) {
  std::vector<double> k;
  for (const StretchCurve* c : curves)
    for (const StretchPoint& p : c->points) k.push_back(p.strain);
  std::sort(k.begin(), k.end());
  k.erase(std::unique(k.begin(), k.end()), k.end());
  return k;
}

std::string point_text(const StretchPoint& p) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "[%.6g, %.6g]", p.strain, p.force);
  return buf;
}

}  // namespace

StretchCurve fabric_stretch_curve(const Fabric& f, StretchDirection d) {
  switch (d) {
    case StretchDirection::warp:
      return curve_of(f.stretch_curve_warp, f.stretch);
    case StretchDirection::weft:
      return curve_of(f.stretch_curve_weft, fabric_stretch_weft(f));
    case StretchDirection::bias:
      break;
  }
  if (!f.stretch_curve_bias.empty() || f.stretch_bias)
    return curve_of(f.stretch_curve_bias, fabric_stretch_bias(f));
  // The mean of warp and weft, on their common knots.
  const StretchCurve warp = fabric_stretch_curve(f, StretchDirection::warp);
  const StretchCurve weft = fabric_stretch_curve(f, StretchDirection::weft);
  StretchCurve mean;
  mean.points.clear();
  for (double e : merged_knots({&warp, &weft}))
    mean.points.push_back({e, 0.5 * (warp.force(e) + weft.force(e))});
  mean.tail_slope = 0.5 * (warp.tail_slope + weft.tail_slope);
  return mean;
}

void check_stretch_curve(const std::vector<StretchPoint>& curve, const std::string& source,
                         const std::string& key) {
  const std::string where = source + ": key '" + key + "'";
  if (curve.size() < 2)
    throw InvalidInput(where + " needs at least two points [strain, force per width N/m], the first [0, 0]");
  for (std::size_t i = 0; i < curve.size(); ++i) {
    const StretchPoint& p = curve[i];
    if (!std::isfinite(p.strain) || !std::isfinite(p.force))
      throw InvalidInput(where + ": point " + std::to_string(i) + " is not finite");
    if (i == 0) {
      if (p.strain != 0 || p.force != 0)
        throw InvalidInput(where + ": the first point must be [0, 0], not " + point_text(p));
      continue;
    }
    if (!(p.strain > curve[i - 1].strain))
      throw InvalidInput(where + ": strain must increase: point " + std::to_string(i) + " " + point_text(p) +
                         " after " + point_text(curve[i - 1]));
    if (!(p.force > curve[i - 1].force))
      throw InvalidInput(where + ": not monotonic: the force must increase with the strain, point " +
                         std::to_string(i) + " " + point_text(p) + " after " + point_text(curve[i - 1]));
  }
}

StretchSegments::StretchSegments(const Fabric& f) {
  const StretchCurve cw = fabric_stretch_curve(f, StretchDirection::warp);
  const StretchCurve cf = fabric_stretch_curve(f, StretchDirection::weft);
  const StretchCurve cb = fabric_stretch_curve(f, StretchDirection::bias);
  knots = merged_knots({&cw, &cf, &cb});
  for (std::size_t j = 0; j < knots.size(); ++j) {
    // Inside segment j (its start is a knot of every curve that bends there).
    const double e = j + 1 < knots.size() ? 0.5 * (knots[j] + knots[j + 1]) : knots[j] + 1;
    warp.push_back(cw.slope(e));
    weft.push_back(cf.slope(e));
    bias.push_back(cb.slope(e));
  }
}

std::vector<double> StretchSegments::slopes_at(double cos_squared) const {
  std::vector<double> s(knots.size());
  for (std::size_t j = 0; j < knots.size(); ++j)
    s[j] = DirectionalStretch(warp[j], weft[j], bias[j]).at_cos_squared(cos_squared);
  return s;
}

double StretchSegments::minimum_slope(std::size_t j) const {
  return DirectionalStretch(warp[j], weft[j], bias[j]).minimum();
}

}  // namespace drape

#include "drape/render/colormap.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace drape {

Vec3 strain_color(double value, const StrainRange& range) {
  // Blue -> cyan -> green -> yellow -> red: the usual reading of strain maps
  // (cool = relaxed or compressed, hot = stretched).
  static constexpr std::array<Vec3, 5> stops{Vec3{0.13, 0.25, 0.85}, Vec3{0.00, 0.70, 0.90},
                                             Vec3{0.15, 0.75, 0.25}, Vec3{0.98, 0.85, 0.10},
                                             Vec3{0.85, 0.10, 0.10}};
  if (std::isnan(value)) return {0.5, 0.5, 0.5};
  const double span = range.max - range.min;
  double t = span > 0 ? (value - range.min) / span : 0.5;
  t = std::clamp(t, 0.0, 1.0);
  const double s = t * (stops.size() - 1);
  const std::size_t i = std::min<std::size_t>(static_cast<std::size_t>(s), stops.size() - 2);
  const double f = s - static_cast<double>(i);
  return stops[i] * (1 - f) + stops[i + 1] * f;
}

Vec3 srgb_to_linear(const Vec3& c) {
  auto f = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
  return {f(c.x), f(c.y), f(c.z)};
}

StrainRange auto_strain_range(std::span<const double> strain) {
  std::vector<double> v;
  v.reserve(strain.size());
  for (double s : strain)
    if (std::isfinite(s)) v.push_back(s);
  StrainRange r{0.0, 0.01};
  if (v.empty()) return r;
  std::sort(v.begin(), v.end());
  const auto pick = [&](double q) {
    return v[static_cast<std::size_t>(std::floor(q * static_cast<double>(v.size() - 1)))];
  };
  r.min = std::min(0.0, pick(0.01));
  r.max = std::max(0.01, pick(0.99));
  return r;
}

}  // namespace drape

#pragma once
// Fabric files and tensile curves for the fabric tests (cloth and fabric_lab).

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "drape/cloth/fabric.h"
#include "drape/core/exceptions.h"
#include "test_temp_dir.h"

namespace drape::test {

/// A woven fabric with a stiff warp, a softer weft and a soft bias (woven
/// cloth shears easily): cotton's weight and bending, stretch 15,600 /
/// 8,400 / 5,000 N/m along warp / weft / bias.
inline Fabric woven_fabric() {
  Fabric f = fabric_preset("cotton");
  f.name = "woven";
  f.stretch = 15600;
  f.stretch_weft = 8400;
  f.stretch_bias = 5000;
  return f;
}

/// Writes `text` to a file named `name` in the tests' temporary folder.
inline std::filesystem::path write_fabric_file(const std::string& name, const std::string& text) {
  const std::filesystem::path p = test_temp_dir() / ("drape_fabric_" + name);
  std::ofstream(p) << text;
  return p;
}

/// The message read_fabric_json throws for file p (InvalidInput), or "" when it reads.
inline std::string fabric_file_error(const std::filesystem::path& p) {
  try {
    read_fabric_json(p);
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "";
}

/// A tensile curve: (strain, force per width N/m) points from (0, 0).
using TensileCurve = std::vector<std::pair<double, double>>;

/// The curve's force at strain e: piecewise linear, the last slope continued.
inline double curve_force(const TensileCurve& c, double e) {
  for (std::size_t i = 1; i < c.size(); ++i)
    if (e <= c[i].first)
      return c[i - 1].second +
             (c[i].second - c[i - 1].second) * (e - c[i - 1].first) / (c[i].first - c[i - 1].first);
  const auto &p = c[c.size() - 2], &q = c.back();
  return q.second + (q.second - p.second) / (q.first - p.first) * (e - q.first);
}

}  // namespace drape::test

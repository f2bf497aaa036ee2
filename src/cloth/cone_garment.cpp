#include "drape/cloth/cone_garment.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace drape {

GarmentMesh open_cone_garment(int target_vertices, double r0, double r1, double y0, double y1, double cx,
                              double cz) {
  constexpr double kPi = std::numbers::pi;
  const double slant = std::hypot(r1 - r0, y0 - y1);
  const double area = kPi * (r0 + r1) * slant;
  const double h = std::sqrt(area / target_vertices);
  const int around = std::max(8, static_cast<int>(std::lround(kPi * (r0 + r1) / h)));
  const int rows = std::max(2, (target_vertices + around - 1) / around);
  GarmentMesh g;
  g.panel_names = {"skirt"};
  g.panel_regions = {body_region::all};
  for (int j = 0; j < rows; ++j) {
    const double t = static_cast<double>(j) / (rows - 1);
    const double r = r0 + (r1 - r0) * t, y = y0 + (y1 - y0) * t;
    for (int i = 0; i < around; ++i) {
      const double a = 2 * kPi * i / around;
      g.mesh.positions.push_back({cx + r * std::cos(a), y, cz - r * std::sin(a)});
      g.panel_of_vertex.push_back(0);
    }
  }
  auto id = [&](int i, int j) { return j * around + (i % around); };
  for (int j = 0; j + 1 < rows; ++j)
    for (int i = 0; i < around; ++i) {
      g.mesh.faces.push_back({id(i, j), id(i + 1, j + 1), id(i + 1, j)});
      g.mesh.faces.push_back({id(i, j), id(i, j + 1), id(i + 1, j + 1)});
    }
  return g;  // rest = placed shape
}

}  // namespace drape

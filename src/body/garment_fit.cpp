#include "drape/body/garment_fit.h"

#include <cmath>
#include <cstdio>

#include "drape/pattern/alias.h"

namespace drape {

// Sleeves, collars, hoods and cuffs go round limbs, the neck or the head, not the torso.
bool goes_round_torso(const Panel& panel) {
  switch (parse_alias(panel.alias).part) {
    case AliasPart::torso:
    case AliasPart::skirt:
    case AliasPart::leg:
    case AliasPart::waistband:
      return true;
    default:
      return false;
  }
}

namespace {

std::string cm(double m) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f cm", m * 100);
  return buf;
}

}  // namespace

double garment_girth(const Pattern& pattern, const PatternMesh& placed, double y) {
  const TriangleMesh& m = placed.garment.mesh;
  const std::vector<int>& panel_of = placed.garment.panel_of_vertex;
  double length = 0;
  for (const Triangle& t : m.faces) {
    const int panel = panel_of[static_cast<std::size_t>(t[0])];
    if (panel < 0 || !goes_round_torso(pattern.panels[static_cast<std::size_t>(panel)])) continue;
    // The section of a triangle by the plane: the points where its edges cross y.
    Vec3 ends[2];
    int n = 0;
    for (int k = 0; k < 3 && n < 2; ++k) {
      const Vec3& a = m.positions[static_cast<std::size_t>(t[k])];
      const Vec3& b = m.positions[static_cast<std::size_t>(t[(k + 1) % 3])];
      // Half-open so that a vertex exactly on the plane is counted once.
      if ((a.y < y) == (b.y < y)) continue;
      ends[n++] = a + (b - a) * ((y - a.y) / (b.y - a.y));
    }
    if (n == 2) length += norm(ends[1] - ends[0]);
  }
  return length;
}

FitReport check_fit(const Pattern& pattern, const PatternMesh& placed, const BodyMeasurements& bm,
                    const GarmentFitOptions& options) {
  const double floor = bm.frame.floor_y;
  const struct {
    const char* name;
    double girth, height;
  } levels[] = {{"bust", bm.bust, bm.bust_y}, {"waist", bm.waist, bm.waist_y}, {"hip", bm.hip, bm.hip_y}};
  FitReport report;
  for (const auto& level : levels) {
    if (!(level.girth > 0)) continue;
    GirthFit g;
    g.name = level.name;
    g.height = level.height;
    g.body = level.girth;
    g.garment = garment_girth(pattern, placed, floor + level.height);
    if (g.garment <= 0) continue;  // the garment does not reach this level
    const double needed = g.body / (1 + options.allowed_stretch);
    g.too_small = g.garment < needed;
    g.shortfall = g.too_small ? g.body - g.garment : 0;
    if (g.too_small) {
      report.fits = false;
      report.problems.push_back(g.name + ": garment " + cm(g.garment) + " round a " + cm(g.body) + " body (" +
                                cm(g.shortfall) + " short)");
    }
    report.girths.push_back(g);
  }
  return report;
}

}  // namespace drape

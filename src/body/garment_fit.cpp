#include "drape/body/garment_fit.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "drape/core/union_find.h"
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

// The length of the section of triangle t of m by the plane at height y.
double triangle_section(const TriangleMesh& m, const Triangle& t, double y) {
  Vec3 ends[2];
  int n = 0;
  for (int k = 0; k < 3 && n < 2; ++k) {
    const Vec3& a = m.positions[static_cast<std::size_t>(t[k])];
    const Vec3& b = m.positions[static_cast<std::size_t>(t[(k + 1) % 3])];
    // Half-open so that a vertex exactly on the plane is counted once.
    if ((a.y < y) == (b.y < y)) continue;
    ends[n++] = a + (b - a) * ((y - a.y) / (b.y - a.y));
  }
  return n == 2 ? norm(ends[1] - ends[0]) : 0.0;
}

// Per panel: the length of its section by the plane at height y (0 for the
// panels that do not go round the torso).
std::vector<double> panel_sections(const Pattern& pattern, const PatternMesh& placed, double y) {
  const TriangleMesh& m = placed.garment.mesh;
  const std::vector<int>& panel_of = placed.garment.panel_of_vertex;
  std::vector<double> length(pattern.panels.size(), 0.0);
  for (const Triangle& t : m.faces) {
    const int panel = panel_of[static_cast<std::size_t>(t[0])];
    if (panel < 0 || !goes_round_torso(pattern.panels[static_cast<std::size_t>(panel)])) continue;
    length[static_cast<std::size_t>(panel)] += triangle_section(m, t, y);
  }
  return length;
}

// True when the placed vertices along edge `e` of panel `p` reach below and above y.
bool edge_spans(const PatternMesh& placed, const StitchSide& side, double y) {
  bool below = false, above = false;
  for (int v : placed.panels[static_cast<std::size_t>(side.panel)]
                   .edge_vertices[static_cast<std::size_t>(side.edge)]) {
    const double vy = placed.garment.mesh.positions[static_cast<std::size_t>(v)].y;
    below = below || vy < y;
    above = above || vy >= y;
  }
  return below && above;
}

}  // namespace

double garment_girth(const Pattern& pattern, const PatternMesh& placed, double y) {
  double length = 0;
  for (double l : panel_sections(pattern, placed, y)) length += l;
  return length;
}

double opening_girth(const Pattern& pattern, const PatternMesh& placed, double* height) {
  constexpr double kBelowTop = 0.05, kStep = 0.01;  // metres
  const TriangleMesh& m = placed.garment.mesh;
  const std::vector<int>& panel_of = placed.garment.panel_of_vertex;
  const std::size_t n = pattern.panels.size();
  std::vector<double> top(n, -std::numeric_limits<double>::infinity());
  for (std::size_t v = 0; v < m.positions.size(); ++v) {
    const int p = panel_of[v];
    if (p >= 0)
      top[static_cast<std::size_t>(p)] = std::max(top[static_cast<std::size_t>(p)], m.positions[v].y);
  }
  // The ring through panel p at height y: p and the panels joined to it by
  // seams that cross y (side seams; not the waist seam below a waistband,
  // which runs along y), their sections summed.
  auto ring = [&](std::size_t p, double y) {
    const std::vector<double> section = panel_sections(pattern, placed, y);
    UnionFind rings(n);
    for (const Stitch& s : pattern.stitches)
      if (edge_spans(placed, s.a, y) && edge_spans(placed, s.b, y)) rings.unite(s.a.panel, s.b.panel);
    double girth = 0;
    for (std::size_t q = 0; q < n; ++q)
      if (rings.find(static_cast<int>(q)) == rings.find(static_cast<int>(p))) girth += section[q];
    return girth;
  };
  double best = 0, best_y = 0;
  for (std::size_t p = 0; p < n; ++p) {
    if (!goes_round_torso(pattern.panels[p]) || !std::isfinite(top[p])) continue;
    double widest = 0, widest_y = 0;  // below the top edge, where the ring is whole
    for (double d = kStep; d <= kBelowTop + 1e-9; d += kStep) {
      const double g = ring(p, top[p] - d);
      if (g > widest) widest = g, widest_y = top[p] - d;
    }
    if (widest > 0 && (best == 0 || widest < best)) best = widest, best_y = widest_y;
  }
  if (height) *height = best_y;
  return best;
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

  // Too loose: only for a garment whose top lies below the shoulders (what
  // reaches above halfway from the chest to the shoulders hangs from them).
  double garment_top = -std::numeric_limits<double>::infinity();
  for (const Vec3& p : placed.garment.mesh.positions) garment_top = std::max(garment_top, p.y);
  const BodyFrame& f = bm.frame;
  if (garment_top < f.chest_y + 0.5 * (f.shoulder_y - f.chest_y)) {
    OpeningFit o;
    double ring_y = 0;
    o.garment = opening_girth(pattern, placed, &ring_y);
    o.height = ring_y - floor;
    for (const auto& level : levels)
      if (level.girth > 0 && level.height <= o.height + 0.02 && level.girth > o.body) {
        o.body = level.girth;
        o.holds = level.name;
      }
    if (o.body == 0 && bm.hip > 0) o.body = bm.hip, o.holds = "hip";  // a ring below the hip
    if (o.garment > 0 && o.body > 0) {
      o.too_loose = o.garment > o.body * (1 + options.allowed_looseness);
      if (o.too_loose) {
        report.fits = false;
        report.problems.push_back("too loose to stay up: its opening is " + cm(o.garment) +
                                  " round, wider than the body's " + o.holds + " below it (" + cm(o.body) +
                                  ")");
      }
      report.opening = o;
    }
  }
  return report;
}

}  // namespace drape

#pragma once
// The grading map's pieces shared by pattern_grading.cpp and
// grading_edge_split.cpp (private to the body module).

#include <utility>
#include <vector>

#include "drape/body/pattern_grading.h"
#include "drape/pattern/pattern.h"

namespace drape {

// The factor field F(h) over height above the floor: knots (height, factor)
// sorted by height; constant outside, smoothstep between knots.
struct FactorField {
  std::vector<double> h, f;

  // Bone weights of height y: one bone outside the knots, the two bracketing it inside.
  std::vector<std::pair<int, double>> weights(double y) const {
    const int n = static_cast<int>(h.size());
    if (y <= h.front()) return {{0, 1.0}};
    if (y >= h.back()) return {{n - 1, 1.0}};
    int k = 0;
    while (k + 2 < n && y > h[static_cast<std::size_t>(k + 1)]) ++k;
    const double t = (y - h[static_cast<std::size_t>(k)]) /
                     (h[static_cast<std::size_t>(k + 1)] - h[static_cast<std::size_t>(k)]);
    const double s = t * t * (3 - 2 * t);
    return {{k, 1 - s}, {k + 1, s}};
  }
  double at(double y) const {
    double out = 0;
    for (const auto& [k, w] : weights(y)) out += f[static_cast<std::size_t>(k)] * w;
    return out;
  }
};

// A panel's grading frame: height above the floor h(p) = dot(g, p) + h0 in
// panel coordinates, up u = g / |g|, across v = perp(u), centre c.
struct PanelFrame {
  Vec2 g, u, v, c;
  double h0 = 0;
  double height(Vec2 p) const { return dot(g, p) + h0; }
  // The height the field is read at for an edge's point at parameter t: along
  // the edge's chord. A curved edge's bulge in the flat pattern is not a
  // change of height on the body (a circle skirt's waist arc is level when
  // worn), so the edge is scaled as its ends are and the two sides of a seam,
  // one curved and one straight, stay the same length.
  double edge_height(const EdgeGeometry& e, double t) const {
    return (1 - t) * height(e.p0) + t * height(e.p1);
  }
};

// Splits the graded panels' edges that run up the body across a peak of the
// factor field (a bust graded wider than the waist below and the shoulders
// above) at the height of each knot inside them where the field bends, each
// with its sewn partner (split_edge), so that each piece follows the field
// with one cubic. frames[p] is panel p's frame (with its seam height shift);
// graded[p] marks the panels graded. Returns the number of edges split.
int split_edges_at_field_knots(Pattern& pattern, const std::vector<PanelFrame>& frames,
                               const std::vector<char>& graded, const FactorField& field);

// Panels left ungraded but sewn to graded ones (sleeve caps to armholes)
// follow: each is stretched uniformly along the chord of its longest such
// edge, by the factor (bisection) that gives those edges together the lengths
// that keep their seams' length ratios. `original` is r.source's pattern
// before grading; r.graded_panels lists the panels graded (followers are added).
void follow_graded_neighbours(const Pattern& original, GradingResult& r);

}  // namespace drape

// Where grading splits edges: one cubic per edge cannot follow a factor that
// is level, then rises, then falls again along it (a top's side seam from the
// hem past the waist and a bust graded by 1.3 to an armhole near 1), so such
// an edge gets an outline vertex at the height of each knot up to the peak;
// the bline deformation places those vertices exactly and each piece is
// fitted on its own.

#include <algorithm>
#include <cmath>

#include "drape/pattern/edge_split.h"
#include "grading_field.h"

namespace drape {

namespace {

// An edge runs up the body when its chord is within 45 degrees of the panel's up.
constexpr double kRunsUpCosine = 0.7071;
// A knot this close in height to either end of an edge is left to the end's vertex (m).
constexpr double kEndMargin = 0.02;
// Factors that differ by less than this are level.
constexpr double kLevel = 1e-3;

// The knots where the field bends: the smoothstep between knots has zero
// slope at each, so a knot with a different factor on either side (or, at
// the ends, inside: the field is constant outside) is where the map's shape
// along an edge changes. Between two knots the map of a straight edge
// running up is one cubic (x f(h), f a smoothstep), so one Bezier holds it.
struct Knot {
  double height;
  bool peak;  // the field falls (or rises) on both sides: one cubic cannot follow it across
};
std::vector<Knot> bend_knots(const FactorField& field) {
  std::vector<Knot> out;
  const std::size_t n = field.h.size();
  for (std::size_t k = 0; k < n; ++k) {
    const double below = k > 0 ? field.f[k] - field.f[k - 1] : 0;
    const double above = k + 1 < n ? field.f[k + 1] - field.f[k] : 0;
    if (std::abs(below) > kLevel || std::abs(above) > kLevel)
      out.push_back(
          {field.h[k], std::abs(below) > kLevel && std::abs(above) > kLevel && (below > 0) != (above > 0)});
  }
  return out;
}

// Arc-length fraction of edge g's point at height `knot` in frame pf, or -1
// when the knot is not inside the edge's height span by kEndMargin.
double fraction_at_height(const EdgeGeometry& g, const PanelFrame& pf, double knot) {
  const double h0 = pf.height(g.p0), h1 = pf.height(g.p1);
  if (knot <= std::min(h0, h1) + kEndMargin || knot >= std::max(h0, h1) - kEndMargin) return -1;
  double lo = 0, hi = 1;  // the ends bracket the knot
  for (int it = 0; it < 50; ++it) {
    const double m = 0.5 * (lo + hi);
    ((pf.height(g.point(m)) < knot) == (h0 < h1) ? lo : hi) = m;
  }
  return length_fraction_at_parameter(g, 0.5 * (lo + hi));
}

// Whether edge `edge` of panel `panel` is sewn to a panel that is not graded.
bool sewn_to_ungraded(const Pattern& pattern, const std::vector<char>& graded, int panel, int edge) {
  for (const int k : stitches_of_edge(pattern, panel, edge)) {
    const Stitch& st = pattern.stitches[static_cast<std::size_t>(k)];
    const StitchSide& other = (st.a.panel == panel && st.a.edge == edge) ? st.b : st.a;
    if (!graded[static_cast<std::size_t>(other.panel)]) return true;
  }
  return false;
}

}  // namespace

int split_edges_at_field_knots(Pattern& pattern, const std::vector<PanelFrame>& frames,
                               const std::vector<char>& graded, const FactorField& field) {
  const std::vector<Knot> knots = bend_knots(field);
  if (std::none_of(knots.begin(), knots.end(), [](const Knot& k) { return k.peak; })) return 0;
  int splits = 0;
  for (std::size_t p = 0; p < pattern.panels.size(); ++p) {
    if (!graded[p]) continue;
    const PanelFrame& pf = frames[p];
    // An edge split here becomes edges e and e + 1, both ending at the knot's
    // height: neither splits there again, so the scan goes on from e.
    int budget = 2 * static_cast<int>(pattern.panels[p].edges.size() * knots.size());
    for (int e = 0; e < static_cast<int>(pattern.panels[p].edges.size()) && budget > 0; ++e) {
      const EdgeGeometry g = edge_geometry(pattern.panels[p], e);
      const Vec2 chord = g.p1 - g.p0;
      if (std::abs(dot(chord, pf.u)) < kRunsUpCosine * norm(chord)) continue;
      // A panel that follows its graded neighbours by one stretch (a sleeve
      // sewn to an armhole) matches one edge per seam, not pieces.
      if (sewn_to_ungraded(pattern, graded, static_cast<int>(p), e)) continue;
      // Only a piece across a peak is split, at its lowest knot: an edge is
      // cut at each knot from below up to the peak. Where the field only
      // rises or falls along a piece one cubic follows it closely, and the
      // outline is left as it was.
      std::vector<double> at(knots.size());  // fraction along g at each knot, -1 outside
      bool crosses_peak = false;
      for (std::size_t i = 0; i < knots.size(); ++i) {
        at[i] = fraction_at_height(g, pf, knots[i].height);
        crosses_peak = crosses_peak || (knots[i].peak && at[i] >= 0);
      }
      if (!crosses_peak) continue;
      for (std::size_t i = 0; i < knots.size(); ++i) {
        const double knot = knots[i].height;
        const double s = at[i];
        if (s < 0) continue;
        // Both sides of a seam between graded panels split where each
        // reaches the knot, so the two split vertices take the same factor
        // and each piece keeps its length ratio (the seam's points between
        // are sewn within a few millimetres of where they were); otherwise
        // the partner splits at the point sewn to this one.
        bool split = false;
        if (const std::vector<int> sewn = stitches_of_edge(pattern, static_cast<int>(p), e);
            sewn.size() == 1) {
          const int st_index = sewn.front();
          const Stitch& st = pattern.stitches[static_cast<std::size_t>(st_index)];
          const bool on_a = st.a.panel == static_cast<int>(p) && st.a.edge == e;
          const StitchSide other = on_a ? st.b : st.a;
          const double so = fraction_at_height(
              edge_geometry(pattern.panels[static_cast<std::size_t>(other.panel)], other.edge),
              frames[static_cast<std::size_t>(other.panel)], knot);
          if (so >= 0) split = split_stitch(pattern, st_index, on_a ? s : so, on_a ? so : s);
        }
        if (!split) split = split_edge(pattern, static_cast<int>(p), e, s);
        if (split) {
          ++splits;
          --budget;
          --e;  // scan the first half again (it may cross another knot)
          break;
        }
      }
    }
  }
  return splits;
}

}  // namespace drape

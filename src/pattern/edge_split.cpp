#include "drape/pattern/edge_split.h"

#include <cmath>
#include <numbers>

namespace drape {

namespace {

// Length of g from parameter 0 to t: composite Simpson over 64 pieces of
// |dp/dt| (a cubic's speed is smooth: far below 1e-6 relative error).
double length_to(const EdgeGeometry& g, double t) {
  constexpr int kPieces = 64;
  const double h = t / kPieces;
  double sum = 0;
  for (int i = 0; i <= kPieces; ++i) {
    const double w = (i == 0 || i == kPieces) ? 1 : (i % 2 ? 4 : 2);
    sum += w * norm(g.derivative(i * h));
  }
  return sum * h / 3;
}

Vec2 lerp(Vec2 a, Vec2 b, double t) { return a + (b - a) * t; }

// The two halves of edge `ed` (geometry g) split at curve parameter t, where
// the new outline vertex `mid` is (its index in the panel).
std::pair<PanelEdge, PanelEdge> halves(const PanelEdge& ed, const EdgeGeometry& g, double t, int mid) {
  PanelEdge first = ed, second = ed;
  first.end = mid;
  second.start = mid;
  switch (ed.curve) {
    case EdgeCurve::line:
      break;
    case EdgeCurve::quadratic: {  // de Casteljau
      first.c1 = lerp(g.p0, g.c1, t);
      second.c1 = lerp(g.c1, g.p1, t);
      break;
    }
    case EdgeCurve::cubic: {
      const Vec2 a = lerp(g.p0, g.c1, t), b = lerp(g.c1, g.c2, t), c = lerp(g.c2, g.p1, t);
      const Vec2 ab = lerp(a, b, t), bc = lerp(b, c, t);
      first.c1 = a;
      first.c2 = ab;
      second.c1 = bc;
      second.c2 = c;
      break;
    }
    case EdgeCurve::arc: {
      // Both halves lie on the same circle and run the same way round it, so
      // each bulges to the same side of its chord as the whole arc does.
      first.radius = second.radius = g.radius;
      first.large_arc = std::abs(t * g.sweep) > std::numbers::pi;
      second.large_arc = std::abs((1 - t) * g.sweep) > std::numbers::pi;
      break;
    }
  }
  return {first, second};
}

// Splits edge e of panel p at curve parameter t; renumbers the stitch sides
// that name later edges of p.
void split_at_parameter(Pattern& pattern, int p, int e, double t) {
  Panel& panel = pattern.panels[static_cast<std::size_t>(p)];
  const EdgeGeometry g = edge_geometry(panel, e);
  const int mid = static_cast<int>(panel.vertices.size());
  panel.vertices.push_back(g.point(t));
  auto [first, second] = halves(panel.edges[static_cast<std::size_t>(e)], g, t, mid);
  panel.edges[static_cast<std::size_t>(e)] = first;
  panel.edges.insert(panel.edges.begin() + e + 1, second);
  for (Stitch& st : pattern.stitches)
    for (StitchSide* side : {&st.a, &st.b})
      if (side->panel == p && side->edge > e) ++side->edge;
}

}  // namespace

std::vector<int> stitches_of_edge(const Pattern& pattern, int panel, int edge) {
  std::vector<int> found;
  for (std::size_t k = 0; k < pattern.stitches.size(); ++k) {
    const Stitch& st = pattern.stitches[k];
    if ((st.a.panel == panel && st.a.edge == edge) || (st.b.panel == panel && st.b.edge == edge))
      found.push_back(static_cast<int>(k));
  }
  return found;
}

double parameter_at_length_fraction(const EdgeGeometry& g, double s) {
  if (g.curve == EdgeCurve::line || g.curve == EdgeCurve::arc) return s;
  const double target = s * length_to(g, 1.0);
  double lo = 0, hi = 1;
  for (int it = 0; it < 50; ++it) {
    const double m = 0.5 * (lo + hi);
    (length_to(g, m) < target ? lo : hi) = m;
  }
  return 0.5 * (lo + hi);
}

double length_fraction_at_parameter(const EdgeGeometry& g, double t) {
  if (g.curve == EdgeCurve::line || g.curve == EdgeCurve::arc) return t;
  return length_to(g, t) / length_to(g, 1.0);
}

bool split_edge(Pattern& pattern, int panel, int edge, double s) {
  if (!(s > 0 && s < 1)) return false;
  const std::vector<int> sewn = stitches_of_edge(pattern, panel, edge);
  if (sewn.size() > 1) return false;
  if (sewn.empty()) {
    const EdgeGeometry g = edge_geometry(pattern.panels[static_cast<std::size_t>(panel)], edge);
    split_at_parameter(pattern, panel, edge, parameter_at_length_fraction(g, s));
    return true;
  }
  const int stitch = sewn.front();
  const Stitch& st = pattern.stitches[static_cast<std::size_t>(stitch)];
  const bool on_a = st.a.panel == panel && st.a.edge == edge;
  // Side a's fraction s_a is sewn to side b's 1 - s_a (end meets start), or
  // to s_a with right_wrong (start meets start).
  const double s_other = st.right_wrong ? s : 1 - s;
  return split_stitch(pattern, stitch, on_a ? s : s_other, on_a ? s_other : s);
}

bool split_stitch(Pattern& pattern, int stitch, double s_a, double s_b) {
  if (stitch < 0 || stitch >= static_cast<int>(pattern.stitches.size())) return false;
  if (!(s_a > 0 && s_a < 1 && s_b > 0 && s_b < 1)) return false;
  Stitch st = pattern.stitches[static_cast<std::size_t>(stitch)];
  if (st.a.panel == st.b.panel && st.a.edge == st.b.edge) return false;
  if (stitches_of_edge(pattern, st.a.panel, st.a.edge).size() > 1 ||
      stitches_of_edge(pattern, st.b.panel, st.b.edge).size() > 1)
    return false;
  const EdgeGeometry ga = edge_geometry(pattern.panels[static_cast<std::size_t>(st.a.panel)], st.a.edge);
  const EdgeGeometry gb = edge_geometry(pattern.panels[static_cast<std::size_t>(st.b.panel)], st.b.edge);
  const double ta = parameter_at_length_fraction(ga, s_a), tb = parameter_at_length_fraction(gb, s_b);
  // On one panel, split the later edge first; the earlier one's split then
  // moves it up by one.
  const bool a_later = st.a.panel != st.b.panel || st.a.edge > st.b.edge;
  StitchSide& later = a_later ? st.a : st.b;
  StitchSide& earlier = a_later ? st.b : st.a;
  split_at_parameter(pattern, later.panel, later.edge, a_later ? ta : tb);
  split_at_parameter(pattern, earlier.panel, earlier.edge, a_later ? tb : ta);
  if (st.a.panel == st.b.panel) ++later.edge;
  // Halves: a1 (a's start to the split), a2; b1, b2 likewise. End meets
  // start: a2 (ending at a's end) with b1 (starting at b's start), a1 with
  // b2. Start meets start: a1 with b1, a2 with b2.
  const StitchSide a1 = st.a, a2{st.a.panel, st.a.edge + 1};
  const StitchSide b1 = st.b, b2{st.b.panel, st.b.edge + 1};
  Stitch first = st, second = st;
  first.continues_seam = second.continues_seam = true;
  first.a = a1;
  first.b = st.right_wrong ? b1 : b2;
  second.a = a2;
  second.b = st.right_wrong ? b2 : b1;
  pattern.stitches[static_cast<std::size_t>(stitch)] = first;
  pattern.stitches.insert(pattern.stitches.begin() + stitch + 1, second);
  return true;
}

}  // namespace drape

#include "drape/pattern/pattern.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <sstream>

#include "drape/core/exceptions.h"
#include "outline_check.h"

namespace drape {

std::string source_frame_name(SourceFrame f) {
  switch (f) {
    case SourceFrame::garmentcode:
      return "garmentcode";
    case SourceFrame::gpg:
      return "gpg";
    default:
      return "none";
  }
}

int Pattern::find_panel(const std::string& n) const {
  for (std::size_t i = 0; i < panels.size(); ++i)
    if (panels[i].name == n) return static_cast<int>(i);
  return -1;
}

namespace {
// 16-point Gauss-Legendre on [0, 1]: exact for polynomials up to degree 31.
constexpr std::array<double, 8> kGlX = {0.0950125098376374, 0.2816035507792589, 0.4580167776572274,
                                        0.6178762444026438, 0.7554044083550030, 0.8656312023878318,
                                        0.9445750230732326, 0.9894009349916499};
constexpr std::array<double, 8> kGlW = {0.1894506104550685, 0.1826034150449236, 0.1691565193950025,
                                        0.1495959888165767, 0.1246289712555339, 0.0951585116824928,
                                        0.0622535239386479, 0.0271524594117541};

template <class F>
double gauss01(F&& f, double a, double b) {
  const double h = 0.5 * (b - a), m = 0.5 * (a + b);
  double s = 0;
  for (int i = 0; i < 8; ++i) s += kGlW[i] * (f(m - h * kGlX[i]) + f(m + h * kGlX[i]));
  return s * h;
}

std::string where(const Panel& p, int e) { return "panel '" + p.name + "' edge " + std::to_string(e); }
}  // namespace

Vec2 EdgeGeometry::point(double t) const {
  const double s = 1 - t;
  switch (curve) {
    case EdgeCurve::line:
      return p0 * s + p1 * t;
    case EdgeCurve::quadratic:
      return p0 * (s * s) + c1 * (2 * s * t) + p1 * (t * t);
    case EdgeCurve::cubic:
      return p0 * (s * s * s) + c1 * (3 * s * s * t) + c2 * (3 * s * t * t) + p1 * (t * t * t);
    case EdgeCurve::arc: {
      if (t <= 0) return p0;
      if (t >= 1) return p1;
      const double a = angle0 + sweep * t;
      return centre + Vec2{std::cos(a), std::sin(a)} * radius;
    }
  }
  return p0;
}

Vec2 EdgeGeometry::derivative(double t) const {
  const double s = 1 - t;
  switch (curve) {
    case EdgeCurve::line:
      return p1 - p0;
    case EdgeCurve::quadratic:
      return (c1 - p0) * (2 * s) + (p1 - c1) * (2 * t);
    case EdgeCurve::cubic:
      return (c1 - p0) * (3 * s * s) + (c2 - c1) * (6 * s * t) + (p1 - c2) * (3 * t * t);
    case EdgeCurve::arc: {
      const double a = angle0 + sweep * t;
      return Vec2{-std::sin(a), std::cos(a)} * (radius * sweep);
    }
  }
  return {};
}

double EdgeGeometry::length() const {
  if (curve == EdgeCurve::line) return norm(p1 - p0);
  if (curve == EdgeCurve::arc) return radius * std::abs(sweep);
  // Speed is not polynomial: integrate piecewise.
  double l = 0;
  constexpr int kPieces = 8;
  for (int i = 0; i < kPieces; ++i)
    l += gauss01([&](double t) { return norm(derivative(t)); }, double(i) / kPieces, double(i + 1) / kPieces);
  return l;
}

double EdgeGeometry::area_integral() const {
  switch (curve) {
    case EdgeCurve::line:
      return 0.5 * cross(p0, p1);
    case EdgeCurve::arc: {
      // Chord term plus the signed circular segment between arc and chord.
      const double th = std::abs(sweep);
      const double seg = 0.5 * radius * radius * (th - std::sin(th));
      return 0.5 * cross(p0, p1) + (sweep > 0 ? seg : -seg);
    }
    default:
      // cross(B, B') is a polynomial of degree <= 5: Gauss-Legendre is exact.
      return 0.5 * gauss01([&](double t) { return cross(point(t), derivative(t)); }, 0.0, 1.0);
  }
}

std::vector<double> EdgeGeometry::uniform_parameters(int n) const {
  n = std::max(n, 1);
  std::vector<double> ts(n + 1);
  if (curve == EdgeCurve::line || curve == EdgeCurve::arc) {
    for (int i = 0; i <= n; ++i) ts[i] = double(i) / n;
    ts[n] = 1.0;
    return ts;
  }
  // Cumulative arc-length table, then invert by interpolation + Newton steps.
  constexpr int kTable = 128;
  std::array<double, kTable + 1> cum{};
  for (int i = 0; i < kTable; ++i)
    cum[i + 1] = cum[i] + gauss01([&](double t) { return norm(derivative(t)); }, double(i) / kTable,
                                  double(i + 1) / kTable);
  const double total = cum[kTable];
  ts[0] = 0;
  ts[n] = 1;
  int k = 0;
  for (int i = 1; i < n; ++i) {
    const double target = total * i / n;
    while (k < kTable - 1 && cum[k + 1] < target) ++k;
    const double seg = cum[k + 1] - cum[k];
    double t = (k + (seg > 0 ? (target - cum[k]) / seg : 0.0)) / kTable;
    for (int it = 0; it < 3; ++it) {
      const double lo = double(k) / kTable;
      const double l = cum[k] + gauss01([&](double u) { return norm(derivative(u)); }, lo, t);
      const double sp = norm(derivative(t));
      if (sp <= 0) break;
      t = std::clamp(t - (l - target) / sp, 0.0, 1.0);
    }
    ts[i] = t;
  }
  return ts;
}

std::vector<Vec2> EdgeGeometry::sample_uniform(int n) const {
  const std::vector<double> ts = uniform_parameters(n);
  std::vector<Vec2> pts(ts.size());
  for (std::size_t i = 0; i < ts.size(); ++i) pts[i] = point(ts[i]);
  pts.front() = p0;
  pts.back() = p1;
  return pts;
}

double EdgeGeometry::chord_deviation(int n) const {
  if (curve == EdgeCurve::line) return 0;
  if (curve == EdgeCurve::arc) {
    const double half = std::abs(sweep) / (2.0 * std::max(n, 1));
    return radius * (1 - std::cos(half));
  }
  const std::vector<double> ts = uniform_parameters(n);
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    const Vec2 a = point(ts[i]), b = point(ts[i + 1]);
    const Vec2 d = b - a;
    const double l2 = dot(d, d);
    for (int k = 1; k < 4; ++k) {
      const Vec2 q = point(ts[i] + (ts[i + 1] - ts[i]) * k / 4.0);
      const double u = l2 > 0 ? std::clamp(dot(q - a, d) / l2, 0.0, 1.0) : 0.0;
      worst = std::max(worst, norm(q - (a + d * u)));
    }
  }
  return worst;
}

EdgeGeometry edge_geometry(const Panel& p, int e) {
  const PanelEdge& ed = p.edges.at(e);
  EdgeGeometry g;
  g.curve = ed.curve;
  g.p0 = p.vertices.at(ed.start);
  g.p1 = p.vertices.at(ed.end);
  g.c1 = ed.c1;
  g.c2 = ed.c2;
  const Vec2 chord = g.p1 - g.p0;
  const double c = norm(chord);
  if (!(c > 1e-9)) throw InvalidInput(where(p, e) + ": zero-length edge (start and end coincide)");
  if (ed.curve == EdgeCurve::arc) {
    if (!(ed.radius > 0) || !std::isfinite(ed.radius))
      throw InvalidInput(where(p, e) + ": circle arc radius must be positive and finite");
    // GarmentCode tolerates a radius a hair below half the chord: a half circle.
    const double r = std::max(ed.radius, 0.5 * c);
    const double d = std::sqrt(std::max(r * r - 0.25 * c * c, 0.0));
    const Vec2 left = perp(chord) / c;
    const double side = ed.right ? -1.0 : 1.0;      // bulge direction along `left`
    const double h = ed.large_arc ? r + d : r - d;  // sagitta
    const Vec2 mid = (g.p0 + g.p1) * 0.5 + left * (side * h);
    g.centre = mid - left * (side * r);
    g.radius = r;
    g.angle0 = std::atan2(g.p0.y - g.centre.y, g.p0.x - g.centre.x);
    const double a1 = std::atan2(g.p1.y - g.centre.y, g.p1.x - g.centre.x);
    const double am = std::atan2(mid.y - g.centre.y, mid.x - g.centre.x);
    // Choose the direction whose path passes through the bulge point `mid`.
    double ccw = a1 - g.angle0;
    while (ccw <= 0) ccw += 2 * std::numbers::pi;
    double to_mid = am - g.angle0;
    while (to_mid < 0) to_mid += 2 * std::numbers::pi;
    g.sweep = to_mid <= ccw ? ccw : ccw - 2 * std::numbers::pi;
  }
  return g;
}

double panel_signed_area(const Panel& p) {
  double a = 0;
  for (std::size_t e = 0; e < p.edges.size(); ++e) a += edge_geometry(p, static_cast<int>(e)).area_integral();
  return a;
}

double edge_length(const Panel& p, int e) { return edge_geometry(p, e).length(); }

namespace {

// A garment panel is at most a few metres across. Far larger coordinates (a
// unit mix-up, a corrupt file) would make the outline checks and the meshers
// ask for more points than memory holds: they are refused here, naming the
// element, before any of that runs.
constexpr double kMaxPanelSpan = 20;    // metres between any two vertices of a panel
constexpr double kMaxEdgeLength = 100;  // metres along one edge (a curve may wind)
constexpr const char* kSizeHint = "check the coordinates and properties.units_in_meter";

std::string metres(double v) {
  std::ostringstream s;
  s.precision(3);
  s << v << " m";
  return s.str();
}

}  // namespace

void validate_pattern(const Pattern& pat) {
  const std::string src = pat.source.empty() ? std::string("pattern") : pat.source;
  if (pat.panels.empty()) throw InvalidInput(src + ": the pattern has no panels");
  for (const Panel& p : pat.panels) {
    const std::string pn = src + ": panel '" + p.name + "'";
    if (p.edges.size() < 2) throw InvalidInput(pn + ": an outline needs at least two edges");
    for (std::size_t v = 0; v < p.vertices.size(); ++v)
      if (!is_finite(p.vertices[v]))
        throw InvalidInput(pn + " vertex " + std::to_string(v) + ": coordinate is NaN or infinite");
    for (std::size_t v = 1; v < p.vertices.size(); ++v) {
      const Vec2 d = p.vertices[v] - p.vertices[0];
      const double far = std::max(std::abs(d.x), std::abs(d.y));
      if (!(far <= kMaxPanelSpan))
        throw InvalidInput(pn + " vertex " + std::to_string(v) + ": lies " + metres(far) +
                           " from vertex 0, but a panel must fit in " + metres(kMaxPanelSpan) + " (" +
                           kSizeHint + ")");
    }
    if (p.has_placement && (!is_finite(p.translation) || !is_finite(p.rotation_deg)))
      throw InvalidInput(pn + ": translation or rotation is NaN or infinite");
    const int nv = static_cast<int>(p.vertices.size());
    for (std::size_t e = 0; e < p.edges.size(); ++e) {
      const PanelEdge& ed = p.edges[e];
      const std::string pe = src + ": " + where(p, static_cast<int>(e));
      if (ed.start < 0 || ed.start >= nv || ed.end < 0 || ed.end >= nv)
        throw InvalidInput(pe + ": endpoint index out of range (panel has " + std::to_string(nv) +
                           " vertices)");
      if (!is_finite(ed.c1) || !is_finite(ed.c2) || !std::isfinite(ed.radius))
        throw InvalidInput(pe + ": curvature is NaN or infinite");
      const PanelEdge& next = p.edges[(e + 1) % p.edges.size()];
      if (ed.end != next.start && norm(p.vertices[ed.end] - p.vertices[next.start]) > 1e-9)
        throw InvalidInput(pe + ": outline is open: edge ends at vertex " + std::to_string(ed.end) +
                           " but edge " + std::to_string((e + 1) % p.edges.size()) + " starts at vertex " +
                           std::to_string(next.start));
      double length = 0;
      try {
        length = edge_geometry(p, static_cast<int>(e)).length();
      } catch (const InvalidInput& x) {
        throw InvalidInput(src + ": " + x.what());
      }
      if (!(length <= kMaxEdgeLength))
        throw InvalidInput(pe + ": is " + metres(length) + " long, but no panel edge is longer than " +
                           metres(kMaxEdgeLength) + " (" + kSizeHint + ")");
    }
    // Self-intersection: a fine polyline of the outline must be simple.
    std::vector<Vec2> poly;
    std::vector<int> owner;
    for (std::size_t e = 0; e < p.edges.size(); ++e) {
      const EdgeGeometry g = edge_geometry(p, static_cast<int>(e));
      const int n =
          g.curve == EdgeCurve::line ? 1 : std::clamp(static_cast<int>(g.length() / 1e-3), 32, 4096);
      const std::vector<double> ts = g.uniform_parameters(n);
      for (int i = 0; i < n; ++i) {
        poly.push_back(g.point(ts[i]));
        owner.push_back(static_cast<int>(e));
      }
    }
    if (const auto [i, j] = detail::find_self_intersection(poly); i >= 0)
      throw InvalidInput(src + ": " + where(p, owner[i]) + " crosses edge " + std::to_string(owner[j]) +
                         ": the outline intersects itself");
    if (std::abs(panel_signed_area(p)) < 1e-8) throw InvalidInput(pn + ": outline encloses no area");
  }
  for (std::size_t s = 0; s < pat.stitches.size(); ++s) {
    const Stitch& st = pat.stitches[s];
    for (const StitchSide& side : {st.a, st.b}) {
      if (side.panel < 0 || side.panel >= static_cast<int>(pat.panels.size()))
        throw InvalidInput(src + ": stitch " + std::to_string(s) + ": panel index out of range");
      const Panel& p = pat.panels[side.panel];
      if (side.edge < 0 || side.edge >= static_cast<int>(p.edges.size()))
        throw InvalidInput(src + ": stitch " + std::to_string(s) + ": panel '" + p.name + "' edge " +
                           std::to_string(side.edge) + " out of range (panel has " +
                           std::to_string(p.edges.size()) + " edges)");
    }
    if (st.a.panel == st.b.panel && st.a.edge == st.b.edge)
      throw InvalidInput(src + ": stitch " + std::to_string(s) + ": panel '" + pat.panels[st.a.panel].name +
                         "' edge " + std::to_string(st.a.edge) + " is stitched to itself");
  }
}

}  // namespace drape

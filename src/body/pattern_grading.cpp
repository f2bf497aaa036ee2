#include "drape/body/pattern_grading.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "drape/core/exceptions.h"
#include "drape/core/union_find.h"
#include "drape/pattern/alias.h"
#include "drape/pattern/mesher.h"
#include "drape/rig/spline_tangents.h"
#include "edge_cubic_fit.h"
#include "grading_field.h"

namespace drape {

namespace {

std::string percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", x * 100);
  return buf;
}

}  // namespace

double SeamLengthChange::mismatch() const {
  if (!(before_a > 0 && before_b > 0 && after_b > 0)) return 0;
  return std::abs((after_a / after_b) / (before_a / before_b) - 1);
}

void GradingResult::compare_seams() {
  seams.clear();
  max_seam_mismatch = 0;
  for (std::size_t s = 0; s < source.stitches.size(); ++s) {
    const Stitch& st = source.stitches[s];
    SeamLengthChange c;
    c.stitch = static_cast<int>(s);
    c.before_a = edge_length(source.panels[static_cast<std::size_t>(st.a.panel)], st.a.edge);
    c.before_b = edge_length(source.panels[static_cast<std::size_t>(st.b.panel)], st.b.edge);
    c.after_a = edge_length(pattern.panels[static_cast<std::size_t>(st.a.panel)], st.a.edge);
    c.after_b = edge_length(pattern.panels[static_cast<std::size_t>(st.b.panel)], st.b.edge);
    seams.push_back(c);
    max_seam_mismatch = std::max(max_seam_mismatch, c.mismatch());
    if (c.mismatch() > kGradingSeamTolerance)
      warnings.push_back(
          "grading: stitch " + std::to_string(s) + " (" +
          source.panels[static_cast<std::size_t>(st.a.panel)].name + " edge " + std::to_string(st.a.edge) +
          " - " + source.panels[static_cast<std::size_t>(st.b.panel)].name + " edge " +
          std::to_string(st.b.edge) + "): sides' length ratio changed by " + percent(c.mismatch()));
  }
}

GradingResult GradingResult::ungraded(const Pattern& pattern, std::vector<GradeLevel> levels) {
  GradingResult r;
  r.pattern = pattern;
  r.source = pattern;
  r.levels = std::move(levels);
  for (GradeLevel& l : r.levels) l.factor = 1, l.drop = 0;
  r.compare_seams();
  return r;
}

double narrowed_opening_need(const FitReport& fit, double ease) {
  if (!fit.opening) return 0;
  double girth = fit.opening->body_at_ring;
  for (const std::vector<GirthFit>* list : {&fit.girths, &fit.unread})
    for (const GirthFit& g : *list)
      if (g.name == "waist" && g.body > 0) girth = std::max(girth, g.body);
  const double need = girth * (1 + ease);
  return girth > 0 && need < fit.opening->body ? need : 0;
}

namespace {

// A level as the fit check read it: name, height, body's and garment's girths.
GradeLevel level_of(const GirthFit& g) {
  GradeLevel l;
  l.name = g.name;
  l.height = g.height;
  l.body = g.body;
  l.garment = g.garment;
  return l;
}

}  // namespace

std::vector<GradeLevel> grading_levels(const FitReport& fit, const GradingOptions& options) {
  // Grading is a factor field over height: only the torso levels feed it (the
  // limb levels, thigh and upper arm, are checked, not graded).
  auto torso = [](const GirthFit& g) { return g.name == "bust" || g.name == "waist" || g.name == "hip"; };
  // The level a too-loose garment is narrowed at: the one nearest its opening ring.
  const GirthFit* narrow = nullptr;
  if (fit.opening && fit.opening->too_loose)
    for (const GirthFit& g : fit.girths)
      if (torso(g) && g.garment > 0 && g.body > 0 &&
          (!narrow ||
           std::abs(g.height - fit.opening->height) < std::abs(narrow->height - fit.opening->height)))
        narrow = &g;
  const double opening_need = narrowed_opening_need(fit, options.ease);
  std::vector<GradeLevel> levels;
  for (const GirthFit& g : fit.girths) {
    if (!torso(g) || !(g.garment > 0 && g.body > 0)) continue;
    GradeLevel l = level_of(g);
    l.target = g.body * (1 + options.ease);
    l.narrowed = &g == narrow && l.target < g.garment;
    if (l.narrowed) l.target = std::min(l.target, fit.opening->body);
    l.factor = l.target / g.garment;
    // The opening ring lies above the level and can be narrower than it (a
    // curved waist seam), and the body where it sits wider than at the
    // level: graded by the level's factor it could end too small to close
    // (a GPG skirt on a thin-waisted mannequin: 45.5 cm where the body is
    // 50.4 cm round at its narrowest, its side seams' tops started inside
    // the body). The level is then graded so that the opening meets
    // narrowed_opening_need.
    if (l.narrowed && opening_need > 0 && fit.opening->garment > 0) {
      const double open_factor = opening_need / fit.opening->garment;
      if (open_factor > l.factor) {
        l.factor = open_factor;
        l.target = open_factor * g.garment;
      }
    }
    if (!options.shrink && !l.narrowed) l.factor = std::max(1.0, l.factor);
    if (l.factor > kMaxGradingFactor) {
      l.out_of_range = true;
      l.factor = 1;
    }
    levels.push_back(l);
  }
  // Unread levels between the levels read hold the field at 1 there.
  if (!levels.empty()) {
    const auto [lo, hi] =
        std::minmax_element(levels.begin(), levels.end(),
                            [](const GradeLevel& a, const GradeLevel& b) { return a.height < b.height; });
    const double low = lo->height, high = hi->height;
    for (const GirthFit& g : fit.unread) {
      // (Not one read as another level of that name: a waist judged at the opening.)
      const bool read =
          std::any_of(levels.begin(), levels.end(), [&](const GradeLevel& l) { return l.name == g.name; });
      if (!torso(g) || !(g.body > 0) || g.height <= low || g.height >= high || read) continue;
      GradeLevel l = level_of(g);  // (garment 0: unread)
      l.target = g.body * (1 + options.ease);
      l.unread = true;
      levels.push_back(l);
    }
  }
  std::sort(levels.begin(), levels.end(),
            [](const GradeLevel& a, const GradeLevel& b) { return a.height < b.height; });
  // A garment too loose at its opening is graded a size down below it too:
  // every lower level that is looser than its target takes the opening's
  // factor, but none is made tighter than its target (a flared hip keeps its
  // flare in proportion; a straight skirt's hip comes to body + ease).
  // Narrowing the opening alone would leave the rest of an oversized garment
  // as wide as before, flaring out from the narrowed top.
  for (const GradeLevel& top : levels) {
    if (!top.narrowed || top.factor >= 1) continue;
    for (GradeLevel& l : levels)
      if (l.height < top.height && !l.narrowed && l.garment > l.target)
        l.factor = std::min(l.factor, std::max(top.factor, l.target / l.garment));
  }
  return levels;
}

std::optional<GradeLevel> armhole_level(const FitReport& fit) {
  for (const GirthFit& g : fit.girths)
    if (g.name == "armhole" && g.garment > 0 && g.too_small) {
      GradeLevel l = level_of(g);
      l.target = g.body;
      // Its two sides, front and back, each end at the underarm corner and
      // grow by about the drop: half the shortfall is the first guess.
      l.drop = std::min(0.5 * (g.body - g.garment), kMaxArmholeDrop);
      return l;
    }
  return std::nullopt;
}

namespace {

FactorField factor_field(const std::vector<GradeLevel>& levels, double shoulder_height) {
  FactorField field;
  for (const GradeLevel& l : levels) {
    if (l.name == "armhole") continue;  // deepened apart (armhole_deepening.h)
    // Two levels at the same height (cannot happen with distinct landmarks): keep the larger factor.
    if (!field.h.empty() && l.height - field.h.back() < 1e-6) {
      field.f.back() = std::max(field.f.back(), l.factor);
      continue;
    }
    field.h.push_back(l.height);
    field.f.push_back(l.factor);
  }
  // Above a narrowed opening the garment must stay as narrow (its top would
  // flare open again); otherwise the factor fades to 1 at the shoulders.
  const bool top_narrowed = !levels.empty() && levels.back().narrowed;
  if (!field.h.empty() && !top_narrowed && shoulder_height > field.h.back() + 1e-3) {
    field.h.push_back(shoulder_height);
    field.f.push_back(1.0);
  }
  return field;
}

PanelFrame panel_frame(const Panel& panel, const RigidTransform& t, double floor_y) {
  PanelFrame f;
  f.g = {t.rotation(1, 0), t.rotation(1, 1)};
  f.h0 = t.translation.y - floor_y;
  const double n = norm(f.g);
  f.u = n > 0 ? f.g / n : Vec2{0, 1};
  f.v = perp(f.u);
  Vec2 c;
  for (const Vec2& p : panel.vertices) c += p;
  f.c = c / static_cast<double>(std::max<std::size_t>(panel.vertices.size(), 1));
  return f;
}

// Panels are placed apart before they are sewn (a skirt below its bodice,
// a gap at the waist seam), so the heights of two sewn edges differ by that
// gap and the factor field would widen them differently. Each graded panel's
// heights are shifted by delta[p] so that sewn edges have equal mean heights
// (least squares over the stitches between graded panels, weighted by edge
// length), with a small pull of each shift towards 0 weighted by panel area
// (a panel sewn to nothing keeps its height). The pull only fixes each sewn
// group's common offset; that offset is then set so the group's highest
// panel keeps its height: a garment hangs from its top (a bodice from the
// shoulders, a skirt from its waistband) and the panels below come up to it,
// so the fit check measures the top panel where it is graded. About the
// area-weighted centre instead, the GPG dress's bodice (placed 13 cm above its
// skirt) was graded 10 cm lower than it is placed and worn: on mean_female its
// bust read 92.8 cm against a target of 100.4 whatever the bust factor.
std::vector<double> seam_height_shifts(const Pattern& pattern, const std::vector<PanelFrame>& frames,
                                       const std::vector<char>& graded) {
  const std::size_t n = pattern.panels.size();
  std::vector<double> a(n * n, 0.0), rhs(n, 0.0);
  auto mean_height = [&](const StitchSide& side) {
    const std::size_t p = static_cast<std::size_t>(side.panel);
    const EdgeGeometry e = edge_geometry(pattern.panels[p], side.edge);
    return frames[p].edge_height(e, 0.5);
  };
  double total_weight = 0;
  for (const Stitch& st : pattern.stitches) {
    const std::size_t pa = static_cast<std::size_t>(st.a.panel), pb = static_cast<std::size_t>(st.b.panel);
    if (pa == pb || !graded[pa] || !graded[pb]) continue;
    const double w =
        0.5 * (edge_length(pattern.panels[pa], st.a.edge) + edge_length(pattern.panels[pb], st.b.edge));
    const double r = mean_height(st.a) - mean_height(st.b);  // want r + d_a - d_b = 0
    a[pa * n + pa] += w;
    a[pb * n + pb] += w;
    a[pa * n + pb] -= w;
    a[pb * n + pa] -= w;
    rhs[pa] -= w * r;
    rhs[pb] += w * r;
    total_weight += w;
  }
  std::vector<double> delta(n, 0.0);
  if (total_weight == 0) return delta;
  for (std::size_t p = 0; p < n; ++p)
    a[p * n + p] += 1e-4 * total_weight * std::max(std::abs(panel_signed_area(pattern.panels[p])), 1e-4);
  // Gaussian elimination with partial pivoting (the matrix is symmetric positive definite).
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t piv = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::abs(a[r * n + c]) > std::abs(a[piv * n + c])) piv = r;
    if (piv != c) {
      for (std::size_t k = 0; k < n; ++k) std::swap(a[c * n + k], a[piv * n + k]);
      std::swap(rhs[c], rhs[piv]);
    }
    for (std::size_t r = c + 1; r < n; ++r) {
      const double f = a[r * n + c] / a[c * n + c];
      if (f == 0) continue;
      for (std::size_t k = c; k < n; ++k) a[r * n + k] -= f * a[c * n + k];
      rhs[r] -= f * rhs[c];
    }
  }
  for (std::size_t c = n; c-- > 0;) {
    double v = rhs[c];
    for (std::size_t k = c + 1; k < n; ++k) v -= a[c * n + k] * delta[k];
    delta[c] = v / a[c * n + c];
  }
  // Each sewn group keeps its highest panel's height (the seams' equal heights
  // are unchanged: a common offset per group).
  UnionFind group(n);
  for (const Stitch& st : pattern.stitches)
    if (graded[static_cast<std::size_t>(st.a.panel)] && graded[static_cast<std::size_t>(st.b.panel)])
      group.unite(st.a.panel, st.b.panel);
  std::vector<double> top(n, -1e300), group_top(n, -1e300), group_shift(n, 0.0);
  for (std::size_t p = 0; p < n; ++p) {
    if (!graded[p]) continue;
    for (const Vec2& v : pattern.panels[p].vertices) top[p] = std::max(top[p], frames[p].height(v));
    const auto g = static_cast<std::size_t>(group.find(static_cast<int>(p)));
    if (top[p] > group_top[g]) {
      group_top[g] = top[p];
      group_shift[g] = delta[p];
    }
  }
  for (std::size_t p = 0; p < n; ++p)
    if (graded[p]) delta[p] -= group_shift[static_cast<std::size_t>(group.find(static_cast<int>(p)))];
  return delta;
}

// The exact grading map of a panel point read at height h.
Vec2 grade_point(const PanelFrame& pf, const FactorField& field, Vec2 p, double h) {
  const Vec2 d = p - pf.c;
  return pf.c + pf.u * dot(pf.u, d) + pf.v * (field.at(h) * dot(pf.v, d));
}

// The image of edge e's point at parameter t. An edge that runs up the body
// (a side seam, a hip curve) takes the grading map: its bulge in the flat
// pattern is a bulge round the body, stretched by the field where it is. An
// edge that runs round the body (a waist or hem arc) is scaled as a whole,
// bulge included, by the similarity that takes its chord to the graded chord:
// a circle skirt's waist arc bulges in the flat pattern only, and the
// waistband straight edge sewn to it keeps its length ratio. Between the two,
// the images blend by cos^2 of the chord's angle to the panel's across
// direction; both images agree at the edge's ends.
Vec2 grade_edge_point(const PanelFrame& pf, const FactorField& field, const EdgeGeometry& e, double t) {
  const Vec2 q = e.point(t);
  const Vec2 mapped = grade_point(pf, field, q, pf.edge_height(e, t));
  const Vec2 c = e.p1 - e.p0;
  const double cc = dot(c, c);
  if (!(cc > 0)) return mapped;
  const double across = dot(c, pf.v);
  const double w = across * across / cc;
  if (w < 1e-12) return mapped;
  const Vec2 p0 = grade_point(pf, field, e.p0, pf.height(e.p0));
  const Vec2 c1 = grade_point(pf, field, e.p1, pf.height(e.p1)) - p0;
  const Vec2 d = q - e.p0;
  const Vec2 similar = p0 + c1 * (dot(d, c) / cc) + perp(c1) * (dot(d, perp(c)) / cc);
  return mapped * (1 - w) + similar * w;
}

// Largest distance from the exact images of `orig`'s points to the graded edge `now`.
double curve_deviation(const EdgeGeometry& orig, const EdgeGeometry& now, const PanelFrame& pf,
                       const FactorField& field) {
  constexpr int kDense = 128;
  std::vector<Vec2> poly(kDense + 1);
  for (int i = 0; i <= kDense; ++i)
    poly[static_cast<std::size_t>(i)] = now.point(static_cast<double>(i) / kDense);
  double worst = 0;
  for (int i = 1; i < 16; ++i) {
    const Vec2 q = grade_edge_point(pf, field, orig, i / 16.0);
    double best = 1e300;
    for (int k = 0; k < kDense; ++k) {
      const Vec2 a = poly[static_cast<std::size_t>(k)], ab = poly[static_cast<std::size_t>(k + 1)] - a;
      const double t = std::clamp(dot(q - a, ab) / std::max(dot(ab, ab), 1e-300), 0.0, 1.0);
      best = std::min(best, norm(q - (a + ab * t)));
    }
    worst = std::max(worst, best);
  }
  return worst;
}

// True when the field differs from 1 somewhere on the panel: at the lowest or
// highest point of its outline, or at a knot between them (F is monotone
// between knots).
bool field_moves(const Panel& panel, const PanelFrame& pf, const FactorField& field) {
  double lo = 1e300, hi = -1e300;
  for (int e = 0; e < static_cast<int>(panel.edges.size()); ++e) {
    const EdgeGeometry g = edge_geometry(panel, e);
    for (int i = 0; i <= 16; ++i) {
      const double h = pf.edge_height(g, i / 16.0);
      lo = std::min(lo, h);
      hi = std::max(hi, h);
    }
  }
  auto moves = [](double f) { return std::abs(f - 1) > 1e-12; };
  if (moves(field.at(lo)) || moves(field.at(hi))) return true;
  for (std::size_t k = 0; k < field.h.size(); ++k)
    if (field.h[k] > lo && field.h[k] < hi && moves(field.f[k])) return true;
  return false;
}

// A trouser leg's front or back, lying on one side of the body's centre
// line, grows away from it: its across origin moves to its vertex nearest the
// centre line (the crotch), so that line stays where the pattern has it.
// Grown about its centre, each leg of a graded jumpsuit reached across the
// centre line over the other (GPG wb_jumpsuit_sleeveless on MakeHuman: 17 cm
// of overlap), and the leg tubes started linked. Torso halves keep growing
// about their centres (their sleeves are matched to that growth).
void keep_inner_edge(const Panel& panel, const RigidTransform& t, const BodyFrame& bf, PanelFrame& pf) {
  constexpr double kSide = 0.01;  // m past the centre line a one-sided panel may reach
  if (parse_alias(panel.alias).part != AliasPart::leg) return;
  const Vec3 across = t.rotation * Vec3{pf.v.x, pf.v.y, 0};
  if (std::abs(across.x) < 0.9 || panel.vertices.empty()) return;
  double lo = 1e300, hi = -1e300;
  Vec2 at_lo, at_hi;
  for (const Vec2& v : panel.vertices) {
    const double x = (t.rotation * Vec3{v.x, v.y, 0} + t.translation).x;
    if (x < lo) lo = x, at_lo = v;
    if (x > hi) hi = x, at_hi = v;
  }
  Vec2 inner;
  if (lo > bf.centre_x - kSide)
    inner = at_lo;
  else if (hi < bf.centre_x + kSide)
    inner = at_hi;
  else
    return;
  pf.c += pf.v * dot(pf.v, inner - pf.c);
}

// Grades one panel in place; returns the largest curve deviation (metres).
double grade_panel(Panel& panel, const PanelFrame& pf, const FactorField& field) {
  const int n = static_cast<int>(panel.edges.size());
  std::vector<EdgeGeometry> geo;
  std::vector<Hermite> herm;
  for (int e = 0; e < n; ++e) {
    geo.push_back(edge_geometry(panel, e));
    herm.push_back(hermite_of(geo.back()));
  }
  // Bones on the centre line, one per knot, scaling across by its factor.
  std::vector<Affine2> bones;
  const double un = std::max(norm(pf.g), 1e-12);
  for (std::size_t k = 0; k < field.h.size(); ++k) {
    Bone2 b;
    b.origin = pf.c + pf.u * ((field.h[k] - pf.height(pf.c)) / un);
    b.angle = std::atan2(pf.u.y, pf.u.x);
    b.length = 0.1;
    bones.push_back(bone2_transform(b, b, field.f[k]));
  }
  // The outline as a closed bline: vertex k is edge k's start.
  Bline2 rest;
  rest.closed = true;
  for (int e = 0; e < n; ++e) {
    BlineVertex<Vec2> v;
    v.point = geo[static_cast<std::size_t>(e)].p0;
    v.tangent_out = herm[static_cast<std::size_t>(e)].t0;
    v.tangent_in = herm[static_cast<std::size_t>((e + n - 1) % n)].t1;
    v.split = true;
    v.bone_weights = field.weights(pf.height(v.point));
    rest.vertices.push_back(v);
  }
  const Bline2 graded = deform_bline(rest, bones, TangentMode::proposal2_global);

  for (Vec2& p : panel.vertices) p = grade_point(pf, field, p, pf.height(p));
  for (int e = 0; e < n; ++e)
    panel.vertices[static_cast<std::size_t>(panel.edges[static_cast<std::size_t>(e)].start)] =
        graded.vertices[static_cast<std::size_t>(e)].point;
  double deviation = 0;
  for (int e = 0; e < n; ++e) {
    PanelEdge& edge = panel.edges[static_cast<std::size_t>(e)];
    const EdgeGeometry& g = geo[static_cast<std::size_t>(e)];
    const Vec2 p0 = graded.vertices[static_cast<std::size_t>(e)].point;
    const Vec2 p1 = graded.vertices[static_cast<std::size_t>((e + 1) % n)].point;
    const Vec2 t0 = graded.vertices[static_cast<std::size_t>(e)].tangent_out;
    const Vec2 t1 = graded.vertices[static_cast<std::size_t>((e + 1) % n)].tangent_in;
    const Vec2 chord = p1 - p0;
    const double tol = 1e-9 * norm(chord);
    if (edge.curve == EdgeCurve::line && std::abs(cross(t0, chord)) <= tol * norm(t0) &&
        std::abs(cross(t1, chord)) <= tol * norm(t1) && dot(t0, chord) > 0 && dot(t1, chord) > 0)
      continue;  // still straight
    if (edge.curve == EdgeCurve::arc) {
      bool identity = true;
      for (int i = 0; i <= 16 && identity; ++i)
        identity = std::abs(field.at(pf.edge_height(g, i / 16.0)) - 1) < 1e-12;
      if (identity) continue;  // the map is the identity on it: still the same arc
    }
    Vec2 c1 = p0 + t0 / 3.0, c2 = p1 - t1 / 3.0;
    if (norm(t0) > 0 && norm(t1) > 0) {
      std::vector<double> ts;
      std::vector<Vec2> qs;
      for (int i = 1; i < 16; ++i) {
        ts.push_back(i / 16.0);
        qs.push_back(grade_edge_point(pf, field, g, i / 16.0));
      }
      const Vec2 d0 = t0 / norm(t0), d1 = t1 / norm(t1);
      double a = 0, b = 0;
      // Fit, then move each sample's parameter to its nearest point on the fitted curve, and refit.
      for (int pass = 0; pass < 4 && fit_handles(p0, d0, d1, p1, ts, qs, a, b); ++pass) {
        c1 = p0 + d0 * a;
        c2 = p1 - d1 * b;
        for (std::size_t i = 0; i < ts.size(); ++i) ts[i] = nearest_parameter(p0, c1, c2, p1, qs[i], ts[i]);
      }
    }
    edge.curve = EdgeCurve::cubic;
    edge.c1 = c1;
    edge.c2 = c2;
    edge.radius = 0;
    edge.large_arc = edge.right = false;
  }
  for (int e = 0; e < n; ++e)
    deviation = std::max(
        deviation, curve_deviation(geo[static_cast<std::size_t>(e)], edge_geometry(panel, e), pf, field));
  return deviation;
}

}  // namespace

void follow_graded_neighbours(const Pattern& original, GradingResult& r) {
  std::vector<char> graded(original.panels.size(), 0);
  for (int p : r.graded_panels) graded[static_cast<std::size_t>(p)] = 1;
  for (std::size_t q = 0; q < original.panels.size(); ++q) {
    if (graded[q]) continue;
    // (edge of q, the length it should have)
    std::vector<std::pair<int, double>> want;
    int longest = -1;
    double longest_len = 0;
    for (const Stitch& st : original.stitches) {
      for (int side = 0; side < 2; ++side) {
        const StitchSide& mine = side ? st.b : st.a;
        const StitchSide& other = side ? st.a : st.b;
        if (mine.panel != static_cast<int>(q) || !graded[static_cast<std::size_t>(other.panel)]) continue;
        const double before_other =
            edge_length(original.panels[static_cast<std::size_t>(other.panel)], other.edge);
        const double after_other =
            edge_length(r.pattern.panels[static_cast<std::size_t>(other.panel)], other.edge);
        const double mine_len = edge_length(original.panels[q], mine.edge);
        want.emplace_back(mine.edge, mine_len * after_other / before_other);
        if (mine_len > longest_len) {
          longest_len = mine_len;
          longest = mine.edge;
        }
      }
    }
    if (want.empty()) continue;
    const Panel& panel = original.panels[q];
    const EdgeGeometry chord = edge_geometry(panel, longest);
    PanelFrame pf;
    pf.v = (chord.p1 - chord.p0) / norm(chord.p1 - chord.p0);
    pf.u = Vec2{pf.v.y, -pf.v.x};  // perp(u) = v
    pf.g = pf.u;
    for (const Vec2& p : panel.vertices) pf.c += p;
    pf.c = pf.c / static_cast<double>(panel.vertices.size());
    auto stretched = [&](double k, double* deviation) {
      FactorField field;
      field.h = {0};
      field.f = {k};
      Panel out = panel;
      const double d = grade_panel(out, pf, field);
      if (deviation) *deviation = d;
      return out;
    };
    auto error = [&](double k) {
      const Panel out = stretched(k, nullptr);
      double e = 0;
      for (const auto& [edge, len] : want) e += edge_length(out, edge) - len;
      return e;
    };
    if (std::abs(error(1.0)) < 1e-4 * longest_len) continue;
    double lo = 0.5, hi = 2.0;
    if (error(lo) > 0 || error(hi) < 0) continue;  // cannot be matched by a stretch
    for (int it = 0; it < 40; ++it) {
      const double mid = 0.5 * (lo + hi);
      (error(mid) < 0 ? lo : hi) = mid;
    }
    double deviation = 0;
    r.pattern.panels[q] = stretched(0.5 * (lo + hi), &deviation);
    r.max_curve_deviation = std::max(r.max_curve_deviation, deviation);
    r.graded_panels.push_back(static_cast<int>(q));
  }
  std::sort(r.graded_panels.begin(), r.graded_panels.end());
}

GradingResult grade_pattern(const Pattern& pattern, const std::vector<RigidTransform>& panel_transforms,
                            const std::vector<GradeLevel>& levels, const BodyFrame& frame, bool split_edges) {
  if (panel_transforms.size() != pattern.panels.size())
    throw InvalidInput(pattern.source + ": grading needs one placement per panel (" +
                       std::to_string(panel_transforms.size()) + " for " +
                       std::to_string(pattern.panels.size()) + " panels)");
  bool moves = false;
  for (const GradeLevel& l : levels) moves = moves || std::abs(l.factor - 1) > 1e-12;
  if (!moves) return GradingResult::ungraded(pattern, levels);
  GradingResult r;
  r.source = pattern;
  r.levels = levels;
  r.graded = true;
  {
    const FactorField field = factor_field(levels, frame.shoulder_y - frame.floor_y);
    const std::size_t n = pattern.panels.size();
    std::vector<PanelFrame> frames(n);
    std::vector<char> graded(n, 0);
    for (std::size_t p = 0; p < n; ++p) {
      const Panel& panel = pattern.panels[p];
      frames[p] = panel_frame(panel, panel_transforms[p], frame.floor_y);
      keep_inner_edge(panel, panel_transforms[p], frame, frames[p]);
      graded[p] = goes_round_torso(panel) && norm(frames[p].g) >= 0.2;
      if (goes_round_torso(panel) && !graded[p])
        r.warnings.push_back("panel " + panel.name + " lies nearly flat round the body: not graded");
    }
    const std::vector<double> shift = seam_height_shifts(pattern, frames, graded);
    for (std::size_t p = 0; p < n; ++p) {
      frames[p].h0 += shift[p];
      graded[p] = graded[p] && field_moves(pattern.panels[p], frames[p], field);
    }
    if (split_edges) split_edges_at_field_knots(r.source, frames, graded, field);
    r.pattern = r.source;
    for (std::size_t p = 0; p < n; ++p) {
      if (!graded[p]) continue;
      r.max_curve_deviation =
          std::max(r.max_curve_deviation, grade_panel(r.pattern.panels[p], frames[p], field));
      r.graded_panels.push_back(static_cast<int>(p));
    }
    follow_graded_neighbours(r.source, r);
  }
  validate_pattern(r.pattern);  // closed, simple outlines
  r.compare_seams();
  return r;
}

}  // namespace drape

#include "drape/body/garment_fit.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <unordered_map>

#include "drape/core/union_find.h"
#include "drape/pattern/alias.h"
#include "drape/pattern/boundary_loops.h"

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

// A cutting plane: the points p with dot(p - origin, normal) = 0 (horizontal
// at height y for the torso levels, across an arm for the sleeves); only
// triangles with a vertex within `radius` of origin are cut (so that the
// plane through one arm does not cut the other sleeve).
struct Cut {
  Vec3 origin, normal;
  double radius = std::numeric_limits<double>::infinity();
  double side(const Vec3& p) const { return dot(p - origin, normal); }
  static Cut horizontal(double y) { return Cut{{0, y, 0}, {0, 1, 0}}; }
};

// Where the cut crosses triangle t of m: up to two points, each on the
// triangle edge (corner k to corner k + 1) given in `edge`. Half-open, so that
// a vertex exactly on the plane is counted once. Returns how many (0 or 2).
int cut_triangle(const TriangleMesh& m, const Triangle& t, const Cut& cut, Vec3 ends[2], int edge[2]) {
  int n = 0;
  for (int k = 0; k < 3 && n < 2; ++k) {
    const Vec3& a = m.positions[static_cast<std::size_t>(t[k])];
    const Vec3& b = m.positions[static_cast<std::size_t>(t[(k + 1) % 3])];
    const double da = cut.side(a), db = cut.side(b);
    if ((da < 0) == (db < 0)) continue;
    edge[n] = k;
    ends[n++] = a + (b - a) * (da / (da - db));
  }
  return n;
}

// The length of the section of triangle t of m by the cut.
double triangle_cut(const TriangleMesh& m, const Triangle& t, const Cut& cut) {
  Vec3 ends[2];
  int edge[2];
  return cut_triangle(m, t, cut, ends, edge) == 2 ? norm(ends[1] - ends[0]) : 0.0;
}

// True when the placed vertices along the stitched edge `side` lie on both sides of the cut.
bool edge_spans(const PatternMesh& placed, const StitchSide& side, const Cut& cut) {
  bool below = false, above = false;
  for (int v : placed.panels[static_cast<std::size_t>(side.panel)]
                   .edge_vertices[static_cast<std::size_t>(side.edge)]) {
    const double d = cut.side(placed.garment.mesh.positions[static_cast<std::size_t>(v)]);
    below = below || d < 0;
    above = above || d >= 0;
  }
  return below && above;
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
    length[static_cast<std::size_t>(panel)] += triangle_cut(m, t, Cut::horizontal(y));
  }
  return length;
}

// The smallest closed ring of `eligible` panels cut by `cut` (0 when none):
// panels joined by seams whose two edges both cross the plane, their
// sections summed. A ring counts only when each of its panels is joined
// across the plane on two edges (or sewn to itself), so that a section that
// runs out through a hem (a short sleeve ending at the plane) is not taken
// for a narrow ring.
template <class Eligible>
double smallest_ring(const Pattern& pattern, const PatternMesh& placed, const Cut& cut, Eligible eligible) {
  const TriangleMesh& m = placed.garment.mesh;
  const std::vector<int>& panel_of = placed.garment.panel_of_vertex;
  const std::size_t n = pattern.panels.size();
  std::vector<double> section(n, 0.0);
  for (const Triangle& t : m.faces) {
    const int panel = panel_of[static_cast<std::size_t>(t[0])];
    if (panel < 0 || !eligible(pattern.panels[static_cast<std::size_t>(panel)])) continue;
    bool near = false;
    for (int k = 0; k < 3; ++k)
      near = near || norm(m.positions[static_cast<std::size_t>(t[k])] - cut.origin) <= cut.radius;
    if (near) section[static_cast<std::size_t>(panel)] += triangle_cut(m, t, cut);
  }
  UnionFind rings(n);
  std::vector<int> joins(n, 0);
  for (const Stitch& s : pattern.stitches) {
    if (!eligible(pattern.panels[static_cast<std::size_t>(s.a.panel)]) ||
        !eligible(pattern.panels[static_cast<std::size_t>(s.b.panel)]) || !edge_spans(placed, s.a, cut) ||
        !edge_spans(placed, s.b, cut))
      continue;
    rings.unite(s.a.panel, s.b.panel);
    ++joins[static_cast<std::size_t>(s.a.panel)];
    ++joins[static_cast<std::size_t>(s.b.panel)];
  }
  std::vector<double> girth(n, 0.0);
  std::vector<bool> closed(n, true);
  for (std::size_t q = 0; q < n; ++q) {
    if (section[q] <= 0) continue;
    const auto r = static_cast<std::size_t>(rings.find(static_cast<int>(q)));
    girth[r] += section[q];
    closed[r] = closed[r] && joins[q] >= 2;
  }
  double best = 0;
  for (std::size_t r = 0; r < n; ++r)
    if (girth[r] > 0 && closed[r] && (best == 0 || girth[r] < best)) best = girth[r];
  return best;
}

bool is_sleeve(const Panel& panel) { return parse_alias(panel.alias).part == AliasPart::sleeve; }

// The section at height y of the panels that go round the torso, when it
// closes round the body: the summed length of its pieces (the chains of
// triangle cuts joined across shared mesh edges), or 0 when some piece does
// not run from one edge the ring goes on through to another. A piece's two
// ends must lie on different pattern edges, each sewn to a panel whose
// seams to this one span y (a side seam whose other side is there too) or to
// a panel that does not go round the torso (a sleeve's armhole), or free and running
// up the body (its chord more up than across: an open front, an armhole). A
// piece that ends twice on one edge cuts along that edge's bulge (a circle
// skirt tier's hem or waist arc, placed flat with its ends 20 cm above its
// middle), one that ends on a seam whose other side lies elsewhere (a tier's
// waist arc sewn to a bodice placed 20 cm above it) or on a free hem or top
// edge cuts a corner of the panel: none is the garment going round the body at y.
double closed_section_girth(const Pattern& pattern, const PatternMesh& placed, double y) {
  const TriangleMesh& m = placed.garment.mesh;
  const std::vector<int>& panel_of = placed.garment.panel_of_vertex;
  const Cut cut = Cut::horizontal(y);
  auto key = [](int a, int b) {
    return (static_cast<std::uint64_t>(std::min(a, b)) << 32) | static_cast<std::uint32_t>(std::max(a, b));
  };
  // Boundary mesh edges to the pattern edge they lie on.
  std::unordered_map<std::uint64_t, StitchSide> boundary;
  for (std::size_t p = 0; p < placed.panels.size(); ++p)
    for (std::size_t e = 0; e < placed.panels[p].edge_vertices.size(); ++e) {
      const std::vector<int>& ev = placed.panels[p].edge_vertices[e];
      for (std::size_t i = 0; i + 1 < ev.size(); ++i)
        boundary.emplace(key(ev[i], ev[i + 1]), StitchSide{static_cast<int>(p), static_cast<int>(e)});
    }
  // The cut segments: their length and the mesh edges their ends lie on.
  struct Segment {
    int panel;
    double length;
    std::uint64_t ends[2];
  };
  std::vector<Segment> segments;
  std::unordered_map<std::uint64_t, std::vector<int>> at;  // mesh edge -> segments ending on it
  for (const Triangle& t : m.faces) {
    const int panel = panel_of[static_cast<std::size_t>(t[0])];
    if (panel < 0 || !goes_round_torso(pattern.panels[static_cast<std::size_t>(panel)])) continue;
    Segment s{};
    s.panel = panel;
    Vec3 ends[2];
    int edge[2];
    if (cut_triangle(m, t, cut, ends, edge) < 2) continue;
    for (int i = 0; i < 2; ++i) s.ends[i] = key(t[edge[i]], t[(edge[i] + 1) % 3]);
    s.length = norm(ends[1] - ends[0]);
    for (std::uint64_t e : s.ends) at[e].push_back(static_cast<int>(segments.size()));
    segments.push_back(s);
  }
  if (segments.empty()) return 0;
  UnionFind pieces(segments.size());
  for (const auto& [edge, segs] : at)
    for (std::size_t i = 1; i < segs.size(); ++i) pieces.unite(segs[0], segs[i]);
  // Where each piece ends: the mesh edges only one of its segments reaches.
  std::unordered_map<int, std::vector<std::uint64_t>> piece_ends;
  for (const auto& [edge, segs] : at)
    if (segs.size() == 1) piece_ends[pieces.find(segs[0])].push_back(edge);
  // Which pattern edges a seam joins to an edge, and how high and low each
  // panel's seams to another reach (a side seam split in two by grading on
  // both sides, at heights that differ as the panels were placed, is one
  // seam; the edge a piece ends on is sewn to a part of it).
  std::multimap<std::pair<int, int>, StitchSide> partner;
  std::map<std::pair<int, int>, std::pair<double, double>> seam_range;  // (panel, sewn to) -> y range
  auto reach = [&](const StitchSide& side, int to) {
    auto [it, fresh] = seam_range.try_emplace({side.panel, to}, 1e300, -1e300);
    for (int v : placed.panels[static_cast<std::size_t>(side.panel)]
                     .edge_vertices[static_cast<std::size_t>(side.edge)]) {
      const double vy = m.positions[static_cast<std::size_t>(v)].y;
      it->second.first = std::min(it->second.first, vy);
      it->second.second = std::max(it->second.second, vy);
    }
  };
  for (const Stitch& s : pattern.stitches) {
    partner.emplace(std::pair{s.a.panel, s.a.edge}, s.b);
    partner.emplace(std::pair{s.b.panel, s.b.edge}, s.a);
    reach(s.a, s.b.panel);
    reach(s.b, s.a.panel);
  }
  auto goes_on = [&](const StitchSide& side) {
    const auto [lo, hi] = partner.equal_range({side.panel, side.edge});
    if (lo == hi) {
      // A free edge: an open front or armhole runs up the body; a hem or a
      // top edge (its chord more across than up) does not.
      const std::vector<int>& ev = placed.panels[static_cast<std::size_t>(side.panel)]
                                       .edge_vertices[static_cast<std::size_t>(side.edge)];
      const Vec3 chord = m.positions[static_cast<std::size_t>(ev.back())] -
                         m.positions[static_cast<std::size_t>(ev.front())];
      return std::abs(chord.y) >= std::hypot(chord.x, chord.z);
    }
    for (auto it = lo; it != hi; ++it) {
      if (!goes_round_torso(pattern.panels[static_cast<std::size_t>(it->second.panel)])) return true;
      const auto [low, high] = seam_range.at({it->second.panel, side.panel});
      if (low < y && high >= y) return true;
    }
    return false;
  };
  for (const auto& [piece, ends] : piece_ends) {
    if (ends.size() != 2) return 0;
    const auto a = boundary.find(ends[0]), b = boundary.find(ends[1]);
    if (a == boundary.end() || b == boundary.end())
      continue;  // not on the outline (a mesh without edge lists)
    if (a->second.edge == b->second.edge && a->second.panel == b->second.panel) return 0;
    if (!goes_on(a->second) || !goes_on(b->second)) return 0;
  }
  // Summed per panel, then over the panels (as garment_girth: the same bits).
  std::vector<double> per_panel(pattern.panels.size(), 0.0);
  for (const Segment& s : segments) per_panel[static_cast<std::size_t>(s.panel)] += s.length;
  double length = 0;
  for (double l : per_panel) length += l;
  return length;
}

// The section-based ring: for a garment whose top loop does not close above
// its middle (an open slit or wrap running from the top to the hem).
double opening_ring_by_sections(const Pattern& pattern, const PatternMesh& placed, double* height) {
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
      if (edge_spans(placed, s.a, Cut::horizontal(y)) && edge_spans(placed, s.b, Cut::horizontal(y)))
        rings.unite(s.a.panel, s.b.panel);
    double girth = 0;
    for (std::size_t q = 0; q < n; ++q)
      if (rings.find(static_cast<int>(q)) == rings.find(static_cast<int>(p))) girth += section[q];
    return girth;
  };
  double best = 0, best_y = 0;
  for (std::size_t p = 0; p < n; ++p) {
    if (!goes_round_torso(pattern.panels[p]) || !std::isfinite(top[p])) continue;
    double widest = 0, widest_y = 0;  // below the top edge, where the ring is whole
    for (int k = 1; k * kStep <= kBelowTop + 1e-9; ++k) {
      const double d = k * kStep;
      const double g = ring(p, top[p] - d);
      if (g > widest) widest = g, widest_y = top[p] - d;
    }
    if (widest > 0 && (best == 0 || widest < best)) best = widest, best_y = widest_y;
  }
  if (height) *height = best_y;
  return best;
}

}  // namespace

double leg_ring_girth(const Pattern& pattern, const PatternMesh& placed, double y) {
  return smallest_ring(pattern, placed, Cut::horizontal(y), goes_round_torso);
}

double sleeve_ring_girth(const Pattern& pattern, const PatternMesh& placed, const BodyFrame& frame) {
  constexpr double kAlongArm = 0.09, kRadius = 0.25;  // fraction of H (as measure_body), metres
  double best = 0;
  for (int side = 0; side < 2; ++side) {
    const Vec3 dir = frame.arm_direction[side];
    if (!(norm(dir) > 0.5)) continue;
    const Cut cut{frame.shoulder[side] + normalized(dir) * (kAlongArm * frame.height), normalized(dir),
                  kRadius};
    const double g = smallest_ring(pattern, placed, cut, is_sleeve);
    if (g > 0 && (best == 0 || g < best)) best = g;
  }
  return best;
}

std::vector<BoundaryLoop> armhole_loops(const Pattern& pattern, const PatternMesh& placed,
                                        const BodyFrame& frame) {
  constexpr double kOffCentre = 0.4;  // of the torso's half width
  std::vector<char> round(pattern.panels.size(), 0);
  for (std::size_t p = 0; p < pattern.panels.size(); ++p)
    round[p] = goes_round_torso(pattern.panels[p]) ? 1 : 0;
  const std::vector<Vec3>& x = placed.garment.mesh.positions;
  std::vector<BoundaryLoop> out;
  for (BoundaryLoop& loop : boundary_loops(pattern, placed, round)) {
    if (loop.vertices.empty()) continue;
    double side = 0, top = -std::numeric_limits<double>::infinity();
    bool one_side = true;
    for (int v : loop.vertices) {
      const Vec3& p = x[static_cast<std::size_t>(v)];
      const double out = p.x - frame.centre_x;
      if (side == 0) side = out < 0 ? -1 : 1;
      one_side = one_side && out * side >= kOffCentre * frame.torso_half_width;
      top = std::max(top, p.y);
    }
    if (one_side && top > frame.chest_y) out.push_back(std::move(loop));
  }
  return out;
}

double armhole_girth(const Pattern& pattern, const PatternMesh& placed, const BodyFrame& frame,
                     double* height) {
  double best = 0, best_low = 0;
  for (const BoundaryLoop& loop : armhole_loops(pattern, placed, frame)) {
    double low = std::numeric_limits<double>::infinity();
    for (int v : loop.vertices)
      low = std::min(low, placed.garment.mesh.positions[static_cast<std::size_t>(v)].y);
    if (best == 0 || loop.rest_length < best) best = loop.rest_length, best_low = low;
  }
  if (height && best > 0) *height = best_low - frame.floor_y;
  return best;
}

double garment_girth(const Pattern& pattern, const PatternMesh& placed, double y) {
  double length = 0;
  for (double l : panel_sections(pattern, placed, y)) length += l;
  return length;
}

namespace {

// garment_girth_near's rule on a girth function: `girth(y)`, or the girth
// `reach` above and below for a gap; 0 within reach of a top or hem.
template <class Girth>
double near_level(Girth girth, double y, double reach) {
  const double across = std::min(girth(y + reach), girth(y - reach));
  // At (or within reach of) the garment's top or hem the section through y
  // is partial (a curved waistband edge cut along its length): not reached.
  if (across <= 0) return 0;
  // A gap between panels sewn one above the other: the garment goes round
  // above and below, hardly at y.
  const double at = girth(y);
  return at < 0.5 * across ? across : at;
}

}  // namespace

double garment_girth_near(const Pattern& pattern, const PatternMesh& placed, double y, double reach) {
  return near_level([&](double h) { return closed_section_girth(pattern, placed, h); }, y, reach);
}

double opening_girth(const Pattern& pattern, const PatternMesh& placed, double* height) {
  const std::vector<Vec3>& x = placed.garment.mesh.positions;
  double top = -std::numeric_limits<double>::infinity(), bottom = std::numeric_limits<double>::infinity();
  for (const Vec3& p : x) top = std::max(top, p.y), bottom = std::min(bottom, p.y);
  // The highest free boundary loop with an edge on a panel that goes round
  // the torso; it is the opening when it stays in the garment's upper half
  // (a loop reaching lower runs down a slit to the hem).
  const BoundaryLoop* best = nullptr;
  double best_mean = 0, best_low = 0;
  const std::vector<BoundaryLoop> loops = boundary_loops(pattern, placed);
  for (const BoundaryLoop& loop : loops) {
    bool round = false;
    for (const StitchSide& e : loop.edges)
      round = round || goes_round_torso(pattern.panels[static_cast<std::size_t>(e.panel)]);
    if (!round || loop.vertices.empty()) continue;
    double mean = 0, low = std::numeric_limits<double>::infinity();
    for (int v : loop.vertices) {
      mean += x[static_cast<std::size_t>(v)].y;
      low = std::min(low, x[static_cast<std::size_t>(v)].y);
    }
    mean /= static_cast<double>(loop.vertices.size());
    if (!best || mean > best_mean) best = &loop, best_mean = mean, best_low = low;
  }
  if (best && best_low > 0.5 * (top + bottom)) {
    if (height) *height = best_mean;
    return best->rest_length;
  }
  return opening_ring_by_sections(pattern, placed, height);
}

FitReport check_fit(const Pattern& pattern, const PatternMesh& placed, const BodyMeasurements& bm,
                    const GarmentFitOptions& options) {
  const double floor = bm.frame.floor_y;
  const struct {
    const char* name;
    double girth, height;
  } levels[] = {{"bust", bm.bust, bm.bust_y}, {"waist", bm.waist, bm.waist_y}, {"hip", bm.hip, bm.hip_y}};
  FitReport report;
  // One level: too small when the garment is shorter than the body by more
  // than the fabric stretches; skipped where the garment does not reach.
  auto judge = [&](GirthFit g) {
    if (g.garment <= 0) return;
    const double needed = g.body / (1 + options.allowed_stretch);
    g.too_small = g.garment < needed;
    g.shortfall = g.too_small ? g.body - g.garment : 0;
    if (g.too_small) {
      report.fits = false;
      std::string label = g.name;  // "upper arm" in the line, as in "too small at the upper arm"
      std::replace(label.begin(), label.end(), '_', ' ');
      if (g.name == "armhole")
        report.problems.push_back("armhole: garment " + cm(g.garment) + " where the arm needs " + cm(g.body) +
                                  " (" + cm(g.shortfall) + " short)");
      else
        report.problems.push_back(label + ": garment " + cm(g.garment) + " round a " + cm(g.body) +
                                  " body (" + cm(g.shortfall) + " short)");
    }
    report.girths.push_back(g);
  };
  // The torso levels, then the limb levels (present when measure_body took the limbs).
  for (const auto& level : levels)
    if (level.girth > 0) {
      const GirthFit g{.name = level.name,
                       .height = level.height,
                       .body = level.girth,
                       .garment = garment_girth_near(pattern, placed, floor + level.height)};
      // Unread: the whole section, seams or not, would have given a reading.
      if (g.garment <= 0 && near_level([&](double h) { return garment_girth(pattern, placed, h); },
                                       floor + level.height, 0.01) > 0)
        report.unread.push_back(g);
      judge(g);
    }
  if (!bm.thigh_profile.empty()) {
    // Trouser legs part a few centimetres below the body's crotch, below
    // the thigh's largest girth: every height of the thigh band is checked
    // against the leg's girth there; the tightest is reported (a ring round
    // both legs, a skirt's, is never the tightest).
    GirthFit g{.name = "thigh"};
    double tightest = std::numeric_limits<double>::infinity();
    for (const auto& [h, leg] : bm.thigh_profile) {
      const double ring = leg > 0 ? leg_ring_girth(pattern, placed, floor + h) : 0.0;
      if (ring > 0 && ring / leg < tightest)
        tightest = ring / leg, g.height = h, g.body = leg, g.garment = ring;
    }
    judge(g);
  }
  if (bm.upper_arm > 0)
    judge({.name = "upper_arm",
           .height = bm.frame.shoulder[0].y - floor,
           .body = bm.upper_arm,
           .garment = sleeve_ring_girth(pattern, placed, bm.frame)});
  if (bm.upper_arm > 0) {
    GirthFit g{.name = "armhole", .body = options.armhole_per_upper_arm * bm.upper_arm};
    g.garment = armhole_girth(pattern, placed, bm.frame, &g.height);
    judge(g);
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
    o.body_at_ring = bm.torso_girth_at_height(o.height);
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
      // The opening is the garment's waist when the garment does not reach
      // the body's: one narrower than the body's narrowest torso girth (its
      // waist) closes nowhere between the hip and the bust, wherever it
      // starts (too small), and a too-loose one is narrowed there by
      // grading (the level nearest the opening).
      const bool waist_judged = std::any_of(report.girths.begin(), report.girths.end(),
                                            [](const GirthFit& g) { return g.name == "waist"; });
      // The level graded is kBelowOpening under the ring's mean height, where
      // the section goes round whole (at the ring's own height a curved top
      // edge is cut in part).
      constexpr double kBelowOpening = 0.03;
      if (!waist_judged && o.garment > 0 && bm.waist > 0) {
        // A whole section there is at least the opening (a skirt or trousers
        // widen downwards); a smaller one is partial (a narrow, curved
        // waistband cut along its length), and the opening stands for it.
        const double below = garment_girth_near(pattern, placed, floor + o.height - kBelowOpening);
        judge({.name = "waist",
               .height = o.height - kBelowOpening,
               .body = bm.waist,
               .garment = below >= o.garment ? below : o.garment});
      }
    }
  }
  return report;
}

}  // namespace drape

#include "drape/landmarks/body_landmarks.h"

#include <algorithm>
#include <cmath>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/core/exceptions.h"
#include "drape/landmarks/mesh_section.h"

namespace drape {

namespace {

// A cut of the body by a plane: its segments in section coordinates (u along
// x for a horizontal cut, along y for a cut by a plane x = c; v along z) and
// the spans they cover along u (pieces that touch merged).
struct BodyCut {
  std::vector<Vec2> a, b;
  std::vector<SectionSpan> spans;
};

BodyCut body_cut(const std::vector<SectionPiece>& pieces) {
  BodyCut c;
  for (const SectionPiece& p : pieces) {
    c.a.insert(c.a.end(), p.a.begin(), p.a.end());
    c.b.insert(c.b.end(), p.b.begin(), p.b.end());
  }
  c.spans = section_spans(pieces);
  return c;
}

// The span covering u, or -1.
int span_containing(const std::vector<SectionSpan>& spans, double u) {
  for (std::size_t i = 0; i < spans.size(); ++i)
    if (spans[i].covers(u)) return static_cast<int>(i);
  return -1;
}

// Bisection between a level where pred is true and one where it is false:
// the last level found true.
template <class P>
double bisect_level(double y_true, double y_false, P pred) {
  for (int i = 0; i < 60; ++i) {
    const double mid = (y_true + y_false) / 2;
    (pred(mid) ? y_true : y_false) = mid;
  }
  return y_true;
}

struct Finder {
  const TriangleMesh& m;
  const HorizontalSections& sections;
  std::string src;
  Aabb box;
  double xmid, h;

  [[noreturn]] void fail(const std::string& what) const {
    throw InvalidInput(
        src, 0,
        "landmark finder: " + what + " (expects a standing body in an A- or T-pose, +y up, facing +z)");
  }
  BodyCut cut(double y) const { return body_cut(sections.at(y)); }
  std::vector<SectionSpan> spans(double y) const { return section_spans(sections.at(y)); }
  // Point of a cut's span [lo, hi] along u: its middle there, on the cut
  // plane (p[axis] = c), z in the middle of the v extent of the segment end
  // points within the span (a span of zero width: the points at its edge).
  static Vec3 span_centre(const BodyCut& cut, double lo, double hi, double c, int axis = 1, int along = 0) {
    double zlo = 1e300, zhi = -1e300;
    for (const std::vector<Vec2>* ends : {&cut.a, &cut.b})
      for (const Vec2& p : *ends)
        if (p.x >= lo && p.x <= hi) {
          zlo = std::min(zlo, p.y);
          zhi = std::max(zhi, p.y);
        }
    Vec3 out;
    out[axis] = c;
    out[along] = (lo + hi) / 2;
    out.z = (zlo + zhi) / 2;
    return out;
  }
  // z of the horizontal cut's points nearest x (the contour reaching a gap's
  // edge): the middle of the z range of every point within `tie` of the
  // nearest distance, so that a flat side of a low-poly body (several
  // contour points at the edge's x) gives the same point whatever the order
  // of the cut's segments.
  static double z_near_x(const BodyCut& cut, double x, double tie) {
    double best = 1e300;
    for (const std::vector<Vec2>* ends : {&cut.a, &cut.b})
      for (const Vec2& p : *ends) best = std::min(best, std::abs(p.x - x));
    double zlo = 1e300, zhi = -1e300;
    for (const std::vector<Vec2>* ends : {&cut.a, &cut.b})
      for (const Vec2& p : *ends)
        if (std::abs(p.x - x) <= best + tie) {
          zlo = std::min(zlo, p.y);
          zhi = std::max(zhi, p.y);
        }
    return zlo <= zhi ? 0.5 * (zlo + zhi) : 0.0;
  }
  // z values where a horizontal cut crosses the vertical plane x = x0.
  static std::pair<double, double> z_range_at_x(const BodyCut& cut, double x0) {
    double zlo = 1e300, zhi = -1e300;
    for (std::size_t i = 0; i < cut.a.size(); ++i) {
      const Vec2 &a = cut.a[i], &b = cut.b[i];
      if ((a.x < x0) != (b.x < x0)) {
        const double z = a.y + (b.y - a.y) * (x0 - a.x) / (b.x - a.x);
        zlo = std::min(zlo, z);
        zhi = std::max(zhi, z);
      }
    }
    return {zlo, zhi};
  }
  double rel(double f) const { return box.min.y + f * h; }
  // Side +1 (left, +x) or -1: is there a span beyond the torso's on that side?
  bool arm_gap(double y, int side) const {
    const auto iv = spans(y);
    const int t = span_containing(iv, xmid);
    if (t < 0) return false;
    return side > 0 ? t + 1 < static_cast<int>(iv.size()) : t > 0;
  }
  // Armpit of an arm hanging away from the torso (A-pose): the top of the
  // gap between torso and arm, found by climbing from just above the
  // fingertip (where the hanging arm is surely apart from the torso) until the
  // gap closes; scanning down from the top instead can stop at the shoulder
  // tops, which a cut may show as islands. The point is the gap's middle.
  Vec3 hanging_armpit(const Vec3& tip, int side) const {
    double y_true = tip.y + 0.02 * h;
    double y_false = y_true;
    while (arm_gap(y_false, side)) {
      y_true = y_false;
      y_false += 0.005 * h;
      if (y_false > box.max.y) fail("the gap between arm and torso never closes");
    }
    const double ya = bisect_level(y_true, y_false, [&](double y) { return arm_gap(y, side); });
    const BodyCut c = cut(ya - 1e-5 * h);
    const auto& iv = c.spans;
    const int t = span_containing(iv, xmid);
    const double torso_edge = side > 0 ? iv[t].hi : iv[t].lo;
    const double arm_edge = side > 0 ? iv[t + 1].lo : iv[t - 1].hi;
    return {(torso_edge + arm_edge) / 2, ya,
            (z_near_x(c, torso_edge, 1e-6 * h) + z_near_x(c, arm_edge, 1e-6 * h)) / 2};
  }
  // Does the torso's span of the cut at y reach x = x_far on `side`
  // (through an arm joined to it at that level)?
  bool torso_reaches(double y, int side, double x_far) const {
    const auto iv = spans(y);
    const int t = span_containing(iv, xmid);
    if (t < 0) return false;
    return side > 0 ? iv[t].hi >= x_far : iv[t].lo <= x_far;
  }
  // Armpit of an arm raised to about the horizontal (T-pose), where no cut
  // above the fingertip shows the arm apart: the lowest level at which the
  // torso's cut runs out along the arm past half the reach to the fingertip,
  // found by descending from the fingertip's level, then followed down along
  // the arm's underside to the corner where the torso's side begins.
  Vec3 raised_armpit(const Vec3& tip, int side) const {
    const double x_far = xmid + 0.5 * (tip.x - xmid);
    double y_true = tip.y;
    bool found = false;
    for (double dy = 0; dy <= 0.05 * h && !found; dy += 0.0025 * h)
      for (double y : {tip.y - dy, tip.y + dy})
        if (!found && torso_reaches(y, side, x_far)) {
          y_true = y;
          found = true;
        }
    if (!found)
      fail("no gap between hand and body just above the fingertip, and no raised arm at its height");
    double y_false = y_true;
    while (torso_reaches(y_false, side, x_far)) {
      y_true = y_false;
      y_false -= 0.005 * h;
      if (y_false < rel(0.4)) fail("a raised arm that never leaves the torso");
    }
    const double y_reach =
        bisect_level(y_true, y_false, [&](double y) { return torso_reaches(y, side, x_far); });
    // Below that level the torso's edge follows the arm's underside in to
    // the torso's side: descend until the edge moves in less than it drops
    // (the contour steeper than 45 degrees).
    auto edge = [&](double y) {
      const auto iv = spans(y);
      const int t = span_containing(iv, xmid);
      if (t < 0) fail("no torso below a raised arm");
      return side > 0 ? iv[t].hi : iv[t].lo;
    };
    const double step = 0.0025 * h;
    double ya = y_reach - 1e-5 * h, e = edge(ya);
    for (;;) {
      const double e_below = edge(ya - step);
      if (side * (e - e_below) < step) break;
      ya -= step;
      e = e_below;
      if (ya < rel(0.4)) fail("a raised arm whose underside never meets the torso's side");
    }
    return {e, ya, z_near_x(cut(ya), e, 1e-6 * h)};
  }
  // Centre of a raised arm at the point p on the line from armpit to
  // fingertip: the cut by the plane x = p.x, its span (along y) nearest p.
  Vec3 raised_arm_centre(const Vec3& p) const {
    const BodyCut c = body_cut(section_pieces(m, perpendicular_plane({p.x, 0, 0}, {1, 0, 0})));
    const auto& iv = c.spans;
    if (iv.empty()) fail("no arm in a cut between armpit and fingertip");
    std::size_t best = 0;
    auto off = [&](std::size_t k) { return std::max({iv[k].lo - p.y, p.y - iv[k].hi, 0.0}); };
    for (std::size_t k = 1; k < iv.size(); ++k)
      if (off(k) < off(best)) best = k;
    return span_centre(c, iv[best].lo, iv[best].hi, p.x, 0, 1);
  }
  // The extreme point along axis * sign among the vertices on `side` (0 =
  // all) no higher than y_max: the middle of the box round every vertex
  // within 1e-6 of the height of the extreme, so that a flat extreme (a
  // sole, a head top) gives the same point whatever the vertex order and
  // however often a position repeats (meshes split at UV seams).
  Vec3 extreme_point(int axis, int sign, double side, double y_max) const {
    auto eligible = [&](const Vec3& p) { return (side == 0 || (p.x - xmid) * side > 0) && p.y <= y_max; };
    double best = -1e300;
    for (const Vec3& p : m.positions)
      if (eligible(p)) best = std::max(best, p[axis] * sign);
    if (best == -1e300) fail("no vertex found for an extreme point");
    Aabb ties;
    for (const Vec3& p : m.positions)
      if (eligible(p) && p[axis] * sign >= best - 1e-6 * h) ties.expand(p);
    return ties.center();
  }
};
}  // namespace

std::vector<Landmark> find_body_landmarks(const TriangleMesh& body, const std::string& source) {
  if (body.face_count() == 0) throw InvalidInput(source, 0, "landmark finder: the body has no faces");
  const TriangleMeshBvh tree(body);
  return find_body_landmarks(tree, source);
}

std::vector<Landmark> find_body_landmarks(const TriangleMeshBvh& tree, const std::string& source) {
  const TriangleMesh& body = tree.mesh();
  if (body.face_count() == 0) throw InvalidInput(source, 0, "landmark finder: the body has no faces");
  const HorizontalSections sections(body);
  Finder F{body, sections, source, body.bounds(), 0, 0};
  F.xmid = F.box.center().x;
  F.h = F.box.extent().y;
  if (!(F.h > 0)) F.fail("the body has no height");
  std::vector<Landmark> L;
  const double inf = 1e300;

  L.push_back({"head_top", F.extreme_point(1, +1, 0, inf)});
  const double low = F.rel(0.08);
  for (int side : {+1, -1}) {
    const std::string s = side > 0 ? "_l" : "_r";
    L.push_back({"sole" + s, F.extreme_point(1, -1, side, inf)});
    L.push_back({"toe" + s, F.extreme_point(2, +1, side, low)});
    L.push_back({"heel" + s, F.extreme_point(2, -1, side, low)});
    L.push_back({"fingertip" + s, F.extreme_point(0, side, 0, inf)});
  }

  // Crotch: highest level where the mid-plane is not covered.
  const auto centre_covered = [&](double y) { return span_containing(F.spans(y), F.xmid) >= 0; };
  if (centre_covered(F.rel(0.2)) || !centre_covered(F.rel(0.6))) F.fail("no gap between the legs");
  const double yc = bisect_level(F.rel(0.2), F.rel(0.6), [&](double y) { return !centre_covered(y); });
  const double eps = 1e-5 * F.h;
  {
    const auto zr = F.z_range_at_x(F.cut(yc + eps), F.xmid);
    L.push_back({"crotch", {F.xmid, yc, (zr.first + zr.second) / 2}});
  }
  const double floor_y = F.box.min.y;

  // Armpits, shoulder tops, elbows and wrists, per side (index 0 = left); an
  // arm without a gap just above its fingertip is taken as raised.
  Vec3 armpit[2];
  bool raised[2] = {false, false};
  for (int side : {+1, -1}) {
    const int i = side > 0 ? 0 : 1;
    const Vec3 tip = L[side > 0 ? 4 : 8].position;
    if (F.arm_gap(tip.y + 0.02 * F.h, side)) {
      armpit[i] = F.hanging_armpit(tip, side);
    } else {
      armpit[i] = F.raised_armpit(tip, side);
      raised[i] = true;
    }
    L.push_back({side > 0 ? "armpit_l" : "armpit_r", armpit[i]});
  }
  // Shoulder tops: straight down onto the body above each armpit.
  for (int i = 0; i < 2; ++i) {
    const Vec3 from{armpit[i].x, F.box.max.y + 0.1 * F.h, armpit[i].z};
    const auto hit = tree.intersect(Ray{from, {0, -1, 0}});
    if (!hit) F.fail("nothing above the armpit");
    L.push_back({i == 0 ? "shoulder_l" : "shoulder_r", from + Vec3{0, -hit->t, 0}});
  }
  // Arm centres: at 35 % and 70 % of the way from armpit to fingertip height
  // on horizontal cuts for a hanging arm (its outermost span); on vertical
  // cuts (planes x = const) for a raised one (the span nearest the line from
  // armpit to fingertip).
  for (int side : {+1, -1}) {
    const int i = side > 0 ? 0 : 1;
    const Vec3 tip = L[side > 0 ? 4 : 8].position;
    for (double f : {0.35, 0.7}) {
      const std::string name = std::string(f < 0.5 ? "elbow" : "wrist") + (side > 0 ? "_l" : "_r");
      if (raised[i]) {
        // The hanging cuts, measured on MakeHuman's base body (arm 50 degrees
        // below the horizontal), lie 0.165 and 0.077 of the body's height back
        // along the arm from the fingertip (across x for a raised arm); a raised arm is cut there, so the
        // landmarks stay on the same places of the arm in either pose (the
        // armpit itself moves along the arm as the arm rises).
        const double back = (f < 0.5 ? 0.165 : 0.077) * F.h;
        const double t = std::clamp(back / std::abs(tip.x - armpit[i].x), 0.0, 1.0);
        L.push_back({name, F.raised_arm_centre(tip + (armpit[i] - tip) * t)});
        continue;
      }
      const double y = armpit[i].y + f * (tip.y - armpit[i].y);
      const BodyCut c = F.cut(y);
      if (c.spans.size() < 2) F.fail("no arm in a cut between armpit and fingertip");
      const SectionSpan& arm = side > 0 ? c.spans.back() : c.spans.front();
      L.push_back({name, F.span_centre(c, arm.lo, arm.hi, y)});
    }
  }
  // Leg centres on cuts between floor and crotch (the span nearest the mid-plane on each side).
  for (double f : {0.12, 0.55, 0.85}) {
    const double y = floor_y + f * (yc - floor_y);
    const BodyCut c = F.cut(y);
    const auto& iv = c.spans;
    for (int side : {+1, -1}) {
      int best = -1;
      for (std::size_t k = 0; k < iv.size(); ++k) {
        if ((iv[k].middle() - F.xmid) * side <= 0) continue;
        if (best < 0 || std::abs(iv[k].middle() - F.xmid) < std::abs(iv[best].middle() - F.xmid))
          best = static_cast<int>(k);
      }
      if (best < 0) F.fail("no leg in a cut below the crotch");
      const char* name = f < 0.3 ? "ankle" : (f < 0.7 ? "knee" : "thigh");
      L.push_back(
          {std::string(name) + (side > 0 ? "_l" : "_r"), F.span_centre(c, iv[best].lo, iv[best].hi, y)});
    }
  }
  // Torso front/back on the mid-plane, and sides, between crotch and armpits.
  const double ya = std::min(armpit[0].y, armpit[1].y);
  for (double f : {0.15, 0.5, 0.85}) {
    const double y = yc + f * (ya - yc);
    const BodyCut c = F.cut(y);
    const auto zr = F.z_range_at_x(c, F.xmid);
    if (zr.first > zr.second) F.fail("the torso does not cross the mid-plane");
    const std::string level = f < 0.3 ? "hip" : (f < 0.7 ? "waist" : "chest");
    L.push_back({level + "_front", {F.xmid, y, zr.second}});
    L.push_back({level + "_back", {F.xmid, y, zr.first}});
    const int t = span_containing(c.spans, F.xmid);
    if (f == 0.5 && t >= 0) {
      L.push_back({"waist_side_l", F.span_centre(c, c.spans[t].hi, c.spans[t].hi, y)});
      L.push_back({"waist_side_r", F.span_centre(c, c.spans[t].lo, c.spans[t].lo, y)});
    }
  }
  // Neck and head centres.
  for (double f : {0.5, 0.8}) {
    const double y = ya + f * (F.box.max.y - ya);
    const BodyCut c = F.cut(y);
    const int t = span_containing(c.spans, F.xmid);
    if (t < 0) F.fail("no neck or head on the mid-plane");
    L.push_back({f < 0.7 ? "neck" : "head", F.span_centre(c, c.spans[t].lo, c.spans[t].hi, y)});
  }
  return L;
}

}  // namespace drape

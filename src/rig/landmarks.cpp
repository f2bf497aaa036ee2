#include "drape/rig/landmarks.h"

#include <algorithm>
#include <cmath>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/core/exceptions.h"

namespace drape {

namespace {
struct Segment {
  Vec3 a, b;
};

// Cut of the mesh by the plane p[axis] = c (axis 1: a horizontal cut, 0: a
// vertical cut across x).
std::vector<Segment> slice(const TriangleMesh& m, double c, int axis = 1) {
  std::vector<Segment> out;
  for (const Triangle& f : m.faces) {
    Vec3 p[3] = {m.positions[f[0]], m.positions[f[1]], m.positions[f[2]]};
    Vec3 pts[2];
    int k = 0;
    for (int e = 0; e < 3 && k < 2; ++e) {
      const Vec3 &u = p[e], &v = p[(e + 1) % 3];
      // Half-open rule (below: p < c) so a vertex exactly on the plane is counted once.
      if ((u[axis] < c) != (v[axis] < c)) {
        const double t = (c - u[axis]) / (v[axis] - u[axis]);
        pts[k++] = u + (v - u) * t;
      }
    }
    if (k == 2) out.push_back({pts[0], pts[1]});
  }
  return out;
}

// The merged intervals along `along` (0 = x, 1 = y) that a cut covers, sorted.
std::vector<std::pair<double, double>> intervals_of(const std::vector<Segment>& segs, int along = 0) {
  std::vector<std::pair<double, double>> iv;
  for (const Segment& s : segs)
    iv.push_back({std::min(s.a[along], s.b[along]), std::max(s.a[along], s.b[along])});
  std::sort(iv.begin(), iv.end());
  std::vector<std::pair<double, double>> merged;
  for (const auto& i : iv) {
    if (!merged.empty() && i.first <= merged.back().second)
      merged.back().second = std::max(merged.back().second, i.second);
    else
      merged.push_back(i);
  }
  return merged;
}

struct Finder {
  const TriangleMesh& m;
  std::string src;
  Aabb box;
  double xmid, h;

  [[noreturn]] void fail(const std::string& what) const {
    throw InvalidInput(
        src, 0,
        "landmark finder: " + what + " (expects a standing body in an A- or T-pose, +y up, facing +z)");
  }
  int interval_containing(const std::vector<std::pair<double, double>>& iv, double x) const {
    for (std::size_t i = 0; i < iv.size(); ++i)
      if (iv[i].first <= x && x <= iv[i].second) return static_cast<int>(i);
    return -1;
  }
  // Point of a cut's component [lo, hi] along `along`: its middle there, on
  // the cut plane p[axis] = c, z in the middle of the component's extent.
  static Vec3 component_centre(const std::vector<Segment>& segs, std::pair<double, double> iv, double c,
                               int axis = 1, int along = 0) {
    double zlo = 1e300, zhi = -1e300;
    for (const Segment& s : segs)
      for (const Vec3& p : {s.a, s.b})
        if (p[along] >= iv.first && p[along] <= iv.second) {
          zlo = std::min(zlo, p.z);
          zhi = std::max(zhi, p.z);
        }
    Vec3 out;
    out[axis] = c;
    out[along] = (iv.first + iv.second) / 2;
    out.z = (zlo + zhi) / 2;
    return out;
  }
  // z of the cut's point nearest x (the contour reaching a gap's edge).
  static double z_near_x(const std::vector<Segment>& segs, double x) {
    double best = 1e300, z = 0;
    for (const Segment& s : segs)
      for (const Vec3& p : {s.a, s.b})
        if (std::abs(p.x - x) < best) {
          best = std::abs(p.x - x);
          z = p.z;
        }
    return z;
  }
  // z values where the slice crosses the vertical plane x = x0.
  std::pair<double, double> z_range_at_x(const std::vector<Segment>& segs, double x0) const {
    double zlo = 1e300, zhi = -1e300;
    for (const Segment& s : segs)
      if ((s.a.x < x0) != (s.b.x < x0)) {
        const double z = s.a.z + (s.b.z - s.a.z) * (x0 - s.a.x) / (s.b.x - s.a.x);
        zlo = std::min(zlo, z);
        zhi = std::max(zhi, z);
      }
    return {zlo, zhi};
  }
  double rel(double f) const { return box.min.y + f * h; }
  // Bisection on y between a level where pred is true and one where it is false.
  template <class P>
  double bisect(double y_true, double y_false, P pred) const {
    for (int i = 0; i < 60; ++i) {
      const double mid = (y_true + y_false) / 2;
      (pred(mid) ? y_true : y_false) = mid;
    }
    return y_true;
  }
  bool centre_covered(double y) const { return interval_containing(intervals_of(slice(m, y)), xmid) >= 0; }
  // Side +1 (left, +x) or -1: is there a component beyond the torso's on that side?
  bool arm_gap(double y, int side) const {
    const auto iv = intervals_of(slice(m, y));
    const int t = interval_containing(iv, xmid);
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
    const double ya = bisect(y_true, y_false, [&](double y) { return arm_gap(y, side); });
    const auto segs = slice(m, ya - 1e-5 * h);
    const auto iv = intervals_of(segs);
    const int t = interval_containing(iv, xmid);
    const double torso_edge = side > 0 ? iv[t].second : iv[t].first;
    const double arm_edge = side > 0 ? iv[t + 1].first : iv[t - 1].second;
    return {(torso_edge + arm_edge) / 2, ya, (z_near_x(segs, torso_edge) + z_near_x(segs, arm_edge)) / 2};
  }
  // Does the torso's component of the cut at y reach x = x_far on `side`
  // (through an arm joined to it at that level)?
  bool torso_reaches(double y, int side, double x_far) const {
    const auto iv = intervals_of(slice(m, y));
    const int t = interval_containing(iv, xmid);
    if (t < 0) return false;
    return side > 0 ? iv[t].second >= x_far : iv[t].first <= x_far;
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
    const double y_reach = bisect(y_true, y_false, [&](double y) { return torso_reaches(y, side, x_far); });
    // Below that level the torso's edge follows the arm's underside in to
    // the torso's side: descend until the edge moves in less than it drops
    // (the contour steeper than 45 degrees).
    auto edge = [&](double y) {
      const auto iv = intervals_of(slice(m, y));
      const int t = interval_containing(iv, xmid);
      if (t < 0) fail("no torso below a raised arm");
      return side > 0 ? iv[t].second : iv[t].first;
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
    return {e, ya, z_near_x(slice(m, ya), e)};
  }
  // Centre of a raised arm at the point p on the line from armpit to
  // fingertip: the cut by the plane x = p.x, its component (along y) nearest p.
  Vec3 raised_arm_centre(const Vec3& p) const {
    const auto segs = slice(m, p.x, 0);
    const auto iv = intervals_of(segs, 1);
    if (iv.empty()) fail("no arm in a cut between armpit and fingertip");
    std::size_t best = 0;
    auto off = [&](std::size_t k) { return std::max({iv[k].first - p.y, p.y - iv[k].second, 0.0}); };
    for (std::size_t k = 1; k < iv.size(); ++k)
      if (off(k) < off(best)) best = k;
    return component_centre(segs, iv[best], p.x, 0, 1);
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

std::vector<std::pair<double, double>> cross_section_x_intervals(const TriangleMesh& mesh, double y) {
  return intervals_of(slice(mesh, y));
}

std::vector<Landmark> find_body_landmarks(const TriangleMesh& body, const std::string& source) {
  if (body.face_count() == 0) throw InvalidInput(source, 0, "landmark finder: the body has no faces");
  const TriangleMeshBvh tree(body);
  return find_body_landmarks(tree, source);
}

std::vector<Landmark> find_body_landmarks(const TriangleMeshBvh& tree, const std::string& source) {
  const TriangleMesh& body = tree.mesh();
  if (body.face_count() == 0) throw InvalidInput(source, 0, "landmark finder: the body has no faces");
  Finder F{body, source, body.bounds(), 0, 0};
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
  if (F.centre_covered(F.rel(0.2)) || !F.centre_covered(F.rel(0.6))) F.fail("no gap between the legs");
  const double yc = F.bisect(F.rel(0.2), F.rel(0.6), [&](double y) { return !F.centre_covered(y); });
  const double eps = 1e-5 * F.h;
  {
    const auto zr = F.z_range_at_x(slice(body, yc + eps), F.xmid);
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
  // on horizontal cuts for a hanging arm (its outermost component); on
  // vertical cuts (planes x = const) for a raised one (the component nearest
  // the line from armpit to fingertip).
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
      const auto segs = slice(body, y);
      const auto iv = intervals_of(segs);
      if (iv.size() < 2) F.fail("no arm in a cut between armpit and fingertip");
      L.push_back({name, F.component_centre(segs, side > 0 ? iv.back() : iv.front(), y)});
    }
  }
  // Leg centres on cuts between floor and crotch (the component nearest the mid-plane on each side).
  for (double f : {0.12, 0.55, 0.85}) {
    const double y = floor_y + f * (yc - floor_y);
    const auto segs = slice(body, y);
    const auto iv = intervals_of(segs);
    for (int side : {+1, -1}) {
      int best = -1;
      for (std::size_t k = 0; k < iv.size(); ++k) {
        const double c = (iv[k].first + iv[k].second) / 2;
        if ((c - F.xmid) * side <= 0) continue;
        if (best < 0 || std::abs(c - F.xmid) < std::abs((iv[best].first + iv[best].second) / 2 - F.xmid))
          best = static_cast<int>(k);
      }
      if (best < 0) F.fail("no leg in a cut below the crotch");
      const char* name = f < 0.3 ? "ankle" : (f < 0.7 ? "knee" : "thigh");
      L.push_back({std::string(name) + (side > 0 ? "_l" : "_r"), F.component_centre(segs, iv[best], y)});
    }
  }
  // Torso front/back on the mid-plane, and sides, between crotch and armpits.
  const double ya = std::min(armpit[0].y, armpit[1].y);
  for (double f : {0.15, 0.5, 0.85}) {
    const double y = yc + f * (ya - yc);
    const auto segs = slice(body, y);
    const auto zr = F.z_range_at_x(segs, F.xmid);
    if (zr.first > zr.second) F.fail("the torso does not cross the mid-plane");
    const std::string level = f < 0.3 ? "hip" : (f < 0.7 ? "waist" : "chest");
    L.push_back({level + "_front", {F.xmid, y, zr.second}});
    L.push_back({level + "_back", {F.xmid, y, zr.first}});
    const auto iv = intervals_of(segs);
    const int t = F.interval_containing(iv, F.xmid);
    if (f == 0.5 && t >= 0) {
      L.push_back({"waist_side_l", F.component_centre(segs, {iv[t].second, iv[t].second}, y)});
      L.push_back({"waist_side_r", F.component_centre(segs, {iv[t].first, iv[t].first}, y)});
    }
  }
  // Neck and head centres.
  for (double f : {0.5, 0.8}) {
    const double y = ya + f * (F.box.max.y - ya);
    const auto segs = slice(body, y);
    const auto iv = intervals_of(segs);
    const int t = F.interval_containing(iv, F.xmid);
    if (t < 0) F.fail("no neck or head on the mid-plane");
    L.push_back({f < 0.7 ? "neck" : "head", F.component_centre(segs, iv[t], y)});
  }
  return L;
}

}  // namespace drape

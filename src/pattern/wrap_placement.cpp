#include "wrap_placement.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "drape/core/union_find.h"
#include "drape/pattern/alias.h"

namespace drape::detail {
namespace {

constexpr Vec3 kUp{0, 1, 0};
// Radius of the arch's rounded corners where the level top turns down into a panel's plane, metres.
constexpr double kCorner = 0.05;

bool is_torso(const Panel& p) { return parse_alias(p.alias).part == AliasPart::torso; }

// One panel of a group bent over the shoulders.
struct Bent {
  std::size_t panel = 0;
  Vec3 centre;        // flat placement's vertex centroid
  Vec3 e_h, e_v;      // in-plane orthonormal axes of the flat placement (across, up)
  double side = 1;    // +1: on the group's front (n_g side), -1: behind
  double depth = 0;   // dot(centre, n_g)
  double v_seam = 0;  // in-plane height of the top seams (mean over their samples), from centre
  std::vector<int> top_edges;
};

}  // namespace

ShoulderWrapResult wrap_over_shoulders(const Pattern& pat, const PatternMesh& pm, const BodyProximity& body,
                                       const std::vector<Vec3>& normals, double clearance, double max_lift,
                                       std::vector<Vec3>& pos) {
  const std::size_t np = pat.panels.size();
  ShoulderWrapResult res;
  res.wrapped.assign(np, 0);
  auto verts = [&](std::size_t p) {
    const PanelMeshRange& r = pm.panels[p];
    std::vector<int> v(static_cast<std::size_t>(r.vertex_count));
    for (int i = 0; i < r.vertex_count; ++i) v[static_cast<std::size_t>(i)] = r.first_vertex + i;
    return v;
  };
  // Horizontal outward normal (zero when the panel lies nearly flat).
  std::vector<Vec3> nh(np);
  std::vector<double> ylo(np, 1e300), yhi(np, -1e300);
  for (std::size_t p = 0; p < np; ++p) {
    const Vec3 h{normals[p].x, 0, normals[p].z};
    if (norm(h) > 0.7) nh[p] = normalized(h);
    for (int v : verts(p)) {
      ylo[p] = std::min(ylo[p], pos[v].y);
      yhi[p] = std::max(yhi[p], pos[v].y);
    }
  }
  // A side of a top seam: an edge more horizontal than vertical in the top 30 % of its panel.
  auto top_side = [&](const StitchSide& s) {
    const std::vector<int>& ev = pm.panels[s.panel].edge_vertices[s.edge];
    if (ev.size() < 2) return false;
    double y = 0;
    for (int v : ev) y += pos[v].y;
    y /= static_cast<double>(ev.size());
    const Vec3 d = pos[ev.back()] - pos[ev.front()];
    const std::size_t p = static_cast<std::size_t>(s.panel);
    return y >= yhi[p] - 0.3 * (yhi[p] - ylo[p]) && std::abs(d.y) < std::hypot(d.x, d.z);
  };
  // Panels sewn to sleeves keep their flat placement: lifting an armhole over
  // the shoulder would leave the sleeve cap behind.
  std::vector<char> has_sleeve(np, 0);
  for (const Stitch& st : pat.stitches) {
    const AliasPart pa = parse_alias(pat.panels[st.a.panel].alias).part;
    const AliasPart pb = parse_alias(pat.panels[st.b.panel].alias).part;
    if (pb == AliasPart::sleeve || pb == AliasPart::cuff) has_sleeve[st.a.panel] = 1;
    if (pa == AliasPart::sleeve || pa == AliasPart::cuff) has_sleeve[st.b.panel] = 1;
  }
  UnionFind groups(np);
  std::vector<std::vector<int>> top_edges(np);
  for (const Stitch& st : pat.stitches) {
    const auto p = static_cast<std::size_t>(st.a.panel), q = static_cast<std::size_t>(st.b.panel);
    if (p == q || !is_torso(pat.panels[p]) || !is_torso(pat.panels[q])) continue;
    if (norm(nh[p]) == 0 || norm(nh[q]) == 0 || dot(nh[p], nh[q]) > -0.7) continue;
    if (!top_side(st.a) || !top_side(st.b)) continue;
    top_edges[p].push_back(st.a.edge);
    top_edges[q].push_back(st.b.edge);
    groups.unite(static_cast<int>(p), static_cast<int>(q));
  }

  for (std::size_t rep = 0; rep < np; ++rep) {
    if (groups.find(static_cast<int>(rep)) != static_cast<int>(rep) || top_edges[rep].empty()) continue;
    std::vector<Bent> bent;
    const Vec3 ng = nh[rep];
    const Vec3 g = cross(kUp, ng);  // generator of the cylinder: across the body
    double front = 0, back = 0;
    int n_front = 0, n_back = 0;
    for (std::size_t p = 0; p < np; ++p) {
      if (groups.find(static_cast<int>(p)) != static_cast<int>(rep) || top_edges[p].empty()) continue;
      Bent b;
      b.panel = p;
      b.top_edges = top_edges[p];
      const std::vector<int> vs = verts(p);
      for (int v : vs) b.centre += pos[v];
      b.centre /= static_cast<double>(vs.size());
      b.e_h = normalized(cross(kUp, normals[p]));
      b.e_v = cross(normals[p], b.e_h);
      b.side = dot(nh[p], ng) > 0 ? 1.0 : -1.0;
      b.depth = dot(b.centre, ng);
      int n = 0;
      for (int e : b.top_edges)
        for (int v : pm.panels[p].edge_vertices[static_cast<std::size_t>(e)]) {
          b.v_seam += dot(pos[v] - b.centre, b.e_v);
          ++n;
        }
      b.v_seam /= static_cast<double>(n);
      (b.side > 0 ? front : back) += b.depth;
      ++(b.side > 0 ? n_front : n_back);
      bent.push_back(b);
    }
    bool sleeved = false;
    for (const Bent& b : bent) sleeved = sleeved || has_sleeve[b.panel];
    if (n_front == 0 || n_back == 0 || sleeved) continue;
    // The apex line lies between the group's mean front and back planes, at
    // fraction t from the back: each panel's arch radius is its distance from
    // it, so both quarter circles meet the apex line tangentially.
    const double zf = front / n_front, zb = back / n_back;
    double y0 = 0;
    for (Bent& b : bent) y0 += b.centre.y + b.v_seam;
    y0 /= static_cast<double>(bent.size());
    const double r_max = zf - zb;

    // Flat coordinates (h, v) of every vertex onto the arch whose apex line is
    // at height `apex` and depth `za` (along n_g), the panels' planes at `r`
    // either side of it (front and back alike: equal path lengths over the top
    // keep seams down the sides, e.g. side seams, level). The profile, from the apex
    // line towards a panel: level (over the top of the shoulders) to within
    // kCorner of the panel's plane, a quarter circle of radius kCorner, then
    // straight down the plane.
    auto map = [&](const Bent& b, int v, double apex, double za, double r) {
      const Vec3 d = pos[v] - b.centre;
      const double h = dot(d, b.e_h), s = b.v_seam - dot(d, b.e_v);  // s: distance below the seam
      const double rho = std::min(kCorner, r), level = r - rho, quarter = 0.5 * std::numbers::pi * rho;
      double across, up;  // across: towards the panel's side from the apex line; up: from the apex
      if (s <= level) {   // on the level top (s < 0: past the apex line, still level)
        across = s;
        up = 0;
      } else if (s <= level + quarter) {
        const double phi = (s - level) / rho;
        across = level + rho * std::sin(phi);
        up = -rho * (1 - std::cos(phi));
      } else {
        across = r;
        up = -rho - (s - level - quarter);
      }
      return g * (dot(b.centre, g) + b.side * h) + ng * (za + b.side * across) + kUp * (apex + up);
    };
    // Vertices closer to the body than the clearance (or inside it), counting
    // no further than `limit`.
    auto radius = [&](double za) { return std::max(zf - za, za - zb); };
    auto bad = [&](double apex, double za, int limit) {
      int n = 0;
      for (const Bent& b : bent)
        for (int v : verts(b.panel)) {
          const Vec3 x = map(b, v, apex, za, radius(za));
          if ((body.distance(x, clearance) < clearance || body.inside(x)) && ++n > limit) return n;
        }
      return n;
    };
    // Lowest apex first (the seams rest on the shoulders), the apex line as
    // central between the flat front and back as the neck allows (the panel
    // nearer to it moves out: an apex line off-centre with unequal radii
    // opened a tee's side seams by 10 cm). A neckline narrower than the neck
    // leaves a few vertices in it at every height: keep the arch that leaves
    // fewest.
    const double lowest = y0 - 0.5 * r_max;
    constexpr double kFractions[] = {0.5, 0.45, 0.55, 0.4, 0.6, 0.35, 0.65, 0.3, 0.7};
    int best = std::numeric_limits<int>::max();
    double best_apex = 0, best_za = 0;
    for (double apex = lowest; apex <= y0 + max_lift + 1e-9 && best > 0; apex += 0.01)
      for (double t : kFractions) {
        const double za = zb + t * (zf - zb);
        const int n = bad(apex, za, best - 1);
        if (n < best) {
          best = n;
          best_apex = apex;
          best_za = za;
        }
        if (best == 0) break;
      }
    // The vertices left too close move straight forward or back (along n_g,
    // away from the apex line) until clear: the neckline opens around the neck.
    std::vector<std::pair<int, Vec3>> out;
    int pushed = 0;
    bool ok = best != std::numeric_limits<int>::max();
    for (const Bent& b : bent)
      for (int v : verts(b.panel)) {
        Vec3 x = map(b, v, best_apex, best_za, radius(best_za));
        const double side = dot(x, ng) >= best_za ? 1.0 : -1.0;
        int k = 0;
        for (; k < 40 && (body.distance(x, clearance) < clearance || body.inside(x)); ++k)
          x += ng * (side * 0.005);
        if (k == 40) ok = false;
        pushed += k > 0;
        out.emplace_back(v, x);
      }
    std::string names;
    for (const Bent& b : bent) names += (names.empty() ? "'" : ", '") + pat.panels[b.panel].name + "'";
    if (!ok) {
      res.warnings.push_back(
          "panels " + names +
          ": no clear arch over the shoulders found; left flat (their top seams start apart)");
      continue;
    }
    for (const auto& [v, x] : out) pos[v] = x;
    for (const Bent& b : bent) res.wrapped[b.panel] = 1;
    res.pushed_vertices += pushed;
  }
  return res;
}

}  // namespace drape::detail

#include "wrap_placement.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numbers>

#include "drape/core/union_find.h"
#include "drape/pattern/alias.h"

namespace drape::detail {
namespace {

constexpr Vec3 kUp{0, 1, 0};
// Radius of the arch's rounded corners where the level top turns down, metres.
constexpr double kCorner = 0.05;
// Height step of the body's silhouette, metres.
constexpr double kBin = 0.01;
// The profile keeps this many clearances off the silhouette: surfaces sloping
// within a height step, or across the panel, come nearer than the depth gap.
constexpr double kProfileMargin = 2.0;
// Half width, in height steps, of the moving average that rounds the profile's bends.
constexpr std::ptrdiff_t kSmooth = 4;

// A polyline in a plane, walked by arc length; straight on past its ends.
struct Profile {
  std::vector<Vec2> pts;
  std::vector<double> len;  // arc length at each point
  void add(Vec2 p) {
    if (!pts.empty() && norm(p - pts.back()) < 1e-12) return;
    len.push_back(pts.empty() ? 0.0 : len.back() + norm(p - pts.back()));
    pts.push_back(p);
  }
  /// Arc length spent beyond the drop once the profile runs straight down.
  double excess() const { return len.back() + pts.back().y; }
  /// Moves everything after the level top out by d (a longer level top).
  void widen(double d) {
    for (std::size_t i = 1; i < pts.size(); ++i) pts[i].x += d;
    for (std::size_t i = 1; i < pts.size(); ++i) len[i] = len[i - 1] + norm(pts[i] - pts[i - 1]);
  }
  /// The point at arc length s; s < 0 continues level (along -x), s past the end straight down.
  Vec2 at(double s) const {
    if (s <= 0) return {s, 0};
    if (s >= len.back()) return pts.back() + Vec2{0, -(s - len.back())};
    const auto k = static_cast<std::size_t>(std::upper_bound(len.begin(), len.end(), s) - len.begin());
    const double t = (s - len[k - 1]) / (len[k] - len[k - 1]);
    return pts[k - 1] + (pts[k] - pts[k - 1]) * t;
  }
};

bool is_torso(const Panel& p) { return parse_alias(p.alias).part == AliasPart::torso; }

// One panel of a group bent over the shoulders.
struct Bent {
  std::size_t panel = 0;
  Vec3 centre;       // flat placement's vertex centroid
  Vec3 e_h, e_v;     // in-plane orthonormal axes of the flat placement (across, up)
  double side = 1;   // +1: on the group's front (n_g side), -1: behind
  double depth = 0;  // dot(centre, n_g)
  double layer =
      0;  // how much further out than its side's innermost panel it lay flat (layers keep their order)
  double v_seam = 0;  // in-plane height of the top seams (mean over their samples), from centre
  double shift = 0;   // across the body (along the generator), so its top seams meet their partners
  std::vector<int> top_edges;
};

// Mean position along `g` of a stitch side's samples.
double mean_along(const PatternMesh& pm, const std::vector<Vec3>& pos, const StitchSide& s, const Vec3& g) {
  const std::vector<int>& ev = pm.panels[s.panel].edge_vertices[s.edge];
  double m = 0;
  for (int v : ev) m += dot(pos[v], g);
  return m / static_cast<double>(std::max<std::size_t>(ev.size(), 1));
}

// Moves the group's panels across the body (along g, the arch's generator) so
// that the two sides of every top seam start level with each other: the
// least-squares shifts of the panels (mean shift zero, so a group centred on
// the body stays centred). A file may lay panels apart across the body (GPG's
// hooded jackets start their fronts 5 cm further out than their back's
// shoulder seams; its simulator pulls them in): bent as they lie, the seams
// would start astride the shoulders' width and the fronts over the arms.
// Shifts under 5 mm are left alone (the panel already meets its partners).
void align_across(const PatternMesh& pm, const std::vector<Vec3>& pos, const Vec3& g,
                  const std::vector<const Stitch*>& top_stitches, std::vector<Bent>& bent) {
  const std::size_t nb = bent.size();
  auto index = [&](int panel) {
    for (std::size_t i = 0; i < nb; ++i)
      if (bent[i].panel == static_cast<std::size_t>(panel)) return static_cast<std::ptrdiff_t>(i);
    return std::ptrdiff_t{-1};
  };
  struct Link {
    std::size_t a, b;
    double gap;  // mean g of side b minus side a
  };
  std::vector<Link> links;
  for (const Stitch* st : top_stitches) {
    const std::ptrdiff_t a = index(st->a.panel), b = index(st->b.panel);
    if (a < 0 || b < 0) continue;
    links.push_back({static_cast<std::size_t>(a), static_cast<std::size_t>(b),
                     mean_along(pm, pos, st->b, g) - mean_along(pm, pos, st->a, g)});
  }
  // Gauss-Seidel on the graph Laplacian: each panel's shift is the mean of
  // what its links ask for; the consistent singular system converges, then
  // the mean shift is removed.
  std::vector<double> shift(nb, 0.0);
  for (int it = 0; it < 500; ++it)
    for (std::size_t i = 0; i < nb; ++i) {
      double sum = 0;
      int n = 0;
      for (const Link& l : links) {
        if (l.a == i) sum += shift[l.b] + l.gap, ++n;
        if (l.b == i) sum += shift[l.a] - l.gap, ++n;
      }
      if (n > 0) shift[i] = sum / n;
    }
  double mean = 0;
  for (double s : shift) mean += s;
  mean /= static_cast<double>(std::max<std::size_t>(nb, 1));
  for (std::size_t i = 0; i < nb; ++i)
    if (std::abs(shift[i] - mean) >= 0.005) bent[i].shift = shift[i] - mean;
}

}  // namespace

ShoulderWrapResult wrap_over_shoulders(const Pattern& pat, const PatternMesh& pm,
                                       const TriangleMesh& body_mesh, const TriangleMeshBvh& body,
                                       const std::vector<Vec3>& normals, double clearance, double max_lift,
                                       std::vector<Vec3>& pos) {
  const std::size_t np = pat.panels.size();
  ShoulderWrapResult res;
  res.wrapped.assign(np, 0);
  auto verts = [&](std::size_t p) { return pm.panels[p].vertex_ids(); };
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
  std::vector<const Stitch*> top_stitches;
  for (const Stitch& st : pat.stitches) {
    const auto p = static_cast<std::size_t>(st.a.panel), q = static_cast<std::size_t>(st.b.panel);
    if (p == q || !is_torso(pat.panels[p]) || !is_torso(pat.panels[q])) continue;
    if (norm(nh[p]) == 0 || norm(nh[q]) == 0 || dot(nh[p], nh[q]) > -0.7) continue;
    if (!top_side(st.a) || !top_side(st.b)) continue;
    top_edges[p].push_back(st.a.edge);
    top_edges[q].push_back(st.b.edge);
    top_stitches.push_back(&st);
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
    align_across(pm, pos, g, top_stitches, bent);
    // The apex line lies between the group's mean front and back planes.
    const double zf = front / n_front, zb = back / n_back;
    double inner_front = 1e300, inner_back = -1e300;
    for (const Bent& b : bent)
      (b.side > 0 ? inner_front : inner_back) =
          b.side > 0 ? std::min(inner_front, b.depth) : std::max(inner_back, b.depth);
    for (Bent& b : bent) b.layer = b.side * (b.depth - (b.side > 0 ? inner_front : inner_back));
    double y0 = 0;
    Vec3 glo{1e300, 0, 0}, ghi{-1e300, 0, 0};
    for (Bent& b : bent) {
      y0 += b.centre.y + b.v_seam;
      for (int v : verts(b.panel)) {
        glo.x = std::min(glo.x, dot(pos[v], g) + b.shift);
        ghi.x = std::max(ghi.x, dot(pos[v], g) + b.shift);
      }
    }
    y0 /= static_cast<double>(bent.size());
    // The body's silhouette seen along g over the group's width: per 1 cm of
    // height, its frontmost and backmost depth along n_g.
    const double ybot = body_mesh.bounds().min.y;
    const int nbins = static_cast<int>((body_mesh.bounds().max.y - ybot) / kBin) + 1;
    std::vector<double> most_front(static_cast<std::size_t>(nbins), -1e300),
        most_back(static_cast<std::size_t>(nbins), 1e300);
    for (const Vec3& x : body_mesh.positions) {
      const double t = dot(x, g);
      if (t < glo.x - clearance || t > ghi.x + clearance) continue;
      const auto k =
          static_cast<std::size_t>(std::clamp(static_cast<int>((x.y - ybot) / kBin), 0, nbins - 1));
      most_front[k] = std::max(most_front[k], dot(x, ng));
      most_back[k] = std::min(most_back[k], dot(x, ng));
    }
    // The arch's profile on one side (+1 front, -1 back), as a polyline in
    // (across: from the apex line towards that side, up: from the apex): level
    // from the apex line, a quarter circle of radius kCorner, then down at the
    // body's silhouette plus the clearance, never turning back in going down
    // (cloth hangs from the widest point above) and leaning out at most 45
    // degrees (smooth enough that a triangle edge across a bend keeps most of
    // its length).
    auto profile = [&](double apex, double za, double side) {
      std::vector<double> need;
      for (double y = apex - 0.5 * kBin; y > ybot; y -= kBin) {
        const auto k =
            static_cast<std::size_t>(std::clamp(static_cast<int>((y - ybot) / kBin), 0, nbins - 1));
        const double ext = side > 0 ? most_front[k] : most_back[k];
        const double e = std::abs(ext) > 1e299 ? 0.0 : side * (ext - za) + kProfileMargin * clearance;
        need.push_back(std::max(e, need.empty() ? 0.0 : need.back()));
      }
      for (std::size_t k = need.size(); k-- > 1;) need[k - 1] = std::max(need[k - 1], need[k] - kBin);
      // Smooth the bends (a moving average over kSmooth bins either side),
      // then move out by what the average gave up, so it still clears: a
      // triangle edge across a sharp bend would start shorter than its pattern.
      if (!need.empty()) {
        std::vector<double> avg(need.size());
        const auto n = static_cast<std::ptrdiff_t>(need.size());
        double lift = 0;
        for (std::ptrdiff_t k = 0; k < n; ++k) {
          double sum = 0;
          for (std::ptrdiff_t j = k - kSmooth; j <= k + kSmooth; ++j)
            sum += need[static_cast<std::size_t>(std::clamp<std::ptrdiff_t>(j, 0, n - 1))];
          avg[static_cast<std::size_t>(k)] = sum / (2 * kSmooth + 1);
          lift = std::max(lift, need[static_cast<std::size_t>(k)] - avg[static_cast<std::size_t>(k)]);
        }
        for (std::size_t k = 0; k < need.size(); ++k) need[k] = avg[k] + lift;
      }
      Profile pr;
      // The corner must clear what lies beside it, down to kCorner below the apex.
      const std::size_t corner_bins = static_cast<std::size_t>(kCorner / kBin);
      const double top = std::max(need.empty() ? 0.0 : need[std::min(corner_bins, need.size() - 1)], kCorner);
      pr.add({0, 0});
      pr.add({top - kCorner, 0});
      for (int i = 1; i <= 8; ++i) {
        const double phi = 0.5 * std::numbers::pi * i / 8;
        pr.add({top - kCorner + kCorner * std::sin(phi), -kCorner * (1 - std::cos(phi))});
      }
      for (std::size_t k = 0; k < need.size(); ++k) {
        const double up = -(static_cast<double>(k) + 0.5) * kBin;
        if (up < -kCorner) pr.add({std::max(need[k], top), up});
      }
      return pr;
    };
    // Both sides' profiles, the one that takes the shorter path down widened
    // (a longer level top) so both reach every height below the body's
    // widest point with the same arc length: seams down the sides (side
    // seams) then start level.
    auto profiles = [&](double apex, double za) {
      std::pair<Profile, Profile> fb{profile(apex, za, 1), profile(apex, za, -1)};
      const double d = fb.first.excess() - fb.second.excess();
      (d > 0 ? fb.second : fb.first).widen(std::abs(d));
      return fb;
    };
    // Flat coordinates (h, v) of every vertex onto the arch: across the body
    // as in the flat placement, the distance below the panel's top seams along
    // the profile of its side.
    auto map = [&](const Bent& b, int v, double apex, double za, const Profile& pf, const Profile& pb) {
      const Vec3 d = pos[v] - b.centre;
      const double h = dot(d, b.e_h), s = b.v_seam - dot(d, b.e_v);  // s: distance below the seam
      const Vec2 q = (b.side > 0 ? pf : pb).at(s);
      return g * (dot(b.centre, g) + b.shift + b.side * h) + ng * (za + b.side * (q.x + b.layer)) +
             kUp * (apex + q.y);
    };
    // Vertices closer to the body than the clearance (or inside it), counting
    // no further than `limit`.
    auto bad = [&](double apex, double za, int limit) {
      const auto [pf, pb] = profiles(apex, za);
      int n = 0;
      for (const Bent& b : bent)
        for (int v : verts(b.panel)) {
          const Vec3 x = map(b, v, apex, za, pf, pb);
          if ((body.distance(x, clearance) < clearance || body.contains(x)) && ++n > limit) return n;
        }
      return n;
    };
    // Lowest apex first (the seams rest on the shoulders), the apex line as
    // central between the flat front and back as the neck allows. A neckline
    // narrower than the neck leaves a few vertices in it at every height:
    // keep the arch that leaves fewest.
    const double lowest = y0 - 0.15;
    constexpr double kFractions[] = {0.5, 0.45, 0.55, 0.4, 0.6, 0.35, 0.65, 0.3, 0.7};
    // Fewest vertices too close over all candidates, then the lowest apex
    // within kSlack of that (a higher apex lifts the whole garment).
    constexpr int kSlack = 2;
    std::vector<std::pair<double, double>> cand;  // (apex, za), lowest apex first
    std::vector<int> count;
    int fewest = std::numeric_limits<int>::max();
    for (double apex = lowest; apex <= y0 + max_lift + 1e-9 && fewest > 0; apex += 0.01)
      for (double t : kFractions) {
        const double za = zb + t * (zf - zb);
        const int n = bad(apex, za, fewest == std::numeric_limits<int>::max() ? fewest : fewest + kSlack);
        cand.emplace_back(apex, za);
        count.push_back(n);
        fewest = std::min(fewest, n);
        if (fewest == 0) break;
      }
    std::size_t pick = 0;
    while (pick + 1 < count.size() && count[pick] > fewest + kSlack) ++pick;
    const int best = cand.empty() ? std::numeric_limits<int>::max() : count[pick];
    const double best_apex = cand.empty() ? 0 : cand[pick].first,
                 best_za = cand.empty() ? 0 : cand[pick].second;
    const auto [best_pf, best_pb] = profiles(best_apex, best_za);
    // The vertices left too close move straight forward or back (along n_g,
    // away from the apex line) until clear: the neckline opens around the neck.
    std::vector<std::pair<int, Vec3>> out;
    int pushed = 0;
    bool ok = best != std::numeric_limits<int>::max();
    for (const Bent& b : bent)
      for (int v : verts(b.panel)) {
        Vec3 x = map(b, v, best_apex, best_za, best_pf, best_pb);
        const double side = dot(x, ng) >= best_za ? 1.0 : -1.0;
        int k = 0;
        for (; k < 40 && (body.distance(x, clearance) < clearance || body.contains(x)); ++k)
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

#include "hood_placement.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <limits>
#include <memory>
#include <numbers>

#include "drape/core/union_find.h"
#include "drape/pattern/alias.h"

namespace drape::detail {
namespace {

// Spacing of the crown seam's samples the bend measures distances to, metres.
constexpr double kSeamStep = 0.005;
// Width of the weights that blend the directions from the seam's samples,
// metres: the direction stays continuous where the nearest seam point jumps
// (inside a corner of the seam).
constexpr double kBlend = 0.02;
// The halves stand this many clearances off the head's widest point.
constexpr double kHeadMargin = 2.0;
constexpr double kLiftStep = 0.01;
constexpr double kMaxLift = 0.15;
// Steps of the search behind the head, metres.
constexpr double kBackStep = 0.02;

bool is_hood(const Panel& p) { return parse_alias(p.alias).part == AliasPart::hood; }

// A point in the sagittal plane: (z, y).
Vec2 sagittal(const Vec3& x) { return {x.z, x.y}; }

// The cloth a hood group must not start through: every other panel's
// triangles, in a tree over their placed positions. A pair of triangles that
// will share a vertex once the seams are sewn (joined through seam pairs) is
// not a crossing: a hood's neckline triangles meet the torso's there.
class OtherCloth {
 public:
  template <class InGroup>
  OtherCloth(const PatternMesh& pm, const std::vector<Vec3>& pos, InGroup in_group)
      : faces_(pm.garment.mesh.faces), welded_(pos.size()) {
    mesh_.positions = pos;
    mesh_.faces = pm.garment.mesh.faces;
    std::vector<int> other;
    for (std::size_t f = 0; f < faces_.size(); ++f)
      (in_group(pm.garment.panel_of_vertex[static_cast<std::size_t>(faces_[f][0])]) ? group_ : other)
          .push_back(static_cast<int>(f));
    tree_ = std::make_unique<TriangleMeshBvh>(mesh_, other);
    for (const SeamVertexPair& s : pm.garment.seam_pairs) welded_.unite(s.a, s.b);
  }

  /// Triangle pairs (a group triangle, another) that cross with the group's
  /// vertices in `moved` at `where(x)`.
  template <class Where>
  int crossings(const std::vector<std::pair<int, Vec3>>& moved, Where where) const {
    if (group_.empty() || tree_->face_count() == 0) return 0;
    TriangleMesh m = mesh_;
    for (const auto& [v, x] : moved) m.positions[static_cast<std::size_t>(v)] = where(x);
    const TriangleMeshBvh group_tree(m, group_);
    int n = 0;
    for (const auto& [a, b] : group_tree.intersecting_pairs(*tree_)) {
      bool adjacent = false;
      for (int u : faces_[static_cast<std::size_t>(a)])
        for (int v : faces_[static_cast<std::size_t>(b)])
          adjacent = adjacent || welded_.find(u) == welded_.find(v);
      n += !adjacent;
    }
    return n;
  }

 private:
  const std::vector<Triangle>& faces_;
  TriangleMesh mesh_;
  std::vector<int> group_;
  std::unique_ptr<TriangleMeshBvh> tree_;
  mutable UnionFind welded_;
};

}  // namespace

HoodWrapResult wrap_around_head(const Pattern& pat, const PatternMesh& pm, const TriangleMesh& body_mesh,
                                const TriangleMeshBvh& body, const BodyFrame& bf,
                                const std::vector<Vec3>& normals, double clearance, std::vector<Vec3>& pos) {
  const std::size_t np = pat.panels.size();
  HoodWrapResult res;
  res.wrapped.assign(np, 0);
  auto verts = [&](std::size_t p) { return pm.panels[p].vertex_ids(); };
  // The head: the body above the neck.
  double hx_lo = 1e300, hx_hi = -1e300, hz_lo = 1e300, hz_hi = -1e300;
  for (const Vec3& x : body_mesh.positions)
    if (x.y > bf.neck_y) {
      hx_lo = std::min(hx_lo, x.x);
      hx_hi = std::max(hx_hi, x.x);
      hz_lo = std::min(hz_lo, x.z);
      hz_hi = std::max(hz_hi, x.z);
    }
  if (hx_lo > hx_hi) return res;
  const double head_x = 0.5 * (hx_lo + hx_hi);
  const double radius = 0.5 * (hx_hi - hx_lo) + kHeadMargin * clearance;

  // Side of the body each hood panel lies on (+1 left, -1 right; 0: not a
  // hood half lying beside the head).
  std::vector<double> side(np, 0.0);
  for (std::size_t p = 0; p < np; ++p) {
    if (!is_hood(pat.panels[p]) || pm.panels[p].vertex_count == 0 || std::abs(normals[p].x) < 0.7) continue;
    double cx = 0;
    const std::vector<int> vs = verts(p);
    for (int v : vs) cx += pos[v].x;
    cx /= static_cast<double>(vs.size());
    side[p] = cx >= head_x ? 1.0 : -1.0;
  }
  // Crown seams: stitches between hood halves on opposite sides.
  UnionFind groups(np);
  std::vector<std::vector<int>> crown(np);
  for (const Stitch& st : pat.stitches) {
    const auto p = static_cast<std::size_t>(st.a.panel), q = static_cast<std::size_t>(st.b.panel);
    if (side[p] == 0 || side[q] == 0 || side[p] == side[q]) continue;
    crown[p].push_back(st.a.edge);
    crown[q].push_back(st.b.edge);
    groups.unite(static_cast<int>(p), static_cast<int>(q));
  }

  for (std::size_t rep = 0; rep < np; ++rep) {
    if (groups.find(static_cast<int>(rep)) != static_cast<int>(rep) || crown[rep].empty()) continue;
    std::vector<std::size_t> members;
    for (std::size_t p = 0; p < np; ++p)
      if (groups.find(static_cast<int>(p)) == static_cast<int>(rep) && !crown[p].empty())
        members.push_back(p);
    // Each half's crown seam, densified, in its sagittal plane; the halves
    // are moved so their seams' centres coincide (the file's halves may not
    // mirror each other exactly).
    std::vector<std::vector<Vec2>> seam(np);
    std::vector<Vec2> shift(np);
    Vec2 centre{};
    for (std::size_t p : members) {
      Vec2 c{};
      int n = 0;
      for (int e : crown[p]) {
        const std::vector<int>& ev = pm.panels[p].edge_vertices[static_cast<std::size_t>(e)];
        for (std::size_t i = 0; i < ev.size(); ++i) {
          c += sagittal(pos[ev[i]]);
          ++n;
          if (i == 0) continue;
          const Vec2 a = sagittal(pos[ev[i - 1]]), b = sagittal(pos[ev[i]]);
          const int k = std::max(1, static_cast<int>(std::ceil(norm(b - a) / kSeamStep)));
          for (int j = (i == 1 ? 0 : 1); j <= k; ++j)
            seam[p].push_back(a + (b - a) * (static_cast<double>(j) / k));
        }
      }
      shift[p] = c / static_cast<double>(std::max(n, 1));
      centre += shift[p];
    }
    centre = centre / static_cast<double>(members.size());
    for (std::size_t p : members) shift[p] = centre - shift[p];

    // The bent position of every vertex, before the group's sagittal move.
    std::vector<std::pair<int, Vec3>> bent;
    for (std::size_t p : members) {
      if (seam[p].empty()) continue;
      for (int v : verts(p)) {
        const Vec2 q = sagittal(pos[v]);
        double dmin = 1e300;
        for (const Vec2& s : seam[p]) dmin = std::min(dmin, norm(q - s));
        // The distance is the nearest sample's; the direction away from the
        // seam a blend over the samples near that distance.
        const double d = dmin;
        double wsum = 0;
        Vec2 dir{};
        for (const Vec2& s : seam[p]) {
          const double di = norm(q - s);
          const double w = std::exp(-(di - dmin) / kBlend);
          wsum += w;
          if (di > 1e-12) dir += (q - s) * (w / di);
        }
        dir = dir / wsum;
        // From the seam sideways (the halves meet level over the crown), a
        // quarter circle of radius R, then straight down beside the head.
        const double quarter = 0.5 * std::numbers::pi * radius;
        const double out = d < quarter ? radius * std::sin(d / radius) : radius;
        const double along = d < quarter ? radius * (1 - std::cos(d / radius)) : radius + (d - quarter);
        const Vec2 r = q + shift[p] - dir * (d - along);
        bent.emplace_back(v, Vec3{head_x + side[p] * out, r.y, r.x});
      }
    }
    // Move the hood so its neckline meets the necklines it is sewn to.
    Vec2 mine{}, theirs{};
    int n_neck = 0;
    auto in_group = [&](int p) {
      return std::find(members.begin(), members.end(), static_cast<std::size_t>(p)) != members.end();
    };
    std::vector<Vec3> moved(pos.size());
    for (const auto& [v, x] : bent) moved[static_cast<std::size_t>(v)] = x;
    for (const Stitch& st : pat.stitches)
      for (const auto& [a, b] : {std::pair{st.a, st.b}, std::pair{st.b, st.a}}) {
        if (!in_group(a.panel) || in_group(b.panel)) continue;
        for (int v : pm.panels[a.panel].edge_vertices[a.edge]) mine += sagittal(moved[v]), ++n_neck;
        for (int v : pm.panels[b.panel].edge_vertices[b.edge]) theirs += sagittal(pos[v]);
      }
    const Vec2 to_neck = n_neck > 0 ? (theirs - mine) / static_cast<double>(n_neck) : Vec2{};
    // Lowest lift that clears the body and starts through no other panel
    // (a front wrapped over the shoulder up to the neck), the hood moved
    // forward or back as little as that allows; else the fewest vertices too
    // close plus crossing triangle pairs.
    auto placed = [&](const Vec3& x, double lift, double fore) {
      return x + Vec3{0, to_neck.y + lift, to_neck.x + fore};
    };
    auto too_close = [&](const Vec3& x) {
      return body.distance(x, clearance) < clearance || body.contains(x);
    };
    const OtherCloth others(pm, pos, [&](int p) { return in_group(p); });
    double best_lift = 0, best_fore = 0;
    int fewest = std::numeric_limits<int>::max();
    // Vertices too close plus crossing pairs at (lift, fore), counted only
    // while fewer than the best so far; the best kept.
    auto try_place = [&](double lift, double fore) {
      int n = 0;
      for (const auto& [v, x] : bent)
        if (too_close(placed(x, lift, fore)) && ++n >= fewest) return;
      n += others.crossings(bent, [&](const Vec3& x) { return placed(x, lift, fore); });
      if (n < fewest) {
        fewest = n;
        best_lift = lift;
        best_fore = fore;
      }
    };
    constexpr double kFore[] = {0, -0.02, 0.02, -0.04, 0.04, -0.06, 0.06, -0.08, 0.08};
    for (double lift = 0; lift <= kMaxLift + 1e-9 && fewest > 0; lift += kLiftStep)
      for (double fore : kFore) {
        try_place(lift, fore);
        if (fewest == 0) break;
      }
    // A head too deep for the hood within that reach (the Godot man's): the
    // hood goes further back, never further forward, by as little as clears
    // it (nearest first), at most the head's depth (which puts the hood's
    // front behind the head). A hood in front of the face would have to come
    // back over it to reach the neckline; one behind the head only has to
    // come forward and down round it.
    if (fewest > 0) {
      std::vector<std::pair<double, double>> behind;
      // (Steps accumulated, as in the search above: the same lifts.)
      double lift = 0;
      while (lift <= kMaxLift + 1e-9) {
        double fore = *std::min_element(std::begin(kFore), std::end(kFore)) - kBackStep;
        while (fore >= hz_lo - hz_hi - 1e-9) {
          behind.emplace_back(lift, fore);
          fore -= kBackStep;
        }
        lift += kLiftStep;
      }
      std::stable_sort(behind.begin(), behind.end(), [](const auto& a, const auto& b) {
        return a.first * a.first + a.second * a.second < b.first * b.first + b.second * b.second;
      });
      const int front_fewest = fewest;
      const double front_lift = best_lift, front_fore = best_fore;
      fewest = std::numeric_limits<int>::max();
      for (const auto& [lift, fore] : behind) {
        try_place(lift, fore);
        if (fewest == 0) break;
      }
      // Nothing clear behind either: the fewest of both, ties to the front
      // (the reach of the first search).
      if (fewest >= front_fewest) {
        fewest = front_fewest;
        best_lift = front_lift;
        best_fore = front_fore;
      }
    }
    // What is still too close moves sideways, away from the head, until clear.
    bool ok = true;
    int pushed = 0;
    for (auto& [v, x] : bent) {
      x = placed(x, best_lift, best_fore);
      const double s = x.x >= head_x ? 1.0 : -1.0;
      int k = 0;
      for (; k < 40 && too_close(x); ++k) x.x += s * 0.005;
      ok = ok && k < 40;
      pushed += k > 0;
    }
    std::string names;
    for (std::size_t p : members) names += (names.empty() ? "'" : ", '") + pat.panels[p].name + "'";
    if (!ok) {
      res.warnings.push_back("hood panels " + names +
                             ": no clear place round the head found; left flat (their seams start apart)");
      continue;
    }
    for (const auto& [v, x] : bent) pos[v] = x;
    for (std::size_t p : members) res.wrapped[p] = 1;
    res.pushed_vertices += pushed;
  }
  return res;
}

}  // namespace drape::detail

#include "sleeve_bend.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "drape/pattern/alias.h"

namespace drape::detail {
namespace {

constexpr double kPushStep = 0.005;  // metres per step along the panel normal
constexpr double kMaxPush = 0.1;     // farthest a vertex is pushed out to clear the body, metres

bool sleeve_like(const Panel& p) {
  const AliasPart part = parse_alias(p.alias).part;
  return part == AliasPart::sleeve || part == AliasPart::cuff;
}

// Frontal-plane (xy) rotation angle and the two centroids that best map the
// points `from` onto `to` (2D Procrustes, least squares).
struct FrontalFit {
  double angle = 0;
  Vec3 from_centre{}, to_centre{};
};

FrontalFit fit_frontal(const std::vector<Vec3>& from, const std::vector<Vec3>& to) {
  FrontalFit f;
  for (std::size_t i = 0; i < from.size(); ++i) {
    f.from_centre += from[i];
    f.to_centre += to[i];
  }
  f.from_centre /= static_cast<double>(from.size());
  f.to_centre /= static_cast<double>(from.size());
  double c = 0, sn = 0;
  for (std::size_t i = 0; i < from.size(); ++i) {
    const Vec3 a = from[i] - f.from_centre, b = to[i] - f.to_centre;
    c += a.x * b.x + a.y * b.y;
    sn += a.x * b.y - a.y * b.x;
  }
  f.angle = std::atan2(sn, c);
  return f;
}

}  // namespace

SleeveBendResult bend_sleeve_caps(const Pattern& pat, const PatternMesh& pm, const TriangleMeshBvh& body,
                                  const std::vector<Vec3>& normals, double clearance,
                                  std::vector<Vec3>& pos) {
  const std::size_t np = pat.panels.size();
  const GarmentMesh& gm = pm.garment;
  SleeveBendResult res;
  res.bent.assign(np, 0);
  // Sleeve groups: sleeve and cuff panels connected by seams among themselves.
  std::vector<int> group(np, -1);
  int groups = 0;
  for (std::size_t p = 0; p < np; ++p) {
    if (!sleeve_like(pat.panels[p]) || group[p] >= 0) continue;
    std::vector<std::size_t> stack{p};
    group[p] = groups;
    while (!stack.empty()) {
      const std::size_t q = stack.back();
      stack.pop_back();
      for (const Stitch& st : pat.stitches)
        for (const auto& [a, b] : {std::pair{st.a.panel, st.b.panel}, std::pair{st.b.panel, st.a.panel}})
          if (static_cast<std::size_t>(a) == q && sleeve_like(pat.panels[b]) && group[b] < 0) {
            group[b] = groups;
            stack.push_back(static_cast<std::size_t>(b));
          }
    }
    ++groups;
  }
  for (int g = 0; g < groups; ++g) {
    // Cap samples: sleeve vertices sewn to a panel that is not a sleeve, and their partners.
    std::vector<Vec3> from, to;
    std::vector<std::vector<Vec2>> cap_uv(np);  // per sleeve panel of the group
    for (const Stitch& st : pat.stitches)
      for (const auto& [mine, other] : {std::pair{st.a, st.b}, std::pair{st.b, st.a}}) {
        const auto p = static_cast<std::size_t>(mine.panel);
        if (group[p] != g || parse_alias(pat.panels[p].alias).part != AliasPart::sleeve ||
            sleeve_like(pat.panels[other.panel]))
          continue;
        const std::vector<int>& vm = pm.panels[mine.panel].edge_vertices[mine.edge];
        const std::vector<int>& vo = pm.panels[other.panel].edge_vertices[other.edge];
        if (vm.size() != vo.size() || vm.empty()) continue;
        const std::size_t n = vm.size() - 1;
        for (std::size_t k = 0; k <= n; ++k) {
          from.push_back(pos[vm[k]]);
          to.push_back(pos[vo[st.right_wrong ? k : n - k]]);
          cap_uv[p].push_back(gm.mesh.uvs[vm[k]]);
        }
      }
    if (from.empty()) continue;
    // The rotation that turns the caps onto their armholes (about the caps'
    // centre, which the rigid placement already put on the armholes' on
    // average): a sleeve drawn at the body's arm angle gets ~0.
    const FrontalFit fit = fit_frontal(from, to);
    const Mat3 turn = Mat3::rotation_z(fit.angle);
    auto move_of = [&](const Vec3& x) {
      Vec3 d = turn * (x - fit.from_centre) + fit.to_centre - x;
      d.z = 0;  // depth is kept: the sleeve stays the layer it was placed as
      return d;
    };
    for (std::size_t i = 0; i < from.size(); ++i) {
      const Vec3 d = move_of(from[i]);
      res.largest_cap_move = std::max(res.largest_cap_move, norm(d));
    }
    // Each vertex's distance from its panel's cap (pattern coordinates); the
    // move fades to zero at the group's farthest vertex.
    std::vector<double> dist(gm.mesh.uvs.size(), -1);
    double far = 0;
    for (std::size_t p = 0; p < np; ++p) {
      if (cap_uv[p].empty()) continue;
      const PanelMeshRange& r = pm.panels[p];
      for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v) {
        double d2 = 1e300;
        for (const Vec2& c : cap_uv[p]) {
          const Vec2 e = gm.mesh.uvs[v] - c;
          d2 = std::min(d2, dot(e, e));
        }
        dist[v] = std::sqrt(d2);
        far = std::max(far, dist[v]);
      }
    }
    if (!(far > 0)) continue;
    for (std::size_t p = 0; p < np; ++p) {
      if (cap_uv[p].empty()) continue;
      const PanelMeshRange& r = pm.panels[p];
      for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v) {
        const double t = std::min(dist[v] / far, 1.0);
        pos[v] += move_of(pos[v]) * (1 - t * t * (3 - 2 * t));
      }
      // Keep the clearance: move vertices now too near the body (or inside
      // it) out along the panel's outward normal.
      for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v) {
        double off = 0;
        auto clear = [&] {
          const Vec3 x = pos[v] + normals[p] * off;
          return body.distance(x, clearance) >= clearance && !body.contains(x);
        };
        while (off < kMaxPush && !clear()) off += kPushStep;
        if (off > 0) {
          pos[v] += normals[p] * off;
          ++res.pushed_vertices;
        }
      }
      res.bent[p] = 1;
    }
  }
  return res;
}

}  // namespace drape::detail

#include "sleeve_bend.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "drape/core/union_find.h"
#include "drape/pattern/alias.h"

namespace drape::detail {
namespace {

constexpr double kPushStep = 0.005;  // metres per step along the panel normal
constexpr double kMaxPush = 0.1;     // farthest a vertex is pushed out to clear the body, metres
// Smallest radius (pattern distance) over which a torso corner's move fades out, metres.
constexpr double kCornerFade = 0.12;

bool sleeve_like(const Panel& p) {
  const AliasPart part = parse_alias(p.alias).part;
  return part == AliasPart::sleeve || part == AliasPart::cuff;
}

// The armpit in the frontal view. Going down from above the shoulders, the
// body's silhouette (z rays through the whole depth), walked outward from
// the torso, first reaches beyond the torso's side (the arm joined on) and
// then, at the armpit, ends at the torso's side (within a quarter of the
// torso's half width beyond it) with a gap at least kMinGap wide before the
// arm (or nothing beyond: a T-pose). Returns the gap's middle at the first
// such height (z = the body's centre), or nothing when there is none above
// the waist.
constexpr double kMinGap = 0.02;
constexpr double kScanY = 0.005, kScanX = 0.0025;

bool hits_at(const TriangleMeshBvh& body, double x, double y, const Aabb& box) {
  const Ray r{{x, y, box.min.z - 0.1}, {0, 0, 1}, 0, box.extent().z + 0.2};
  return body.intersects_any(r);
}

std::optional<Vec3> armpit_point(const TriangleMeshBvh& body, const BodyFrame& bf, double sgn) {
  const Aabb& box = bf.bounds;
  const double x_far = sgn > 0 ? box.max.x + 0.01 : box.min.x - 0.01;
  bool arm_joined = false;
  for (int k = 0; bf.shoulder_y + 0.05 - k * kScanY > bf.waist_y; ++k) {
    const double y = bf.shoulder_y + 0.05 - k * kScanY;
    double x = bf.centre_x + sgn * 0.25 * bf.torso_half_width;
    if (!hits_at(body, x, y, box)) continue;
    while ((x_far - x) * sgn > 0 && hits_at(body, x, y, box)) x += sgn * kScanX;
    const double edge = x;  // first point outside the body
    if ((edge - bf.centre_x) * sgn > 1.25 * bf.torso_half_width) {
      arm_joined = true;
      continue;
    }
    if (!arm_joined) continue;  // above the arm (the neck, the shoulder's top)
    while ((x_far - x) * sgn > 0 && !hits_at(body, x, y, box)) x += sgn * kScanX;
    if ((x - edge) * sgn < kMinGap) continue;
    const double right = (x_far - x) * sgn > 0 ? x : edge + sgn * kMinGap;
    return Vec3{0.5 * (edge + right), y, bf.centre_z};
  }
  return std::nullopt;
}

// Moves, in the frontal plane, the vertices of panel `p` by `d` times a
// smoothstep fade of their pattern distance from `at` (the moved corner's
// panel coordinates), zero from `radius` on.
void fade_move(const PatternMesh& pm, std::size_t p, Vec2 at, Vec3 d, double radius, std::vector<Vec3>& pos) {
  const PanelMeshRange& r = pm.panels[p];
  d.z = 0;
  for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v) {
    const double t = std::min(norm(pm.garment.mesh.uvs[v] - at) / radius, 1.0);
    pos[v] += d * (1 - t * t * (3 - 2 * t));
  }
}

}  // namespace

SleeveBendResult bend_sleeve_caps(const Pattern& pat, const PatternMesh& pm, const TriangleMeshBvh& body,
                                  const BodyFrame& bf, const std::vector<Vec3>& normals, double clearance,
                                  std::vector<Vec3>& pos) {
  const std::size_t np = pat.panels.size();
  const GarmentMesh& gm = pm.garment;
  SleeveBendResult res;
  res.bent.assign(np, 0);
  // Sleeve groups: sleeve and cuff panels connected by seams among themselves,
  // numbered in the order of their lowest panel.
  UnionFind joined(np);
  for (const Stitch& st : pat.stitches)
    if (sleeve_like(pat.panels[st.a.panel]) && sleeve_like(pat.panels[st.b.panel]))
      joined.unite(st.a.panel, st.b.panel);
  std::vector<int> group(np, -1);
  int groups = 0;
  for (std::size_t p = 0; p < np; ++p)
    if (sleeve_like(pat.panels[p])) {
      const auto root = static_cast<std::size_t>(joined.find(static_cast<int>(p)));
      group[p] = root == p ? groups++ : group[root];
    }
  std::optional<Vec3> armpit[2];
  bool armpit_known[2] = {false, false};
  std::vector<Vec3> target = pos;  // the caps' targets
  for (int g = 0; g < groups; ++g) {
    // Armhole pairs: a sleeve vertex of the group and its partner on a panel
    // that is not a sleeve (the torso).
    struct Pair {
      std::size_t sleeve_panel, torso_panel;
      int sleeve_vertex, torso_vertex;
    };
    std::vector<Pair> pairs;
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
        for (std::size_t k = 0; k <= n; ++k)
          pairs.push_back({p, static_cast<std::size_t>(other.panel), vm[k], vo[st.right_wrong ? k : n - k]});
      }
    if (pairs.empty()) continue;
    // Only a group whose own seams (underarm, top) start astride the body.
    bool astride = false;
    for (const SeamVertexPair& sp : gm.seam_pairs) {
      if (group[gm.panel_of_vertex[sp.a]] != g || group[gm.panel_of_vertex[sp.b]] != g) continue;
      if (body.intersects_segment(pos[sp.a], pos[sp.b])) {
        astride = true;
        break;
      }
    }
    if (!astride) continue;
    // 1. The caps' targets: the armholes with each torso panel's armhole
    //    corner (its lowest armhole vertex, the side-seam top) moved to the
    //    armpit, the move fading out along the panel. The torso itself does
    //    not move (moved in its plane it starts compressed and buckles).
    //    The side is the one the armhole partners lie on.
    double mean_x = 0;
    for (const Pair& q : pairs) mean_x += pos[q.torso_vertex].x / static_cast<double>(pairs.size());
    const int side = mean_x >= bf.centre_x ? 0 : 1;
    if (!armpit_known[side]) {
      armpit[side] = armpit_point(body, bf, side == 0 ? 1.0 : -1.0);
      armpit_known[side] = true;
    }
    if (armpit[side]) {
      res.armpits.push_back(*armpit[side]);
      std::vector<int> corner(np, -1);
      for (const Pair& q : pairs) {
        int& c = corner[q.torso_panel];
        if (c < 0 || pos[q.torso_vertex].y < pos[c].y) c = q.torso_vertex;
      }
      for (std::size_t t = 0; t < np; ++t) {
        if (corner[t] < 0) continue;
        const Vec3 d = *armpit[side] - pos[corner[t]];
        const double radius = std::max(kCornerFade, 2.5 * std::hypot(d.x, d.y));
        fade_move(pm, t, gm.mesh.uvs[corner[t]], d, radius, target);
        res.largest_corner_move = std::max(res.largest_corner_move, std::hypot(d.x, d.y));
      }
    }
    // 2. Each sleeve vertex moves by the offset from the cap to its targets
    //    (inverse-square-distance weighted over the cap samples in pattern
    //    coordinates: exact at the samples), fading out with its distance
    //    from the cap to zero at the group's farthest vertex.
    std::vector<double> dist(gm.mesh.uvs.size(), -1);
    std::vector<Vec3> move(gm.mesh.uvs.size());
    double far = 0;
    for (std::size_t p = 0; p < np; ++p) {
      if (group[p] != g) continue;
      const PanelMeshRange& r = pm.panels[p];
      for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v) {
        double d2min = 1e300, wsum = 0;
        Vec3 m{};
        bool exact = false;
        for (const Pair& q : pairs) {
          if (q.sleeve_panel != p) continue;
          Vec3 d = target[q.torso_vertex] - pos[q.sleeve_vertex];
          d.z = 0;  // depth is kept: the sleeve stays the layer it was placed as
          const Vec2 e = gm.mesh.uvs[v] - gm.mesh.uvs[q.sleeve_vertex];
          const double d2 = dot(e, e);
          d2min = std::min(d2min, d2);
          if (exact) continue;
          if (d2 < 1e-16) {
            exact = true;
            m = d;
            continue;
          }
          m += d / d2;
          wsum += 1 / d2;
        }
        if (d2min > 1e299) continue;  // a panel of the group without a cap (a cuff) stays rigid
        dist[v] = std::sqrt(d2min);
        move[v] = exact ? m : m / wsum;
        far = std::max(far, dist[v]);
      }
    }
    if (!(far > 0)) continue;
    for (std::size_t p = 0; p < np; ++p) {
      if (group[p] != g || pm.panels[p].vertex_count == 0 || dist[pm.panels[p].first_vertex] < 0) continue;
      const PanelMeshRange& r = pm.panels[p];
      for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v) {
        const double t = std::min(dist[v] / far, 1.0);
        if (t == 0) res.largest_cap_move = std::max(res.largest_cap_move, norm(move[v]));
        pos[v] += move[v] * (1 - t * t * (3 - 2 * t));
      }
      res.bent[p] = 1;
    }
  }
  // Keep the clearance: vertices of bent sleeves now too near the body (or
  // inside it) move out along their panel's outward normal.
  for (std::size_t p = 0; p < np; ++p) {
    if (!res.bent[p]) continue;
    const PanelMeshRange& r = pm.panels[p];
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
  }
  return res;
}

}  // namespace drape::detail

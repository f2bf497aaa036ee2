#include "drape/pattern/placement.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <numbers>
#include <utility>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/core/exceptions.h"
#include "drape/core/executor.h"
#include "drape/pattern/alias.h"
#include "hood_placement.h"
#include "placement_relax.h"
#include "side_by_side.h"
#include "sleeve_bend.h"
#include "wrap_placement.h"

namespace drape {
namespace {

// The body a pattern file's 3D placement was made for. crotch, waist and
// shoulder are fractions of the height above the floor (analyse_body on
// GarmentCode's mean_all body, data/bodies/garmentcode/mean_all_tpose.obj:
// 0.4275, 0.6475, 0.8325); GPG's SMPL-like body is taken to share them.
struct ReferenceBody {
  double floor_y, height, centre_x, centre_z;
  double crotch = 0.4275, waist = 0.6475, shoulder = 0.8325;
};

ReferenceBody reference_of(SourceFrame f) {
  // GarmentCode's default body: 1.72 m, standing at y = 0, torso centred near z = 2.5 cm.
  if (f == SourceFrame::gpg) return {-1.121, 1.72, 0.0, 0.0};
  return {0.0, 1.72, 0.0, 0.025};
}

// A height on the reference body to the same place on `bf`: piecewise linear
// through floor, crotch, waist, shoulders and the top of the head, so that a
// waistband lands on this body's waist and a hem as far between crotch and
// floor as on the reference (bodies differ most in leg length and waist
// height: a uniform scale put a skirt's waistband 10 cm below a tall woman's
// waist, where it could not close, and above a short man's).
double map_height(const ReferenceBody& ref, const BodyFrame& bf, double y) {
  const double f = (y - ref.floor_y) / ref.height;
  const std::array<double, 5> from{0, ref.crotch, ref.waist, ref.shoulder, 1};
  const std::array<double, 5> to{0, (bf.crotch_y - bf.floor_y) / bf.height,
                                 (bf.waist_y - bf.floor_y) / bf.height,
                                 (bf.shoulder_y - bf.floor_y) / bf.height, 1};
  double g = f;
  if (std::is_sorted(to.begin(), to.end(), std::less_equal<>()) && to[1] > 0 && to[3] < 1) {
    std::size_t i = 1;
    while (i + 1 < from.size() && f > from[i]) ++i;  // f in [from[i-1], from[i]] or beyond the ends
    g = to[i - 1] + (f - from[i - 1]) * (to[i] - to[i - 1]) / (from[i] - from[i - 1]);
  }
  return bf.floor_y + g * bf.height;
}

Vec3 apply(const RigidTransform& t, Vec2 p) { return t.rotation * Vec3{p.x, p.y, 0} + t.translation; }

bool is_sleeve(const Panel& p) {
  const AliasPart part = parse_alias(p.alias).part;
  return part == AliasPart::sleeve || part == AliasPart::cuff;
}

// A sleeve group's axis in the xy plane, pointing away from the body (sgn = +1
// left, -1 right), and its pivot: from the armhole (the group's edges sewn to
// panels that are not sleeves) to the group's centre; without an armhole seam,
// the principal axis of the outline and its proximal end.
std::pair<Vec3, Vec3> sleeve_axis(const Pattern& pat, const PatternMesh& pm,
                                  const std::vector<std::size_t>& group, const std::vector<RigidTransform>& t,
                                  double sgn) {
  const GarmentMesh& gm = pm.garment;
  std::vector<Vec3> pts;
  for (std::size_t p : group) {
    const PanelMeshRange& r = pm.panels[p];
    for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v)
      pts.push_back(apply(t[p], gm.mesh.uvs[v]));
  }
  Vec3 m{};
  for (const Vec3& q : pts) m += q;
  m /= static_cast<double>(std::max<std::size_t>(pts.size(), 1));
  Vec3 armhole{};
  int n_arm = 0;
  for (const Stitch& st : pat.stitches)
    for (const auto& [mine, other] : {std::pair{st.a, st.b}, std::pair{st.b, st.a}}) {
      if (std::find(group.begin(), group.end(), static_cast<std::size_t>(mine.panel)) == group.end())
        continue;
      if (is_sleeve(pat.panels[other.panel])) continue;
      for (int v : pm.panels[mine.panel].edge_vertices[mine.edge]) {
        armhole += apply(t[mine.panel], gm.mesh.uvs[v]);
        ++n_arm;
      }
    }
  Vec3 u;
  if (n_arm > 0) {
    armhole /= static_cast<double>(n_arm);
    u = normalized(Vec3{m.x - armhole.x, m.y - armhole.y, 0});
  } else {
    double sxx = 0, sxy = 0, syy = 0;
    for (const Vec3& q : pts) {
      sxx += (q.x - m.x) * (q.x - m.x);
      sxy += (q.x - m.x) * (q.y - m.y);
      syy += (q.y - m.y) * (q.y - m.y);
    }
    const double ang = 0.5 * std::atan2(2 * sxy, sxx - syy);
    u = {std::cos(ang), std::sin(ang), 0};
  }
  if (u.x * sgn < 0) u = -u;
  if (n_arm > 0) return {u, armhole};
  double lo = 1e300;
  for (const Vec3& q : pts) lo = std::min(lo, dot(q - m, u));
  return {u, m + u * lo};
}

// Mean offset, in the xy plane, from a sleeve group's armhole seam samples to
// their partners on non-sleeve panels (zero without an armhole seam).
Vec3 armhole_offset(const Pattern& pat, const PatternMesh& pm, const std::vector<std::size_t>& group,
                    const std::vector<RigidTransform>& t) {
  const GarmentMesh& gm = pm.garment;
  auto in_group = [&](int p) {
    return std::find(group.begin(), group.end(), static_cast<std::size_t>(p)) != group.end();
  };
  Vec3 d{};
  int n = 0;
  for (const Stitch& st : pat.stitches)
    for (const auto& [mine, other] : {std::pair{st.a, st.b}, std::pair{st.b, st.a}}) {
      if (!in_group(mine.panel) || in_group(other.panel) || is_sleeve(pat.panels[other.panel])) continue;
      // Both sides have the same sample count; the sums need no pairing.
      for (int v : pm.panels[mine.panel].edge_vertices[mine.edge]) {
        d -= apply(t[mine.panel], gm.mesh.uvs[v]);
        ++n;
      }
      for (int v : pm.panels[other.panel].edge_vertices[other.edge])
        d += apply(t[other.panel], gm.mesh.uvs[v]);
    }
  if (n == 0) return {};
  d /= static_cast<double>(n);
  d.z = 0;
  return d;
}

// The panel's outward unit normal (away from the body's vertical axis) and its centroid.
std::pair<Vec3, Vec3> outward_normal(const PatternMesh& pm, const BodyFrame& bf, std::size_t p,
                                     const RigidTransform& t) {
  const PanelMeshRange& r = pm.panels[p];
  Vec3 c{};
  for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v)
    c += apply(t, pm.garment.mesh.uvs[v]);
  c /= static_cast<double>(std::max(r.vertex_count, 1));
  Vec3 n = t.rotation * Vec3{0, 0, static_cast<double>(r.orientation)};
  const Vec3 axis{bf.centre_x, c.y, bf.centre_z};
  if (dot(n, c - axis) < -0.02) n = -n;
  return {n, c};
}

// Panels facing the same way that overlap seen along their normal (e.g. a
// sleeve behind the torso's front at the armhole) keep the order of their start
// positions with at least `gap` between them: the clearance step moves each
// panel on its own and may leave two such layers touching or swapped, which
// the cloth cannot undo (the sewing would have to pull one through the other).
// The outer panel moves out, so every panel stays clear of the body.
void keep_layers(const Pattern& pat, const PatternMesh& pm, const BodyFrame& bf,
                 const std::vector<RigidTransform>& start, double gap, PlacementResult& res) {
  const std::size_t np = pat.panels.size();
  constexpr double kOrder = 0.005;  // start positions this far apart along the normal define an order
  // Overlap (along both in-plane axes) that makes two panels layers: a
  // narrower strip is where two panels meet at a seam (a waistband above a
  // skirt), which the clearance step may reorder freely.
  constexpr double kOverlap = 0.05;
  constexpr double kParallel = 0.95;  // cosine between normals of layered panels
  auto points = [&](std::size_t p) {
    std::vector<Vec3> pts;
    const PanelMeshRange& r = pm.panels[p];
    for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v)
      pts.push_back(apply(res.panel_transforms[p], pm.garment.mesh.uvs[v]));
    return pts;
  };
  for (int pass = 0; pass < 4; ++pass) {
    bool moved = false;
    for (std::size_t p = 0; p < np; ++p)
      for (std::size_t q = 0; q < np; ++q) {
        if (p == q || pm.panels[p].vertex_count == 0 || pm.panels[q].vertex_count == 0) continue;
        const auto [n0p, c0p] = outward_normal(pm, bf, p, start[p]);
        const auto [n0q, c0q] = outward_normal(pm, bf, q, start[q]);
        // p started outside q; or neither (both in one plane, e.g. the front
        // halves of a shirt overlapping on a body narrower than the pattern's
        // reference body) and p is the later panel.
        const double order = dot(c0p - c0q, n0p);
        if (dot(n0p, n0q) < kParallel || (order < kOrder && !(order > -kOrder && p > q))) continue;
        const auto [n, c] = outward_normal(pm, bf, p, res.panel_transforms[p]);
        const Vec3 e1 = res.panel_transforms[p].rotation * Vec3{1, 0, 0};
        const Vec3 e2 = res.panel_transforms[p].rotation * Vec3{0, 1, 0};
        const std::vector<Vec3> pp = points(p), pq = points(q);
        double lo[2][2] = {{1e300, 1e300}, {1e300, 1e300}}, hi[2][2] = {{-1e300, -1e300}, {-1e300, -1e300}};
        double p_in = 1e300, q_out = -1e300;
        for (int k = 0; k < 2; ++k)
          for (const Vec3& x : k == 0 ? pp : pq) {
            lo[k][0] = std::min(lo[k][0], dot(x, e1));
            hi[k][0] = std::max(hi[k][0], dot(x, e1));
            lo[k][1] = std::min(lo[k][1], dot(x, e2));
            hi[k][1] = std::max(hi[k][1], dot(x, e2));
            if (k == 0)
              p_in = std::min(p_in, dot(x, n));
            else
              q_out = std::max(q_out, dot(x, n));
          }
        bool overlap = true;
        for (int a = 0; a < 2; ++a)
          overlap = overlap && std::min(hi[0][a], hi[1][a]) - std::max(lo[0][a], lo[1][a]) > kOverlap;
        const double need = q_out + gap - p_in;
        if (!overlap || need <= 0) continue;
        res.panel_transforms[p].translation += n * need;
        res.offsets[p] += need;
        moved = true;
      }
    if (!moved) break;
  }
}

}  // namespace

PlacementResult place_on_body(const Pattern& pat, PatternMesh& pm, const TriangleMesh& body,
                              const BodyFrame& bf, const PlacementOptions& o) {
  const TriangleMeshBvh tree(body);
  return place_on_body(pat, pm, tree, bf, o);
}

PlacementResult place_on_body(const Pattern& pat, PatternMesh& pm, const TriangleMeshBvh& prox,
                              const BodyFrame& bf, const PlacementOptions& o) {
  const TriangleMesh& body = prox.mesh();
  if (pm.panels.size() != pat.panels.size())
    throw InvalidInput("place_on_body: the mesh has " + std::to_string(pm.panels.size()) +
                       " panels, the pattern " + std::to_string(pat.panels.size()));
  GarmentMesh& gm = pm.garment;
  const std::size_t np = pat.panels.size();
  PlacementResult res;
  res.panel_transforms.resize(np);
  res.offsets.assign(np, 0.0);
  res.clearance.assign(np, 0.0);
  const ReferenceBody ref = reference_of(pat.frame);
  const double k = bf.height / ref.height;
  auto map_point = [&](const Vec3& p) {
    return Vec3{bf.centre_x + (p.x - ref.centre_x) * k, map_height(ref, bf, p.y),
                bf.centre_z + (p.z - ref.centre_z) * k};
  };
  auto panel_centroid2 = [&](std::size_t p) {
    Vec2 c{};
    const PanelMeshRange& r = pm.panels[p];
    for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v) c += gm.mesh.uvs[v];
    return c / static_cast<double>(std::max(r.vertex_count, 1));
  };
  auto points_of = [&](std::size_t p, const RigidTransform& t) {
    std::vector<Vec3> pts;
    const PanelMeshRange& r = pm.panels[p];
    for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v)
      pts.push_back(apply(t, gm.mesh.uvs[v]));
    return pts;
  };

  // The garment hangs from its top (a waistband, a skirt's or trousers'
  // waist, shoulders, a strapless bodice's edge): the file's panels, but for
  // sleeves, cuffs, hoods and collars, all move up or down by the one shift
  // that takes that top to the same place on this body (map_height), so
  // panels sewn one above the other stay together and a waistband starts at
  // the waist of a short or a tall body.
  double file_top = -1e300;
  for (std::size_t p = 0; p < np; ++p) {
    const Panel& panel = pat.panels[p];
    const AliasPart part = parse_alias(panel.alias).part;
    if (!panel.has_placement || is_sleeve(panel) || part == AliasPart::hood || part == AliasPart::collar)
      continue;
    for (const Vec3& q : points_of(p, RigidTransform{panel.rotation(), panel.translation}))
      file_top = std::max(file_top, q.y);
  }
  const double hang_shift = file_top > -1e300 ? map_height(ref, bf, file_top) - file_top : 0.0;

  std::vector<char> from_file(np, 0);
  for (std::size_t p = 0; p < np; ++p) {
    const Panel& panel = pat.panels[p];
    const AliasInfo a = parse_alias(panel.alias);
    RigidTransform t;
    if (panel.has_placement && pat.frame != SourceFrame::none && !o.force_alias_placement) {
      from_file[p] = 1;
      t.rotation = panel.rotation();
      t.translation = panel.translation;
      const Vec3 c = apply(t, panel_centroid2(p));
      t.translation += map_point(c) - c;
      if (!is_sleeve(panel)) t.translation.y = panel.translation.y + hang_shift;
      if (a.part == AliasPart::torso) {
        // Bodies differ in shoulder height relative to their stature: a torso
        // panel whose top ends below the shoulders would have its shoulder seam
        // pulled straight through the body. Lift it as alias placement does.
        double top = -1e300;
        for (const Vec3& q : points_of(p, t)) top = std::max(top, q.y);
        const double want = bf.shoulder_y + 0.03 * bf.height;
        if (top < want) t.translation.y += want - top;
      }
    } else if (a.part == AliasPart::unknown) {
      // No alias and no placement: park it beside the body, flat, facing +Z.
      const Vec2 c = panel_centroid2(p);
      t.translation = Vec3{bf.bounds.max.x + 0.4 + 0.6 * static_cast<double>(p), bf.waist_y, bf.centre_z} -
                      Vec3{c.x, c.y, 0};
      res.warnings.push_back("panel '" + panel.name + "': no alias and no placement; parked beside the body");
    } else {
      // Alias placement: outward normal to the alias' facing, then anchor by part.
      const double want = a.facing == AliasFacing::back ? -1.0 : 1.0;
      const double has = pm.panels[p].orientation;
      t.rotation = (want == has) ? Mat3::identity() : Mat3::rotation_y(std::numbers::pi);
      std::vector<Vec3> pts = points_of(p, t);
      if (a.part == AliasPart::sleeve || a.part == AliasPart::cuff) {
        // Sleeve axis along the arm, armhole (or proximal end) at the shoulder.
        const int side = a.side == AliasSide::right ? 1 : 0;
        res.panel_transforms[p] = t;
        const auto [u, pivot] = sleeve_axis(pat, pm, {p}, res.panel_transforms, side == 0 ? 1.0 : -1.0);
        const Vec3 d = bf.arm_direction[side];
        const Mat3 Rz = Mat3::rotation_z(std::atan2(d.y, d.x) - std::atan2(u.y, u.x));
        t.rotation = Rz * t.rotation;
        t.translation = Rz * (t.translation - pivot) + bf.shoulder[side];
        Vec3 c{};
        for (const Vec3& q : points_of(p, t)) c += q;
        t.translation.z += bf.centre_z - c.z / static_cast<double>(pts.size());
      } else {
        Aabb b;
        for (const Vec3& q : pts) b.expand(q);
        const double w = b.extent().x;
        double x = bf.centre_x;
        if (a.side == AliasSide::left) x += 0.5 * w;
        if (a.side == AliasSide::right) x -= 0.5 * w;
        double top = bf.shoulder_y + 0.03 * bf.height;
        switch (a.part) {
          case AliasPart::skirt:
          case AliasPart::leg:
            top = bf.waist_y + 0.02;
            break;
          case AliasPart::waistband:
            top = bf.waist_y + 0.5 * b.extent().y;
            break;
          case AliasPart::collar:
            top = bf.neck_y + b.extent().y - 0.02;
            break;
          case AliasPart::hood:
            top = bf.neck_y + b.extent().y;
            break;
          default:
            break;
        }
        t.translation = Vec3{x - b.center().x, top - b.max.y, bf.centre_z - b.center().z};
      }
    }
    res.panel_transforms[p] = t;
  }

  // Sleeves from the file: turn each side's sleeve panels together to the body's arm angle.
  if (o.fit_sleeves)
    for (int side = 0; side < 2; ++side) {
      std::vector<std::size_t> group;
      for (std::size_t p = 0; p < np; ++p) {
        const AliasInfo a = parse_alias(pat.panels[p].alias);
        if (from_file[p] && (a.part == AliasPart::sleeve || a.part == AliasPart::cuff) &&
            a.side == (side == 0 ? AliasSide::left : AliasSide::right))
          group.push_back(p);
      }
      if (group.empty()) continue;
      const auto [u, pivot] = sleeve_axis(pat, pm, group, res.panel_transforms, side == 0 ? 1.0 : -1.0);
      const Vec3 d = bf.arm_direction[side];
      const double rot = std::atan2(d.y, d.x) - std::atan2(u.y, u.x);
      const Mat3 Rz = Mat3::rotation_z(rot);
      for (std::size_t p : group) {
        RigidTransform& t = res.panel_transforms[p];
        t.rotation = Rz * t.rotation;
        t.translation = Rz * (t.translation - pivot) + pivot;
      }
      // GarmentCode places sleeves well out along the arm (its simulator
      // drags them in); on another body, or once the torso is lifted to the
      // shoulders, the sleeve cap would then pull the shoulder seam down the
      // arm, where the shoulder holds its two sides apart. Meet the armhole.
      const Vec3 shift = armhole_offset(pat, pm, group, res.panel_transforms);
      for (std::size_t p : group) res.panel_transforms[p].translation += shift;
    }

  const std::vector<RigidTransform> start = res.panel_transforms;
  // Move along the outward normal to the nearest clear position.
  std::vector<std::string> push_warn(np);
  Executor::global().for_each(
      0, np,
      [&](std::size_t p) {
        const RigidTransform& t = res.panel_transforms[p];
        const std::vector<Vec3> pts = points_of(p, t);
        if (pts.empty()) return;
        Vec3 c{};
        for (const Vec3& q : pts) c += q;
        c /= static_cast<double>(pts.size());
        Vec3 n = t.rotation * Vec3{0, 0, static_cast<double>(pm.panels[p].orientation)};
        const Vec3 axis{bf.centre_x, c.y, bf.centre_z};
        if (dot(n, c - axis) < -0.02) n = -n;
        auto clear = [&](double off) {
          const Vec3 s = n * off;
          for (const Vec3& q : pts) {
            const Vec3 x = q + s;
            if (prox.distance(x, o.clearance) < o.clearance || prox.contains(x)) return false;
          }
          return true;
        };
        double off = 0;
        if (clear(0)) {
          if (o.pull_in) {
            const double target = o.clearance + o.pull_slack;
            while (off > -o.max_push && clear(off - o.step)) {
              // Stop once the panel is within reach of the target gap.
              off -= o.step;
              bool near = false;
              for (const Vec3& q : pts)
                if (prox.distance(q + n * off, target) < target) {
                  near = true;
                  break;
                }
              if (near) break;
            }
          }
        } else {
          while (off < o.max_push && !clear(off)) off += o.step;
          if (!clear(off))
            push_warn[p] = "panel '" + pat.panels[p].name + "' still touches the body after moving it " +
                           std::to_string(o.max_push) + " m out";
        }
        res.offsets[p] = off;
        res.panel_transforms[p].translation += n * off;
        double dmin = 1.0;
        for (const Vec3& q : pts) dmin = std::min(dmin, prox.distance(q + n * off, dmin));
        res.clearance[p] = dmin;
      },
      1);
  for (const std::string& w : push_warn)
    if (!w.empty()) res.warnings.push_back(w);
  if (o.layer_gap > 0) {
    const std::vector<double> offsets = res.offsets;
    keep_layers(pat, pm, bf, start, o.layer_gap, res);
    for (std::size_t p = 0; p < np; ++p) {
      if (res.offsets[p] == offsets[p]) continue;
      double dmin = 1.0;
      for (const Vec3& q : points_of(p, res.panel_transforms[p]))
        dmin = std::min(dmin, prox.distance(q, dmin));
      res.clearance[p] = dmin;
    }
  }

  for (std::size_t p = 0; p < np; ++p) {
    const PanelMeshRange& r = pm.panels[p];
    for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v)
      gm.mesh.positions[v] = apply(res.panel_transforms[p], gm.mesh.uvs[v]);
    gm.panel_regions[p] = alias_body_regions(pat.panels[p].alias);
  }
  res.wrapped.assign(np, 0);
  std::vector<Vec3> normals(np);
  for (std::size_t p = 0; p < np; ++p)
    if (pm.panels[p].vertex_count > 0) normals[p] = outward_normal(pm, bf, p, res.panel_transforms[p]).first;
  std::vector<char> shoulder_wrapped(np, 0);
  if (o.wrap_shoulders) {
    detail::ShoulderWrapResult w = detail::wrap_over_shoulders(pat, pm, body, prox, normals, o.clearance,
                                                               o.wrap_max_lift, gm.mesh.positions);
    for (std::size_t p = 0; p < np; ++p)
      shoulder_wrapped[p] = w.wrapped[p] && parse_alias(pat.panels[p].alias).part == AliasPart::torso;
    res.wrapped = std::move(w.wrapped);
    res.wrap_pushed_vertices = w.pushed_vertices;
    for (std::string& s : w.warnings) res.warnings.push_back(std::move(s));
  }
  // Before the hood: its neckline goes where the torso's ends up.
  if (o.separate_side_by_side > 0) {
    detail::SideBySideResult s =
        detail::separate_side_by_side(pat, pm, normals, o.separate_side_by_side, gm.mesh.positions);
    res.separated_pairs = s.separated_pairs;
    for (std::string& w : s.warnings) res.warnings.push_back(std::move(w));
  }
  // After the torso's panels are final (shoulder wrap, side-by-side moves):
  // the sleeve caps are bent onto the armholes where those now are.
  if (o.bend_sleeves) {
    const detail::SleeveBendResult b =
        detail::bend_sleeve_caps(pat, pm, prox, bf, normals, o.clearance, gm.mesh.positions);
    for (std::size_t p = 0; p < np; ++p) res.wrapped[p] = res.wrapped[p] || b.bent[p];
    res.sleeve_pushed_vertices = b.pushed_vertices;
  }
  // The torso panels bent over the shoulders (the hood's bend is not
  // isometric by design: its lengths shrink inside the crown seam's corner).
  // (wrap_pushed_vertices: the shoulder wrap's, so far.)
  if (o.relax_wrapped && res.wrap_pushed_vertices > 0)
    res.wrap_relaxed_vertices =
        detail::relax_distorted_placement(pm, shoulder_wrapped, prox, o.clearance, gm.mesh.positions)
            .relaxed_vertices;
  if (o.wrap_hoods) {
    // After the shoulders: the hood's neckline goes where the torso's now is.
    detail::HoodWrapResult w =
        detail::wrap_around_head(pat, pm, body, prox, bf, normals, o.clearance, gm.mesh.positions);
    for (std::size_t p = 0; p < np; ++p) res.wrapped[p] = res.wrapped[p] || w.wrapped[p];
    res.wrap_pushed_vertices += w.pushed_vertices;
    for (std::string& s : w.warnings) res.warnings.push_back(std::move(s));
  }
  for (std::size_t p = 0; p < np; ++p) {
    if (!res.wrapped[p]) continue;
    const PanelMeshRange& r = pm.panels[p];
    double dmin = 1.0;
    for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v)
      dmin = std::min(dmin, prox.distance(gm.mesh.positions[v], dmin));
    res.clearance[p] = dmin;
  }
  return res;
}

}  // namespace drape

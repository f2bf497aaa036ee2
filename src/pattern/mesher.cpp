#include "drape/pattern/mesher.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

#include "drape/core/exceptions.h"
#include "drape/core/executor.h"
#include "drape/pattern/triangulation.h"
#include "outline_check.h"

namespace drape {
namespace {

// Uniform hash of outline segments for distance queries.
class SegmentGrid {
 public:
  SegmentGrid(const std::vector<Vec2>& loop, double cell) : loop_(loop), cell_(cell) {
    lo_ = {1e300, 1e300};
    Vec2 hi{-1e300, -1e300};
    for (const Vec2& p : loop) {
      lo_ = {std::min(lo_.x, p.x), std::min(lo_.y, p.y)};
      hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
    }
    lo_ -= Vec2{cell, cell};
    nx_ = static_cast<int>((hi.x - lo_.x) / cell) + 3;
    ny_ = static_cast<int>((hi.y - lo_.y) / cell) + 3;
    cells_.resize(static_cast<std::size_t>(nx_) * ny_);
    const std::size_t n = loop.size();
    for (std::size_t i = 0; i < n; ++i) {
      const Vec2 a = loop[i], b = loop[(i + 1) % n];
      const int x0 = cx(std::min(a.x, b.x)), x1 = cx(std::max(a.x, b.x));
      const int y0 = cy(std::min(a.y, b.y)), y1 = cy(std::max(a.y, b.y));
      for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x)
          cells_[static_cast<std::size_t>(y) * nx_ + x].push_back(static_cast<int>(i));
    }
  }
  /// Distance from p to the outline, exact when below `radius` (else >= radius).
  double distance(Vec2 p, double radius) const {
    double best = radius;
    const int x0 = cx(p.x - radius), x1 = cx(p.x + radius), y0 = cy(p.y - radius), y1 = cy(p.y + radius);
    const std::size_t n = loop_.size();
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x)
        for (int i : cells_[static_cast<std::size_t>(y) * nx_ + x]) {
          const Vec2 a = loop_[i], b = loop_[(i + 1) % n];
          const Vec2 d = b - a;
          const double l2 = dot(d, d);
          const double t = l2 > 0 ? std::clamp(dot(p - a, d) / l2, 0.0, 1.0) : 0.0;
          best = std::min(best, norm(p - (a + d * t)));
        }
    return best;
  }
  /// True when some outline segment touches the axis-aligned box [lo, hi].
  bool touches_box(Vec2 lo, Vec2 hi) const {
    const std::size_t n = loop_.size();
    for (int y = cy(lo.y); y <= cy(hi.y); ++y)
      for (int x = cx(lo.x); x <= cx(hi.x); ++x)
        for (int i : cells_[static_cast<std::size_t>(y) * nx_ + x]) {
          const Vec2 a = loop_[i], b = loop_[(i + 1) % n];
          if (segment_box(a, b, lo, hi)) return true;
        }
    return false;
  }

 private:
  static bool segment_box(Vec2 a, Vec2 b, Vec2 lo, Vec2 hi) {
    // Liang-Barsky clip.
    double t0 = 0, t1 = 1;
    const Vec2 d = b - a;
    const double p[4] = {-d.x, d.x, -d.y, d.y};
    const double q[4] = {a.x - lo.x, hi.x - a.x, a.y - lo.y, hi.y - a.y};
    for (int i = 0; i < 4; ++i) {
      if (p[i] == 0) {
        if (q[i] < 0) return false;
      } else {
        const double r = q[i] / p[i];
        if (p[i] < 0)
          t0 = std::max(t0, r);
        else
          t1 = std::min(t1, r);
      }
    }
    return t0 <= t1;
  }
  int cx(double x) const { return std::clamp(static_cast<int>((x - lo_.x) / cell_), 0, nx_ - 1); }
  int cy(double y) const { return std::clamp(static_cast<int>((y - lo_.y) / cell_), 0, ny_ - 1); }
  const std::vector<Vec2>& loop_;
  double cell_;
  Vec2 lo_;
  int nx_ = 1, ny_ = 1;
  std::vector<std::vector<int>> cells_;
};

// Sorted x crossings of the horizontal line at height y with the closed loop.
std::vector<double> crossings(const std::vector<Vec2>& loop, double y) {
  std::vector<double> xs;
  const std::size_t n = loop.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = loop[i], b = loop[(i + 1) % n];
    if ((a.y <= y && y < b.y) || (b.y <= y && y < a.y))
      xs.push_back(a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x));
  }
  std::sort(xs.begin(), xs.end());
  return xs;
}

bool inside_row(const std::vector<double>& xs, double x) {
  const auto it = std::upper_bound(xs.begin(), xs.end(), x);
  return (it - xs.begin()) % 2 == 1;
}

inline std::uint64_t pair_key(int a, int b) {
  if (a > b) std::swap(a, b);
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

struct PanelResult {
  std::vector<Vec2> pts;  // panel coordinates
  std::vector<std::array<int, 3>> tris;
  std::vector<std::vector<int>> edge_vertices;  // local ids
  std::vector<SpringPair> springs;              // local ids
  int orientation = 1;
  double area = 0;
};

// Tiny seam steps: a stitched edge shorter than half the particle distance,
// sampled with one segment, that sits between a panel corner sewn to exactly
// one other corner (a plain point of a longer seam that the pattern split,
// e.g. the last 7.5 mm of a shirt's armhole before the shoulder tip) and a
// corner at its other end. Sampled as it is, that step is an edge far shorter
// than its neighbours whose two ends are welded to other panels; the few
// millimetres by which the panels meeting there disagree all fall on it (the
// shirt's shoulder tip: 7.5 mm stretched to 17.8 mm, 138 % strain).
//
// Such a corner is dissolved: it gets no vertex, the tiny edge shrinks to the
// single vertex at its far end, and the edge on the corner's other side runs
// on to that vertex. Both sides of the seam are dissolved together, so every
// stitch still pairs the same number of vertices on its two sides.
//
// Returns per panel, per corner (corner i starts edge i), the edge the
// dissolved corner's vertex is absorbed into (i - 1 or i, mod the edge count),
// or -1 for a corner that keeps its vertex.
std::vector<std::vector<int>> tiny_seam_steps(const Pattern& pat, const std::vector<std::vector<int>>& seg,
                                              const std::vector<std::vector<double>>& len,
                                              const std::vector<int>& offset, double h) {
  const int nodes = offset.back();
  std::vector<std::vector<int>> absorb(pat.panels.size());
  for (std::size_t p = 0; p < pat.panels.size(); ++p) absorb[p].assign(pat.panels[p].edges.size(), -1);
  // Corner nodes (offset[p] + i) joined by the stitches' end pairs, as the
  // seam pairs will join their vertices (mesh_pattern below).
  std::vector<int> parent(nodes);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  std::vector<int> ends(nodes, 0);  // stitch ends at a corner
  auto corner = [&](const StitchSide& s, bool end) {
    const int ne = static_cast<int>(pat.panels[s.panel].edges.size());
    return offset[s.panel] + (end ? (s.edge + 1) % ne : s.edge);
  };
  for (const Stitch& st : pat.stitches)
    for (int end = 0; end < 2; ++end) {
      const int a = corner(st.a, end != 0), b = corner(st.b, st.right_wrong ? end != 0 : end == 0);
      parent[find(a)] = find(b);
      ++ends[a];
      ++ends[b];
    }
  std::vector<int> size(nodes, 0);
  for (int c = 0; c < nodes; ++c) ++size[find(c)];
  std::vector<char> taken(nodes, 0);  // corners dissolved or kept as a tiny step's far end
  for (std::size_t s = 0; s < pat.stitches.size(); ++s) {
    const Stitch& st = pat.stitches[s];
    const StitchSide sides[2] = {st.a, st.b};
    bool tiny = st.a.panel != st.b.panel;
    for (const StitchSide& side : sides)
      tiny = tiny && seg[side.panel][side.edge] == 1 && len[side.panel][side.edge] < 0.5 * h;
    if (!tiny) continue;
    // Either end of the step may be the plain seam point; take the first that is.
    for (int end = 0; end < 2; ++end) {
      const int c[2] = {corner(st.a, end != 0), corner(st.b, st.right_wrong ? end != 0 : end == 0)};
      const int far[2] = {corner(st.a, end == 0), corner(st.b, st.right_wrong ? end == 0 : end != 0)};
      if (size[find(c[0])] != 2 || ends[c[0]] != 2 || ends[c[1]] != 2) continue;
      if (taken[c[0]] || taken[c[1]] || taken[far[0]] || taken[far[1]]) continue;
      for (int k = 0; k < 2; ++k) {
        absorb[sides[k].panel][c[k] - offset[sides[k].panel]] = sides[k].edge;
        taken[c[k]] = taken[far[k]] = 1;
      }
      break;
    }
  }
  return absorb;
}

PanelResult mesh_panel(const Panel& panel, const std::vector<int>& segments, const std::vector<int>& absorb,
                       const MeshingOptions& o) {
  PanelResult r;
  const double h = o.particle_distance;
  r.area = panel_signed_area(panel);
  r.orientation = r.area >= 0 ? 1 : -1;
  // Outline samples: corners shared by consecutive edges; a dissolved corner
  // (absorb[i] >= 0, see tiny_seam_steps) has none and its edges end at the
  // absorbed tiny edge's far corner.
  std::vector<Vec2> loop;
  const std::size_t ne = panel.edges.size();
  r.edge_vertices.resize(ne);
  std::vector<int> corner_vertex(ne, -1);
  for (std::size_t e = 0; e < ne; ++e) {
    const EdgeGeometry g = edge_geometry(panel, static_cast<int>(e));
    const std::vector<Vec2> s = g.sample_uniform(segments[e]);
    if (absorb[e] < 0) {
      corner_vertex[e] = static_cast<int>(loop.size());
      loop.push_back(s[0]);
    }
    for (std::size_t i = 1; i + 1 < s.size(); ++i) {
      r.edge_vertices[e].push_back(static_cast<int>(loop.size()));
      loop.push_back(s[i]);
    }
  }
  // A dissolved corner stands for the far corner of the edge it is absorbed into.
  auto corner_id = [&](std::size_t i) {
    if (absorb[i] < 0) return corner_vertex[i];
    return absorb[i] == static_cast<int>(i) ? corner_vertex[(i + 1) % ne] : corner_vertex[absorb[i]];
  };
  for (std::size_t e = 0; e < ne; ++e) {
    std::vector<int>& ev = r.edge_vertices[e];
    ev.insert(ev.begin(), corner_id(e));
    ev.push_back(corner_id((e + 1) % ne));
    if (ev.size() == 2 && ev[0] == ev[1]) ev.pop_back();  // the absorbed tiny edge: one vertex
  }
  const int nb = static_cast<int>(loop.size());
  if (const auto [i, j] = detail::find_self_intersection(loop); i >= 0) {
    auto edge_of = [&](int v) {
      int e = 0;
      for (std::size_t k = 0; k < ne; ++k)
        if (r.edge_vertices[k].size() > 1 && r.edge_vertices[k].front() <= v) e = static_cast<int>(k);
      return e;
    };
    throw InvalidInput("edge " + std::to_string(edge_of(i)) + " crosses edge " + std::to_string(edge_of(j)) +
                       ": the sampled outline intersects itself (a sharp corner between curves?)");
  }

  r.pts = loop;
  CdtInput in;
  for (int i = 0; i < nb; ++i) in.boundary_segments.push_back({i, (i + 1) % nb});

  Vec2 lo{1e300, 1e300}, hi{-1e300, -1e300};
  for (const Vec2& p : loop) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
  }
  const SegmentGrid grid(loop, h);

  // Grid method bookkeeping.
  std::map<std::pair<int, int>, int> gid;  // (i, j) -> local id
  std::set<std::pair<int, int>> full;      // full cells
  const bool is_grid = o.method == MeshMethod::grid;
  if (is_grid) {
    const double margin = 0.45 * h;
    const int ni = static_cast<int>((hi.x - lo.x) / h) + 2, nj = static_cast<int>((hi.y - lo.y) / h) + 2;
    for (int j = 0; j <= nj; ++j) {
      const double y = lo.y + j * h;
      const std::vector<double> xs = crossings(loop, y);
      for (int i = 0; i <= ni; ++i) {
        const Vec2 p{lo.x + i * h, y};
        if (!inside_row(xs, p.x) || grid.distance(p, margin) < margin) continue;
        gid[{i, j}] = static_cast<int>(r.pts.size());
        r.pts.push_back(p);
      }
    }
    for (const auto& [ij, id] : gid) {
      const auto [i, j] = ij;
      if (gid.count({i + 1, j}) && gid.count({i, j + 1}) && gid.count({i + 1, j + 1})) {
        const Vec2 c0{lo.x + i * h, lo.y + j * h};
        if (!grid.touches_box(c0, c0 + Vec2{h, h})) full.insert(ij);
      }
    }
    for (const auto& [i, j] : full) {
      // Union boundary edges become constraints.
      if (!full.count({i, j - 1})) in.extra_segments.push_back({gid[{i, j}], gid[{i + 1, j}]});
      if (!full.count({i, j + 1})) in.extra_segments.push_back({gid[{i, j + 1}], gid[{i + 1, j + 1}]});
      if (!full.count({i - 1, j})) in.extra_segments.push_back({gid[{i, j}], gid[{i, j + 1}]});
      if (!full.count({i + 1, j})) in.extra_segments.push_back({gid[{i + 1, j}], gid[{i + 1, j + 1}]});
    }
  } else {
    const double margin = 0.6 * h;
    const double dy = h * std::sqrt(3.0) / 2;
    const int nj = static_cast<int>((hi.y - lo.y) / dy) + 2, ni = static_cast<int>((hi.x - lo.x) / h) + 2;
    for (int j = 0; j <= nj; ++j) {
      const double y = lo.y + (j + 0.5) * dy;
      const std::vector<double> xs = crossings(loop, y);
      for (int i = -1; i <= ni; ++i) {
        const Vec2 p{lo.x + (i + (j % 2 ? 0.5 : 0.0)) * h, y};
        if (!inside_row(xs, p.x) || grid.distance(p, margin) < margin) continue;
        r.pts.push_back(p);
      }
    }
  }
  in.points = r.pts;
  std::vector<std::array<int, 3>> tris = constrained_delaunay(in);

  if (is_grid) {
    // Replace what the triangulation put inside full cells by the quads' own split.
    std::vector<std::array<int, 3>> kept;
    for (const auto& t : tris) {
      const Vec2 c = (r.pts[t[0]] + r.pts[t[1]] + r.pts[t[2]]) / 3.0;
      const int i = static_cast<int>(std::floor((c.x - lo.x) / h)),
                j = static_cast<int>(std::floor((c.y - lo.y) / h));
      if (!full.count({i, j})) kept.push_back(t);
    }
    std::set<std::uint64_t> grid_edges;
    auto spring = [&](int a, int b, SpringKind k) {
      if (grid_edges.insert(pair_key(a, b)).second) r.springs.push_back({a, b, k});
    };
    for (const auto& [i, j] : full) {
      const int a = gid[{i, j}], b = gid[{i + 1, j}], c = gid[{i + 1, j + 1}], d = gid[{i, j + 1}];
      kept.push_back({a, b, c});
      kept.push_back({a, c, d});
      spring(a, b, SpringKind::structural);
      spring(a, d, SpringKind::structural);
      spring(b, c, SpringKind::structural);
      spring(d, c, SpringKind::structural);
      spring(a, c, SpringKind::shear);
      spring(b, d, SpringKind::shear);
    }
    // Bend springs P(i,j)-P(i+2,j) and P(i,j)-P(i,j+2) along grid lines.
    for (const auto& [ij, a] : gid) {
      const auto [i, j] = ij;
      for (const auto& [di, dj] : {std::pair{1, 0}, std::pair{0, 1}}) {
        const auto m = gid.find({i + di, j + dj}), e = gid.find({i + 2 * di, j + 2 * dj});
        if (m == gid.end() || e == gid.end()) continue;
        if (grid_edges.count(pair_key(a, m->second)) && grid_edges.count(pair_key(m->second, e->second)))
          r.springs.push_back({a, e->second, SpringKind::bend});
      }
    }
    tris = std::move(kept);
    // Band: every remaining triangle edge is structural; across each band edge a bend pair.
    std::map<std::uint64_t, std::vector<int>> opposite;
    for (const auto& t : tris)
      for (int k = 0; k < 3; ++k) opposite[pair_key(t[(k + 1) % 3], t[(k + 2) % 3])].push_back(t[k]);
    for (const auto& [key, opp] : opposite) {
      const int a = static_cast<int>(key >> 32), b = static_cast<int>(key & 0xffffffffu);
      if (grid_edges.count(key)) continue;
      r.springs.push_back({a, b, SpringKind::structural});
      if (opp.size() == 2) r.springs.push_back({opp[0], opp[1], SpringKind::bend});
    }
  } else if (o.smoothing_iterations > 0) {
    // Laplacian smoothing of interior points, refusing moves that flip or squash a triangle.
    const int np = static_cast<int>(r.pts.size());
    std::vector<std::vector<int>> nbr(np), vtri(np);
    for (std::size_t t = 0; t < tris.size(); ++t)
      for (int k = 0; k < 3; ++k) {
        nbr[tris[t][k]].push_back(tris[t][(k + 1) % 3]);
        vtri[tris[t][k]].push_back(static_cast<int>(t));
      }
    const double min_area = 0.05 * h * h;
    for (int it = 0; it < o.smoothing_iterations; ++it)
      for (int v = nb; v < np; ++v) {
        if (nbr[v].empty()) continue;
        Vec2 avg{};
        for (int u : nbr[v]) avg += r.pts[u];
        avg = avg / static_cast<double>(nbr[v].size());
        const Vec2 old = r.pts[v];
        r.pts[v] = avg;
        bool ok = true;
        for (int t : vtri[v]) {
          const auto& T = tris[t];
          if (cross(r.pts[T[1]] - r.pts[T[0]], r.pts[T[2]] - r.pts[T[0]]) < min_area) ok = false;
        }
        if (!ok) r.pts[v] = old;
      }
  }
  r.tris = std::move(tris);
  return r;
}

}  // namespace

PatternMesh mesh_pattern(const Pattern& pat, const MeshingOptions& o) {
  if (!(o.particle_distance > 0) || !std::isfinite(o.particle_distance))
    throw InvalidInput("particle distance must be positive (got " + std::to_string(o.particle_distance) +
                       ")");
  validate_pattern(pat);
  PatternMesh out;
  out.warnings = pat.warnings;
  const double h = o.particle_distance;
  const double tol = o.boundary_tolerance * h;

  // Segments per edge: particle distance and curvature, then equal across each stitch.
  std::vector<std::vector<int>> seg(pat.panels.size());
  std::vector<std::vector<double>> len(pat.panels.size());
  std::vector<int> offset(pat.panels.size() + 1, 0);
  for (std::size_t p = 0; p < pat.panels.size(); ++p) {
    const Panel& panel = pat.panels[p];
    offset[p + 1] = offset[p] + static_cast<int>(panel.edges.size());
    // Chords cut off about 2/3 * deviation * length of area along curved edges:
    // on small panels also keep that below 0.3 % of the panel's area.
    double curved = 0;
    for (std::size_t e = 0; e < panel.edges.size(); ++e)
      if (panel.edges[e].curve != EdgeCurve::line) curved += edge_length(panel, static_cast<int>(e));
    const double panel_tol =
        curved > 0 ? std::min(tol, 0.0045 * std::abs(panel_signed_area(panel)) / curved) : tol;
    for (std::size_t e = 0; e < panel.edges.size(); ++e) {
      const EdgeGeometry g = edge_geometry(panel, static_cast<int>(e));
      const double l = g.length();
      int n = std::max(1, static_cast<int>(std::ceil(l / h - 1e-9)));
      while (g.curve != EdgeCurve::line && n < 100000 && g.chord_deviation(n) > panel_tol)
        n = static_cast<int>(std::ceil(n * 1.25)) + 1;
      seg[p].push_back(n);
      len[p].push_back(l);
    }
  }
  std::vector<int> parent(offset.back());
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const Stitch& s : pat.stitches)
    parent[find(offset[s.a.panel] + s.a.edge)] = find(offset[s.b.panel] + s.b.edge);
  std::vector<int> group_max(offset.back(), 0);
  for (std::size_t p = 0; p < pat.panels.size(); ++p)
    for (std::size_t e = 0; e < seg[p].size(); ++e) {
      int& m = group_max[find(offset[p] + static_cast<int>(e))];
      m = std::max(m, seg[p][e]);
    }
  std::vector<int> uses(offset.back(), 0);
  for (const Stitch& s : pat.stitches) {
    ++uses[offset[s.a.panel] + s.a.edge];
    ++uses[offset[s.b.panel] + s.b.edge];
  }
  for (std::size_t p = 0; p < pat.panels.size(); ++p)
    for (std::size_t e = 0; e < seg[p].size(); ++e) {
      seg[p][e] = group_max[find(offset[p] + static_cast<int>(e))];
      if (uses[offset[p] + e] > 1)
        out.warnings.push_back("panel '" + pat.panels[p].name + "' edge " + std::to_string(e) +
                               " is used by " + std::to_string(uses[offset[p] + e]) + " stitches");
    }

  const std::vector<std::vector<int>> absorb = tiny_seam_steps(pat, seg, len, offset, h);

  // Panels are independent: mesh them in parallel (a gather, deterministic).
  std::vector<PanelResult> res(pat.panels.size());
  std::vector<std::string> errors(pat.panels.size());
  Executor::global().for_each(
      0, pat.panels.size(),
      [&](std::size_t p) {
        try {
          res[p] = mesh_panel(pat.panels[p], seg[p], absorb[p], o);
        } catch (const std::exception& e) {
          errors[p] = e.what();
        }
      },
      1);
  for (std::size_t p = 0; p < pat.panels.size(); ++p)
    if (!errors[p].empty())
      throw InvalidInput(pat.source + ": panel '" + pat.panels[p].name + "': meshing failed: " + errors[p]);

  GarmentMesh& gm = out.garment;
  const bool placed =
      std::all_of(pat.panels.begin(), pat.panels.end(), [](const Panel& p) { return p.has_placement; });
  for (std::size_t p = 0; p < pat.panels.size(); ++p) {
    const Panel& panel = pat.panels[p];
    PanelResult& r = res[p];
    // Keep only vertices a triangle uses (merged duplicates drop out).
    std::vector<int> remap(r.pts.size(), -1);
    for (const auto& e : r.edge_vertices)
      for (int v : e) remap[v] = 0;
    for (const auto& t : r.tris)
      for (int v : t) remap[v] = 0;
    PanelMeshRange range;
    range.first_vertex = static_cast<int>(gm.mesh.positions.size());
    range.first_face = static_cast<int>(gm.mesh.faces.size());
    range.orientation = r.orientation;
    range.area = std::abs(r.area);
    const Mat3 R = panel.rotation();
    // The rest frame mirrors x for clockwise panels: the grain's angle mirrors too.
    const double grain = panel.grain_deg * 3.14159265358979323846 / 180;
    gm.panel_grain.push_back(r.orientation > 0 ? grain : -grain);
    for (std::size_t v = 0; v < r.pts.size(); ++v) {
      if (remap[v] < 0) continue;
      remap[v] = static_cast<int>(gm.mesh.positions.size());
      const Vec2 q = r.pts[v];
      gm.mesh.positions.push_back(placed ? R * Vec3{q.x, q.y, 0} + panel.translation : Vec3{q.x, q.y, 0});
      gm.mesh.uvs.push_back(q);
      gm.rest.push_back(r.orientation > 0 ? q : Vec2{-q.x, q.y});
      gm.panel_of_vertex.push_back(static_cast<int>(p));
    }
    for (const auto& t : r.tris) {
      if (r.orientation > 0)
        gm.mesh.faces.push_back({remap[t[0]], remap[t[1]], remap[t[2]]});
      else
        gm.mesh.faces.push_back({remap[t[0]], remap[t[2]], remap[t[1]]});
    }
    for (const SpringPair& s : r.springs) gm.grid_springs.push_back({remap[s.a], remap[s.b], s.kind});
    for (const auto& e : r.edge_vertices) {
      std::vector<int> ids;
      for (int v : e) ids.push_back(remap[v]);
      range.edge_vertices.push_back(std::move(ids));
    }
    range.vertex_count = static_cast<int>(gm.mesh.positions.size()) - range.first_vertex;
    range.face_count = static_cast<int>(gm.mesh.faces.size()) - range.first_face;
    gm.panel_names.push_back(panel.name);
    gm.panel_regions.push_back(body_region::all);
    out.panels.push_back(std::move(range));
  }
  // Seams. Of the stitches that continue one another (Stitch::continues_seam)
  // only the first sews the pair at their joint.
  std::set<std::pair<int, int>> sewn;
  for (std::size_t s = 0; s < pat.stitches.size(); ++s) {
    const Stitch& st = pat.stitches[s];
    const auto& va = out.panels[st.a.panel].edge_vertices[st.a.edge];
    const auto& vb = out.panels[st.b.panel].edge_vertices[st.b.edge];
    const int n = static_cast<int>(va.size()) - 1;
    out.seam_segments.push_back(n);
    for (int k = 0; k <= n; ++k) {
      const int b = st.right_wrong ? vb[k] : vb[n - k];
      const bool again = st.continues_seam && !sewn.insert(std::minmax(va[k], b)).second;
      if (va[k] != b && !again)
        gm.seam_pairs.push_back({va[k], b, static_cast<int>(s)});  // a dart's tip sews to itself
    }
    const double la = len[st.a.panel][st.a.edge], lb = len[st.b.panel][st.b.edge];
    const double ratio = std::max(la, lb) / std::min(la, lb);
    gm.seam_length_ratio.push_back(ratio);
    if (ratio > o.seam_ratio_warning) {
      std::ostringstream w;
      w << "stitch " << s << " (panel '" << pat.panels[st.a.panel].name << "' edge " << st.a.edge
        << " - panel '" << pat.panels[st.b.panel].name << "' edge " << st.b.edge
        << "): sides differ in length by " << static_cast<int>(std::round((ratio - 1) * 100)) << " % ("
        << la * 100 << " cm vs " << lb * 100 << " cm); both sampled at " << n << " segments";
      out.warnings.push_back(w.str());
    }
  }
  if (!placed) layout_flat(out);
  return out;
}

void layout_flat(PatternMesh& m, double gap) {
  double x = 0;
  for (const PanelMeshRange& r : m.panels) {
    double lo = 1e300, hi = -1e300, ylo = 1e300;
    for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v) {
      lo = std::min(lo, m.garment.rest[v].x);
      hi = std::max(hi, m.garment.rest[v].x);
      ylo = std::min(ylo, m.garment.rest[v].y);
    }
    for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v) {
      const Vec2 q = m.garment.rest[v];
      m.garment.mesh.positions[v] = {x + q.x - lo, q.y - ylo, 0};
    }
    x += hi - lo + gap;
  }
}

}  // namespace drape

#include "drape/body/armhole_deepening.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "drape/body/garment_fit.h"
#include "drape/core/exceptions.h"
#include "drape/pattern/edge_split.h"
#include "drape/pattern/mesher.h"
#include "grading_field.h"

namespace drape {
namespace {

// Edge e of `panel` as a cubic with the same ends and end tangents (exact for
// a quadratic; an arc's cubic). Lines and cubics stay as they are.
void make_cubic(Panel& panel, int e) {
  PanelEdge& edge = panel.edges[static_cast<std::size_t>(e)];
  if (edge.curve == EdgeCurve::line || edge.curve == EdgeCurve::cubic) return;
  const EdgeGeometry g = edge_geometry(panel, e);
  edge.c1 = g.p0 + g.derivative(0) / 3.0;
  edge.c2 = g.p1 - g.derivative(1) / 3.0;
  edge.curve = EdgeCurve::cubic;
  edge.radius = 0;
  edge.large_arc = edge.right = false;
}

// Moves vertex k of `panel` by d. Each edge at it takes the displacement d
// at k and 0 at its other end, linear in the Bezier parameter: its control
// points move by d times their parameter's share (1/3, 2/3).
void move_corner(Panel& panel, int k, Vec2 d) {
  for (int e = 0; e < static_cast<int>(panel.edges.size()); ++e) {
    PanelEdge& edge = panel.edges[static_cast<std::size_t>(e)];
    if (edge.start != k && edge.end != k) continue;
    make_cubic(panel, e);
    if (edge.curve != EdgeCurve::cubic) continue;
    const bool at_end = edge.end == k;
    edge.c1 += d * (at_end ? 1.0 / 3 : 2.0 / 3);
    edge.c2 += d * (at_end ? 2.0 / 3 : 1.0 / 3);
  }
  panel.vertices[static_cast<std::size_t>(k)] += d;
}

double height_of(const RigidTransform& t, Vec2 p) { return t(Vec3{p.x, p.y, 0}).y; }

// True when edge `edge` of panel `panel` is sewn to a panel that goes round the torso.
bool sewn_to_torso(const Pattern& pattern, int panel, int edge) {
  for (const int k : stitches_of_edge(pattern, panel, edge)) {
    const Stitch& st = pattern.stitches[static_cast<std::size_t>(k)];
    const StitchSide& other = (st.a.panel == panel && st.a.edge == edge) ? st.b : st.a;
    if (goes_round_torso(pattern.panels[static_cast<std::size_t>(other.panel)])) return true;
  }
  return false;
}

}  // namespace

GradingResult deepen_armholes(const Pattern& pattern, const std::vector<RigidTransform>& panel_transforms,
                              const BodyFrame& frame, double drop) {
  const std::size_t n = pattern.panels.size();
  if (panel_transforms.size() != n)
    throw InvalidInput(pattern.source + ": deepening the armholes needs one placement per panel (" +
                       std::to_string(panel_transforms.size()) + " for " + std::to_string(n) + " panels)");
  if (!(drop > 0)) return GradingResult::ungraded(pattern, {});

  // The armholes, on the pattern placed rigidly.
  MeshingOptions mo;
  mo.particle_distance = 0.02;
  PatternMesh pm = mesh_pattern(pattern, mo);
  for (std::size_t p = 0; p < n; ++p) {
    const PanelMeshRange& r = pm.panels[p];
    const RigidTransform& t = panel_transforms[p];
    for (int v = r.first_vertex; v < r.first_vertex + r.vertex_count; ++v) {
      const Vec2 uv = pm.garment.mesh.uvs[static_cast<std::size_t>(v)];
      pm.garment.mesh.positions[static_cast<std::size_t>(v)] = t(Vec3{uv.x, uv.y, 0});
    }
  }
  const std::vector<BoundaryLoop> loops = armhole_loops(pattern, pm, frame);

  GradingResult r;
  r.source = pattern;
  r.pattern = pattern;
  std::set<std::pair<int, int>> moved;  // (panel, vertex)
  for (const BoundaryLoop& loop : loops) {
    // On each panel of the loop, the lowest end of its loop edges: its underarm corner.
    std::map<int, std::pair<int, double>> corner;  // panel -> (vertex, height)
    for (const StitchSide& s : loop.edges) {
      const Panel& panel = pattern.panels[static_cast<std::size_t>(s.panel)];
      const PanelEdge& e = panel.edges[static_cast<std::size_t>(s.edge)];
      for (const int k : {e.start, e.end}) {
        const double h = height_of(panel_transforms[static_cast<std::size_t>(s.panel)],
                                   panel.vertices[static_cast<std::size_t>(k)]);
        const auto it = corner.find(s.panel);
        if (it == corner.end() || h < it->second.second) corner[s.panel] = {k, h};
      }
    }
    for (const auto& [panel_index, at] : corner) {
      const int p = panel_index;  // (a lambda below cannot capture a structured binding)
      const int k = at.first;
      const Panel& panel = pattern.panels[static_cast<std::size_t>(p)];
      // The side edge: the edge at the corner that is not on the loop.
      int side = -1;
      for (int e = 0; e < static_cast<int>(panel.edges.size()); ++e) {
        const PanelEdge& edge = panel.edges[static_cast<std::size_t>(e)];
        const bool on_loop = std::any_of(loop.edges.begin(), loop.edges.end(),
                                         [&](const StitchSide& s) { return s.panel == p && s.edge == e; });
        if (!on_loop && (edge.start == k || edge.end == k)) side = e;
      }
      if (side < 0 || !sewn_to_torso(pattern, p, side)) {
        r.warnings.push_back("armhole: panel " + panel.name +
                             "'s underarm corner tops no side seam: not deepened there");
        continue;
      }
      if (!moved.insert({p, k}).second) continue;
      const RigidTransform& t = panel_transforms[static_cast<std::size_t>(p)];
      const Vec2 g{t.rotation(1, 0), t.rotation(1, 1)};
      if (!(norm(g) >= 0.2)) continue;  // lies nearly flat round the body (grade_pattern's rule)
      const EdgeGeometry s = edge_geometry(panel, side);
      const double along = std::min(drop / norm(g), 0.7 * norm(s.p1 - s.p0));
      move_corner(r.pattern.panels[static_cast<std::size_t>(p)], k, -(g / norm(g)) * along);
      r.graded_panels.push_back(p);
    }
  }
  std::sort(r.graded_panels.begin(), r.graded_panels.end());
  r.graded_panels.erase(std::unique(r.graded_panels.begin(), r.graded_panels.end()), r.graded_panels.end());
  if (r.graded_panels.empty()) {
    GradingResult none = GradingResult::ungraded(pattern, {});
    none.warnings = r.warnings;
    return none;
  }
  r.graded = true;
  follow_graded_neighbours(pattern, r);
  validate_pattern(r.pattern);  // closed, simple outlines
  r.compare_seams();
  return r;
}

}  // namespace drape

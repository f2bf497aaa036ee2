#include "drape/cloth/cloth_model.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <string>

#include "drape/cloth/stretch_curve.h"
#include "drape/core/exceptions.h"
#include "drape/geometry/mesh_adjacency.h"
#include "triangle_stretch.h"

namespace drape {
namespace {

// Rest-space position of a vertex: the flat pattern point (z = 0) when known.
struct RestSpace {
  const GarmentMesh& g;
  bool flat;
  Vec3 operator()(int v) const {
    if (flat) return {g.rest[v].x, g.rest[v].y, 0.0};
    return g.mesh.positions[v];
  }
};

void build_csr(std::size_t n, const std::vector<std::pair<int, int>>& entries, std::vector<int>& offsets,
               std::vector<int>& items) {
  offsets.assign(n + 1, 0);
  for (const auto& [v, item] : entries) ++offsets[v + 1];
  for (std::size_t i = 0; i < n; ++i) offsets[i + 1] += offsets[i];
  items.assign(entries.size(), 0);
  std::vector<int> fill(offsets.begin(), offsets.end() - 1);
  for (const auto& [v, item] : entries) items[fill[v]++] = item;  // entry order kept: deterministic
}

// The items of each colour (colour[i] < colours) as CSR lists, colour ids
// compacted in increasing order, items in increasing order within a colour.
void colour_lists(const std::vector<int>& colour, int colours, std::vector<int>& offsets,
                  std::vector<int>& items) {
  std::vector<int> count(colours, 0);
  for (int c : colour) ++count[c];
  std::vector<int> remap(colours, -1);
  int k = 0;
  for (int c = 0; c < colours; ++c)
    if (count[c]) remap[c] = k++;
  std::vector<std::pair<int, int>> entries;
  entries.reserve(colour.size());
  for (std::size_t i = 0; i < colour.size(); ++i) entries.push_back({remap[colour[i]], static_cast<int>(i)});
  build_csr(static_cast<std::size_t>(k), entries, offsets, items);
}

// Greedy colouring of pairs (a, b) so that no two pairs of a colour share a vertex.
void colour_pairs(std::size_t n, const std::vector<int>& a, const std::vector<int>& b,
                  std::vector<int>& offsets, std::vector<int>& items) {
  std::vector<std::uint64_t> used(n, 0);
  std::vector<int> colour(a.size(), 0);
  std::vector<std::vector<int>> extra_used;  // beyond 64 colours (rare): fall back to a slow path
  int colours = 0;
  for (std::size_t s = 0; s < a.size(); ++s) {
    const std::uint64_t taken = used[a[s]] | used[b[s]];
    int c = 0;
    if (~taken != 0) {
      c = std::countr_one(taken);
    } else {
      // More than 64 pairs at one vertex: put it in its own colour at the end.
      c = 64 + static_cast<int>(s);
    }
    colour[s] = c;
    if (c < 64) {
      used[a[s]] |= 1ull << c;
      used[b[s]] |= 1ull << c;
    }
    colours = std::max(colours, c + 1);
  }
  colour_lists(colour, colours, offsets, items);
}

// Greedy colouring of 4-vertex groups (isometric bending): no two groups of a
// colour share a vertex. Groups that find no free colour among 64 get their own.
void colour_quads(std::size_t n, const std::vector<std::array<int, 4>>& quads, std::vector<int>& offsets,
                  std::vector<int>& items) {
  std::vector<std::uint64_t> used(n, 0);
  std::vector<int> colour(quads.size(), 0);
  int colours = 0;
  for (std::size_t q = 0; q < quads.size(); ++q) {
    std::uint64_t taken = 0;
    for (int v : quads[q]) taken |= used[v];
    const int c = ~taken != 0 ? std::countr_one(taken) : 64 + static_cast<int>(q);
    colour[q] = c;
    if (c < 64)
      for (int v : quads[q]) used[v] |= 1ull << c;
    colours = std::max(colours, c + 1);
  }
  colour_lists(colour, colours, offsets, items);
}

double cotangent(const Vec3& a, const Vec3& b) {
  const double s = norm(cross(a, b));
  return s > 0 ? dot(a, b) / s : 0.0;
}

}  // namespace

ClothModel build_cloth_model(const GarmentMesh& g, const Fabric& fabric, const ClothModelOptions& options) {
  validate_fabric(fabric, "fabric '" + fabric.name + "'");
  const std::size_t n = g.mesh.vertex_count();
  if (n == 0) throw InvalidInput("garment: no vertices");
  g.mesh.validate("garment");
  if (!g.rest.empty() && g.rest.size() != n)
    throw InvalidInput("garment: rest has " + std::to_string(g.rest.size()) + " entries for " +
                       std::to_string(n) + " vertices");
  if (!g.panel_of_vertex.empty() && g.panel_of_vertex.size() != n)
    throw InvalidInput("garment: panel_of_vertex has " + std::to_string(g.panel_of_vertex.size()) +
                       " entries for " + std::to_string(n) + " vertices");
  for (std::size_t v = 0; v < g.panel_of_vertex.size(); ++v) {
    const int p = g.panel_of_vertex[v];
    if (p < 0 || (!g.panel_regions.empty() && p >= static_cast<int>(g.panel_regions.size())))
      throw InvalidInput("garment: vertex " + std::to_string(v) + " has panel " + std::to_string(p) +
                         " out of range");
  }
  const RestSpace rest{g, !g.rest.empty()};

  ClothModel m;
  m.vertex_count = n;
  m.faces = g.mesh.faces;

  // Masses (M1 step 1).
  std::vector<double> vertex_area(n, 0.0);
  const int panel_count = g.panel_of_vertex.empty()
                              ? 1
                              : 1 + *std::max_element(g.panel_of_vertex.begin(), g.panel_of_vertex.end());
  std::vector<double> panel_area(panel_count, 0.0);
  std::vector<int> panel_points(panel_count, 0);
  std::vector<double> face_area(g.mesh.face_count());
  for (std::size_t f = 0; f < g.mesh.face_count(); ++f) {
    const Triangle& t = g.mesh.faces[f];
    const double a = 0.5 * norm(cross(rest(t[1]) - rest(t[0]), rest(t[2]) - rest(t[0])));
    if (!(a > 1e-14)) throw InvalidInput("garment: triangle " + std::to_string(f) + " has zero rest area");
    face_area[f] = a;
    for (int v : t) vertex_area[v] += a / 3;
    panel_area[g.panel_of_vertex.empty() ? 0 : g.panel_of_vertex[t[0]]] += a;
  }
  for (std::size_t v = 0; v < n; ++v) ++panel_points[g.panel_of_vertex.empty() ? 0 : g.panel_of_vertex[v]];
  m.mass.resize(n);
  m.inv_mass.resize(n);
  for (std::size_t v = 0; v < n; ++v) {
    double mv;
    if (options.mass == MassModel::uniform_per_panel) {
      const int p = g.panel_of_vertex.empty() ? 0 : g.panel_of_vertex[v];
      mv = fabric.density * panel_area[p] / panel_points[p];
    } else {
      mv = fabric.density * vertex_area[v];
    }
    if (!(mv > 0)) mv = fabric.density * 1e-8;  // an isolated vertex (no triangle): tiny but finite
    m.mass[v] = mv;
    m.inv_mass[v] = 1 / mv;
    m.total_mass += mv;
  }

  m.vertex_regions.assign(n, body_region::all);
  for (std::size_t v = 0; v < n; ++v) {
    const int p = g.panel_of_vertex.empty() ? -1 : g.panel_of_vertex[v];
    if (p >= 0 && p < static_cast<int>(g.panel_regions.size())) m.vertex_regions[v] = g.panel_regions[p];
  }

  // The stretch modulus of a spring from a to b: the fabric's Y when it is
  // isotropic (the first model, bit for bit); else Y(theta) at the angle theta
  // between the spring and its panel's grain line in the flat pattern
  // (docs/FABRICS.md, "Warp, weft and bias"). Without a flat rest shape there
  // is no panel frame and the grain is unknown: isotropic, Y = warp.
  const bool directional = !fabric_stretch_isotropic(fabric) && rest.flat;
  std::vector<Vec2> panel_grain_direction;
  if (directional) {
    const std::size_t panels =
        std::max<std::size_t>(static_cast<std::size_t>(panel_count), g.panel_grain.size());
    panel_grain_direction.assign(panels, Vec2{0, 1});
    for (std::size_t p = 0; p < g.panel_grain.size(); ++p)
      panel_grain_direction[p] = {-std::sin(g.panel_grain[p]), std::cos(g.panel_grain[p])};
  }
  // cos^2 of the angle between the spring a-b and its panel's grain (1: along it).
  auto grain_cos_squared = [&](int a, int b) {
    if (!directional) return 1.0;
    const Vec2& grain = panel_grain_direction[g.panel_of_vertex.empty() ? 0 : g.panel_of_vertex[a]];
    const Vec2 d{g.rest[b].x - g.rest[a].x, g.rest[b].y - g.rest[a].y};
    const double along = d.x * grain.x + d.y * grain.y, len2 = d.x * d.x + d.y * d.y;
    return len2 > 0 ? along * along / len2 : 1.0;
  };
  auto stretch_modulus = [&](int a, int b) {
    if (!directional) return fabric.stretch;
    return fabric_stretch_at(fabric, grain_cos_squared(a, b));
  };

  // Non-linear stretch (docs/FABRICS.md, "Non-linear stretch"): the curve's
  // segments at the spring's angle to the grain. Past the knee at strain e_j
  // the segment's slope is r_j times the first one's and the curve's force is
  // g_j times the first slope (a strain), so the spring continues with
  // stiffness r_j k and rest length L0 (1 + e_j - g_j / r_j): its tension
  // k L0 g_j at the knee, continuous.
  const bool curved = !fabric_stretch_linear(fabric);
  const std::optional<StretchSegments> segments =
      curved ? std::optional<StretchSegments>(StretchSegments(fabric)) : std::nullopt;
  if (curved) m.spring_knee_offsets.push_back(0);
  auto add_knees = [&](int a, int b, double k, double L) {
    const std::vector<double> y = segments->slopes_at(grain_cos_squared(a, b));
    const std::vector<double>& e = segments->knots;
    double g = 0;
    for (std::size_t j = 1; j < e.size(); ++j) {
      g += y[j - 1] / y[0] * (e[j] - e[j - 1]);
      if (y[j] == y[j - 1]) continue;
      const double r = y[j] / y[0];
      m.spring_knees.push_back({L * (1 + e[j]), r * k, L * (1 + e[j] - g / r)});
    }
  };

  auto add_spring = [&](int a, int b, double k, SpringFamily fam, bool is_edge) {
    const double L = norm(rest(a) - rest(b));
    if (!(L > 1e-9)) return;
    const double m_eff = m.mass[a] * m.mass[b] / (m.mass[a] + m.mass[b]);
    m.spring_a.push_back(a);
    m.spring_b.push_back(b);
    m.spring_rest.push_back(L);
    m.spring_stiffness.push_back(k);
    m.spring_damping.push_back(fabric.spring_damping * 2 * std::sqrt(k * m_eff));
    m.spring_family.push_back(fam);
    m.spring_is_edge.push_back(is_edge ? 1 : 0);
    if (curved) {
      if (fam == SpringFamily::stretch) add_knees(a, b, k, L);
      m.spring_knee_offsets.push_back(static_cast<int>(m.spring_knees.size()));
    }
  };

  const MeshAdjacency adj = MeshAdjacency::build(g.mesh);
  const bool grid = options.use_grid_springs && !g.grid_springs.empty();
  if (grid) {
    // The paper's grid (M1 step 2). For a square grid of spacing h, structural
    // springs of constant Y give the sheet modulus Y; diagonals of constant G give
    // a shear stiffness of the order of G; bend springs over 2h are matched to
    // the bending energy B theta^2 / 2 at theta = 0.5 rad (k = 64 B / h^2).
    for (const SpringPair& s : g.grid_springs) {
      if (s.a < 0 || s.b < 0 || s.a >= static_cast<int>(n) || s.b >= static_cast<int>(n))
        throw InvalidInput("garment: grid spring (" + std::to_string(s.a) + ", " + std::to_string(s.b) +
                           ") out of range");
      const double L = norm(rest(s.a) - rest(s.b));
      switch (s.kind) {
        case SpringKind::structural:
          add_spring(s.a, s.b, stretch_modulus(s.a, s.b), SpringFamily::stretch, true);
          break;
        case SpringKind::shear:
          add_spring(s.a, s.b, std::max(fabric.shear, 1e-3), SpringFamily::shear, false);
          break;
        case SpringKind::bend:
          if (fabric.bending > 0 && L > 0)
            add_spring(s.a, s.b, 256 * fabric.bending / (L * L), SpringFamily::bend, false);
          break;
      }
    }
  } else {
    // Edge springs: k = s * Y * A_e / L^2 with A_e a third of the incident rest
    // area: with s = 1 a uniform dilation eps stores Y eps^2 / 2 per unit area;
    // with s = 3 (StretchMapping::uniaxial) an equilateral mesh has the uniaxial
    // modulus Y and Poisson's ratio 1/3 (docs/FABRICS.md, "Stretch").
    for (std::size_t e = 0; e < adj.edges.size(); ++e) {
      const MeshEdge& me = adj.edges[e];
      double area = 0;
      if (me.face0 >= 0) area += face_area[me.face0] / 3;
      if (me.face1 >= 0) area += face_area[me.face1] / 3;
      const double L = norm(rest(me.v0) - rest(me.v1));
      if (!(L > 0)) continue;
      const double scale = options.stretch == StretchMapping::uniaxial ? 3.0 : 1.0;
      add_spring(me.v0, me.v1, scale * stretch_modulus(me.v0, me.v1) * area / (L * L), SpringFamily::stretch,
                 true);
    }
  }

  // Hinges over interior edges (general triangulation bending; also used by the dihedral model on grids).
  for (const MeshEdge& me : adj.edges) {
    if (me.face1 < 0 || me.extra_faces) continue;
    auto opposite = [&](int f) {
      for (int v : g.mesh.faces[f])
        if (v != me.v0 && v != me.v1) return v;
      return -1;
    };
    const int o0 = opposite(me.face0), o1 = opposite(me.face1);
    if (o0 < 0 || o1 < 0 || o0 == o1) continue;
    if (options.bending == BendingModel::hinge_spring && !grid && fabric.bending > 0) {
      // Across the hinge the spring is 2h long, h the distance of each opposite vertex
      // to the edge: same matching as the grid's bend springs (k = 64 B / h^2).
      const double L = norm(rest(o0) - rest(o1));
      if (L > 0) add_spring(o0, o1, 256 * fabric.bending / (L * L), SpringFamily::bend, false);
    } else if (options.bending == BendingModel::dihedral && fabric.bending > 0) {
      // Bridson's x1, x2 opposite and x3, x4 on the edge, oriented so that
      // face0 = (x1, x3, x4) is counter-clockwise.
      const Triangle& t0 = g.mesh.faces[me.face0];
      int a = me.v0, b = me.v1;
      for (int i = 0; i < 3; ++i)
        if (t0[i] == o0) {
          a = t0[(i + 1) % 3];
          b = t0[(i + 2) % 3];
        }
      m.hinges.push_back({o0, o1, a, b});
      // Bridson's stiffness k |E|^2 / (|N1| + |N2|) uses rest quantities: B |E|^2 / (2 A1 + 2 A2).
      const double E2 = squared_norm(rest(b) - rest(a));
      m.hinge_stiffness.push_back(fabric.bending * E2 / (2 * face_area[me.face0] + 2 * face_area[me.face1]));
    } else if (options.bending == BendingModel::isometric && fabric.bending > 0) {
      // Bergou, Wardetzky, Harmon, Zorin, Grinspun 2006: with e0 = x1 - x0 the
      // edge, x2 and x3 opposite, K = (c03 + c04, c01 + c02, -c01 - c03, -c02 - c04)
      // (c0j the cotangent of the rest angle between e0 and e_j) makes
      // sum K_i x_i vanish on the flat rest and grow linearly with curvature.
      // Stiffness B / (A0 + A1): a cylinder of curvature kappa then stores
      // B kappa^2 / 2 per unit area on an equilateral mesh in every direction and
      // on a square grid along its axes (docs/FABRICS.md, "Bending").
      const Vec3 x0 = rest(me.v0), x1 = rest(me.v1), x2 = rest(o0), x3 = rest(o1);
      const Vec3 e0 = x1 - x0;
      const double c01 = cotangent(e0, x2 - x0), c02 = cotangent(e0, x3 - x0);
      const double c03 = cotangent(x0 - x1, x2 - x1), c04 = cotangent(x0 - x1, x3 - x1);
      m.bend_quads.push_back({me.v0, me.v1, o0, o1});
      m.bend_weights.push_back({c03 + c04, c01 + c02, -c01 - c03, -c02 - c04});
      m.bend_stiffness.push_back(fabric.bending / (face_area[me.face0] + face_area[me.face1]));
    }
  }

  // The triangle stretch model (docs/FABRICS.md, "Warp, weft and bias"): the
  // springs above stay for the measures; the solver projects the triangles.
  if (resolve_stretch_model(g, fabric, options.stretch_model, true) == StretchModel::triangle)
    build_triangle_stretch(m, g, fabric, face_area);

  // Seams (M1 step 3).
  for (const SeamVertexPair& sp : g.seam_pairs) {
    if (sp.a < 0 || sp.b < 0 || sp.a >= static_cast<int>(n) || sp.b >= static_cast<int>(n))
      throw InvalidInput("garment: seam " + std::to_string(sp.seam) + " pair (" + std::to_string(sp.a) +
                         ", " + std::to_string(sp.b) + ") out of range");
    if (sp.a == sp.b) continue;
    m.seam_a.push_back(sp.a);
    m.seam_b.push_back(sp.b);
    m.seam_stitch.push_back(sp.seam);
  }

  // Incidence lists for gathers.
  std::vector<std::pair<int, int>> entries;
  for (std::size_t s = 0; s < m.spring_a.size(); ++s) {
    entries.push_back({m.spring_a[s], static_cast<int>(s)});
    entries.push_back({m.spring_b[s], static_cast<int>(s)});
  }
  std::stable_sort(entries.begin(), entries.end(), [](auto& x, auto& y) { return x.first < y.first; });
  build_csr(n, entries, m.vertex_spring_offsets, m.vertex_springs);
  entries.clear();
  for (std::size_t h = 0; h < m.hinges.size(); ++h)
    for (int s = 0; s < 4; ++s) entries.push_back({m.hinges[h][s], static_cast<int>(4 * h + s)});
  std::stable_sort(entries.begin(), entries.end(), [](auto& x, auto& y) { return x.first < y.first; });
  build_csr(n, entries, m.vertex_hinge_offsets, m.vertex_hinge_slots);
  entries.clear();
  for (std::size_t s = 0; s < m.seam_a.size(); ++s) {
    entries.push_back({m.seam_a[s], static_cast<int>(s)});
    entries.push_back({m.seam_b[s], static_cast<int>(s)});
  }
  std::stable_sort(entries.begin(), entries.end(), [](auto& x, auto& y) { return x.first < y.first; });
  build_csr(n, entries, m.vertex_seam_offsets, m.vertex_seams);

  colour_pairs(n, m.spring_a, m.spring_b, m.colour_offsets, m.colour_springs);
  colour_pairs(n, m.seam_a, m.seam_b, m.seam_colour_offsets, m.seam_colour_pairs);
  colour_quads(n, m.bend_quads, m.bend_colour_offsets, m.bend_colour_quads);
  return m;
}

void pin_vertex(ClothModel& model, int v) {
  if (v < 0 || v >= static_cast<int>(model.vertex_count))
    throw InvalidInput("pin_vertex: vertex " + std::to_string(v) + " out of range");
  model.inv_mass[v] = 0;
}

}  // namespace drape

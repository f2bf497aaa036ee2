#pragma once
// Synthetic garments and bodies for the cloth and collision tests.

#include <cmath>
#include <cstdint>
#include <vector>

#include "drape/geometry/garment_mesh.h"
#include "drape/geometry/triangle_mesh.h"
#include "drape/geometry/triangle_queries.h"

namespace drape::test {

constexpr double kPi = 3.14159265358979323846;

/// Every pair of faces of `m` that share no vertex and intersect, counted by
/// testing all pairs (the independent answer for crossing counts).
inline std::size_t brute_force_crossings(const TriangleMesh& m) {
  std::size_t n = 0;
  const auto& x = m.positions;
  for (std::size_t i = 0; i < m.faces.size(); ++i)
    for (std::size_t j = i + 1; j < m.faces.size(); ++j) {
      const Triangle& a = m.faces[i];
      const Triangle& b = m.faces[j];
      bool shared = false;
      for (int u : a)
        for (int w : b) shared |= u == w;
      if (!shared && triangles_intersect(x[a[0]], x[a[1]], x[a[2]], x[b[0]], x[b[1]], x[b[2]])) ++n;
    }
  return n;
}

/// A flat nx x ny grid panel of spacing h: vertex (i, j) at origin + i h ex + j h ey;
/// each quad split along a diagonal (M1 step 1). Appends to g as panel `panel`.
/// Returns the id of vertex (0, 0).
inline int add_grid_panel(GarmentMesh& g, int nx, int ny, double h, Vec3 origin, Vec3 ex, Vec3 ey,
                          bool grid_springs = false, std::uint32_t regions = body_region::all) {
  const int base = static_cast<int>(g.mesh.positions.size());
  const int panel = static_cast<int>(g.panel_names.size());
  g.panel_names.push_back("panel" + std::to_string(panel));
  g.panel_regions.push_back(regions);
  auto id = [&](int i, int j) { return base + j * nx + i; };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      g.mesh.positions.push_back(origin + ex * (i * h) + ey * (j * h));
      g.rest.push_back({i * h, j * h});
      g.panel_of_vertex.push_back(panel);
    }
  for (int j = 0; j + 1 < ny; ++j)
    for (int i = 0; i + 1 < nx; ++i) {
      g.mesh.faces.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      g.mesh.faces.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  if (grid_springs) {
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        if (i + 1 < nx) g.grid_springs.push_back({id(i, j), id(i + 1, j), SpringKind::structural});
        if (j + 1 < ny) g.grid_springs.push_back({id(i, j), id(i, j + 1), SpringKind::structural});
        if (i + 1 < nx && j + 1 < ny) {
          g.grid_springs.push_back({id(i, j), id(i + 1, j + 1), SpringKind::shear});
          g.grid_springs.push_back({id(i + 1, j), id(i, j + 1), SpringKind::shear});
        }
        if (i + 2 < nx) g.grid_springs.push_back({id(i, j), id(i + 2, j), SpringKind::bend});
        if (j + 2 < ny) g.grid_springs.push_back({id(i, j), id(i, j + 2), SpringKind::bend});
      }
  }
  return base;
}

/// A horizontal square cloth (in the xz plane at height y), n x n vertices, spacing h, centred at (cx, cz).
inline GarmentMesh horizontal_square(int n, double h, double y, double cx = 0, double cz = 0) {
  GarmentMesh g;
  const double half = 0.5 * (n - 1) * h;
  // ex = +x, ey = -z keeps the normals pointing up (+y).
  add_grid_panel(g, n, n, h, {cx - half, y, cz + half}, {1, 0, 0}, {0, 0, -1});
  return g;
}

/// An open tube (vertical axis) as one panel whose seam closes it: `around` x `rows`
/// vertices, the last column sewn to the first would duplicate; here the grid wraps
/// directly (no seam) so the tube is one closed ring of quads.
inline GarmentMesh vertical_tube(int around, int rows, double radius, double height, Vec3 bottom_centre) {
  GarmentMesh g;
  g.panel_names.push_back("tube");
  g.panel_regions.push_back(body_region::all);
  const double circumference = 2 * kPi * radius;
  const double dh = height / (rows - 1);
  for (int j = 0; j < rows; ++j)
    for (int i = 0; i < around; ++i) {
      const double a = 2 * kPi * i / around;
      g.mesh.positions.push_back(bottom_centre + Vec3{radius * std::cos(a), j * dh, -radius * std::sin(a)});
      // Rest: the unrolled panel; the wrap-around edge gets its true length below via 3D rest.
      g.rest.push_back({circumference * i / around, j * dh});
      g.panel_of_vertex.push_back(0);
    }
  auto id = [&](int i, int j) { return j * around + (i % around); };
  for (int j = 0; j + 1 < rows; ++j)
    for (int i = 0; i < around; ++i) {
      g.mesh.faces.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      g.mesh.faces.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  // The unrolled rest of a wrapped tube is not one plane: use the placed (3D) shape as rest.
  g.rest.clear();
  return g;
}

/// A closed UV sphere, outward normals.
inline TriangleMesh uv_sphere(double radius, Vec3 centre, int rings = 24, int segments = 48) {
  TriangleMesh m;
  m.positions.push_back(centre + Vec3{0, radius, 0});
  for (int r = 1; r < rings; ++r) {
    const double th = kPi * r / rings;
    for (int s = 0; s < segments; ++s) {
      const double ph = 2 * kPi * s / segments;
      m.positions.push_back(centre + Vec3{radius * std::sin(th) * std::cos(ph), radius * std::cos(th),
                                          -radius * std::sin(th) * std::sin(ph)});
    }
  }
  m.positions.push_back(centre + Vec3{0, -radius, 0});
  const int south = static_cast<int>(m.positions.size()) - 1;
  auto id = [&](int r, int s) { return 1 + (r - 1) * segments + (s % segments); };
  for (int s = 0; s < segments; ++s) m.faces.push_back({0, id(1, s), id(1, s + 1)});
  for (int r = 1; r + 1 < rings; ++r)
    for (int s = 0; s < segments; ++s) {
      m.faces.push_back({id(r, s), id(r + 1, s), id(r + 1, s + 1)});
      m.faces.push_back({id(r, s), id(r + 1, s + 1), id(r, s + 1)});
    }
  for (int s = 0; s < segments; ++s) m.faces.push_back({south, id(rings - 1, s + 1), id(rings - 1, s)});
  return m;
}

/// A closed cylinder along the x axis, centred at `centre`, with capped ends; outward normals.
inline TriangleMesh x_cylinder(double radius, double length, Vec3 centre, int segments = 32,
                               int slices = 16) {
  TriangleMesh m;
  for (int k = 0; k <= slices; ++k) {
    const double xk = -0.5 * length + length * k / slices;
    for (int s = 0; s < segments; ++s) {
      const double a = 2 * kPi * s / segments;
      m.positions.push_back(centre + Vec3{xk, radius * std::cos(a), radius * std::sin(a)});
    }
  }
  const int c0 = static_cast<int>(m.positions.size());
  m.positions.push_back(centre + Vec3{-0.5 * length, 0, 0});
  m.positions.push_back(centre + Vec3{0.5 * length, 0, 0});
  auto id = [&](int k, int s) { return k * segments + (s % segments); };
  for (int k = 0; k < slices; ++k)
    for (int s = 0; s < segments; ++s) {
      m.faces.push_back({id(k, s), id(k, s + 1), id(k + 1, s + 1)});
      m.faces.push_back({id(k, s), id(k + 1, s + 1), id(k + 1, s)});
    }
  for (int s = 0; s < segments; ++s) {
    m.faces.push_back({c0, id(0, s + 1), id(0, s)});
    m.faces.push_back({c0 + 1, id(slices, s), id(slices, s + 1)});
  }
  return m;
}

/// Two n x n grid panels of spacing h side by side in the xz plane (y = 0),
/// the gap between facing edges `gap`; the right edge of the first is sewn to
/// the left edge of the second (seam 0, length ratio 1).
inline GarmentMesh two_sewn_panels(int n, double h, double gap) {
  GarmentMesh g;
  const double width = (n - 1) * h;
  const int a = add_grid_panel(g, n, n, h, {-width - gap, 0, -0.1}, {1, 0, 0}, {0, 0, 1});
  const int b = add_grid_panel(g, n, n, h, {0, 0, -0.1}, {1, 0, 0}, {0, 0, 1});
  for (int j = 0; j < n; ++j) g.seam_pairs.push_back({a + j * n + (n - 1), b + j * n, 0});
  g.seam_length_ratio = {1.0};
  return g;
}

/// A closed, outward-oriented axis-aligned box from `lo` to `hi` (12 triangles).
inline TriangleMesh box(Vec3 lo, Vec3 hi) {
  TriangleMesh b;
  for (int k = 0; k < 8; ++k)
    b.positions.push_back({k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z});
  b.faces = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
             {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  return b;
}

/// A closed, outward-oriented tetrahedron: its tip at (0, tip_y, 0) above a
/// horizontal base at base_y of half-width r (corners (-r, r), (r, r), (0, -1.2 r) in xz).
inline TriangleMesh tetrahedron(double tip_y, double base_y, double r) {
  TriangleMesh tet;
  tet.positions = {{0, tip_y, 0}, {-r, base_y, r}, {r, base_y, r}, {0, base_y, -1.2 * r}};
  tet.faces = {{0, 1, 2}, {0, 2, 3}, {0, 3, 1}, {1, 3, 2}};
  return tet;
}

}  // namespace drape::test

#pragma once
// Shared fixtures of the tree tests: seeded random meshes, closed shapes, the
// MakeHuman body, and brute-force answers that use no tree.

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "brute_force_geometry.h"
#include "drape/bvh/query_workloads.h"
#include "drape/geometry/triangle_mesh.h"
#include "drape/geometry/triangle_queries.h"
#include "drape/io/mesh_io.h"

namespace drape::test {

inline const TriangleMesh& body_mesh() {
  static const TriangleMesh m =
      read_obj(std::string(DRAPE_DATA_DIR) + "/bodies/makehuman/base.obj", {.group = "body", .unit = {}})
          .mesh;
  return m;
}

/// n random triangles in the unit cube, each of size about `size`.
inline TriangleMesh random_soup(int n, double size, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1), s(-size, size);
  TriangleMesh m;
  for (int i = 0; i < n; ++i) {
    const Vec3 c{u(rng), u(rng), u(rng)};
    for (int k = 0; k < 3; ++k) m.positions.push_back(c + Vec3{s(rng), s(rng), s(rng)});
    m.faces.push_back({3 * i, 3 * i + 1, 3 * i + 2});
  }
  return m;
}

/// Axis-aligned cube [-1,1]^3, 12 outward triangles.
inline TriangleMesh cube() {
  TriangleMesh m;
  for (int i = 0; i < 8; ++i)
    m.positions.push_back({i & 1 ? 1.0 : -1.0, i & 2 ? 1.0 : -1.0, i & 4 ? 1.0 : -1.0});
  const int q[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (auto& f : q) {
    m.faces.push_back({f[0], f[1], f[2]});
    m.faces.push_back({f[0], f[2], f[3]});
  }
  return m;
}

/// Octahedron with vertices +-e_i, 8 outward triangles.
inline TriangleMesh octahedron() {
  TriangleMesh m;
  m.positions = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (int sx : {0, 1})
    for (int sy : {2, 3})
      for (int sz : {4, 5}) {
        Triangle t{sx, sy, sz};
        const Vec3 n = cross(m.positions[sy] - m.positions[sx], m.positions[sz] - m.positions[sx]);
        if (dot(n, m.positions[sx] + m.positions[sy] + m.positions[sz]) < 0) std::swap(t[1], t[2]);
        m.faces.push_back(t);
      }
  return m;
}

/// UV sphere of radius r at c (closed).
inline TriangleMesh sphere(Vec3 c, double r, int rings, int segs) {
  TriangleMesh m;
  m.positions.push_back(c + Vec3{0, r, 0});
  for (int i = 1; i < rings; ++i) {
    const double th = M_PI * i / rings;
    for (int j = 0; j < segs; ++j) {
      const double ph = 2 * M_PI * j / segs;
      m.positions.push_back(
          c + Vec3{r * std::sin(th) * std::cos(ph), r * std::cos(th), r * std::sin(th) * std::sin(ph)});
    }
  }
  m.positions.push_back(c + Vec3{0, -r, 0});
  const int south = static_cast<int>(m.positions.size()) - 1;
  auto id = [&](int i, int j) { return 1 + (i - 1) * segs + (j % segs); };
  for (int j = 0; j < segs; ++j) m.faces.push_back({0, id(1, j + 1), id(1, j)});
  for (int i = 1; i < rings - 1; ++i)
    for (int j = 0; j < segs; ++j) {
      m.faces.push_back({id(i, j), id(i, j + 1), id(i + 1, j + 1)});
      m.faces.push_back({id(i, j), id(i + 1, j + 1), id(i + 1, j)});
    }
  for (int j = 0; j < segs; ++j) m.faces.push_back({south, id(rings - 1, j), id(rings - 1, j + 1)});
  return m;
}

/// A rectangular grid sheet: corner o, edge vectors a and b, na x nb quads.
inline TriangleMesh sheet(Vec3 o, Vec3 a, Vec3 b, int na, int nb) {
  TriangleMesh m;
  for (int j = 0; j <= nb; ++j)
    for (int i = 0; i <= na; ++i) m.positions.push_back(o + a * (double(i) / na) + b * (double(j) / nb));
  for (int j = 0; j < nb; ++j)
    for (int i = 0; i < na; ++i) {
      const int v = j * (na + 1) + i;
      m.faces.push_back({v, v + 1, v + na + 2});
      m.faces.push_back({v, v + na + 2, v + na + 1});
    }
  return m;
}

/// Seeded random rays from a sphere around `box` towards points inside it
/// (the benchmark's generator, with the sphere 1 mm larger).
inline std::vector<Ray> random_rays(const Aabb& box, int n, std::uint32_t seed) {
  return random_rays_into_box(box, n, seed, 1e-3);
}

inline std::vector<Vec3> random_points(const Aabb& box, int n, std::uint32_t seed, double grow = 0.2) {
  return random_points_in_box(box, n, seed, grow);
}

// ---- brute force (no tree) ----

inline std::optional<RayHit> brute_intersect(const TriangleMesh& m, const Ray& ray) {
  std::optional<RayHit> best;
  for (std::size_t f = 0; f < m.face_count(); ++f) {
    const Triangle& t = m.faces[f];
    double tt, u, v;
    if (intersect_ray_triangle(ray, m.positions[t[0]], m.positions[t[1]], m.positions[t[2]], tt, u, v) &&
        (!best || tt < best->t))
      best = RayHit{static_cast<int>(f), tt, u, v};
  }
  return best;
}

inline int brute_count(const TriangleMesh& m, const Ray& ray) {
  int c = 0;
  for (const Triangle& t : m.faces) {
    double tt, u, v;
    c += intersect_ray_triangle(ray, m.positions[t[0]], m.positions[t[1]], m.positions[t[2]], tt, u, v);
  }
  return c;
}

inline double brute_distance(const TriangleMesh& m, const Vec3& p) {
  double best = INFINITY;
  for (const Triangle& t : m.faces)
    best = std::min(
        best,
        norm(closest_point_on_triangle(p, m.positions[t[0]], m.positions[t[1]], m.positions[t[2]]).point -
             p));
  return best;
}

/// Self pairs (a < b) that intersect and share no vertex.
inline std::vector<std::pair<int, int>> brute_self_pairs(const TriangleMesh& m) {
  std::vector<std::pair<int, int>> out;
  std::vector<Aabb> boxes(m.face_count());
  for (std::size_t i = 0; i < m.face_count(); ++i) boxes[i] = m.face_bounds(i);
  for (std::size_t i = 0; i < m.face_count(); ++i)
    for (std::size_t j = i + 1; j < m.face_count(); ++j) {
      if (!boxes[i].overlaps(boxes[j])) continue;
      const Triangle& a = m.faces[i];
      const Triangle& b = m.faces[j];
      bool share = false;
      for (int x : a)
        for (int y : b) share = share || x == y;
      if (share) continue;
      if (triangles_intersect(m.positions[a[0]], m.positions[a[1]], m.positions[a[2]], m.positions[b[0]],
                              m.positions[b[1]], m.positions[b[2]]))
        out.emplace_back(static_cast<int>(i), static_cast<int>(j));
    }
  return out;
}

}  // namespace drape::test

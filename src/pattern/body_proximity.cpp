#include "body_proximity.h"

#include <algorithm>
#include <cmath>

namespace drape::detail {
namespace {

Vec3 closest_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  // Ericson, Real-Time Collision Detection 5.1.5.
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + ab * (d1 / (d1 - d3));
  const Vec3 cp = p - c;
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  const double denom = 1 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

}  // namespace

int BodyProximity::c3(double v, int a) const {
  return std::clamp(static_cast<int>(std::floor((v - lo_[a]) / cell_)), 0, n_[a] - 1);
}

BodyProximity::BodyProximity(const TriangleMesh& body, double cell) : m_(body), cell_(cell) {
  const Aabb b = body.bounds();
  lo_ = b.min - Vec3{cell, cell, cell};
  for (int a = 0; a < 3; ++a) n_[a] = static_cast<int>((b.max[a] - lo_[a]) / cell) + 2;
  cells_.resize(static_cast<std::size_t>(n_[0]) * n_[1] * n_[2]);
  cols_.resize(static_cast<std::size_t>(n_[1]) * n_[2]);
  for (std::size_t f = 0; f < body.faces.size(); ++f) {
    const Aabb fb = body.face_bounds(f);
    for (int z = c3(fb.min.z, 2); z <= c3(fb.max.z, 2); ++z)
      for (int y = c3(fb.min.y, 1); y <= c3(fb.max.y, 1); ++y) {
        cols_[static_cast<std::size_t>(z) * n_[1] + y].push_back(static_cast<int>(f));
        for (int x = c3(fb.min.x, 0); x <= c3(fb.max.x, 0); ++x)
          cells_[(static_cast<std::size_t>(z) * n_[1] + y) * n_[0] + x].push_back(static_cast<int>(f));
      }
  }
}

double BodyProximity::distance(const Vec3& p, double radius) const {
  double best = radius;
  const int x0 = c3(p.x - radius, 0), x1 = c3(p.x + radius, 0);
  const int y0 = c3(p.y - radius, 1), y1 = c3(p.y + radius, 1);
  const int z0 = c3(p.z - radius, 2), z1 = c3(p.z + radius, 2);
  for (int z = z0; z <= z1; ++z)
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x)
        for (int f : cells_[(static_cast<std::size_t>(z) * n_[1] + y) * n_[0] + x]) {
          const Triangle& t = m_.faces[f];
          const Vec3 q = closest_on_triangle(p, m_.positions[t[0]], m_.positions[t[1]], m_.positions[t[2]]);
          best = std::min(best, norm(q - p));
        }
  return best;
}

bool BodyProximity::inside(const Vec3& p) const {
  if (p.y < lo_.y || p.z < lo_.z || p.y > lo_.y + n_[1] * cell_ || p.z > lo_.z + n_[2] * cell_) return false;
  int crossings = 0;
  for (int f : cols_[static_cast<std::size_t>(c3(p.z, 2)) * n_[1] + c3(p.y, 1)]) {
    const Triangle& t = m_.faces[f];
    const Vec3 &a = m_.positions[t[0]], &b = m_.positions[t[1]], &c = m_.positions[t[2]];
    // Project on the YZ plane: is (p.y, p.z) inside the triangle? (half-open edge rule)
    const double ay = a.y - p.y, az = a.z - p.z, by = b.y - p.y, bz = b.z - p.z, cy = c.y - p.y,
                 cz = c.z - p.z;
    const double w0 = by * cz - bz * cy, w1 = cy * az - cz * ay, w2 = ay * bz - az * by;
    const bool pos = w0 > 0 || (w0 == 0 && (by > cy || (by == cy && bz > cz)));
    const bool pos1 = w1 > 0 || (w1 == 0 && (cy > ay || (cy == ay && cz > az)));
    const bool pos2 = w2 > 0 || (w2 == 0 && (ay > by || (ay == by && az > bz)));
    if (!((pos && pos1 && pos2) || (!pos && !pos1 && !pos2))) continue;
    const double s = w0 + w1 + w2;
    if (s == 0) continue;
    const double x = (w0 * a.x + w1 * b.x + w2 * c.x) / s;
    if (x > p.x) ++crossings;
  }
  return crossings % 2 == 1;
}

}  // namespace drape::detail

#include "outline_check.h"

#include <algorithm>
#include <cmath>

namespace drape::detail {
namespace {

double orient(Vec2 a, Vec2 b, Vec2 c) { return cross(b - a, c - a); }

bool on_segment(Vec2 a, Vec2 b, Vec2 p) {
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
         p.y <= std::max(a.y, b.y);
}

// Proper crossings, and touching (a vertex on the other segment, collinear overlap).
bool segments_meet(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const double d1 = orient(a, b, c), d2 = orient(a, b, d), d3 = orient(c, d, a), d4 = orient(c, d, b);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (d1 == 0 && on_segment(a, b, c)) || (d2 == 0 && on_segment(a, b, d)) ||
         (d3 == 0 && on_segment(c, d, a)) || (d4 == 0 && on_segment(c, d, b));
}

}  // namespace

std::pair<int, int> find_self_intersection(const std::vector<Vec2>& loop) {
  const int n = static_cast<int>(loop.size());
  if (n < 4) return {-1, -1};
  Vec2 lo{1e300, 1e300}, hi{-1e300, -1e300};
  double total = 0;
  for (int i = 0; i < n; ++i) {
    lo = {std::min(lo.x, loop[i].x), std::min(lo.y, loop[i].y)};
    hi = {std::max(hi.x, loop[i].x), std::max(hi.y, loop[i].y)};
    total += norm(loop[(i + 1) % n] - loop[i]);
  }
  const double cell = std::max({total / n * 2, (hi.x - lo.x) / 512, (hi.y - lo.y) / 512, 1e-12});
  const int nx = static_cast<int>((hi.x - lo.x) / cell) + 1, ny = static_cast<int>((hi.y - lo.y) / cell) + 1;
  std::vector<std::vector<int>> cells(static_cast<std::size_t>(nx) * ny);
  auto cx = [&](double x) { return std::clamp(static_cast<int>((x - lo.x) / cell), 0, nx - 1); };
  auto cy = [&](double y) { return std::clamp(static_cast<int>((y - lo.y) / cell), 0, ny - 1); };
  for (int i = 0; i < n; ++i) {
    const Vec2 a = loop[i], b = loop[(i + 1) % n];
    for (int y = cy(std::min(a.y, b.y)); y <= cy(std::max(a.y, b.y)); ++y)
      for (int x = cx(std::min(a.x, b.x)); x <= cx(std::max(a.x, b.x)); ++x) {
        auto& c = cells[static_cast<std::size_t>(y) * nx + x];
        for (int j : c) {
          const int d = std::abs(i - j);
          if (d <= 1 || d == n - 1) continue;  // neighbours share a point
          if (segments_meet(a, b, loop[j], loop[(j + 1) % n])) return {std::min(i, j), std::max(i, j)};
        }
        c.push_back(i);
      }
  }
  return {-1, -1};
}

}  // namespace drape::detail

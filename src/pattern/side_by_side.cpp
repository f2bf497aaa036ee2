#include "side_by_side.h"

#include <algorithm>
#include <cmath>

namespace drape::detail {
namespace {

// Panels whose outward normals are within this angle (cosine) face the same way.
constexpr double kSameFacing = 0.95;  // ~18 degrees
constexpr double kStep = 0.002;       // metres per side and step
constexpr double kMaxShift = 0.03;    // per side, metres

}  // namespace

SideBySideResult separate_side_by_side(const Pattern& pat, const PatternMesh& pm,
                                       const std::vector<Vec3>& normals, double gap, std::vector<Vec3>& pos) {
  SideBySideResult res;
  const std::size_t np = pat.panels.size();
  std::vector<std::vector<char>> sewn(np, std::vector<char>(np, 0));
  for (const Stitch& st : pat.stitches) sewn[st.a.panel][st.b.panel] = sewn[st.b.panel][st.a.panel] = 1;
  auto range = [&](std::size_t p) {
    return std::pair{pm.panels[p].first_vertex, pm.panels[p].first_vertex + pm.panels[p].vertex_count};
  };
  auto centre = [&](std::size_t p) {
    const auto [lo, hi] = range(p);
    Vec3 c{};
    for (int v = lo; v < hi; ++v) c += pos[v];
    return c / static_cast<double>(std::max(hi - lo, 1));
  };
  // Closest vertex distance between the two panels (brute force over a bounding-box prefilter).
  auto closest = [&](std::size_t p, std::size_t q) {
    const auto [plo, phi] = range(p);
    const auto [qlo, qhi] = range(q);
    double best = 1e300;
    for (int a = plo; a < phi; ++a)
      for (int b = qlo; b < qhi; ++b) best = std::min(best, squared_norm(pos[a] - pos[b]));
    return std::sqrt(best);
  };
  for (std::size_t p = 0; p < np; ++p)
    for (std::size_t q = p + 1; q < np; ++q) {
      if (sewn[p][q] || pm.panels[p].vertex_count == 0 || pm.panels[q].vertex_count == 0) continue;
      if (dot(normals[p], normals[q]) < kSameFacing) continue;
      if (closest(p, q) >= gap) continue;
      const Vec3 n = normalized(normals[p] + normals[q]);
      Vec3 d = centre(p) - centre(q);
      d -= n * dot(d, n);
      if (norm(d) < 1e-9) continue;  // one on top of the other: layers, not side by side
      d = normalized(d);
      double moved = 0;
      while (moved < kMaxShift && closest(p, q) < gap) {
        for (auto [r, s] : {std::pair{p, 1.0}, std::pair{q, -1.0}}) {
          const auto [lo, hi] = range(r);
          for (int v = lo; v < hi; ++v) pos[v] += d * (s * kStep);
        }
        moved += kStep;
      }
      ++res.separated_pairs;
      if (closest(p, q) < gap)
        res.warnings.push_back("panels '" + pat.panels[p].name + "' and '" + pat.panels[q].name +
                               "' lie edge to edge and could not be moved apart");
    }
  return res;
}

}  // namespace drape::detail

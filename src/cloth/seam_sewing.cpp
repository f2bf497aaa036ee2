#include "drape/cloth/seam_sewing.h"

#include <algorithm>
#include <cmath>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/geometry/triangle_queries.h"

namespace drape {

Vec3 sewing_force(const ClothModel& model, const Fabric& fabric, const std::vector<Vec3>& x, int s) {
  if (fabric.sewing_stiffness <= 0) return {};
  const int a = model.seam_a[s], b = model.seam_b[s];
  Vec3 f = (x[b] - x[a]) * fabric.sewing_stiffness;
  const double m = norm(f);
  if (m > fabric.sewing_force_max) f *= fabric.sewing_force_max / m;
  return f;
}

void project_seam_constraints(const ClothModel& model, const Fabric& fabric,
                              const std::vector<unsigned char>& joined, const std::vector<double>& cap_scale,
                              double dt2, std::vector<double>& lambda, std::vector<Vec3>& x,
                              const Executor& ex) {
  if (model.seam_a.empty()) return;
  const double cap = fabric.sewing_force_max * dt2;
  for (std::size_t c = 0; c + 1 < model.seam_colour_offsets.size(); ++c) {
    ex.for_each(
        model.seam_colour_offsets[c], model.seam_colour_offsets[c + 1],
        [&](std::size_t k) {
          const int s = model.seam_colour_pairs[k];
          const int a = model.seam_a[s], b = model.seam_b[s];
          const double wa = model.inv_mass[a], wb = model.inv_mass[b];
          if (wa + wb == 0) return;
          const Vec3 d = x[b] - x[a];
          const double L = norm(d);
          if (!(L > 1e-15)) return;
          const bool is_joined = joined[s];
          if (!is_joined && fabric.sewing_stiffness <= 0) return;
          const double alpha = is_joined ? 0.0 : 1 / (fabric.sewing_stiffness * cap_scale[s] * dt2);
          double dl = (-L - alpha * lambda[s]) / (wa + wb + alpha);
          if (!is_joined) dl = std::max(lambda[s] + dl, -cap * cap_scale[s]) - lambda[s];  // force cap
          lambda[s] += dl;
          const Vec3 corr = d * (dl / L);
          x[a] -= corr * wa;
          x[b] += corr * wb;
        },
        512);
  }
}

void weld_joined_pairs(const ClothModel& model, const std::vector<unsigned char>& joined,
                       std::vector<Vec3>& x, std::vector<unsigned char>& moved, const Executor& ex) {
  if (model.seam_a.empty()) return;
  for (std::size_t c = 0; c + 1 < model.seam_colour_offsets.size(); ++c) {
    ex.for_each(
        model.seam_colour_offsets[c], model.seam_colour_offsets[c + 1],
        [&](std::size_t k) {
          const int s = model.seam_colour_pairs[k];
          if (!joined[s]) return;
          const int a = model.seam_a[s], b = model.seam_b[s];
          const double wa = model.inv_mass[a], wb = model.inv_mass[b];
          if (wa + wb == 0) return;
          // Weighted by mass (inverse of inverse mass); a pinned side keeps its place.
          const Vec3 p = wa == 0 ? x[a] : (wb == 0 ? x[b] : (x[a] * wb + x[b] * wa) / (wa + wb));
          x[a] = p;
          x[b] = p;
          moved[a] = moved[b] = 1;
        },
        512);
  }
}

bool cloth_between(const ClothModel& model, const std::vector<Vec3>& x, int a, int b) {
  const Ray seg{x[a], x[b] - x[a], 0, 1};
  for (const Triangle& t : model.faces) {
    if (t[0] == a || t[1] == a || t[2] == a || t[0] == b || t[1] == b || t[2] == b) continue;
    double th, u, v;
    if (intersect_ray_triangle(seg, x[t[0]], x[t[1]], x[t[2]], th, u, v)) return true;
  }
  return false;
}

void open_seam_ends(const ClothModel& model, const std::vector<unsigned char>& joined,
                    std::vector<unsigned char>& ends) {
  ends.assign(model.vertex_count, 0);
  for (std::size_t s = 0; s < model.seam_a.size(); ++s)
    if (!joined[s]) ends[model.seam_a[s]] = ends[model.seam_b[s]] = 1;
}

double bracketed_open_pairs(const ClothModel& model, const std::vector<Vec3>& x,
                            const std::vector<unsigned char>& joined, std::size_t s, int run_max,
                            int end_run_max) {
  const std::size_t pairs = model.seam_a.size();
  if ((run_max <= 0 && end_run_max <= 0) || s >= pairs || joined[s]) return 0;
  const int stitch = model.seam_stitch[s];
  std::size_t lo = s, hi = s;  // the run of open pairs of this stitch holding s
  while (lo > 0 && model.seam_stitch[lo - 1] == stitch && !joined[lo - 1]) --lo;
  while (hi + 1 < pairs && model.seam_stitch[hi + 1] == stitch && !joined[hi + 1]) ++hi;
  const int run = static_cast<int>(hi - lo + 1);
  // A joined pair of the stitch before and after the run (the pairs there are
  // of this stitch and, the run being maximal, joined).
  const bool before = lo > 0 && model.seam_stitch[lo - 1] == stitch;
  const bool after = hi + 1 < pairs && model.seam_stitch[hi + 1] == stitch;
  if (before && after) {
    if (run > run_max) return 0;
  } else if (before != after) {  // the run reaches one end of the stitch
    if (run > end_run_max) return 0;
  } else {
    return 0;  // the whole stitch is open
  }
  // The a side's edges from the first pair to the last over [lo - before, hi + after].
  const std::size_t first = before ? lo - 1 : lo, last = after ? hi + 1 : hi;
  double length = 0;
  for (std::size_t k = first; k < last; ++k) length += norm(x[model.seam_a[k + 1]] - x[model.seam_a[k]]);
  return length / static_cast<double>(last - first);
}

int join_seam_pairs(const ClothModel& model, const std::vector<Vec3>& x, const SeamJoinRules& rules,
                    const TriangleMeshBvh* body, const std::vector<unsigned char>& near_corner,
                    const std::vector<int>& corner_group, std::vector<unsigned char>& joined,
                    std::vector<double>& gap_prev, std::vector<double>& cap_scale) {
  int count = 0;
  const std::size_t pairs = model.seam_a.size();
  for (std::size_t s = 0; s < pairs; ++s)
    if (!joined[s] && norm(x[model.seam_a[s]] - x[model.seam_b[s]]) < rules.join_distance) {
      joined[s] = 1;
      ++count;
    }
  if (!body) return count;
  for (std::size_t s = 0; s < pairs; ++s) {
    if (joined[s]) continue;
    const int ia = model.seam_a[s], ib = model.seam_b[s];
    const Vec3 a = x[ia], b = x[ib];
    const double gap = norm(b - a);
    const bool stalled = gap > 0.98 * gap_prev[s];
    gap_prev[s] = gap;
    if (!stalled || body->intersects_segment(a, b)) continue;
    const bool in_corner = !corner_group.empty() && corner_group[ia] >= 0;
    // A pucker between two sewn stitches: the seam is closed on both sides of
    // a short open run whose cap has reached its limit, and sewing pulls no
    // further against the stretched cloth around it (the graded jumpsuit's
    // inseam below the crotch: 8.8-11.2 mm for good, nothing between). Or a
    // single pair at a stitch's end, the seam closed up to it: the neck end of
    // a shoulder seam that a tight neckline holds 5-9 mm open, closing by
    // under 1 % a frame at the cap's limit (graded jumpsuits on mean_female).
    const bool pucker =
        (rules.bracketed_run_max > 0 || rules.end_run_max > 0) && cap_scale[s] >= rules.cap_max_scale &&
        gap < bracketed_open_pairs(model, x, joined, s, rules.bracketed_run_max, rules.end_run_max);
    const bool close = gap < rules.stalled_join_distance;
    // Next to a corner only sides that overlap; elsewhere the 3 mm rule and
    // puckers. Either way no cloth between (a brute-force test: asked once).
    const bool overlapping = gap < rules.corner_join_distance;
    const bool clear_of_corners = !near_corner[ia] && !near_corner[ib];
    if ((close && in_corner) ||
        ((overlapping || ((close || pucker) && clear_of_corners)) && !cloth_between(model, x, ia, ib))) {
      joined[s] = 1;
      ++count;
      continue;
    }
    cap_scale[s] = std::min(cap_scale[s] * rules.cap_growth, rules.cap_max_scale);
  }
  return count;
}

}  // namespace drape

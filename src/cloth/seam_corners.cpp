#include "drape/cloth/seam_corners.h"

#include <algorithm>

#include "drape/cloth/seam_weld.h"
#include "drape/collision/contour_untangle.h"

namespace drape {

std::vector<unsigned char> seam_corner_vertices(const ClothModel& m) {
  std::vector<unsigned char> corner(m.vertex_count, 0);
  for (std::size_t v = 0; v < m.vertex_count; ++v)
    corner[v] = m.vertex_seam_offsets[v + 1] - m.vertex_seam_offsets[v] > 1;
  return corner;
}

void grow_by_rings(const ClothModel& m, int rings, std::vector<unsigned char>& in, UnionFind* sets) {
  std::vector<unsigned char> next;
  for (int ring = 0; ring < rings; ++ring) {
    next = in;
    for (const Triangle& t : m.faces)
      for (int k = 0; k < 3; ++k)
        if (in[t[k]]) {
          next[t[0]] = next[t[1]] = next[t[2]] = 1;
          if (sets) {
            sets->unite(t[k], t[(k + 1) % 3]);
            sets->unite(t[k], t[(k + 2) % 3]);
          }
        }
    for (std::size_t k = 0; k < m.seam_a.size(); ++k)
      if (next[m.seam_a[k]] || next[m.seam_b[k]]) {
        next[m.seam_a[k]] = next[m.seam_b[k]] = 1;
        if (sets) sets->unite(m.seam_a[k], m.seam_b[k]);
      }
    in.swap(next);
  }
}

std::vector<unsigned char> near_seam_corners(const ClothModel& m, int rings) {
  std::vector<unsigned char> near = seam_corner_vertices(m);
  grow_by_rings(m, rings, near, nullptr);
  return near;
}

std::vector<int> corner_pass_through_groups(const ClothModel& m, int rings) {
  const std::size_t n = m.vertex_count;
  std::vector<unsigned char> in = seam_corner_vertices(m);
  if (std::none_of(in.begin(), in.end(), [](unsigned char c) { return c != 0; })) return {};
  UnionFind sets(n);
  grow_by_rings(m, rings, in, &sets);
  std::vector<int> group(n, -1);
  for (std::size_t v = 0; v < n; ++v)
    if (in[v]) group[v] = sets.find(static_cast<int>(v));
  return group;
}

bool CornerUntangler::untangle_closed_groups(const ClothModel& m, const std::vector<unsigned char>& joined,
                                             bool release_all, int iterations, double step,
                                             std::vector<Vec3>& x, std::vector<int>& corner_group) {
  if (corner_group.empty()) return false;
  const std::size_t n = m.vertex_count;
  // open_[g]: group g (a representative vertex id) still has an open pair.
  open_.assign(n, 0);
  if (!release_all)
    for (std::size_t k = 0; k < m.seam_a.size(); ++k)
      if (!joined[k] && corner_group[m.seam_a[k]] >= 0) open_[corner_group[m.seam_a[k]]] = 1;
  // (group, face) for the faces with a vertex in a closed group, by group.
  group_faces_.clear();
  for (std::size_t f = 0; f < m.faces.size(); ++f) {
    int last = -1;
    for (int v : m.faces[f]) {
      const int g = corner_group[v];
      if (g >= 0 && g != last && !open_[g]) group_faces_.push_back({g, static_cast<int>(f)});
      last = g;
    }
  }
  if (group_faces_.empty()) return false;
  std::sort(group_faces_.begin(), group_faces_.end());
  group_faces_.erase(std::unique(group_faces_.begin(), group_faces_.end()), group_faces_.end());
  // Joined seam pairs are one vertex: their faces are adjacent, not crossing.
  welded_representatives(m, joined, welded_, rep_);
  bool changed = false;
  for (std::size_t first = 0; first < group_faces_.size();) {
    const int g = group_faces_[first].first;
    faces_.clear();
    for (; first < group_faces_.size() && group_faces_[first].first == g; ++first)
      faces_.push_back(group_faces_[first].second);
    if (minimise_crossings(m, iterations, step, x, {}, /*all_faces=*/false) != 0) continue;
    for (int& c : corner_group)
      if (c == g) c = -1;
    changed = true;
  }
  if (changed && std::all_of(corner_group.begin(), corner_group.end(), [](int c) { return c < 0; }))
    corner_group.clear();
  return changed;
}

std::size_t CornerUntangler::untangle_everywhere(const ClothModel& m,
                                                 const std::vector<unsigned char>& joined, int iterations,
                                                 double step, std::vector<Vec3>& x,
                                                 const StepFilter& blocked) {
  welded_representatives(m, joined, welded_, rep_);
  return minimise_crossings(m, iterations, step, x, blocked, /*all_faces=*/true);
}

std::size_t CornerUntangler::minimise_crossings(const ClothModel& m, int iterations, double step,
                                                std::vector<Vec3>& x, const StepFilter& blocked,
                                                bool all_faces) {
  const std::size_t n = m.vertex_count;
  for (int it = 0;; ++it) {
    // As the result will be: joined pairs welded at their mean (a pair
    // joined a few mm apart, welded, can cross where the raw cloth does not).
    mean_by_representative(x, rep_, xw_, count_);
    const auto pairs = all_faces ? crossing_face_pairs_all(m.faces, xw_, rep_, everywhere_)
                                 : crossing_face_pairs(m.faces, xw_, faces_, rep_);
    if (pairs.empty() || it == iterations) return pairs.size();
    before_ = xw_;
    contour_minimization_step(m.faces, xw_, m.inv_mass, pairs, step);
    if (blocked)
      for (std::size_t v = 0; v < n; ++v)
        if (!(xw_[v] == before_[v]) && blocked(v, before_[v], xw_[v])) xw_[v] = before_[v];
    for (std::size_t v = 0; v < n; ++v) x[v] += xw_[v] - before_[v];
  }
}

}  // namespace drape

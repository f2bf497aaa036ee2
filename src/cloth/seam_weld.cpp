#include "drape/cloth/seam_weld.h"

#include <algorithm>

namespace drape {

void welded_representatives(const ClothModel& m, const std::vector<unsigned char>& joined, UnionFind& sets,
                            std::vector<int>& rep) {
  sets.reset(m.vertex_count);
  for (std::size_t s = 0; s < m.seam_a.size(); ++s)
    if (joined[s]) sets.unite(m.seam_a[s], m.seam_b[s]);
  sets.representatives(rep);
}

void mean_by_representative(const std::vector<Vec3>& x, const std::vector<int>& rep, std::vector<Vec3>& out,
                            std::vector<int>& count) {
  const std::size_t n = x.size();
  out.assign(n, Vec3{});
  count.assign(n, 0);
  for (std::size_t v = 0; v < n; ++v) out[rep[v]] += x[v], ++count[rep[v]];
  for (std::size_t v = 0; v < n; ++v)
    if (count[v] > 1) out[v] /= static_cast<double>(count[v]);
  for (std::size_t v = 0; v < n; ++v) out[v] = out[rep[v]];
}

bool welded_copies(const ClothModel& m, const std::vector<unsigned char>& joined, UnionFind& sets,
                   std::vector<int>& rep, WeldedCopies& out) {
  if (std::none_of(joined.begin(), joined.end(), [](unsigned char j) { return j != 0; })) return false;
  welded_representatives(m, joined, sets, rep);
  const std::size_t n = m.vertex_count;
  out.next.resize(n);
  out.inv_mass = m.inv_mass;
  std::vector<double> mass(n, 0.0);
  std::vector<unsigned char> pinned(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    const int r = rep[v];
    if (m.inv_mass[v] == 0)
      pinned[r] = 1;
    else
      mass[r] += 1 / m.inv_mass[v];
  }
  // Link each copy after the one before it; the set's last copy links back
  // to the representative (the smallest id, seen first).
  std::vector<int> tail(n, -1);
  for (std::size_t v = 0; v < n; ++v) {
    const int r = rep[v];
    if (tail[r] >= 0) out.next[tail[r]] = static_cast<int>(v);
    tail[r] = static_cast<int>(v);
  }
  for (std::size_t v = 0; v < n; ++v) {
    const int r = rep[v];
    if (tail[r] == static_cast<int>(v)) out.next[v] = r;
    if (r != static_cast<int>(v) || tail[r] != r) out.inv_mass[v] = pinned[r] ? 0.0 : 1 / mass[r];
  }
  return true;
}

TriangleMesh weld_joined_seams(const ClothModel& m, const std::vector<Vec3>& x,
                               const std::vector<unsigned char>& joined, std::vector<int>& vertex_map,
                               std::vector<int>& face_map) {
  const std::size_t n = m.vertex_count;
  UnionFind sets;
  std::vector<int> rep, count;
  welded_representatives(m, joined, sets, rep);
  std::vector<Vec3> mean;
  mean_by_representative(x, rep, mean, count);
  TriangleMesh out;
  vertex_map.assign(n, -1);
  std::vector<int> root_index(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    const int r = rep[i];
    if (root_index[r] < 0) {
      root_index[r] = static_cast<int>(out.positions.size());
      out.positions.push_back(mean[r]);
    }
    vertex_map[i] = root_index[r];
  }
  face_map.clear();
  for (std::size_t f = 0; f < m.faces.size(); ++f) {
    const Triangle& t = m.faces[f];
    const Triangle w{vertex_map[t[0]], vertex_map[t[1]], vertex_map[t[2]]};
    if (w[0] == w[1] || w[1] == w[2] || w[0] == w[2]) continue;
    out.faces.push_back(w);
    face_map.push_back(static_cast<int>(f));
  }
  return out;
}

}  // namespace drape

#include "drape/cloth/seam_weld.h"

#include <cmath>

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

std::size_t keep_body_answers_at_welds(const ClothModel& m, const std::vector<unsigned char>& joined,
                                       const std::vector<HalfSpace>& pushes, std::vector<Vec3>& x,
                                       std::vector<unsigned char>& moved, WeldScratch& w) {
  const std::size_t n = m.vertex_count;
  w.sets.reset(n);
  w.members.clear();
  w.found.clear();
  if (w.set_of.size() != n) w.set_of.assign(n, -1);  // kept at -1 between calls
  for (std::size_t s = 0; s < m.seam_a.size(); ++s) {
    if (!joined[s]) continue;
    w.sets.unite(m.seam_a[s], m.seam_b[s]);
    for (const int v : {m.seam_a[s], m.seam_b[s]})
      if (w.set_of[v] == -1) {
        w.set_of[v] = -2;  // listed; its set is numbered below
        w.members.push_back(v);
      }
  }
  // Number the sets by their representatives, in the order members were listed.
  for (const int v : w.members) {
    const int r = w.sets.find(v);
    if (w.set_of[r] < 0) {
      w.set_of[r] = static_cast<int>(w.found.size());
      w.found.emplace_back();
    }
  }
  for (const int v : w.members) {
    WeldScratch::Set& s = w.found[w.set_of[w.sets.find(v)]];
    if (m.inv_mass[v] == 0) {
      s.pinned = true;
      continue;
    }
    const double mass = 1 / m.inv_mass[v];
    s.sum += x[v] * mass;
    s.mass += mass;
    for (const HalfSpace& h : {pushes[2 * v], pushes[2 * v + 1]})
      if (!(h.normal == Vec3{}) && s.count < kMaxHalfSpaces) s.hs[s.count++] = h;
  }
  std::size_t sets_moved = 0;
  for (WeldScratch::Set& s : w.found) {
    if (s.pinned || s.count == 0) continue;
    const Vec3 mean = s.sum / s.mass;
    s.move = nearest_in_halfspaces(mean, s.hs, s.count, s.place) && !(s.place == mean);
    sets_moved += s.move;
  }
  for (const int v : w.members) {
    const WeldScratch::Set& s = w.found[w.set_of[w.sets.find(v)]];
    if (s.move) {
      x[v] = s.place;
      moved[v] = 1;
    }
  }
  for (const int v : w.members) w.set_of[v] = -1;
  return sets_moved;
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

#include "drape/collision/self_collider.h"

#include <algorithm>
#include <cmath>

#include "drape/geometry/mesh_adjacency.h"
#include "drape/geometry/triangle_queries.h"
#include "self_collider_geometry.h"

namespace drape {

using namespace self_collision;

namespace {

// Keeps the k nearest candidates (ids with distances) in a small array.
struct NearestList {
  int* ids;
  double dist[64];
  int count = 0, cap;
  bool overflowed = false;
  NearestList(int* out, int capacity) : ids(out), cap(capacity) {}
  void add(int id, double d) {
    if (count < cap) {
      ids[count] = id;
      dist[count++] = d;
      return;
    }
    overflowed = true;
    int worst = 0;
    for (int i = 1; i < count; ++i)
      if (dist[i] > dist[worst]) worst = i;
    if (d < dist[worst]) {
      ids[worst] = id;
      dist[worst] = d;
    }
  }
};

}  // namespace

SelfCollider::SelfCollider(const std::vector<Triangle>& faces, const std::vector<Vec3>& positions,
                           double thickness, double cone_angle, std::vector<int> vertex_alias, double slack)
    : faces_(faces),
      alias_(std::move(vertex_alias)),
      thickness_(thickness),
      slack_(slack > 0 ? slack : thickness),
      radius_(thickness + 2 * (slack > 0 ? slack : thickness)),
      cos_cone_(std::cos(cone_angle)) {
  const std::size_t n = positions.size();
  if (alias_.size() != n) {
    alias_.resize(n);
    for (std::size_t i = 0; i < n; ++i) alias_[i] = static_cast<int>(i);
  }
  alias_faces_ = faces_;
  for (Triangle& t : alias_faces_)
    for (int& v : t) v = alias_[v];
  edges_ = unique_edges(faces_);
  mark_free_boundary();

  // Faces around each vertex, by alias (a seam's two sides share their faces).
  vertex_face_offsets_.assign(n + 1, 0);
  for (const Triangle& t : alias_faces_)
    for (int v : t) ++vertex_face_offsets_[v + 1];
  for (std::size_t i = 0; i < n; ++i) vertex_face_offsets_[i + 1] += vertex_face_offsets_[i];
  vertex_faces_.resize(vertex_face_offsets_[n]);
  std::vector<int> fill(vertex_face_offsets_.begin(), vertex_face_offsets_.end() - 1);
  for (std::size_t f = 0; f < faces_.size(); ++f)
    for (int v : alias_faces_[f]) vertex_faces_[fill[v]++] = static_cast<int>(f);

  // Two-ring neighbourhoods (M1 step 10's "neighbouring triangles").
  ring_offsets_.assign(n + 1, 0);
  std::vector<int> one, two;
  for (std::size_t v = 0; v < n; ++v) {
    one.clear();
    for (int k = vertex_face_offsets_[v]; k < vertex_face_offsets_[v + 1]; ++k)
      for (int a : alias_faces_[vertex_faces_[k]]) one.push_back(a);
    std::sort(one.begin(), one.end());
    one.erase(std::unique(one.begin(), one.end()), one.end());
    two = one;
    for (int u : one)
      for (int k = vertex_face_offsets_[u]; k < vertex_face_offsets_[u + 1]; ++k)
        for (int a : alias_faces_[vertex_faces_[k]]) two.push_back(a);
    std::sort(two.begin(), two.end());
    two.erase(std::unique(two.begin(), two.end()), two.end());
    ring_.insert(ring_.end(), two.begin(), two.end());
    ring_offsets_[v + 1] = static_cast<int>(ring_.size());
  }

  tri_boxes_.resize(faces_.size());
  edge_boxes_.resize(edges_.size());
  for (std::size_t f = 0; f < faces_.size(); ++f)
    for (int v : faces_[f]) tri_boxes_[f].expand(positions[v]);
  for (std::size_t e = 0; e < edges_.size(); ++e) {
    edge_boxes_[e].expand(positions[edges_[e][0]]);
    edge_boxes_[e].expand(positions[edges_[e][1]]);
  }
  tri_tree_ = Bvh::build(tri_boxes_);
  edge_tree_ = Bvh::build(edge_boxes_);
  tri_wide_ = BvhWide(tri_tree_);
  edge_wide_ = BvhWide(edge_tree_);
  vertex_boxes_.resize(n);
  edge_bound_.assign(n, 0);
  for (std::size_t v = 0; v < n; ++v) vertex_boxes_[v] = Aabb{positions[v], positions[v]};
  vertex_tree_ = Bvh::build(vertex_boxes_);
  marked_.assign(n, 1);
  lost_flat_.assign(n, 0);
  face_normals_.resize(faces_.size());
  flat_.assign(faces_.size(), 0);
  vertex_flat_.assign(n, 0);
  ref_x_.assign(n, Vec3{});  // relative to the centroid; the first update searches everything
  vcand_.resize(n * kMaxCandidates);
  vcand_count_.assign(n, 0);
  ecand_.resize(edges_.size() * kMaxCandidates);
  ecand_count_.assign(edges_.size(), 0);
  vt_.resize(n * kMaxContacts);
  vt_count_.assign(n, 0);
  ee_.resize(edges_.size() * kMaxContacts);
  ee_count_.assign(edges_.size(), 0);
  item_overflow_.assign(std::max(n, edges_.size()), 0);
  vbound_.assign(n, kUnknown);
  ebound_.assign(edges_.size(), kUnknown);
  drift_.assign(n, 0);
  face_drift_.assign(faces_.size(), 0);
  edge_drift_.assign(edges_.size(), 0);
  epoch_x_.assign(n, Vec3{});
  skipped_.assign(n + edges_.size(), 0);
  update_curvature(positions, Executor::global());
}

void SelfCollider::update_curvature(const std::vector<Vec3>& x, const Executor& executor) {
  executor.for_each(0, faces_.size(), [&](std::size_t f) {
    const Triangle& t = faces_[f];
    face_normals_[f] = normalized(cross(x[t[1]] - x[t[0]], x[t[2]] - x[t[0]]));
  });
  // A face is flat when every face sharing a vertex with it has a normal within the cone.
  executor.for_each(0, faces_.size(), [&](std::size_t f) {
    bool flat = true;
    for (int v : alias_faces_[f])
      for (int k = vertex_face_offsets_[v]; k < vertex_face_offsets_[v + 1] && flat; ++k)
        if (dot(face_normals_[f], face_normals_[vertex_faces_[k]]) < cos_cone_) flat = false;
    flat_[f] = flat;
  });
  // Culling more never misses a contact; only a vertex that stops being flat
  // may need candidates the last search culled.
  // Such vertices are searched again (with everything within reach) at the next update.
  for (std::size_t v = 0; v < vertex_flat_.size(); ++v) {
    bool flat = vertex_face_offsets_[v] < vertex_face_offsets_[v + 1];
    for (int k = vertex_face_offsets_[v]; k < vertex_face_offsets_[v + 1] && flat; ++k)
      flat = flat_[vertex_faces_[k]];
    if (vertex_flat_[v] && !flat) lost_flat_[v] = 1;
    vertex_flat_[v] = flat;
  }
}

// Both vertices (aliases) in flat neighbourhoods and within two rings of each other.
bool SelfCollider::near_and_flat(int va, int vb) const {
  if (!vertex_flat_[va] || !vertex_flat_[vb]) return false;
  return std::binary_search(ring_.begin() + ring_offsets_[va], ring_.begin() + ring_offsets_[va + 1], vb);
}

void SelfCollider::search(const std::vector<Vec3>& x, const Executor& executor, bool all) {
  const double r = radius_;
  const double r2_margin = r * r * kGapMargin;
  executor.for_each(0, faces_.size(), [&](std::size_t f) {
    Aabb b;
    for (int v : faces_[f]) b.expand(x[v]);
    tri_boxes_[f] = b;
  });
  executor.for_each(0, edges_.size(), [&](std::size_t e) {
    Aabb b;
    b.expand(x[edges_[e][0]]);
    b.expand(x[edges_[e][1]]);
    edge_boxes_[e] = b.inflated(0.5 * r);
  });
  tri_tree_.refit(tri_boxes_);
  edge_tree_.refit(edge_boxes_);
  tri_wide_.refit(tri_tree_);
  edge_wide_.refit(edge_tree_);
  const std::size_t n = x.size();
  executor.for_each(
      0, n,
      [&](std::size_t vi) {
        if (!all && !marked_[vi]) return;
        const int v = static_cast<int>(vi);
        const int va = alias_[v];
        NearestList list(&vcand_[vi * kMaxCandidates], kMaxCandidates);
        Aabb q;
        q.expand(x[v]);
        tri_wide_.for_each_overlap(tri_tree_, q.inflated(r), [&](int f) {
          const Triangle& ta = alias_faces_[f];
          if (ta[0] == va || ta[1] == va || ta[2] == va) return;
          const Triangle& t = faces_[f];
          if (point_triangle_gap2(x[v], x[t[0]], x[t[1]], x[t[2]]) > r2_margin)
            return;  // cheaper than what follows
          if (exempt(v, faces_[f])) return;
          // M1 step 10: a flat neighbourhood cannot touch itself.
          if (flat_[f] && (near_and_flat(va, ta[0]) || near_and_flat(va, ta[1]) || near_and_flat(va, ta[2])))
            return;
          const ClosestPoint cp = closest_point_on_triangle(x[v], x[t[0]], x[t[1]], x[t[2]]);
          const double d2 = squared_norm(x[v] - cp.point);
          if (d2 < r * r) list.add(f, d2);
        });
        // Deterministic order regardless of traversal: sort by id.
        std::sort(list.ids, list.ids + list.count);
        vcand_count_[vi] = list.count;
        vbound_[vi] = kUnknown;  // a new list: its distances are not known yet
        item_overflow_[vi] = list.overflowed;
      },
      64);
  std::size_t over = 0;
  for (std::size_t v = 0; v < n; ++v)
    if (all || marked_[v]) over += item_overflow_[v];
  executor.for_each(
      0, edges_.size(),
      [&](std::size_t ei) {
        const int a0 = edges_[ei][0], a1 = edges_[ei][1];
        if (!all && !marked_[a0] && !marked_[a1]) return;
        const int A0 = alias_[a0], A1 = alias_[a1];
        NearestList list(&ecand_[ei * kMaxCandidates], kMaxCandidates);
        // A pair lives in the list of its smaller edge, except that a re-searched
        // edge also lists the smaller edges whose (stale) lists were not re-searched.
        edge_wide_.for_each_overlap(edge_tree_, edge_boxes_[ei], [&](int e2) {
          if (e2 == static_cast<int>(ei)) return;
          const int b0 = edges_[e2][0], b1 = edges_[e2][1];
          if (e2 < static_cast<int>(ei) && (all || marked_[b0] || marked_[b1])) return;
          const int B0 = alias_[b0], B1 = alias_[b1];
          if (B0 == A0 || B0 == A1 || B1 == A0 || B1 == A1) return;
          if (segment_gap2(x[a0], x[a1], x[b0], x[b1]) > r2_margin) return;  // cheaper than what follows
          if (exempt(a0, a1, b0, b1)) return;
          if (near_and_flat(A0, B0) || near_and_flat(A0, B1) || near_and_flat(A1, B0) ||
              near_and_flat(A1, B1))
            return;
          double s, t;
          closest_segment_params(x[a0], x[a1], x[b0], x[b1], s, t);
          const double d2 = squared_norm(x[a0] * (1 - s) + x[a1] * s - x[b0] * (1 - t) - x[b1] * t);
          if (d2 < r * r) list.add(e2, d2);
        });
        std::sort(list.ids, list.ids + list.count);
        ecand_count_[ei] = list.count;
        ebound_[ei] = kUnknown;
        item_overflow_[ei] = list.overflowed;
      },
      64);
  for (std::size_t e = 0; e < edges_.size(); ++e)
    if (all || marked_[edges_[e][0]] || marked_[edges_[e][1]]) over += item_overflow_[e];
  overflow_ += over;
  const Vec3 c = centroid(x);
  for (std::size_t v = 0; v < n; ++v)
    if (all || marked_[v]) {
      ref_x_[v] = x[v] - c;
      lost_flat_[v] = 0;
    }
  need_search_ = false;
  ++searches_;
}

std::vector<std::array<int, 2>> SelfCollider::vertex_triangle_candidates() const {
  std::vector<std::array<int, 2>> out;
  for (std::size_t v = 0; v < vcand_count_.size(); ++v)
    for (int k = 0; k < vcand_count_[v]; ++k)
      out.push_back({static_cast<int>(v), vcand_[v * kMaxCandidates + k]});
  return out;  // by vertex, then by face
}

std::vector<std::array<int, 4>> SelfCollider::edge_edge_candidates() const {
  std::vector<std::array<int, 4>> out;
  for (std::size_t e = 0; e < ecand_count_.size(); ++e)
    for (int k = 0; k < ecand_count_[e]; ++k) {
      const int other = ecand_[e * kMaxCandidates + k];
      const auto& lo = edges_[std::min(static_cast<int>(e), other)];
      const auto& hi = edges_[std::max(static_cast<int>(e), other)];
      out.push_back({lo[0], lo[1], hi[0], hi[1]});
    }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void SelfCollider::set_exempt_groups(std::vector<int> groups) {
  exempt_group_ = std::move(groups);
  if (exempt_group_.size() != alias_.size()) exempt_group_.clear();
  need_search_ = true;
}

void SelfCollider::mark_free_boundary() {
  // An edge (by alias) used by one face only is free: a seam's sides count as one.
  std::vector<std::array<int, 3>> keyed;  // (lo, hi, face * 3 + opposite corner)
  keyed.reserve(3 * alias_faces_.size());
  for (std::size_t f = 0; f < alias_faces_.size(); ++f)
    for (int i = 0; i < 3; ++i) {
      const int a = alias_faces_[f][(i + 1) % 3], b = alias_faces_[f][(i + 2) % 3];
      keyed.push_back({std::min(a, b), std::max(a, b), static_cast<int>(f) * 3 + i});
    }
  std::sort(keyed.begin(), keyed.end());
  free_edge_bits_.assign(faces_.size(), 0);
  free_vertex_.assign(alias_.size(), 0);
  std::vector<unsigned char> free_alias(alias_.size(), 0);
  for (std::size_t k = 0; k < keyed.size();) {
    std::size_t e = k + 1;
    while (e < keyed.size() && keyed[e][0] == keyed[k][0] && keyed[e][1] == keyed[k][1]) ++e;
    if (e == k + 1) {
      free_edge_bits_[keyed[k][2] / 3] |= static_cast<unsigned char>(1u << (keyed[k][2] % 3));
      free_alias[keyed[k][0]] = free_alias[keyed[k][1]] = 1;
    }
    k = e;
  }
  for (std::size_t v = 0; v < alias_.size(); ++v) free_vertex_[v] = free_alias[alias_[v]];
}

bool SelfCollider::on_free_boundary(int f, double u, double v, double w, double eps) const {
  const double b[3] = {u, v, w};
  int zero = -1, zeros = 0, nonzero = -1;
  for (int i = 0; i < 3; ++i)
    if (b[i] <= eps)
      zero = i, ++zeros;
    else
      nonzero = i;
  if (zeros == 1) return (free_edge_bits_[f] >> zero) & 1u;      // on the edge opposite `zero`
  if (zeros == 2) return free_vertex_[faces_[f][nonzero]] != 0;  // at a corner
  return false;
}

bool SelfCollider::exempt(int v, const Triangle& t) const {
  if (exempt_group_.empty()) return false;
  const int g = exempt_group_[v];
  return g >= 0 && (exempt_group_[t[0]] == g || exempt_group_[t[1]] == g || exempt_group_[t[2]] == g);
}

bool SelfCollider::exempt(int a0, int a1, int b0, int b1) const {
  if (exempt_group_.empty()) return false;
  for (int a : {a0, a1}) {
    const int g = exempt_group_[a];
    if (g >= 0 && (exempt_group_[b0] == g || exempt_group_[b1] == g)) return true;
  }
  return false;
}

bool SelfCollider::update(const std::vector<Vec3>& x, const Executor& executor, bool force) {
  const std::size_t n = x.size();
  if (force || need_search_) {
    search(x, executor, true);
    return true;
  }
  // Motion is measured relative to the cloth's centroid: a common translation
  // changes no distance, so a garment falling as a whole needs no new search.
  const Vec3 c = centroid(x);
  const double s2 = slack_ * slack_;
  moved_list_.clear();
  for (std::size_t i = 0; i < n; ++i)
    if (lost_flat_[i] || squared_norm(x[i] - c - ref_x_[i]) > s2) moved_list_.push_back(static_cast<int>(i));
  if (moved_list_.empty()) return false;
  if (moved_list_.size() * 4 > n) {
    search(x, executor, true);  // most of the cloth moves: one full search is cheaper
    return true;
  }
  // Mark every vertex whose lists may miss a pair with a moved one, or hold
  // pairs its new search decides: u within thickness + 4 slack + e(v) + e(u)
  // of a moved v, e() the longest edge of a vertex's faces now. A pair (u, f)
  // with v on f, or of edges at u and at v, then had u that close to v;
  // anything farther stays at least the thickness apart while both sides move
  // at most 2 slack each before their next search.
  executor.for_each(
      0, n,
      [&](std::size_t v) {
        vertex_boxes_[v] = Aabb{x[v], x[v]};
        const int va = alias_[v];
        double m2 = 0;  // by alias: the seam partner's faces too (an upper bound)
        for (int k = vertex_face_offsets_[va]; k < vertex_face_offsets_[va + 1]; ++k) {
          const Triangle& t = faces_[vertex_faces_[k]];
          m2 = std::max({m2, squared_norm(x[t[0]] - x[t[1]]), squared_norm(x[t[1]] - x[t[2]]),
                         squared_norm(x[t[2]] - x[t[0]])});
        }
        edge_bound_[v] = std::sqrt(m2);
      },
      1024);
  const double longest = *std::max_element(edge_bound_.begin(), edge_bound_.end());
  const double base = thickness_ + 4 * slack_;
  vertex_tree_.refit(vertex_boxes_);
  std::fill(marked_.begin(), marked_.end(), 0);
  std::size_t marked = 0;
  for (int v : moved_list_) {
    Aabb q{x[v], x[v]};
    vertex_tree_.for_each_overlap(q.inflated(base + edge_bound_[v] + longest), [&](int u) {
      if (marked_[u]) return;
      const double reach = base + edge_bound_[v] + edge_bound_[u];
      if (squared_norm(x[u] - x[v]) > reach * reach) return;
      marked_[u] = 1;
      ++marked;
    });
    // Most of the cloth marked: a full search is cheaper than marking the
    // rest (a crumpled garment moves everywhere), and answers the same.
    if (2 * marked > n) {
      search(x, executor, true);
      return true;
    }
  }
  search(x, executor, false);
  return true;
}

}  // namespace drape

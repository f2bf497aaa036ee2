#include "drape/collision/self_collider.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "drape/geometry/mesh_adjacency.h"
#include "drape/geometry/triangle_queries.h"

namespace drape {
namespace {

// Closest points of segments p0-p1 and q0-q1: p0 + s (p1 - p0), q0 + t (q1 - q0)
// (Ericson, Real-Time Collision Detection 5.1.9).
void closest_segment_params(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1, double& s,
                            double& t) {
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
  constexpr double eps = 1e-18;
  if (a <= eps && e <= eps) {
    s = t = 0;
    return;
  }
  if (a <= eps) {
    s = 0;
    t = std::clamp(f / e, 0.0, 1.0);
    return;
  }
  const double c = dot(d1, r);
  if (e <= eps) {
    t = 0;
    s = std::clamp(-c / a, 0.0, 1.0);
    return;
  }
  const double b = dot(d1, d2), denom = a * e - b * b;
  s = denom > eps ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
  t = (b * s + f) / e;
  if (t < 0) {
    t = 0;
    s = std::clamp(-c / a, 0.0, 1.0);
  } else if (t > 1) {
    t = 1;
    s = std::clamp((b - c) / a, 0.0, 1.0);
  }
}

// An item (a vertex or an edge with its listed pairs) whose `bound` is the
// least distance of its pairs when it was tested less its own and its
// candidates' largest offset then; its own offset now `mine` and each
// candidate's (a face's or an edge's largest vertex offset) `theirs[id]`:
// every pair is still at least `bound - mine - theirs` apart (since then a
// point moved at most its offset then plus its offset now).
bool far_apart(double bound, double mine, const std::vector<double>& theirs, const int* cand, int count,
               double skip_at) {
  const double budget = bound - skip_at - mine;
  if (!(budget >= 0)) return false;  // also an unknown bound (-infinity)
  for (int k = 0; k < count; ++k)
    if (theirs[cand[k]] > budget) return false;
  return true;
}

// The largest of the candidates' offsets.
double largest(const std::vector<double>& theirs, const int* cand, int count) {
  double m = 0;
  for (int k = 0; k < count; ++k) m = std::max(m, theirs[cand[k]]);
  return m;
}

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

// Squared distance between the boxes of two point sets (0 when they overlap):
// a lower bound on the squared distance between any points of the two sets.
inline double axis_gap(double alo, double ahi, double blo, double bhi) {
  return std::max({blo - ahi, alo - bhi, 0.0});
}
inline double point_triangle_gap2(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const double gx = axis_gap(p.x, p.x, std::min({a.x, b.x, c.x}), std::max({a.x, b.x, c.x}));
  const double gy = axis_gap(p.y, p.y, std::min({a.y, b.y, c.y}), std::max({a.y, b.y, c.y}));
  const double gz = axis_gap(p.z, p.z, std::min({a.z, b.z, c.z}), std::max({a.z, b.z, c.z}));
  return gx * gx + gy * gy + gz * gz;
}
inline double segment_gap2(const Vec3& a0, const Vec3& a1, const Vec3& b0, const Vec3& b1) {
  const double gx =
      axis_gap(std::min(a0.x, a1.x), std::max(a0.x, a1.x), std::min(b0.x, b1.x), std::max(b0.x, b1.x));
  const double gy =
      axis_gap(std::min(a0.y, a1.y), std::max(a0.y, a1.y), std::min(b0.y, b1.y), std::max(b0.y, b1.y));
  const double gz =
      axis_gap(std::min(a0.z, a1.z), std::max(a0.z, a1.z), std::min(b0.z, b1.z), std::max(b0.z, b1.z));
  return gx * gx + gy * gy + gz * gz;
}
// A pair whose boxes are farther apart than sqrt(limit2) by this relative
// margin is certainly not within sqrt(limit2): the exact test would reject it
// too (its rounding is many orders of magnitude smaller), so skipping it
// changes no answer.
constexpr double kGapMargin = 1 + 1e-6;

Vec3 centroid(const std::vector<Vec3>& x) {
  Vec3 c;
  for (const Vec3& p : x) c += p;
  return x.empty() ? c : c / static_cast<double>(x.size());
}

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

// Offsets: each vertex's distance from where it was when the epoch began,
// relative to the cloth's centroid (a common translation changes no
// distance). Between two moments of an epoch a point moved at most the sum of
// its offsets at both. A new epoch (every bound unknown) begins once more
// than 1 / kEpochShare of the vertices are kEpochDrift thicknesses off.
void SelfCollider::update_drift(const std::vector<Vec3>& x, const Executor& executor) {
  const std::size_t n = x.size();
  const Vec3 c = centroid(x);
  std::size_t far = 0;
  for (std::size_t i = 0; i < n; ++i) {
    drift_[i] = norm(x[i] - c - epoch_x_[i]);
    far += drift_[i] > kEpochDrift * thickness_;
  }
  if (!epoch_started_ || far * kEpochShare > n) {
    for (std::size_t i = 0; i < n; ++i) epoch_x_[i] = x[i] - c;
    std::fill(drift_.begin(), drift_.end(), 0.0);
    std::fill(vbound_.begin(), vbound_.end(), kUnknown);
    std::fill(ebound_.begin(), ebound_.end(), kUnknown);
    epoch_started_ = true;
  }
  executor.for_each(
      0, faces_.size(),
      [&](std::size_t f) {
        const Triangle& t = faces_[f];
        face_drift_[f] = std::max({drift_[t[0]], drift_[t[1]], drift_[t[2]]});
      },
      4096);
  executor.for_each(
      0, edges_.size(),
      [&](std::size_t e) { edge_drift_[e] = std::max(drift_[edges_[e][0]], drift_[edges_[e][1]]); }, 4096);
}

SelfCollisionStats SelfCollider::resolve(std::vector<Vec3>& x, const std::vector<Vec3>& x_prev,
                                         const std::vector<double>& inv_mass, const Executor& executor) {
  SelfCollisionStats stats;
  stats.searched = update(x, executor);
  const double h = thickness_;
  const double h2_margin = h * h * kGapMargin;
  const std::size_t n = x.size();

  update_drift(x, executor);
  // An item whose listed pairs are still at least the thickness apart by its
  // bound has no contact: nothing to test (the skip margin covers the
  // rounding of the distances, by orders of magnitude).
  const double skip_at = h * (1 + kBoundMargin);

  // Phase 1: contacts among the candidates, one vertex (edge) per task.
  executor.for_each(
      0, n,
      [&](std::size_t vi) {
        const int v = static_cast<int>(vi);
        const int nc = vcand_count_[vi];
        const int* cand = &vcand_[vi * kMaxCandidates];
        skipped_[vi] = nc > 0 && far_apart(vbound_[vi], drift_[vi], face_drift_, cand, nc, skip_at);
        if (nc == 0 || skipped_[vi]) {
          vt_count_[vi] = 0;
          return;
        }
        int count = 0;
        double lower = std::numeric_limits<double>::infinity();  // over every candidate tested
        const Vec3 p = x[v];
        int k = 0;
        for (; k < nc && count < kMaxContacts; ++k) {
          const int f = cand[k];
          const Triangle& t = faces_[f];
          if (const double gap2 = point_triangle_gap2(p, x[t[0]], x[t[1]], x[t[2]]); gap2 > h2_margin) {
            lower = std::min(lower, gap2);
            continue;
          }
          const ClosestPoint cp = closest_point_on_triangle(p, x[t[0]], x[t[1]], x[t[2]]);
          const Vec3 d = p - cp.point;
          const double dist2 = squared_norm(d);
          lower = std::min(lower, dist2);
          if (dist2 >= h * h) continue;
          // Side from the previous positions: the vertex must end on the side it came from.
          const Vec3 pa = x_prev[t[0]], pb = x_prev[t[1]], pc = x_prev[t[2]];
          const Vec3 np = cross(pb - pa, pc - pa);
          const Vec3 cprev = pa * cp.u + pb * cp.v + pc * cp.w;
          const double side = dot(x_prev[v] - cprev, np) >= 0 ? 1.0 : -1.0;
          Vec3 nrm = normalized(cross(x[t[1]] - x[t[0]], x[t[2]] - x[t[0]])) * side;
          constexpr double eps = 1e-6;
          const bool interior = cp.u > eps && cp.v > eps && cp.w > eps;
          if (!interior && dist2 > 1e-16) {
            const Vec3 dn = d / std::sqrt(dist2);
            // Beside an edge: push along the separation when that keeps the
            // side, or always beside the free boundary (no cloth beyond it to cross).
            if (dot(dn, nrm) > 0 || on_free_boundary(f, cp.u, cp.v, cp.w, eps)) nrm = dn;
          }
          if (squared_norm(nrm) == 0) continue;
          if (dot(d, nrm) - h >= 0) continue;
          vt_[vi * kMaxContacts + count++] = {f, static_cast<float>(cp.u), static_cast<float>(cp.v),
                                              static_cast<float>(cp.w), nrm};
        }
        vt_count_[vi] = count;
        vbound_[vi] = k == nc ? std::sqrt(lower) - drift_[vi] - largest(face_drift_, cand, nc)
                              : kUnknown;  // stopped at the contact cap
      },
      128);
  const std::size_t ne = edges_.size();
  executor.for_each(
      0, ne,
      [&](std::size_t ei) {
        const int nc = ecand_count_[ei];
        const int* cand = &ecand_[ei * kMaxCandidates];
        skipped_[n + ei] = nc > 0 && far_apart(ebound_[ei], edge_drift_[ei], edge_drift_, cand, nc, skip_at);
        if (nc == 0 || skipped_[n + ei]) {
          ee_count_[ei] = 0;
          return;
        }
        int count = 0;
        double lower = std::numeric_limits<double>::infinity();
        int k = 0;
        for (; k < nc && count < kMaxContacts; ++k) {
          const int other = cand[k];
          const int lo = std::min(static_cast<int>(ei), other), hi = std::max(static_cast<int>(ei), other);
          const int a0 = edges_[lo][0], a1 = edges_[lo][1], b0 = edges_[hi][0], b1 = edges_[hi][1];
          if (const double gap2 = segment_gap2(x[a0], x[a1], x[b0], x[b1]); gap2 > h2_margin) {
            lower = std::min(lower, gap2);
            continue;
          }
          double s, t;
          closest_segment_params(x[a0], x[a1], x[b0], x[b1], s, t);
          const Vec3 d = x[a0] * (1 - s) + x[a1] * s - x[b0] * (1 - t) - x[b1] * t;
          lower = std::min(lower, squared_norm(d));
          // Interior edge-edge proximity only: endpoint cases are vertex-triangle contacts.
          if (s <= 1e-6 || s >= 1 - 1e-6 || t <= 1e-6 || t >= 1 - 1e-6) continue;
          if (squared_norm(d) >= h * h) continue;
          const Vec3 pp = x_prev[a0] * (1 - s) + x_prev[a1] * s, qp = x_prev[b0] * (1 - t) + x_prev[b1] * t;
          Vec3 nrm = pp - qp;
          const double ln = norm(nrm);
          if (ln > 1e-12)
            nrm = nrm / ln;
          else if (squared_norm(d) > 0)
            nrm = normalized(d);
          else
            continue;
          if (dot(d, nrm) - h >= 0) continue;
          ee_[ei * kMaxContacts + count++] = {lo, hi, static_cast<float>(s), static_cast<float>(t), nrm};
        }
        ee_count_[ei] = count;
        ebound_[ei] =
            k == nc ? std::sqrt(lower) - edge_drift_[ei] - largest(edge_drift_, cand, nc) : kUnknown;
      },
      128);

  for (const unsigned char k : skipped_) stats.items_skipped += k;

  // Phase 2: resolve in a fixed order (deterministic Gauss-Seidel).
  for (std::size_t v = 0; v < n; ++v) {
    for (int k = 0; k < vt_count_[v]; ++k) {
      const VtContact& c = vt_[v * kMaxContacts + k];
      const Triangle& t = faces_[c.tri];
      const double b[3] = {c.b0, c.b1, c.b2};
      const Vec3 cp = x[t[0]] * b[0] + x[t[1]] * b[1] + x[t[2]] * b[2];
      const double C = dot(x[v] - cp, c.n) - h;
      if (C >= 0) continue;
      const double w = inv_mass[v] + b[0] * b[0] * inv_mass[t[0]] + b[1] * b[1] * inv_mass[t[1]] +
                       b[2] * b[2] * inv_mass[t[2]];
      if (w <= 0) continue;
      const double lambda = -C / w;
      x[v] += c.n * (inv_mass[v] * lambda);
      for (int i = 0; i < 3; ++i) x[t[i]] -= c.n * (inv_mass[t[i]] * b[i] * lambda);
      ++stats.vertex_triangle_contacts;
    }
  }
  // Edge pairs by (lo, hi), each once: the same order and the same answer
  // after a full or an incremental search (a resumed run matches an
  // uninterrupted one).
  ee_order_.clear();
  for (std::size_t e = 0; e < ne; ++e)
    for (int k = 0; k < ee_count_[e]; ++k) ee_order_.push_back(static_cast<int>(e) * kMaxContacts + k);
  std::sort(ee_order_.begin(), ee_order_.end(), [&](int i, int j) {
    return ee_[i].lo != ee_[j].lo ? ee_[i].lo < ee_[j].lo : ee_[i].hi < ee_[j].hi;
  });
  for (std::size_t k = 0; k < ee_order_.size(); ++k) {
    const EeContact& c = ee_[ee_order_[k]];
    if (k > 0 && ee_[ee_order_[k - 1]].lo == c.lo && ee_[ee_order_[k - 1]].hi == c.hi) continue;
    const int a0 = edges_[c.lo][0], a1 = edges_[c.lo][1], b0 = edges_[c.hi][0], b1 = edges_[c.hi][1];
    const double s = c.s, t = c.t;
    const Vec3 p = x[a0] * (1 - s) + x[a1] * s, q = x[b0] * (1 - t) + x[b1] * t;
    const double C = dot(p - q, c.n) - h;
    if (C >= 0) continue;
    const double g[4] = {1 - s, s, -(1 - t), -t};
    const int id[4] = {a0, a1, b0, b1};
    double w = 0;
    for (int i = 0; i < 4; ++i) w += inv_mass[id[i]] * g[i] * g[i];
    if (w <= 0) continue;
    const double lambda = -C / w;
    for (int i = 0; i < 4; ++i) x[id[i]] += c.n * (inv_mass[id[i]] * g[i] * lambda);
    ++stats.edge_edge_contacts;
  }
  return stats;
}

}  // namespace drape

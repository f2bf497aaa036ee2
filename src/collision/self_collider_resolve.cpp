// SelfCollider's contacts: the contact tests among the candidates (parallel),
// skipped where a distance bound shows there can be none, and their answer in
// a fixed order (self_collider.h; the search is in self_collider.cpp).
#include <algorithm>
#include <cmath>
#include <limits>

#include "drape/collision/self_collider.h"
#include "drape/geometry/triangle_queries.h"
#include "self_collider_geometry.h"

namespace drape {

using namespace self_collision;

namespace {

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

}  // namespace

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

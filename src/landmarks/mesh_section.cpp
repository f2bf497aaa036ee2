#include "drape/landmarks/mesh_section.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

#include "drape/core/union_find.h"

namespace drape {

SectionPlane horizontal_plane(double y) {
  SectionPlane p;
  p.origin = {0, y, 0};
  return p;
}

SectionPlane perpendicular_plane(const Vec3& origin, const Vec3& normal) {
  SectionPlane p;
  p.origin = origin;
  p.normal = normalized(normal);
  // u: the world axis least aligned with the normal, made orthogonal to it.
  const Vec3 axes[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  const Vec3* best = &axes[0];
  for (const Vec3& a : axes)
    if (std::abs(dot(a, p.normal)) < std::abs(dot(*best, p.normal))) best = &a;
  p.u = normalized(*best - p.normal * dot(*best, p.normal));
  p.v = cross(p.normal, p.u);
  return p;
}

bool SectionPiece::contains(Vec2 p) const {
  bool inside = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Vec2 s = a[i], t = b[i];
    if ((s.y > p.y) == (t.y > p.y)) continue;
    const double x = s.x + (p.y - s.y) / (t.y - s.y) * (t.x - s.x);
    if (x > p.x) inside = !inside;
  }
  return inside;
}

double SectionPiece::hull_perimeter() const {
  std::vector<Vec2> pts;
  pts.reserve(2 * a.size());
  pts.insert(pts.end(), a.begin(), a.end());
  pts.insert(pts.end(), b.begin(), b.end());
  return convex_hull_perimeter(std::move(pts));
}

std::vector<SectionPiece> section_pieces(const TriangleMesh& mesh, const SectionPlane& plane) {
  std::vector<int> all(mesh.faces.size());
  for (std::size_t f = 0; f < all.size(); ++f) all[f] = static_cast<int>(f);
  return section_pieces(mesh, plane, all);
}

std::vector<SectionPiece> section_pieces(const TriangleMesh& mesh, const SectionPlane& plane,
                                         const std::vector<int>& faces) {
  // Signed distance of a vertex; a vertex on the plane counts as above.
  auto dist = [&](int i) { return dot(mesh.positions[i] - plane.origin, plane.normal); };
  auto above = [&](int i) { return dist(i) >= 0; };
  auto edge_key = [](int i, int j) {
    return (static_cast<std::uint64_t>(std::min(i, j)) << 32) | static_cast<std::uint32_t>(std::max(i, j));
  };
  auto cut = [&](int i, int j) {
    const double di = dist(i), t = di / (di - dist(j));
    return plane.to_2d(mesh.positions[i] + (mesh.positions[j] - mesh.positions[i]) * t);
  };
  struct Segment {
    Vec2 a, b;
    std::uint64_t ka, kb;
  };
  std::vector<Segment> segs;
  std::unordered_map<std::uint64_t, int> edge_id;
  for (const int f : faces) {
    const Triangle& t = mesh.faces[f];
    const bool s0 = above(t[0]), s1 = above(t[1]), s2 = above(t[2]);
    if (s0 == s1 && s1 == s2) continue;
    // The lone vertex (on its own side) and the two edges from it that cross.
    const int lone = (s0 != s1 && s0 != s2) ? 0 : (s1 != s0 && s1 != s2) ? 1 : 2;
    const int p = t[lone], q = t[(lone + 1) % 3], r = t[(lone + 2) % 3];
    Segment s{cut(p, q), cut(p, r), edge_key(p, q), edge_key(p, r)};
    edge_id.emplace(s.ka, static_cast<int>(edge_id.size()));
    edge_id.emplace(s.kb, static_cast<int>(edge_id.size()));
    segs.push_back(s);
  }
  UnionFind uf(edge_id.size());
  for (const Segment& s : segs) uf.unite(edge_id[s.ka], edge_id[s.kb]);
  std::unordered_map<int, int> piece_of_root;
  std::vector<SectionPiece> pieces;
  for (const Segment& s : segs) {
    const int root = uf.find(edge_id[s.ka]);
    auto [it, inserted] = piece_of_root.emplace(root, static_cast<int>(pieces.size()));
    if (inserted) pieces.emplace_back();
    SectionPiece& pc = pieces[it->second];
    pc.a.push_back(s.a);
    pc.b.push_back(s.b);
    for (const Vec2 e : {s.a, s.b}) {
      pc.lo = {std::min(pc.lo.x, e.x), std::min(pc.lo.y, e.y)};
      pc.hi = {std::max(pc.hi.x, e.x), std::max(pc.hi.y, e.y)};
    }
  }
  return pieces;
}

std::vector<SectionSpan> section_spans(const std::vector<SectionPiece>& pieces, double gap) {
  std::vector<SectionSpan> spans;
  spans.reserve(pieces.size());
  for (const SectionPiece& p : pieces)
    if (p.lo.x <= p.hi.x) spans.push_back({p.lo.x, p.hi.x, p.lo.y, p.hi.y});
  std::sort(spans.begin(), spans.end(), [](const SectionSpan& a, const SectionSpan& b) {
    return a.lo < b.lo || (a.lo == b.lo && a.hi < b.hi);
  });
  std::vector<SectionSpan> merged;
  for (const SectionSpan& s : spans) {
    if (merged.empty() || s.lo > merged.back().hi + gap) {
      merged.push_back(s);
      continue;
    }
    SectionSpan& m = merged.back();
    m.hi = std::max(m.hi, s.hi);
    m.v_lo = std::min(m.v_lo, s.v_lo);
    m.v_hi = std::max(m.v_hi, s.v_hi);
  }
  return merged;
}

HorizontalSections::HorizontalSections(const TriangleMesh& mesh, double bucket)
    : mesh_(mesh), bucket_(bucket) {
  const Aabb b = mesh.bounds();
  if (b.empty()) return;
  y0_ = b.min.y;
  faces_.resize(static_cast<std::size_t>((b.max.y - b.min.y) / bucket_) + 1);
  const int n = static_cast<int>(faces_.size());
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
    const Triangle& t = mesh.faces[f];
    const double lo = std::min({mesh.positions[t[0]].y, mesh.positions[t[1]].y, mesh.positions[t[2]].y});
    const double hi = std::max({mesh.positions[t[0]].y, mesh.positions[t[1]].y, mesh.positions[t[2]].y});
    const int i0 = std::clamp(static_cast<int>((lo - y0_) / bucket_), 0, n - 1);
    const int i1 = std::clamp(static_cast<int>((hi - y0_) / bucket_), 0, n - 1);
    for (int i = i0; i <= i1; ++i) faces_[i].push_back(static_cast<int>(f));
  }
}

std::vector<SectionPiece> HorizontalSections::at(double y) const {
  if (faces_.empty()) return {};
  const int n = static_cast<int>(faces_.size());
  const int i = static_cast<int>(std::floor((y - y0_) / bucket_));
  if (i < 0 || i >= n) return {};  // no face reaches this height
  return section_pieces(mesh_, horizontal_plane(y), faces_[i]);
}

double convex_hull_perimeter(std::vector<Vec2> p) {
  if (p.size() < 2) return 0;
  std::sort(p.begin(), p.end(), [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  auto turn = [](Vec2 o, Vec2 a, Vec2 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); };
  std::vector<Vec2> h(2 * p.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    while (k >= 2 && turn(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  for (std::size_t i = p.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && turn(h[k - 2], h[k - 1], p[i]) <= 0) --k;
    h[k++] = p[i];
  }
  // h[0..k-1] is closed (h[k-1] == h[0]).
  double perimeter = 0;
  for (std::size_t i = 0; i + 1 < k; ++i) perimeter += norm(h[i + 1] - h[i]);
  return perimeter;
}

}  // namespace drape

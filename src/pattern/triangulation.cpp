#include "drape/pattern/triangulation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <unordered_set>

#include "drape/core/exceptions.h"

namespace drape {
namespace {

inline double orient(Vec2 a, Vec2 b, Vec2 c) { return cross(b - a, c - a); }

// > 0 when d is inside the circumcircle of the counter-clockwise triangle abc.
inline double incircle(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const double adx = a.x - d.x, ady = a.y - d.y, bdx = b.x - d.x, bdy = b.y - d.y, cdx = c.x - d.x,
               cdy = c.y - d.y;
  const double ad = adx * adx + ady * ady, bd = bdx * bdx + bdy * bdy, cd = cdx * cdx + cdy * cdy;
  return adx * (bdy * cd - bd * cdy) - ady * (bdx * cd - bd * cdx) + ad * (bdx * cdy - bdy * cdx);
}

std::uint64_t hilbert(std::uint32_t x, std::uint32_t y) {
  std::uint64_t d = 0;
  for (std::uint32_t s = 1u << 15; s > 0; s >>= 1) {
    const std::uint32_t rx = (x & s) ? 1 : 0, ry = (y & s) ? 1 : 0;
    d += static_cast<std::uint64_t>(s) * s * ((3 * rx) ^ ry);
    if (ry == 0) {
      if (rx == 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      std::swap(x, y);
    }
  }
  return d;
}

struct Tri {
  int v[3];
  int n[3];  // neighbour across the edge opposite v[i], -1 on the hull
};

inline std::uint64_t edge_key(int a, int b) {
  if (a > b) std::swap(a, b);
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

class Cdt {
 public:
  explicit Cdt(std::vector<Vec2> pts) : P(std::move(pts)) {}

  std::vector<Vec2> P;
  std::vector<Tri> T;
  std::vector<char> alive;
  std::vector<int> vt;      // a triangle incident to each vertex
  std::vector<int> merged;  // point -> representative (duplicates merged)
  int last = 0;
  int stamp_counter = 0;
  std::vector<int> stamp;

  static int nx(int i) { return i == 2 ? 0 : i + 1; }
  static int pv(int i) { return i == 0 ? 2 : i - 1; }

  int index_in(int t, int v) const {
    for (int i = 0; i < 3; ++i)
      if (T[t].v[i] == v) return i;
    return -1;
  }
  void set_neighbour(int t, int a, int b, int nb) {
    // In t, the edge {a, b} gets neighbour nb.
    if (t < 0) return;
    for (int i = 0; i < 3; ++i) {
      const int x = T[t].v[nx(i)], y = T[t].v[pv(i)];
      if ((x == a && y == b) || (x == b && y == a)) {
        T[t].n[i] = nb;
        return;
      }
    }
  }

  void init(int n_real) {
    // Super triangle well outside the unit box the points were scaled into.
    const int s0 = n_real, s1 = n_real + 1, s2 = n_real + 2;
    P.push_back({-30, -30});
    P.push_back({30, -30});
    P.push_back({0, 30});
    T.push_back({{s0, s1, s2}, {-1, -1, -1}});
    alive.push_back(1);
    stamp.push_back(0);
    vt.assign(P.size(), -1);
    vt[s0] = vt[s1] = vt[s2] = 0;
    merged.resize(P.size());
    for (std::size_t i = 0; i < P.size(); ++i) merged[i] = static_cast<int>(i);
  }

  int locate(Vec2 p) {
    int t = last;
    if (t < 0 || t >= static_cast<int>(T.size()) || !alive[t]) t = 0;
    while (!alive[t]) ++t;
    std::size_t steps = 0;
    int rot = 0;
    while (steps++ < 4 * T.size() + 100) {
      bool moved = false;
      for (int k0 = 0; k0 < 3; ++k0) {
        const int k = (k0 + rot) % 3;
        const Tri& tr = T[t];
        if (orient(P[tr.v[nx(k)]], P[tr.v[pv(k)]], p) < 0 && tr.n[k] >= 0) {
          t = tr.n[k];
          moved = true;
          break;
        }
      }
      rot = (rot + 1) % 3;
      if (!moved) return t;
    }
    // Fallback (should not happen): scan.
    for (std::size_t i = 0; i < T.size(); ++i) {
      if (!alive[i]) continue;
      const Tri& tr = T[i];
      if (orient(P[tr.v[0]], P[tr.v[1]], p) >= 0 && orient(P[tr.v[1]], P[tr.v[2]], p) >= 0 &&
          orient(P[tr.v[2]], P[tr.v[0]], p) >= 0)
        return static_cast<int>(i);
    }
    return t;
  }

  void insert(int pi) {
    const Vec2 p = P[pi];
    const int t0 = locate(p);
    for (int i = 0; i < 3; ++i) {
      const int v = T[t0].v[i];
      if (norm(P[v] - p) < 1e-12) {
        merged[pi] = v;
        return;
      }
    }
    ++stamp_counter;
    std::vector<int> cav{t0};
    stamp[t0] = stamp_counter;
    for (std::size_t c = 0; c < cav.size(); ++c) {
      const Tri tr = T[cav[c]];
      for (int k = 0; k < 3; ++k) {
        const int nb = tr.n[k];
        if (nb < 0 || stamp[nb] == stamp_counter) continue;
        const Tri& q = T[nb];
        if (incircle(P[q.v[0]], P[q.v[1]], P[q.v[2]], p) > 0) {
          stamp[nb] = stamp_counter;
          cav.push_back(nb);
        }
      }
    }
    // Keep the cavity star-shaped from p (inexact predicates can break it).
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t c = 0; c < cav.size(); ++c) {
        const Tri tr = T[cav[c]];
        for (int k = 0; k < 3; ++k) {
          const int nb = tr.n[k];
          if (nb >= 0 && stamp[nb] == stamp_counter) continue;
          if (orient(P[tr.v[nx(k)]], P[tr.v[pv(k)]], p) <= 1e-15 && nb >= 0) {
            stamp[nb] = stamp_counter;
            cav.push_back(nb);
            changed = true;
          }
        }
      }
    }
    struct BEdge {
      int a, b, outside;
    };
    std::vector<BEdge> boundary;
    for (int c : cav)
      for (int k = 0; k < 3; ++k) {
        const int nb = T[c].n[k];
        if (nb >= 0 && stamp[nb] == stamp_counter) continue;
        boundary.push_back({T[c].v[nx(k)], T[c].v[pv(k)], nb});
      }
    // Slots: reuse the cavity's, then append.
    std::vector<int> slots = cav;
    while (slots.size() < boundary.size()) {
      T.push_back({});
      alive.push_back(0);
      stamp.push_back(0);
      slots.push_back(static_cast<int>(T.size()) - 1);
    }
    for (std::size_t i = boundary.size(); i < slots.size(); ++i) alive[slots[i]] = 0;
    std::unordered_map<int, int> start_of, end_of;
    for (std::size_t i = 0; i < boundary.size(); ++i) {
      start_of[boundary[i].a] = slots[i];
      end_of[boundary[i].b] = slots[i];
    }
    for (std::size_t i = 0; i < boundary.size(); ++i) {
      const BEdge& e = boundary[i];
      const int t = slots[i];
      alive[t] = 1;
      T[t].v[0] = e.a;
      T[t].v[1] = e.b;
      T[t].v[2] = pi;
      T[t].n[0] = start_of.at(e.b);  // edge (b, p)
      T[t].n[1] = end_of.at(e.a);    // edge (p, a)
      T[t].n[2] = e.outside;         // edge (a, b)
      set_neighbour(e.outside, e.a, e.b, t);
      vt[e.a] = t;
      vt[e.b] = t;
    }
    vt[pi] = slots[0];
    last = slots[0];
  }

  // Triangles around vertex a (all vertices but the super ones are interior).
  std::vector<int> fan(int a) const {
    std::vector<int> out;
    const int t0 = vt[a];
    int t = t0;
    do {
      out.push_back(t);
      const int i = index_in(t, a);
      t = T[t].n[pv(i)];  // across edge (a, v[i+1])
      if (t < 0) break;
    } while (t != t0 && out.size() < 10000);
    if (t < 0) {  // hull vertex: also walk the other way
      t = T[t0].n[nx(index_in(t0, a))];
      while (t >= 0 && out.size() < 10000) {
        out.push_back(t);
        t = T[t].n[nx(index_in(t, a))];
      }
    }
    return out;
  }

  // Triangle holding the directed edge a->b and the local index of a, or -1.
  std::pair<int, int> find_edge(int a, int b) const {
    for (int t : fan(a)) {
      const int i = index_in(t, a);
      if (T[t].v[nx(i)] == b) return {t, i};
    }
    return {-1, -1};
  }

  void flip(int t, int k) {
    // t = (p, x, y) with p = v[k]; u across (x, y) = (q, y, x).
    const int p = T[t].v[k], x = T[t].v[nx(k)], y = T[t].v[pv(k)];
    const int u = T[t].n[k];
    const int j = nx(index_in(u, x));  // u = (q, y, x) from index j: x is at j+2
    const int q = T[u].v[j];
    const int ntx = T[t].n[nx(k)];  // edge (y, p)
    const int nty = T[t].n[pv(k)];  // edge (p, x)
    const int nuy = T[u].n[nx(j)];  // opposite y in u: edge (x, q)
    const int nux = T[u].n[pv(j)];  // opposite x in u: edge (q, y)
    T[t] = {{p, x, q}, {nuy, u, nty}};
    T[u] = {{p, q, y}, {nux, ntx, t}};
    set_neighbour(nuy, x, q, t);
    set_neighbour(ntx, y, p, u);
    vt[p] = t;
    vt[x] = t;
    vt[q] = t;
    vt[y] = u;
  }

  static bool strictly_cross(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
    const double d1 = orient(a, b, c), d2 = orient(a, b, d), d3 = orient(c, d, a), d4 = orient(c, d, b);
    return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
  }

  // Makes a-b an edge. Returns the sub-segments actually inserted (split at
  // points lying on the segment).
  void recover(int a, int b, std::vector<std::pair<int, int>>& made, int depth = 0) {
    if (a == b) return;
    if (find_edge(a, b).first >= 0 || find_edge(b, a).first >= 0) {
      made.push_back({a, b});
      return;
    }
    if (depth > 64) throw InvalidInput("triangulation: cannot recover a constraint edge");
    const Vec2 A = P[a], B = P[b];
    // Find the first crossed edge around a.
    std::deque<std::pair<int, int>> crossed;
    int t = -1, R = -1, L = -1;
    for (int f : fan(a)) {
      const int i = index_in(f, a);
      const int x = T[f].v[nx(i)], y = T[f].v[pv(i)];
      const double ox = orient(A, B, P[x]), oy = orient(A, B, P[y]);
      if (ox == 0 && dot(P[x] - A, B - A) > 0) {  // x lies on the segment: split there
        recover(a, x, made, depth + 1);
        recover(x, b, made, depth + 1);
        return;
      }
      if (ox < 0 && oy > 0) {
        t = f;
        R = x;
        L = y;
        break;
      }
    }
    if (t < 0) throw InvalidInput("triangulation: constraint edge lost (crossing constraints?)");
    for (int guard = 0; guard < 100000; ++guard) {
      crossed.push_back({R, L});
      // Neighbour across edge {R, L}: the one opposite the third vertex.
      int across = -1;
      for (int i = 0; i < 3; ++i)
        if (T[t].v[i] != R && T[t].v[i] != L) across = T[t].n[i];
      if (across < 0) throw InvalidInput("triangulation: constraint leaves the domain");
      int z = -1;
      for (int i = 0; i < 3; ++i)
        if (T[across].v[i] != R && T[across].v[i] != L) z = T[across].v[i];
      if (z == b) break;
      const double oz = orient(A, B, P[z]);
      if (oz == 0) {  // z on the segment: recover up to z, then on
        flip_away(crossed, a, z);
        made.push_back({a, z});
        recover(z, b, made, depth + 1);
        return;
      }
      if (oz > 0)
        L = z;
      else
        R = z;
      t = across;
    }
    flip_away(crossed, a, b);
    made.push_back({a, b});
  }

  // Sloan's loop: flip the crossed edges until none crosses a-b.
  void flip_away(std::deque<std::pair<int, int>>& crossed, int a, int b) {
    const Vec2 A = P[a], B = P[b];
    std::size_t stall = 0;
    while (!crossed.empty()) {
      const auto [x, y] = crossed.front();
      crossed.pop_front();
      auto [t, i] = find_edge(x, y);
      if (t < 0) continue;  // already gone
      const int k = pv(i);  // v[k] opposite edge (x, y)
      const int u = T[t].n[k];
      if (u < 0) continue;
      const int p = T[t].v[k];
      int q = -1;
      for (int m = 0; m < 3; ++m)
        if (T[u].v[m] != x && T[u].v[m] != y) q = T[u].v[m];
      if (!strictly_cross(P[x], P[y], P[p], P[q])) {  // not convex: later
        crossed.push_back({x, y});
        if (++stall > 4 * crossed.size() + 1000)
          throw InvalidInput("triangulation: constraint recovery stalled");
        continue;
      }
      stall = 0;
      flip(t, k);
      if (p != a && p != b && q != a && q != b && strictly_cross(A, B, P[p], P[q])) crossed.push_back({p, q});
    }
  }
};

}  // namespace

std::vector<std::array<int, 3>> constrained_delaunay(const CdtInput& in) {
  const int n = static_cast<int>(in.points.size());
  if (n < 3) return {};
  Vec2 lo{1e300, 1e300}, hi{-1e300, -1e300};
  for (const Vec2& p : in.points) {
    if (!is_finite(p)) throw InvalidInput("triangulation: NaN or infinite point");
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
  }
  const Vec2 c = (lo + hi) * 0.5;
  const double s = std::max({hi.x - lo.x, hi.y - lo.y, 1e-12});
  std::vector<Vec2> pts(n);
  for (int i = 0; i < n; ++i) pts[i] = (in.points[i] - c) / s;
  Cdt cdt(pts);
  cdt.init(n);
  // Spatially coherent insertion order keeps point location walks short.
  std::vector<std::pair<std::uint64_t, int>> order(n);
  for (int i = 0; i < n; ++i) {
    const auto qx = static_cast<std::uint32_t>(std::clamp((pts[i].x + 0.5) * 65535.0, 0.0, 65535.0));
    const auto qy = static_cast<std::uint32_t>(std::clamp((pts[i].y + 0.5) * 65535.0, 0.0, 65535.0));
    order[i] = {hilbert(qx, qy), i};
  }
  std::sort(order.begin(), order.end());
  for (const auto& [key, i] : order) cdt.insert(i);

  auto rep = [&](int i) { return cdt.merged[i]; };
  std::unordered_set<std::uint64_t> constrained, boundary;
  for (int pass = 0; pass < 2; ++pass) {
    const auto& segs = pass == 0 ? in.boundary_segments : in.extra_segments;
    for (const auto& [a0, b0] : segs) {
      if (a0 < 0 || a0 >= n || b0 < 0 || b0 >= n)
        throw InvalidInput("triangulation: segment index out of range");
      std::vector<std::pair<int, int>> made;
      cdt.recover(rep(a0), rep(b0), made);
      for (const auto& [a, b] : made) {
        constrained.insert(edge_key(a, b));
        if (pass == 0) {
          // Toggle: a boundary edge listed twice cancels (it is not a boundary).
          const auto key = edge_key(a, b);
          if (!boundary.erase(key)) boundary.insert(key);
        }
      }
    }
  }

  // Restore the Delaunay property away from constraints (Lawson flips).
  {
    std::vector<int> stack;
    for (std::size_t t = 0; t < cdt.T.size(); ++t)
      if (cdt.alive[t]) stack.push_back(static_cast<int>(t));
    std::size_t guard = 0;
    while (!stack.empty() && guard++ < 50 * cdt.T.size() + 1000) {
      const int t = stack.back();
      stack.pop_back();
      if (!cdt.alive[t]) continue;
      for (int k = 0; k < 3; ++k) {
        const int u = cdt.T[t].n[k];
        if (u < 0) continue;
        const int x = cdt.T[t].v[Cdt::nx(k)], y = cdt.T[t].v[Cdt::pv(k)], p = cdt.T[t].v[k];
        if (constrained.count(edge_key(x, y))) continue;
        int q = -1;
        for (int m = 0; m < 3; ++m)
          if (cdt.T[u].v[m] != x && cdt.T[u].v[m] != y) q = cdt.T[u].v[m];
        const Tri& tr = cdt.T[t];
        if (incircle(cdt.P[tr.v[0]], cdt.P[tr.v[1]], cdt.P[tr.v[2]], cdt.P[q]) > 1e-12 &&
            Cdt::strictly_cross(cdt.P[x], cdt.P[y], cdt.P[p], cdt.P[q])) {
          cdt.flip(t, k);
          stack.push_back(t);
          stack.push_back(u);
          break;
        }
      }
    }
  }

  // Flood fill from a super-triangle corner; boundary edges toggle inside.
  const std::size_t nt = cdt.T.size();
  std::vector<signed char> inside(nt, -1);
  int seed = -1;
  for (std::size_t t = 0; t < nt && seed < 0; ++t)
    if (cdt.alive[t])
      for (int i = 0; i < 3; ++i)
        if (cdt.T[t].v[i] >= n) seed = static_cast<int>(t);
  std::vector<int> queue{seed};
  inside[seed] = 0;
  for (std::size_t h = 0; h < queue.size(); ++h) {
    const int t = queue[h];
    for (int k = 0; k < 3; ++k) {
      const int u = cdt.T[t].n[k];
      if (u < 0 || inside[u] >= 0) continue;
      const int x = cdt.T[t].v[Cdt::nx(k)], y = cdt.T[t].v[Cdt::pv(k)];
      inside[u] = static_cast<signed char>(inside[t] ^ (boundary.count(edge_key(x, y)) ? 1 : 0));
      queue.push_back(u);
    }
  }
  std::vector<std::array<int, 3>> out;
  for (std::size_t t = 0; t < nt; ++t) {
    if (!cdt.alive[t] || inside[t] != 1) continue;
    const Tri& tr = cdt.T[t];
    if (tr.v[0] >= n || tr.v[1] >= n || tr.v[2] >= n) continue;
    out.push_back({tr.v[0], tr.v[1], tr.v[2]});
  }
  return out;
}

}  // namespace drape

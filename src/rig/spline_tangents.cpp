#include "drape/rig/spline_tangents.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

#include "drape/core/exceptions.h"
#include "drape/rig/skinning.h"

namespace drape {

Affine2 bone2_transform(const Bone2& rest, const Bone2& posed, double scale_across) {
  const Vec2 u{std::cos(rest.angle), std::sin(rest.angle)}, v = perp(u);
  const Vec2 u2{std::cos(posed.angle), std::sin(posed.angle)}, v2 = perp(u2);
  const double sa = rest.length > 0 ? posed.length / rest.length : 1.0;
  // M = [u2 v2] diag(sa, scale_across) [u v]^T
  Affine2 a;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c) a.m[r][c] = u2[r] * sa * u[c] + v2[r] * scale_across * v[c];
  a.t = posed.origin - a.linear(rest.origin);
  return a;
}

namespace {
template <class V>
V effective_in(const BlineVertex<V>& v) {
  return v.split ? v.tangent_in : v.tangent_out;
}

template <class V>
V bezier(const V& p0, const V& p1, const V& p2, const V& p3, double t) {
  const double s = 1 - t;
  return p0 * (s * s * s) + p1 * (3 * s * s * t) + p2 * (3 * s * t * t) + p3 * (t * t * t);
}

// Previous and next active vertex of i (-1 at an open end), skipping i itself.
template <class V>
std::pair<int, int> neighbours(const Bline<V>& b, int i) {
  const int n = static_cast<int>(b.vertices.size());
  int prev = -1, next = -1;
  for (int k = 1; k < n; ++k) {
    int j = i - k;
    if (j < 0) {
      if (!b.closed) break;
      j += n;
    }
    if (b.vertices[j].active) {
      prev = j;
      break;
    }
  }
  for (int k = 1; k < n; ++k) {
    int j = i + k;
    if (j >= n) {
      if (!b.closed) break;
      j -= n;
    }
    if (b.vertices[j].active) {
      next = j;
      break;
    }
  }
  if (prev == i) prev = -1;
  if (next == i) next = -1;
  return {prev, next};
}

// Proposal 1's V for vertex i from positions `pos`, chord fallback when it vanishes.
template <class V>
V proposal1_v(const Bline<V>& b, const std::vector<V>& pos, int i) {
  const auto [p, n] = neighbours(b, i);
  if (p >= 0 && n >= 0) {
    const V v = pos[i] - (pos[n] + pos[p]) * 0.5;
    const V chord = pos[n] - pos[p];
    if (norm(v) > 1e-9 * norm(chord)) return v;
    return chord;
  }
  if (n >= 0) return pos[i] - pos[n];
  if (p >= 0) return pos[i] - pos[p];
  return V{};
}

template <class V>
bool degenerate_pair(const Bline<V>& b, const std::vector<V>& rest, const std::vector<V>& def, int i) {
  // Both V and V0 must use the chord when either vanishes.
  const auto [p, n] = neighbours(b, i);
  if (p < 0 || n < 0) return false;
  auto small = [&](const std::vector<V>& pos) {
    return !(norm(pos[i] - (pos[n] + pos[p]) * 0.5) > 1e-9 * norm(pos[n] - pos[p]));
  };
  return small(rest) || small(def);
}

Mat3 rotation_between(const Vec3& a_in, const Vec3& b_in) {
  const Vec3 a = normalized(a_in), b = normalized(b_in);
  const Vec3 axis = cross(a, b);
  const double s = norm(axis), c = dot(a, b);
  if (s < 1e-15) {
    if (c > 0) return Mat3::identity();
    const Vec3 p = std::abs(a.x) < 0.9 ? cross(a, Vec3{1, 0, 0}) : cross(a, Vec3{0, 1, 0});
    return Mat3::rotation_axis_angle(p, std::numbers::pi);
  }
  return Mat3::rotation_axis_angle(axis, std::atan2(s, c));
}

Vec2 rotate_tangent(const Vec2& t, const Vec2& v, const Vec2& v0) {
  const double radius = norm(t);
  const double angle = proposal1_angle(v, v0, link_angle_of(t));
  return {radius * std::sin(angle), radius * std::cos(angle)};
}
Vec3 rotate_tangent(const Vec3& t, const Vec3& v, const Vec3& v0) { return rotation_between(v0, v) * t; }

template <class V>
Bline<V> deform_generic(const Bline<V>& rest, const std::function<V(const BlineVertex<V>&, const V&)>& def,
                        TangentMode mode) {
  Bline<V> out = rest;
  const int n = static_cast<int>(rest.vertices.size());
  std::vector<V> rest_pos(n), def_pos(n);
  for (int i = 0; i < n; ++i) {
    rest_pos[i] = rest.vertices[i].point;
    def_pos[i] = def(rest.vertices[i], rest_pos[i]);
    out.vertices[i].point = def_pos[i];
  }
  for (int i = 0; i < n; ++i) {
    const BlineVertex<V>& r = rest.vertices[i];
    BlineVertex<V>& o = out.vertices[i];
    const bool use_p1 = mode == TangentMode::proposal1_calculated && proposal1_v(rest, rest_pos, i) != V{};
    if (!use_p1) {
      // Proposal 2: T' = (V + T)' - V', each tangent from its original value.
      o.tangent_out = def(r, r.point + r.tangent_out) - def_pos[i];
      o.tangent_in = r.split ? def(r, r.point + r.tangent_in) - def_pos[i] : o.tangent_out;
      continue;
    }
    V v = proposal1_v(rest, def_pos, i), v0 = proposal1_v(rest, rest_pos, i);
    if (degenerate_pair(rest, rest_pos, def_pos, i)) {
      const auto [p, nx] = neighbours(rest, i);
      v = def_pos[nx] - def_pos[p];
      v0 = rest_pos[nx] - rest_pos[p];
    }
    o.tangent_out = rotate_tangent(r.tangent_out, v, v0);
    o.tangent_in = r.split ? rotate_tangent(r.tangent_in, v, v0) : o.tangent_out;
  }
  return out;
}

template <class V>
void check_bones(const Bline<V>& b, std::size_t bone_count) {
  for (std::size_t i = 0; i < b.vertices.size(); ++i)
    for (const auto& [bone, w] : b.vertices[i].bone_weights)
      if (bone < 0 || bone >= static_cast<int>(bone_count))
        throw InvalidInput("bline vertex " + std::to_string(i) + " names bone " + std::to_string(bone) +
                           " of " + std::to_string(bone_count));
}
}  // namespace

double proposal1_angle(Vec2 v, Vec2 v0, double link_angle) {
  return std::atan2(v.x, v.y) - (std::atan2(v0.x, v0.y) - link_angle);
}

template <class V>
std::vector<int> Bline<V>::active_indices() const {
  std::vector<int> a;
  for (std::size_t i = 0; i < vertices.size(); ++i)
    if (vertices[i].active) a.push_back(static_cast<int>(i));
  return a;
}

template <class V>
std::vector<V> Bline<V>::sample(int per_segment) const {
  const std::vector<int> a = active_indices();
  std::vector<V> out;
  if (a.empty()) return out;
  const int segs = closed ? static_cast<int>(a.size()) : static_cast<int>(a.size()) - 1;
  for (int s = 0; s < segs; ++s) {
    const auto& p = vertices[a[s]];
    const auto& q = vertices[a[(s + 1) % a.size()]];
    for (int k = 0; k < per_segment; ++k)
      out.push_back(bezier(p.point, p.point + p.tangent_out / 3.0, q.point - effective_in(q) / 3.0, q.point,
                           static_cast<double>(k) / per_segment));
  }
  if (!closed) out.push_back(vertices[a.back()].point);
  return out;
}

template <class V>
int Bline<V>::insert_vertex(int i, double t) {
  if (i < 0 || i >= static_cast<int>(vertices.size()) || !vertices[i].active)
    throw InvalidInput("bline insert: vertex " + std::to_string(i) + " is not an active vertex");
  if (!(t > 0 && t < 1)) throw InvalidInput("bline insert: parameter must be inside (0, 1)");
  const auto [prev, next] = neighbours(*this, i);
  (void)prev;
  if (next < 0) throw InvalidInput("bline insert: vertex " + std::to_string(i) + " has no next vertex");
  BlineVertex<V>& a = vertices[i];
  BlineVertex<V>& b = vertices[next];
  const V p0 = a.point, p1 = a.point + a.tangent_out / 3.0, p2 = b.point - effective_in(b) / 3.0,
          p3 = b.point;
  // de Casteljau
  const V q0 = p0 + (p1 - p0) * t, q1 = p1 + (p2 - p1) * t, q2 = p2 + (p3 - p2) * t;
  const V r0 = q0 + (q1 - q0) * t, r1 = q1 + (q2 - q1) * t;
  const V s = r0 + (r1 - r0) * t;
  BlineVertex<V> nv;
  nv.point = s;
  nv.tangent_in = (s - r0) * 3.0;
  nv.tangent_out = (r1 - s) * 3.0;
  nv.split = true;
  // Weights interpolated linearly along the segment.
  std::vector<std::pair<int, double>> w;
  for (const auto& [bone, x] : a.bone_weights) w.push_back({bone, x * (1 - t)});
  for (const auto& [bone, x] : b.bone_weights) {
    auto it = std::find_if(w.begin(), w.end(), [&](const auto& e) { return e.first == bone; });
    if (it != w.end())
      it->second += x * t;
    else
      w.push_back({bone, x * t});
  }
  nv.bone_weights = w;
  // Rescale the segment's end tangents so the curve is unchanged.
  if (!a.split) {
    a.tangent_in = a.tangent_out;
    a.split = true;
  }
  a.tangent_out = (q0 - p0) * 3.0;
  if (!b.split) {
    b.tangent_in = b.tangent_out;
    b.split = true;
  }
  b.tangent_in = (p3 - q2) * 3.0;
  // Insert before `next` (the closing segment of a closed bline appends at the end).
  if (next > i) {
    vertices.insert(vertices.begin() + next, nv);
    return next;
  }
  vertices.push_back(nv);
  return static_cast<int>(vertices.size()) - 1;
}

template struct Bline<Vec2>;
template struct Bline<Vec3>;

Bline2 deform_bline(const Bline2& rest, const std::vector<Affine2>& bones, TangentMode mode) {
  check_bones(rest, bones.size());
  return deform_generic<Vec2>(
      rest,
      [&](const BlineVertex<Vec2>& v, const Vec2& p) {
        if (v.bone_weights.empty()) return p;
        Vec2 out;
        for (const auto& [b, w] : v.bone_weights) out += bones[b](p) * w;
        return out;
      },
      mode);
}

Bline3 deform_bline(const Bline3& rest, const Pose& pose, TangentMode mode) {
  check_bones(rest, pose.bone.size());
  return deform_generic<Vec3>(
      rest,
      [&](const BlineVertex<Vec3>& v, const Vec3& p) {
        if (v.bone_weights.empty()) return p;
        Vec3 out;
        for (const auto& [b, w] : v.bone_weights) out += pose.bone[b](p) * w;
        return out;
      },
      mode);
}

std::vector<std::vector<std::pair<int, double>>> bone2_weights(const std::vector<Vec2>& points,
                                                               const std::vector<Bone2>& bones,
                                                               double falloff, int k) {
  std::vector<std::vector<std::pair<int, double>>> out(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    std::vector<std::pair<int, double>> w;
    for (std::size_t b = 0; b < bones.size(); ++b) {
      const Vec2 a = bones[b].origin;
      const Vec2 d{std::cos(bones[b].angle) * bones[b].length, std::sin(bones[b].angle) * bones[b].length};
      const double t = std::clamp(dot(points[i] - a, d) / std::max(dot(d, d), 1e-300), 0.0, 1.0);
      const double dist = std::max(norm(points[i] - (a + d * t)), 1e-9);
      w.push_back({static_cast<int>(b), std::pow(dist, -falloff)});
    }
    std::sort(w.begin(), w.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
    if (static_cast<int>(w.size()) > k) w.resize(k);
    double s = 0;
    for (const auto& e : w) s += e.second;
    for (auto& e : w) e.second /= s;
    out[i] = w;
  }
  return out;
}

}  // namespace drape

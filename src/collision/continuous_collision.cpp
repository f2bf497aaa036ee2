// Conservative advancement with a minimum separation (the header gives the
// method, its sources and its guarantees).
#include "drape/collision/continuous_collision.h"

#include <algorithm>
#include <cmath>

#include "drape/geometry/triangle_queries.h"
#include "self_collider_geometry.h"

namespace drape {

namespace {

// The closest points of the two primitives at one time: their distance, the
// direction from the second towards the first, and the closest points' weights.
struct Separation {
  double distance = 0;
  Vec3 direction;
  Vec3 weights;
};

Vec3 lerp(const Vec3& a, const Vec3& b, double t) { return a + (b - a) * t; }

Separation vertex_triangle_separation(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const ClosestPoint cp = closest_point_on_triangle(p, a, b, c);
  const Vec3 d = p - cp.point;
  Separation s;
  s.distance = norm(d);
  s.direction = s.distance > 0 ? d / s.distance : Vec3{};
  s.weights = {cp.u, cp.v, cp.w};
  return s;
}

Separation edge_edge_separation(const Vec3& ea, const Vec3& eb, const Vec3& fa, const Vec3& fb) {
  double s = 0, u = 0;
  self_collision::closest_segment_params(ea, eb, fa, fb, s, u);
  const Vec3 d = lerp(ea, eb, s) - lerp(fa, fb, u);
  Separation r;
  r.distance = norm(d);
  r.direction = r.distance > 0 ? d / r.distance : Vec3{};
  r.weights = {s, u, 0};
  return r;
}

// Conservative advancement (header): `separation(t)` gives the primitives'
// closest points at time t, `speed` the Lipschitz bound of their distance.
template <class SeparationAt>
ContinuousContact advance(SeparationAt&& separation, double speed, double gap, double tolerance) {
  ContinuousContact c;
  double t = 0;
  for (int it = 1;; ++it) {
    const Separation s = separation(t);
    c.iterations = it;
    const double above = s.distance - gap;
    if (above <= tolerance || it >= kMaxCcdIterations) {
      c.hit = true;
      c.capped = above > tolerance;
      c.t = t;
      c.distance = s.distance;
      c.direction = s.direction;
      c.weights = s.weights;
      return c;
    }
    // The rest of the step cannot close the gap (also when nothing moves).
    if (!(above <= speed * (1 - t))) return c;
    t += 0.9 * above / speed;
  }
}

}  // namespace

ContinuousContact vertex_triangle_ccd(const Vec3& p0, const Vec3& a0, const Vec3& b0, const Vec3& c0,
                                      const Vec3& p1, const Vec3& a1, const Vec3& b1, const Vec3& c1,
                                      double gap, double tolerance) {
  const Vec3 dp = p1 - p0;
  const double speed = std::max({norm(dp - (a1 - a0)), norm(dp - (b1 - b0)), norm(dp - (c1 - c0))});
  return advance(
      [&](double t) {
        return vertex_triangle_separation(lerp(p0, p1, t), lerp(a0, a1, t), lerp(b0, b1, t), lerp(c0, c1, t));
      },
      speed, gap, tolerance);
}

ContinuousContact edge_edge_ccd(const Vec3& ea0, const Vec3& eb0, const Vec3& fa0, const Vec3& fb0,
                                const Vec3& ea1, const Vec3& eb1, const Vec3& fa1, const Vec3& fb1,
                                double gap, double tolerance) {
  const Vec3 dea = ea1 - ea0, deb = eb1 - eb0, dfa = fa1 - fa0, dfb = fb1 - fb0;
  const double speed = std::max({norm(dea - dfa), norm(dea - dfb), norm(deb - dfa), norm(deb - dfb)});
  return advance(
      [&](double t) {
        return edge_edge_separation(lerp(ea0, ea1, t), lerp(eb0, eb1, t), lerp(fa0, fa1, t),
                                    lerp(fb0, fb1, t));
      },
      speed, gap, tolerance);
}

}  // namespace drape

#include "drape/geometry/triangle_queries.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace drape {
namespace {

// ---------------------------------------------------------------------------
// Exact arithmetic on floating-point expansions (Shewchuk 1997): a value is an
// unevaluated sum of non-overlapping doubles in increasing magnitude, whose
// sign is the sign of its largest non-zero component. Used only when the
// double-precision filter cannot decide a sign.

constexpr double kEps = 1.1102230246251565e-16;  // 2^-53

inline void two_sum(double a, double b, double& x, double& y) {
  x = a + b;
  const double bv = x - a;
  const double av = x - bv;
  y = (a - av) + (b - bv);
}
inline void two_diff(double a, double b, double& x, double& y) {
  x = a - b;
  const double bv = a - x;
  const double av = x + bv;
  y = (a - av) + (bv - b);
}
inline void two_prod(double a, double b, double& x, double& y) {
  x = a * b;
  y = std::fma(a, b, -x);
}

// h = e + f; h has room for elen + flen components. Returns its length.
int expansion_sum(int elen, const double* e, int flen, const double* f, double* h) {
  double q = f[0];
  for (int i = 0; i < elen; ++i) two_sum(q, e[i], q, h[i]);
  h[elen] = q;
  int hlast = elen;
  for (int j = 1; j < flen; ++j) {
    q = f[j];
    for (int i = j; i <= hlast; ++i) two_sum(q, h[i], q, h[i]);
    h[++hlast] = q;
  }
  return hlast + 1;
}

// h = b * e; h has room for 2 * elen components.
int scale_expansion(int elen, const double* e, double b, double* h) {
  double q, p1, p0, sum;
  two_prod(e[0], b, q, h[0]);
  int hi = 1;
  for (int i = 1; i < elen; ++i) {
    two_prod(e[i], b, p1, p0);
    two_sum(q, p0, sum, h[hi++]);
    two_sum(p1, sum, q, h[hi++]);
  }
  h[hi++] = q;
  return hi;
}

// h = e * f; h has room for 2 * elen * flen components.
int expansion_product(int elen, const double* e, int flen, const double* f, double* h) {
  double part[64], acc[2][512];
  int acclen = 0;
  int cur = 0;
  for (int j = 0; j < flen; ++j) {
    const int plen = scale_expansion(elen, e, f[j], part);
    if (acclen == 0) {
      std::copy(part, part + plen, acc[cur]);
      acclen = plen;
    } else {
      acclen = expansion_sum(acclen, acc[cur], plen, part, acc[1 - cur]);
      cur = 1 - cur;
    }
  }
  std::copy(acc[cur], acc[cur] + acclen, h);
  return acclen;
}

int expansion_sign(int n, const double* e) {
  for (int i = n - 1; i >= 0; --i)
    if (e[i] != 0) return e[i] > 0 ? 1 : -1;
  return 0;
}

inline int sign_of(double x) { return (x > 0) - (x < 0); }

// Exact sign of a*b - c*d.
int exact_sign_ab_minus_cd(double a, double b, double c, double d) {
  double p[2], q[2], h[4];
  two_prod(a, b, p[1], p[0]);
  two_prod(-c, d, q[1], q[0]);
  const int n = expansion_sum(2, p, 2, q, h);
  return expansion_sign(n, h);
}

int orient2d_exact(Vec2 a, Vec2 b, Vec2 c) {
  double acx[2], acy[2], bcx[2], bcy[2], l[8], r[8], h[16];
  two_diff(a.x, c.x, acx[1], acx[0]);
  two_diff(a.y, c.y, acy[1], acy[0]);
  two_diff(b.x, c.x, bcx[1], bcx[0]);
  two_diff(b.y, c.y, bcy[1], bcy[0]);
  const int ll = expansion_product(2, acx, 2, bcy, l);
  int rl = expansion_product(2, acy, 2, bcx, r);
  for (int i = 0; i < rl; ++i) r[i] = -r[i];
  const int n = expansion_sum(ll, l, rl, r, h);
  return expansion_sign(n, h);
}

int orient3d_exact(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  double ad[3][2], bd[3][2], cd[3][2];
  for (int k = 0; k < 3; ++k) {
    two_diff(a[k], d[k], ad[k][1], ad[k][0]);
    two_diff(b[k], d[k], bd[k][1], bd[k][0]);
    two_diff(c[k], d[k], cd[k][1], cd[k][0]);
  }
  // det = ax (by cz - bz cy) + bx (cy az - cz ay) + cx (ay bz - az by)
  auto minor = [](const double* p, const double* q, const double* r, const double* s, double* out) {
    double m1[8], m2[8];
    const int l1 = expansion_product(2, p, 2, q, m1);
    const int l2 = expansion_product(2, r, 2, s, m2);
    for (int i = 0; i < l2; ++i) m2[i] = -m2[i];
    return expansion_sum(l1, m1, l2, m2, out);
  };
  double m[16], t1[64], t2[64], t3[64], s12[128], all[192];
  int ml = minor(bd[1], cd[2], bd[2], cd[1], m);
  const int l1 = expansion_product(2, ad[0], ml, m, t1);
  ml = minor(cd[1], ad[2], cd[2], ad[1], m);
  const int l2 = expansion_product(2, bd[0], ml, m, t2);
  ml = minor(ad[1], bd[2], ad[2], bd[1], m);
  const int l3 = expansion_product(2, cd[0], ml, m, t3);
  const int l12 = expansion_sum(l1, t1, l2, t2, s12);
  const int n = expansion_sum(l12, s12, l3, t3, all);
  return expansion_sign(n, all);
}

// ---------------------------------------------------------------------------
// Triangle-triangle helpers.

constexpr int kUndecided = 2;

// orient3d_sign's floating-point filter, inline for the triangle-pair tests
// (six calls per pair): the sign, or kUndecided.
[[gnu::always_inline]] inline int orient3d_filtered(const Vec3& a, const Vec3& b, const Vec3& c,
                                                    const Vec3& d) {
  const Vec3 ad = a - d, bd = b - d, cd = c - d;
  const double bdxcdy = bd.x * cd.y, cdxbdy = cd.x * bd.y;
  const double cdxady = cd.x * ad.y, adxcdy = ad.x * cd.y;
  const double adxbdy = ad.x * bd.y, bdxady = bd.x * ad.y;
  const double det = ad.z * (bdxcdy - cdxbdy) + bd.z * (cdxady - adxcdy) + cd.z * (adxbdy - bdxady);
  const double permanent = (std::abs(bdxcdy) + std::abs(cdxbdy)) * std::abs(ad.z) +
                           (std::abs(cdxady) + std::abs(adxcdy)) * std::abs(bd.z) +
                           (std::abs(adxbdy) + std::abs(bdxady)) * std::abs(cd.z);
  const double bound = (7.0 + 56.0 * kEps) * kEps * permanent;
  return det > bound || -det > bound ? sign_of(det) : kUndecided;
}

// The sign where the filter cannot decide (out of line: rare).
[[gnu::noinline]] int orient3d_undecided(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const Vec3 ad = a - d, bd = b - d, cd = c - d;
  // Four points in one axis plane (e.g. a garment's and a body's vertices on
  // the symmetry plane x = 0): a zero column, so the determinant is exactly 0
  // (a - d == 0 exactly when a == d, thanks to gradual underflow).
  if ((ad.x == 0 && bd.x == 0 && cd.x == 0) || (ad.y == 0 && bd.y == 0 && cd.y == 0) ||
      (ad.z == 0 && bd.z == 0 && cd.z == 0))
    return 0;
  return orient3d_exact(a, b, c, d);
}

// orient3d_sign(p, a, b, c), with the filter inlined.
inline int side(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const int s = orient3d_filtered(p, a, b, c);
  return s != kUndecided ? s : orient3d_undecided(p, a, b, c);
}

// orient2d_sign's floating-point filter: the sign when the rounding error
// bound decides it, kUndecided when only exact arithmetic can.
int orient2d_filtered(Vec2 a, Vec2 b, Vec2 c) {
  const double l = (a.x - c.x) * (b.y - c.y);
  const double r = (a.y - c.y) * (b.x - c.x);
  const double det = l - r;
  const double bound = (3.0 + 16.0 * kEps) * kEps * (std::abs(l) + std::abs(r));
  return det > bound || -det > bound ? sign_of(det) : kUndecided;
}

// True when the three points are exactly collinear (or coincide): all three
// axis projections degenerate. All three filters first: a triangle standing
// square to a coordinate plane projects onto it as a line (its filter cannot
// decide), while another projection decides at once.
bool collinear3(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec2 pa[3] = {{a.x, a.y}, {a.y, a.z}, {a.x, a.z}};
  const Vec2 pb[3] = {{b.x, b.y}, {b.y, b.z}, {b.x, b.z}};
  const Vec2 pc[3] = {{c.x, c.y}, {c.y, c.z}, {c.x, c.z}};
  int undecided[3], n = 0;
  for (int k = 0; k < 3; ++k) {
    const int s = orient2d_filtered(pa[k], pb[k], pc[k]);
    if (s == kUndecided)
      undecided[n++] = k;
    else if (s != 0)
      return false;
  }
  for (int i = 0; i < n; ++i)
    if (orient2d_exact(pa[undecided[i]], pb[undecided[i]], pc[undecided[i]]) != 0) return false;
  return true;
}

// Drop the coordinate `axis`.
inline Vec2 drop(const Vec3& p, int axis) {
  return axis == 0 ? Vec2{p.y, p.z} : (axis == 1 ? Vec2{p.x, p.z} : Vec2{p.x, p.y});
}

int dominant_axis(const Vec3& n) {
  const double ax = std::abs(n.x), ay = std::abs(n.y), az = std::abs(n.z);
  return ax >= ay && ax >= az ? 0 : (ay >= az ? 1 : 2);
}

// An axis along which the projection of the plane through the non-collinear
// points a, b, c is one-to-one: the exact 2D orientation there is non-zero.
// (Taking the largest component of a rounded normal is not enough: for a
// sliver triangle that normal can round to zero.)
int projection_axis(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 n = cross(b - a, c - a);
  int axes[3] = {0, 1, 2};
  std::sort(axes, axes + 3, [&](int x, int y) { return std::abs(n[x]) > std::abs(n[y]); });
  for (int axis : axes)
    if (orient2d_sign(drop(a, axis), drop(b, axis), drop(c, axis)) != 0) return axis;
  return axes[0];  // collinear: callers exclude this
}

// r on the closed segment pq, given that p, q, r are collinear.
inline bool within_box(Vec2 p, Vec2 q, Vec2 r) {
  return std::min(p.x, q.x) <= r.x && r.x <= std::max(p.x, q.x) && std::min(p.y, q.y) <= r.y &&
         r.y <= std::max(p.y, q.y);
}

bool segments_intersect_2d(Vec2 p1, Vec2 q1, Vec2 p2, Vec2 q2) {
  const int o1 = orient2d_sign(p1, q1, p2), o2 = orient2d_sign(p1, q1, q2);
  const int o3 = orient2d_sign(p2, q2, p1), o4 = orient2d_sign(p2, q2, q1);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  if (o1 == 0 && within_box(p1, q1, p2)) return true;
  if (o2 == 0 && within_box(p1, q1, q2)) return true;
  if (o3 == 0 && within_box(p2, q2, p1)) return true;
  if (o4 == 0 && within_box(p2, q2, q1)) return true;
  return false;
}

// p in the closed, non-degenerate triangle abc (either orientation).
bool point_in_triangle_2d(Vec2 p, Vec2 a, Vec2 b, Vec2 c) {
  const int d1 = orient2d_sign(a, b, p), d2 = orient2d_sign(b, c, p), d3 = orient2d_sign(c, a, p);
  const bool neg = d1 < 0 || d2 < 0 || d3<0, pos = d1> 0 || d2 > 0 || d3 > 0;
  return !(neg && pos);
}

bool coplanar_triangles_intersect(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2,
                                  const Vec3& q2, const Vec3& r2) {
  const int axis = projection_axis(p1, q1, r1);
  const Vec2 a[3] = {drop(p1, axis), drop(q1, axis), drop(r1, axis)};
  const Vec2 b[3] = {drop(p2, axis), drop(q2, axis), drop(r2, axis)};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (segments_intersect_2d(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3])) return true;
  return point_in_triangle_2d(a[0], b[0], b[1], b[2]) || point_in_triangle_2d(b[0], a[0], a[1], a[2]);
}

// Closed segment pq against the closed, non-degenerate triangle abc.
bool segment_triangle_intersect(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c) {
  const int sp = side(p, a, b, c), sq = side(q, a, b, c);
  if (sp * sq > 0) return false;
  if (sp == 0 && sq == 0) {
    const int axis = projection_axis(a, b, c);
    const Vec2 p2 = drop(p, axis), q2 = drop(q, axis), a2 = drop(a, axis), b2 = drop(b, axis),
               c2 = drop(c, axis);
    return point_in_triangle_2d(p2, a2, b2, c2) || segments_intersect_2d(p2, q2, a2, b2) ||
           segments_intersect_2d(p2, q2, b2, c2) || segments_intersect_2d(p2, q2, c2, a2);
  }
  // The segment reaches the plane; the crossing lies in the triangle iff the
  // line pq passes every edge on the same side (Plucker-style signs).
  const int s1 = orient3d_sign(p, q, a, b), s2 = orient3d_sign(p, q, b, c), s3 = orient3d_sign(p, q, c, a);
  const bool neg = s1 < 0 || s2 < 0 || s3<0, pos = s1> 0 || s2 > 0 || s3 > 0;
  return !(neg && pos);
}

// Point r on the closed 3D segment pq.
bool point_on_segment_3d(const Vec3& r, const Vec3& p, const Vec3& q) {
  if (!collinear3(p, q, r)) return false;
  for (int k = 0; k < 3; ++k)
    if (r[k] < std::min(p[k], q[k]) || r[k] > std::max(p[k], q[k])) return false;
  return true;
}

bool segments_intersect_3d(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2) {
  if (p1 == q1) return point_on_segment_3d(p1, p2, q2);
  if (p2 == q2) return point_on_segment_3d(p2, p1, q1);
  if (orient3d_sign(p1, q1, p2, q2) != 0) return false;  // skew
  const bool collinear_all = collinear3(p1, q1, p2) && collinear3(p1, q1, q2);
  if (collinear_all) {
    // One line: compare along its dominant axis.
    const int k = dominant_axis(q1 - p1);
    const double a0 = std::min(p1[k], q1[k]), a1 = std::max(p1[k], q1[k]);
    const double b0 = std::min(p2[k], q2[k]), b1 = std::max(p2[k], q2[k]);
    return a0 <= b1 && b0 <= a1;
  }
  // Coplanar, not all collinear: project along an axis that is one-to-one on
  // the plane of a non-collinear triple.
  const Vec3 pts[4] = {p1, q1, p2, q2};
  int axis = 0;
  for (int skip = 0; skip < 4; ++skip) {
    Vec3 t[3];
    for (int i = 0, k = 0; i < 4; ++i)
      if (i != skip) t[k++] = pts[i];
    if (!collinear3(t[0], t[1], t[2])) {
      axis = projection_axis(t[0], t[1], t[2]);
      break;
    }
  }
  return segments_intersect_2d(drop(p1, axis), drop(q1, axis), drop(p2, axis), drop(q2, axis));
}

// Guigue-Devillers: p1 is alone on its side of T2's plane, and p2 alone on its side of T1's.
inline bool check_min_max(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                          const Vec3& r2) {
  if (orient3d_sign(q2, p2, p1, q1) > 0) return false;
  if (orient3d_sign(r2, p2, r1, p1) > 0) return false;
  return true;
}

bool tri_tri_3d(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                const Vec3& r2, int dp2, int dq2, int dr2) {
  if (dp2 > 0) {
    if (dq2 > 0) return check_min_max(p1, r1, q1, r2, p2, q2);
    if (dr2 > 0) return check_min_max(p1, r1, q1, q2, r2, p2);
    return check_min_max(p1, q1, r1, p2, q2, r2);
  }
  if (dp2 < 0) {
    if (dq2 < 0) return check_min_max(p1, q1, r1, r2, p2, q2);
    if (dr2 < 0) return check_min_max(p1, q1, r1, q2, r2, p2);
    return check_min_max(p1, r1, q1, p2, q2, r2);
  }
  if (dq2 < 0) {
    if (dr2 >= 0) return check_min_max(p1, r1, q1, q2, r2, p2);
    return check_min_max(p1, q1, r1, p2, q2, r2);
  }
  if (dq2 > 0) {
    if (dr2 > 0) return check_min_max(p1, r1, q1, p2, q2, r2);
    return check_min_max(p1, q1, r1, q2, r2, p2);
  }
  if (dr2 > 0) return check_min_max(p1, q1, r1, r2, p2, q2);
  if (dr2 < 0) return check_min_max(p1, r1, q1, r2, p2, q2);
  return coplanar_triangles_intersect(p1, q1, r1, p2, q2, r2);
}

}  // namespace

int orient2d_sign(Vec2 a, Vec2 b, Vec2 c) {
  const int s = orient2d_filtered(a, b, c);
  return s != kUndecided ? s : orient2d_exact(a, b, c);
}

int orient3d_sign(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) { return side(a, b, c, d); }

// ---------------------------------------------------------------------------
// Ray-triangle.

namespace {
// Exact sign of the 2D edge function px*qy - py*qx of the projected edge P->Q
// at the ray (the projected origin). When it is exactly zero, the ray is
// perturbed symbolically to (eps, eps^2): the same rule for every triangle, so
// shared edges and vertices are decided consistently (exactly one of the
// triangles around them wins when the ray crosses there).
inline int edge_sign(double value, double px, double py, double qx, double qy) {
  const double l = px * qy, r = py * qx;
  const double bound = 3.0 * kEps * (std::abs(l) + std::abs(r));
  int s;
  if (value > bound)
    s = 1;
  else if (value < -bound)
    s = -1;
  else
    s = exact_sign_ab_minus_cd(px, qy, py, qx);
  if (s != 0) return s;
  if (qy != py) return py > qy ? 1 : -1;
  if (qx != px) return qx > px ? 1 : -1;
  return 0;  // degenerate projected edge: no hit
}
}  // namespace

bool intersect_ray_triangle(const WatertightRay& ray, const Vec3& a, const Vec3& b, const Vec3& c, double& t,
                            double& u, double& v) {
  if (!ray.valid) return false;
  // Arrays indexed by the ray's axes (Vec3::operator[] branches on the index).
  const Vec3 a_ = a - ray.origin, b_ = b - ray.origin, c_ = c - ray.origin;
  const double A[3] = {a_.x, a_.y, a_.z}, B[3] = {b_.x, b_.y, b_.z}, C[3] = {c_.x, c_.y, c_.z};
  const double ax = A[ray.kx] - ray.sx * A[ray.kz], ay = A[ray.ky] - ray.sy * A[ray.kz];
  const double bx = B[ray.kx] - ray.sx * B[ray.kz], by = B[ray.ky] - ray.sy * B[ray.kz];
  const double cx = C[ray.kx] - ray.sx * C[ray.kz], cy = C[ray.ky] - ray.sy * C[ray.kz];
  double U = cx * by - cy * bx;
  double V = ax * cy - ay * cx;
  double W = bx * ay - by * ax;
  // Cheap reject before the exact signs: clearly mixed signs.
  const double tol = 4.0 * kEps;
  const double mu = tol * (std::abs(cx * by) + std::abs(cy * bx));
  const double mv = tol * (std::abs(ax * cy) + std::abs(ay * cx));
  const double mw = tol * (std::abs(bx * ay) + std::abs(by * ax));
  if ((U < -mu || V < -mv || W < -mw) && (U > mu || V > mv || W > mw)) return false;
  const int su = edge_sign(U, cx, cy, bx, by);
  const int sv = edge_sign(V, ax, ay, cx, cy);
  const int sw = edge_sign(W, bx, by, ax, ay);
  if (su == 0 || su != sv || su != sw) return false;
  // Values whose computed sign disagrees with the exact one are rounding noise.
  if (sign_of(U) != su) U = 0;
  if (sign_of(V) != su) V = 0;
  if (sign_of(W) != su) W = 0;
  const double det = U + V + W;
  if (det == 0) return false;
  const double az = ray.sz * A[ray.kz], bz = ray.sz * B[ray.kz], cz = ray.sz * C[ray.kz];
  const double T = U * az + V * bz + W * cz;
  const double tt = T / det;
  if (!(tt >= ray.t_min && tt <= ray.t_max)) return false;
  t = tt;
  u = V / det;
  v = W / det;
  return true;
}

bool intersect_ray_triangle(const Ray& ray, const Vec3& a, const Vec3& b, const Vec3& c, double& t, double& u,
                            double& v) {
  return intersect_ray_triangle(WatertightRay(ray), a, b, c, t, u, v);
}

// ---------------------------------------------------------------------------
// Closest point.

namespace {
ClosestPoint closest_on_segment(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 ab = b - a;
  const double l2 = dot(ab, ab);
  double s = l2 > 0 ? dot(p - a, ab) / l2 : 0.0;
  s = std::clamp(s, 0.0, 1.0);
  return {a + ab * s, 1 - s, s, 0};
}
}  // namespace

namespace detail {
ClosestPoint closest_point_on_flat_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  ClosestPoint best = closest_on_segment(p, a, b);
  double bd = squared_norm(best.point - p);
  ClosestPoint e = closest_on_segment(p, b, c);
  if (const double d = squared_norm(e.point - p); d < bd) {
    best = {e.point, 0, e.u, e.v};
    bd = d;
  }
  e = closest_on_segment(p, c, a);
  if (const double d = squared_norm(e.point - p); d < bd) best = {e.point, e.v, 0, e.u};
  return best;
}
}  // namespace detail

// ---------------------------------------------------------------------------
// Triangle-triangle.

bool triangles_intersect(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                         const Vec3& r2) {
  // Disjoint boxes: disjoint triangles (exact compares; saves the predicates).
  for (int k = 0; k < 3; ++k) {
    if (std::max({p1[k], q1[k], r1[k]}) < std::min({p2[k], q2[k], r2[k]})) return false;
    if (std::max({p2[k], q2[k], r2[k]}) < std::min({p1[k], q1[k], r1[k]})) return false;
  }
  // All of one triangle strictly on one side of the other's plane: disjoint.
  // Decided before the degeneracy checks (most pairs end here): a degenerate
  // triangle spans no plane (every side is 0), so it is never used to reject.
  const int dp1 = side(p1, p2, q2, r2), dq1 = side(q1, p2, q2, r2), dr1 = side(r1, p2, q2, r2);
  if (dp1 * dq1 > 0 && dp1 * dr1 > 0) return false;
  const int dp2 = side(p2, p1, q1, r1), dq2 = side(q2, p1, q1, r1), dr2 = side(r2, p1, q1, r1);
  if (dp2 * dq2 > 0 && dp2 * dr2 > 0) return false;

  const bool deg1 = collinear3(p1, q1, r1), deg2 = collinear3(p2, q2, r2);
  if (deg1 || deg2) {
    const Vec3 s1[3][2] = {{p1, q1}, {q1, r1}, {r1, p1}};
    const Vec3 s2[3][2] = {{p2, q2}, {q2, r2}, {r2, p2}};
    if (deg1 && deg2) {
      for (auto& e1 : s1)
        for (auto& e2 : s2)
          if (segments_intersect_3d(e1[0], e1[1], e2[0], e2[1])) return true;
      return false;
    }
    if (deg1) {
      for (auto& e : s1)
        if (segment_triangle_intersect(e[0], e[1], p2, q2, r2)) return true;
      return false;
    }
    for (auto& e : s2)
      if (segment_triangle_intersect(e[0], e[1], p1, q1, r1)) return true;
    return false;
  }

  if (dp1 > 0) {
    if (dq1 > 0) return tri_tri_3d(r1, p1, q1, p2, r2, q2, dp2, dr2, dq2);
    if (dr1 > 0) return tri_tri_3d(q1, r1, p1, p2, r2, q2, dp2, dr2, dq2);
    return tri_tri_3d(p1, q1, r1, p2, q2, r2, dp2, dq2, dr2);
  }
  if (dp1 < 0) {
    if (dq1 < 0) return tri_tri_3d(r1, p1, q1, p2, q2, r2, dp2, dq2, dr2);
    if (dr1 < 0) return tri_tri_3d(q1, r1, p1, p2, q2, r2, dp2, dq2, dr2);
    return tri_tri_3d(p1, q1, r1, p2, r2, q2, dp2, dr2, dq2);
  }
  if (dq1 < 0) {
    if (dr1 >= 0) return tri_tri_3d(q1, r1, p1, p2, r2, q2, dp2, dr2, dq2);
    return tri_tri_3d(p1, q1, r1, p2, q2, r2, dp2, dq2, dr2);
  }
  if (dq1 > 0) {
    if (dr1 > 0) return tri_tri_3d(p1, q1, r1, p2, r2, q2, dp2, dr2, dq2);
    return tri_tri_3d(q1, r1, p1, p2, q2, r2, dp2, dq2, dr2);
  }
  if (dr1 > 0) return tri_tri_3d(r1, p1, q1, p2, q2, r2, dp2, dq2, dr2);
  if (dr1 < 0) return tri_tri_3d(r1, p1, q1, p2, r2, q2, dp2, dr2, dq2);
  return coplanar_triangles_intersect(p1, q1, r1, p2, q2, r2);
}

}  // namespace drape

#include "drape/geometry/halfspace_projection.h"

#include <cmath>

namespace drape {
namespace {

// Planes whose normals are this close to linearly dependent (the Gram
// determinant of unit normals) are not taken as an active set together: one
// of them alone, or another set, gives the answer.
constexpr double kMinGram = 1e-10;

// The point nearest p on the intersection of the planes of hs[idx[0..k)],
// p + sum lambda_i n_i; false when the normals are (nearly) dependent or a
// multiplier is negative (that set is not the active set at the answer).
bool nearest_on_planes(const Vec3& p, const HalfSpace* hs, const int* idx, int k, Vec3& q) {
  Vec3 n[3];
  double r[3];
  for (int i = 0; i < k; ++i) {
    n[i] = hs[idx[i]].normal;
    r[i] = hs[idx[i]].offset - dot(n[i], p);
  }
  double l[3] = {0, 0, 0};
  if (k == 1) {
    l[0] = r[0];
  } else if (k == 2) {
    const double g = dot(n[0], n[1]);
    const double det = 1 - g * g;
    if (det < kMinGram) return false;
    l[0] = (r[0] - g * r[1]) / det;
    l[1] = (r[1] - g * r[0]) / det;
  } else {
    // The Gram matrix [[1 a b] [a 1 c] [b c 1]] of three unit normals, by its adjugate.
    const double a = dot(n[0], n[1]), b = dot(n[0], n[2]), c = dot(n[1], n[2]);
    const double det = 1 + 2 * a * b * c - a * a - b * b - c * c;
    if (det < kMinGram) return false;
    const double a01 = b * c - a, a02 = a * c - b, a12 = a * b - c;
    l[0] = ((1 - c * c) * r[0] + a01 * r[1] + a02 * r[2]) / det;
    l[1] = (a01 * r[0] + (1 - b * b) * r[1] + a12 * r[2]) / det;
    l[2] = (a02 * r[0] + a12 * r[1] + (1 - a * a) * r[2]) / det;
  }
  q = p;
  for (int i = 0; i < k; ++i) {
    if (l[i] < 0) return false;
    q += n[i] * l[i];
  }
  return true;
}

bool inside_all(const Vec3& q, const HalfSpace* hs, std::size_t count, double tolerance) {
  for (std::size_t j = 0; j < count; ++j)
    if (dot(hs[j].normal, q) < hs[j].offset - tolerance) return false;
  return true;
}

}  // namespace

bool nearest_in_halfspaces(const Vec3& p, const HalfSpace* hs, std::size_t count, Vec3& out,
                           double tolerance) {
  if (count > kMaxHalfSpaces) return false;
  if (inside_all(p, hs, count, tolerance)) {
    out = p;
    return true;
  }
  const int m = static_cast<int>(count);
  bool found = false;
  double best = 0;
  Vec3 q;
  const auto consider = [&](const int* idx, int k) {
    if (!nearest_on_planes(p, hs, idx, k, q) || !inside_all(q, hs, count, tolerance)) return;
    const double d2 = squared_norm(q - p);
    if (!found || d2 < best) {
      found = true;
      best = d2;
      out = q;
    }
  };
  int idx[3];
  for (idx[0] = 0; idx[0] < m; ++idx[0]) {
    consider(idx, 1);
    for (idx[1] = idx[0] + 1; idx[1] < m; ++idx[1]) {
      consider(idx, 2);
      for (idx[2] = idx[1] + 1; idx[2] < m; ++idx[2]) consider(idx, 3);
    }
  }
  return found;
}

}  // namespace drape

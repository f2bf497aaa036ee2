#include "drape/body/body_axes.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <optional>
#include <sstream>
#include <vector>

#include "drape/core/exceptions.h"
#include "drape/core/strings.h"

namespace drape {

namespace {

constexpr const char* kAxisNames = "xyz";

double coord(const Vec3& p, int axis) { return axis == 0 ? p.x : (axis == 1 ? p.y : p.z); }

Vec3 unit_vector(SignedAxis a) {
  Vec3 v{0, 0, 0};
  (a.axis == 0 ? v.x : (a.axis == 1 ? v.y : v.z)) = a.sign;
  return v;
}

// Area-weighted face centroids: a body's cues must not depend on how finely
// each part happens to be meshed.
struct Samples {
  std::vector<Vec3> at;
  std::vector<double> weight;
  Vec3 lo{0, 0, 0}, hi{0, 0, 0};
  double total = 0;

  explicit Samples(const TriangleMesh& m) {
    at.reserve(m.faces.size());
    weight.reserve(m.faces.size());
    bool first = true;
    for (std::size_t f = 0; f < m.faces.size(); ++f) {
      const double a = m.face_area(f);
      if (!(a > 0)) continue;
      const Vec3 c = m.face_centroid(f);
      at.push_back(c);
      weight.push_back(a);
      total += a;
      lo = first ? c : Vec3{std::min(lo.x, c.x), std::min(lo.y, c.y), std::min(lo.z, c.z)};
      hi = first ? c : Vec3{std::max(hi.x, c.x), std::max(hi.y, c.y), std::max(hi.z, c.z)};
      first = false;
    }
  }
  double extent(int axis) const { return coord(hi, axis) - coord(lo, axis); }
  double mean(int axis) const {
    double s = 0;
    for (std::size_t i = 0; i < at.size(); ++i) s += weight[i] * coord(at[i], axis);
    return s / total;
  }
  // 0 for an area distribution that is its own mirror image about the middle
  // of the axis' range, up to 2 for one that is all at one end.
  double asymmetry(int axis) const {
    constexpr int kBins = 32;
    std::array<double, kBins> h{};
    const double lo_a = coord(lo, axis), e = extent(axis);
    for (std::size_t i = 0; i < at.size(); ++i) {
      const int b = std::clamp(static_cast<int>((coord(at[i], axis) - lo_a) / e * kBins), 0, kBins - 1);
      h[static_cast<std::size_t>(b)] += weight[i];
    }
    double d = 0;
    for (int b = 0; b < kBins; ++b)
      d += std::abs(h[static_cast<std::size_t>(b)] - h[static_cast<std::size_t>(kBins - 1 - b)]);
    return d / total;
  }
  // Mean distance across `lateral` from the body's mid-plane of the surface
  // within `fraction` of the height of one end of `up` (end = +1 top, -1 bottom).
  double end_spread(int up, int end, int lateral, double fraction) const {
    const double mid = mean(lateral), h = extent(up);
    const double cut = end > 0 ? coord(hi, up) - fraction * h : coord(lo, up) + fraction * h;
    double s = 0, w = 0;
    for (std::size_t i = 0; i < at.size(); ++i) {
      const double u = coord(at[i], up);
      if (end > 0 ? u < cut : u > cut) continue;
      s += weight[i] * std::abs(coord(at[i], lateral) - mid);
      w += weight[i];
    }
    return w > 0 ? s / w : 0;
  }
};

[[noreturn]] void undecided(const std::string& source, const std::string& what) {
  throw InvalidInput(source, 0,
                     "body: " + what +
                         "; drape expects a standing human (arms down, out or in an A/T pose); give --up and "
                         "--front (e.g. --up +z --front -y) if it is one");
}

// The left-right axis among `candidates`: the most mirror-symmetric one.
int lateral_axis(const Samples& s, const std::vector<int>& candidates) {
  int best = candidates.front();
  for (int a : candidates)
    if (s.asymmetry(a) < s.asymmetry(best)) best = a;
  return best;
}

// The sign of `up` that puts the head (narrow end) on top.
int up_sign(const Samples& s, int up, int lateral, const std::string& source) {
  const double top = s.end_spread(up, +1, lateral, 0.05), bottom = s.end_spread(up, -1, lateral, 0.05);
  // Measured: head 0.024 H, two feet 0.06-0.13 H (MakeHuman, GarmentCode A/T).
  if (std::max(top, bottom) < 1.5 * std::min(top, bottom))
    undecided(source, "cannot tell its head from its feet along " + std::string(1, kAxisNames[up]) +
                          " (both ends equally wide)");
  return top < bottom ? +1 : -1;
}

// The sign of `front` towards which the feet point.
int front_sign(const Samples& s, SignedAxis up, int front, const std::string& source) {
  const double h = s.extent(up.axis);
  const double floor = up.sign > 0 ? coord(s.lo, up.axis) : coord(s.hi, up.axis);
  auto height_of = [&](const Vec3& p) { return (coord(p, up.axis) - floor) * up.sign; };
  double leg_sum = 0, leg_w = 0;
  double foot_min = 1e300, foot_max = -1e300;
  for (std::size_t i = 0; i < s.at.size(); ++i) {
    const double y = height_of(s.at[i]);
    const double d = coord(s.at[i], front);
    if (y < 0.04 * h) {
      foot_min = std::min(foot_min, d);
      foot_max = std::max(foot_max, d);
    } else if (y > 0.08 * h && y < 0.14 * h) {
      leg_sum += s.weight[i] * d;
      leg_w += s.weight[i];
    }
  }
  if (leg_w <= 0 || foot_min > foot_max) undecided(source, "no feet and shins found to tell its front");
  const double shin = leg_sum / leg_w;
  const double ahead = foot_max - shin, behind = shin - foot_min;
  // Measured: toes 0.12 H ahead of the shins, heels 0.03 H behind.
  if (std::abs(ahead - behind) < 0.03 * h)
    undecided(source, "cannot tell its front from its back along " + std::string(1, kAxisNames[front]) +
                          " (the feet reach as far both ways)");
  return ahead > behind ? +1 : -1;
}

}  // namespace

SignedAxis parse_signed_axis(const std::string& text, const std::string& option) {
  std::string t = to_lower(text);
  SignedAxis a;
  if (t.size() == 2 && (t[0] == '+' || t[0] == '-')) {
    a.sign = t[0] == '-' ? -1 : 1;
    t = t.substr(1);
  }
  if (t.size() != 1 || t[0] < 'x' || t[0] > 'z')
    throw InvalidInput(option + ": '" + text + "' is not an axis (+x, -x, +y, -y, +z, -z)");
  a.axis = t[0] - 'x';
  return a;
}

std::string to_string(SignedAxis a) { return std::string(a.sign < 0 ? "-" : "+") + kAxisNames[a.axis]; }

Mat3 BodyAxes::to_canonical() const {
  const Vec3 u = unit_vector(up), f = unit_vector(front), l = cross(u, f);
  Mat3 r;
  const Vec3 rows[3] = {l, u, f};
  for (int i = 0; i < 3; ++i) {
    r(i, 0) = rows[i].x;
    r(i, 1) = rows[i].y;
    r(i, 2) = rows[i].z;
  }
  return r;
}

std::string BodyAxes::describe() const { return to_string(up) + " up, facing " + to_string(front); }

BodyAxes detect_body_axes(const TriangleMesh& mesh, const std::string& source) {
  return resolve_body_axes(mesh, source, std::nullopt, std::nullopt);
}

BodyAxes resolve_body_axes(const TriangleMesh& mesh, const std::string& source,
                           const std::optional<SignedAxis>& up, const std::optional<SignedAxis>& front) {
  if (up && front) {
    if (up->axis == front->axis)
      throw InvalidInput("--up " + to_string(*up) + " and --front " + to_string(*front) +
                         " are the same axis");
    return {*up, *front};
  }
  const Samples s(mesh);
  if (s.at.empty()) undecided(source, "no faces with area");
  std::vector<int> axes = {0, 1, 2};
  BodyAxes out;
  if (up) {
    axes.erase(std::find(axes.begin(), axes.end(), up->axis));
    const int lateral = lateral_axis(s, axes);
    out.up = *up;
    out.front.axis = axes[0] == lateral ? axes[1] : axes[0];
    out.front.sign = front_sign(s, out.up, out.front.axis, source);
    return out;
  }
  if (front) axes.erase(std::find(axes.begin(), axes.end(), front->axis));
  const int lateral = lateral_axis(s, axes);
  axes.erase(std::find(axes.begin(), axes.end(), lateral));
  // Of the two that remain, the longer is up (a standing body is taller than
  // it is deep); with the front given, the one that remains is up.
  int up_axis = axes[0];
  if (!front) {
    if (axes.size() == 2 && s.extent(axes[1]) > s.extent(axes[0])) up_axis = axes[1];
    const int depth_axis = up_axis == axes[0] ? axes[1] : axes[0];
    const double h = s.extent(up_axis);
    if (h < 2.5 * s.extent(depth_axis) || s.asymmetry(lateral) > 0.25) {
      std::ostringstream why;
      why << "it does not look like a standing human (extents " << s.extent(0) << " x " << s.extent(1)
          << " x " << s.extent(2) << " m, most symmetric across " << kAxisNames[lateral] << ")";
      undecided(source, why.str());
    }
  }
  out.up = {up_axis, up_sign(s, up_axis, lateral, source)};
  out.front = front ? *front : SignedAxis{axes[0] == up_axis ? axes[1] : axes[0], 0};
  if (!front) out.front.sign = front_sign(s, out.up, out.front.axis, source);
  return out;
}

}  // namespace drape

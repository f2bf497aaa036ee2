#include "drape/body/body_measurements.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "drape/landmarks/mesh_section.h"
#include "drape/core/exceptions.h"

namespace drape {

namespace {

// The piece containing `p`, else the one whose bounds are nearest to it.
const SectionPiece* piece_at(const std::vector<SectionPiece>& pieces, Vec2 p) {
  const SectionPiece* best = nullptr;
  double best_d = std::numeric_limits<double>::infinity();
  for (const SectionPiece& pc : pieces) {
    if (pc.contains(p)) {
      // Nested loops do not occur on a closed skin; take the outermost anyway.
      const double d = -(pc.hi.x - pc.lo.x);
      if (d < best_d) {
        best_d = d;
        best = &pc;
      }
      continue;
    }
    const double dx = std::max({pc.lo.x - p.x, 0.0, p.x - pc.hi.x});
    const double dy = std::max({pc.lo.y - p.y, 0.0, p.y - pc.hi.y});
    const double d = std::hypot(dx, dy);
    if (best_d >= 0 && d < best_d) {
      best_d = d;
      best = &pc;
    }
  }
  return best;
}

// The torso's part of a horizontal section: the piece at the centre line,
// grown by every piece centred (in x) within its x-range whose z-range meets
// its own within `tol` (a body made of several shells: front and back halves,
// segments of a mannequin); arms and hands beside the torso stay out.
std::optional<SectionPiece> torso_piece(const std::vector<SectionPiece>& pieces, Vec2 centre, double tol) {
  const SectionPiece* base = piece_at(pieces, centre);
  if (!base) return std::nullopt;
  SectionPiece t = *base;
  std::vector<bool> used(pieces.size(), false);
  used[base - pieces.data()] = true;
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      const SectionPiece& p = pieces[i];
      const double cx = p.centre().x;
      if (used[i] || cx < t.lo.x || cx > t.hi.x || p.lo.y > t.hi.y + tol || p.hi.y < t.lo.y - tol) continue;
      used[i] = grew = true;
      t.a.insert(t.a.end(), p.a.begin(), p.a.end());
      t.b.insert(t.b.end(), p.b.begin(), p.b.end());
      t.lo = {std::min(t.lo.x, p.lo.x), std::min(t.lo.y, p.lo.y)};
      t.hi = {std::max(t.hi.x, p.hi.x), std::max(t.hi.y, p.hi.y)};
    }
  }
  return t;
}

struct Extreme {
  double value = 0, y = 0;
};

double torso_girth_at(const HorizontalSections& hs, const BodyFrame& f, double y) {
  const std::vector<SectionPiece> pieces = hs.at(y);
  const std::optional<SectionPiece> pc = torso_piece(pieces, {f.centre_x, f.centre_z}, 0.005 * f.height);
  return pc ? pc->hull_perimeter() : 0.0;
}

// Largest (sign = +1) or smallest (sign = -1) torso girth over [y0, y1] in steps of dy.
Extreme torso_extreme(const HorizontalSections& hs, const BodyFrame& f, double y0, double y1, double dy,
                      int sign) {
  Extreme e{sign > 0 ? 0.0 : std::numeric_limits<double>::infinity(), y0};
  for (int k = 0; y0 + k * dy <= y1 + 1e-12; ++k) {
    const double y = y0 + k * dy;
    const double g = torso_girth_at(hs, f, y);
    if (g <= 0) continue;
    if ((sign > 0 && g > e.value) || (sign < 0 && g < e.value)) e = {g, y};
  }
  if (!std::isfinite(e.value)) e.value = 0;
  return e;
}

// Follows an arm from the shoulder: sections perpendicular to the arm's
// current direction, each centred on the previous section's piece, the
// direction turned towards the new centre (so a bent elbow is followed).
struct ArmTrack {
  double upper_arm = 0;  ///< girth 9 % H along the arm
  double length = 0;     ///< path length from the shoulder to the wrist
};

ArmTrack track_arm(const TriangleMesh& body, const Vec3& shoulder, Vec3 dir, double H) {
  ArmTrack out;
  const double step = 0.004 * H, reach = 0.03 * H;
  // Leave the torso: straight along the arm line until the piece at the axis is arm-sized.
  double t = 0;
  for (int k = 0; (t = k * step) < 0.15 * H; ++k) {
    const SectionPlane plane = perpendicular_plane(shoulder + dir * t, dir);
    const std::vector<SectionPiece> pieces = section_pieces(body, plane);
    const SectionPiece* pc = piece_at(pieces, {0, 0});
    if (pc && pc->contains({0, 0}) && pc->hull_perimeter() < 0.3 * H) break;
  }
  if (t >= 0.15 * H) return out;
  t += 0.04 * H;  // clear of the armpit, whose skin would pull the centres towards the torso
  Vec3 centre = shoulder + dir * t;
  double length = t, best = std::numeric_limits<double>::infinity(), best_length = 0;
  bool forearm = false;
  double prev_g = 0;
  for (int k = 0; k < 400 && length < 0.6 * H; ++k) {
    const SectionPlane plane = perpendicular_plane(centre + dir * step, dir);
    const std::vector<SectionPiece> pieces = section_pieces(body, plane);
    const SectionPiece* pc = piece_at(pieces, {0, 0});
    if (!pc || (!pc->contains({0, 0}) && norm(pc->centre()) > reach)) break;  // past the fingertips
    const double g = pc->hull_perimeter();
    if (prev_g > 0 && g > 1.6 * prev_g) break;  // ran into another part (torso, thigh)
    prev_g = g;
    const Vec2 c2 = pc->centre();
    const Vec3 next = plane.origin + plane.u * c2.x + plane.v * c2.y;
    length += norm(next - centre);
    dir = normalized(dir * 0.85 + normalized(next - centre) * 0.15);
    centre = next;
    if (out.upper_arm == 0 && length >= 0.09 * H) out.upper_arm = g;
    // The wrist: from mid-forearm on, the narrowest section before the hand widens it.
    if (length < 0.2 * H) continue;
    forearm = true;
    if (g < best) {
      best = g;
      best_length = length;
    } else if (g > 1.15 * best) {
      break;
    }
  }
  if (forearm) out.length = best_length;
  return out;
}

}  // namespace

double torso_girth(const TriangleMesh& body, const BodyFrame& f, double y) {
  const std::vector<SectionPiece> pieces = section_pieces(body, horizontal_plane(y));
  const std::optional<SectionPiece> pc = torso_piece(pieces, {f.centre_x, f.centre_z}, 0.005 * f.height);
  return pc ? pc->hull_perimeter() : 0.0;
}

double BodyMeasurements::torso_girth_at_height(double h) const {
  const auto& p = torso_profile;
  if (p.empty() || h < p.front().first || h > p.back().first) return 0;
  const auto hi = std::lower_bound(p.begin(), p.end(), h,
                                   [](const std::pair<double, double>& s, double v) { return s.first < v; });
  if (hi == p.begin()) return hi->second;
  const auto lo = hi - 1;
  const double t = (h - lo->first) / (hi->first - lo->first);
  return lo->second + t * (hi->second - lo->second);
}

BodyMeasurements measure_body(const TriangleMesh& body, const std::string& source, bool limbs_and_head) {
  return measure_body(body, analyse_body(body, source), source, limbs_and_head);
}

BodyMeasurements measure_body(const TriangleMesh& body, const BodyFrame& f, const std::string& source,
                              bool limbs_and_head) {
  BodyMeasurements m;
  m.frame = f;
  const double H = f.height, floor = f.floor_y;
  const double dy = 0.002 * H;
  m.height = H;
  m.inseam = f.crotch_y - floor;
  const HorizontalSections hs(body, 0.004 * H);

  // Waist: the narrowest torso girth around the narrowest torso width.
  const Extreme waist = torso_extreme(hs, f, f.waist_y - 0.015 * H, f.waist_y + 0.015 * H, dy, -1);
  m.waist = waist.value;
  m.waist_y = waist.y - floor;
  if (m.waist <= 0)
    throw InvalidInput(source + ": no torso found at the waist (y = " + std::to_string(f.waist_y) + " m)");

  // Armpits: going up from the waist, the torso piece first takes in the arms
  // (its width jumps well beyond the torso's).
  double armpit = f.shoulder_y;
  for (int k = 0; f.waist_y + k * dy <= f.shoulder_y; ++k) {
    const double y = f.waist_y + k * dy;
    const std::vector<SectionPiece> pieces = hs.at(y);
    const std::optional<SectionPiece> pc = torso_piece(pieces, {f.centre_x, f.centre_z}, 0.005 * f.height);
    if (pc && pc->hi.x - pc->lo.x > 2.6 * f.torso_half_width) {
      armpit = y;
      break;
    }
  }
  // Bust: at the level of the bust points, the torso's most forward part in the
  // upper half between waist and armpits (the centre of the levels within 2 mm of it).
  {
    const double y0 = f.waist_y + 0.4 * (armpit - f.waist_y), y1 = armpit - 0.01 * H;
    std::vector<std::pair<double, double>> front;  // (y, largest z)
    double zmax = -std::numeric_limits<double>::infinity();
    for (int k = 0; y0 + k * dy <= y1; ++k) {
      const double y = y0 + k * dy;
      const std::vector<SectionPiece> pieces = hs.at(y);
      if (const std::optional<SectionPiece> pc =
              torso_piece(pieces, {f.centre_x, f.centre_z}, 0.005 * f.height)) {
        front.emplace_back(y, pc->hi.y);
        zmax = std::max(zmax, pc->hi.y);
      }
    }
    double sy = 0;
    int n = 0;
    for (const auto& [y, z] : front)
      if (z >= zmax - 0.002) {
        sy += y;
        ++n;
      }
    const double bust_y = n ? sy / n : f.chest_y;
    m.bust = torso_girth_at(hs, f, bust_y);
    m.bust_y = bust_y - floor;
  }

  const Extreme hip = torso_extreme(hs, f, f.crotch_y + 0.01 * H, f.waist_y, dy, +1);
  m.hip = hip.value;
  m.hip_y = hip.y - floor;
  for (int k = 0; hip.y + k * dy <= waist.y + 0.1 * H; ++k) {
    const double y = hip.y + k * dy;
    if (const double g = torso_girth_at(hs, f, y); g > 0) m.torso_profile.emplace_back(y - floor, g);
  }

  if (!limbs_and_head) return m;

  const Extreme neck = torso_extreme(hs, f, f.neck_y - 0.02 * H, f.neck_y + 0.02 * H, dy, -1);
  m.neck = neck.value;
  m.neck_y = neck.y - floor;

  const double top = f.bounds.max.y;
  m.head = torso_extreme(hs, f, top - 0.065 * H, top - 0.035 * H, dy, +1).value;

  // Thigh: the leg piece on the left (+x), beside the centre line, below the crotch.
  for (int k = 0; f.crotch_y - 0.06 * H + k * dy <= f.crotch_y - 0.005 * H; ++k) {
    const double y = f.crotch_y - 0.06 * H + k * dy;
    const std::vector<SectionPiece> pieces = hs.at(y);
    double leg = 0;
    for (const SectionPiece& pc : pieces) {
      const double cx = pc.centre().x - f.centre_x;
      if (cx > 0 && cx < f.torso_half_width && pc.lo.x < f.centre_x + 0.5 * f.torso_half_width)
        leg = std::max(leg, pc.hull_perimeter());
    }
    if (leg <= 0) continue;
    m.thigh_profile.emplace_back(y - floor, leg);
    if (leg > m.thigh) m.thigh = leg, m.thigh_y = y - floor;
  }

  // Arms: followed from the shoulder joint estimate; the left one unless it cannot be.
  for (int side = 0; side < 2 && m.arm_length == 0; ++side) {
    if (!(norm(f.arm_direction[side]) > 0.5)) continue;
    const ArmTrack arm = track_arm(body, f.shoulder[side], f.arm_direction[side], H);
    m.upper_arm = arm.upper_arm;
    m.arm_length = arm.length;
  }
  return m;
}

}  // namespace drape

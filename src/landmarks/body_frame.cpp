#include "drape/landmarks/body_frame.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "drape/core/exceptions.h"
#include "drape/geometry/garment_mesh.h"
#include "drape/landmarks/mesh_section.h"

namespace drape {
namespace {

// The frame's horizontal sections of the body, every 0.5 % of its height:
// per level, the spans of its pieces (torso, arms, legs), pieces closer
// than 0.2 % of the height merged.
struct FrameLevels {
  double y0 = 0, dy = 0.01;
  std::vector<std::vector<SectionSpan>> spans;
  int level(double y) const {
    return std::clamp(static_cast<int>((y - y0) / dy), 0, static_cast<int>(spans.size()) - 1);
  }
  double y_of(int i) const { return y0 + (i + 0.5) * dy; }
};

FrameLevels frame_levels(const HorizontalSections& sections, const Aabb& b, double dy, double gap) {
  FrameLevels s;
  s.y0 = b.min.y;
  s.dy = dy;
  s.spans.resize(static_cast<std::size_t>((b.max.y - b.min.y) / dy) + 1);
  for (std::size_t i = 0; i < s.spans.size(); ++i)
    s.spans[i] = section_spans(sections.at(s.y_of(static_cast<int>(i))), gap);
  return s;
}

// The span nearest the mid-plane x = cx (0 distance when it covers it).
const SectionSpan* central(const std::vector<SectionSpan>& cs, double cx) {
  const SectionSpan* best = nullptr;
  double bd = 1e300;
  for (const SectionSpan& c : cs) {
    const double d = cx < c.lo ? c.lo - cx : (cx > c.hi ? cx - c.hi : 0.0);
    if (d < bd) {
      bd = d;
      best = &c;
    }
  }
  return best;
}

double point_segment_xy(const Vec3& p, const Vec3& a, const Vec3& b) {
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double l2 = dx * dx + dy * dy;
  const double t = l2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / l2, 0.0, 1.0) : 0.0;
  return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

}  // namespace

BodyFrame analyse_body(const TriangleMesh& body) {
  if (body.positions.empty() || body.faces.empty()) throw InvalidInput("body mesh is empty");
  BodyFrame f;
  f.bounds = body.bounds();
  f.floor_y = f.bounds.min.y;
  f.height = f.bounds.extent().y;
  const double H = f.height;
  if (!(H > 0.3 && H < 3.0))
    throw InvalidInput("body mesh is " + std::to_string(H) + " m tall: not a standing body in metres");
  f.centre_x = 0.5 * (f.bounds.min.x + f.bounds.max.x);
  const double cx = f.centre_x;
  const HorizontalSections sections(body);
  const FrameLevels s = frame_levels(sections, f.bounds, 0.005 * H, 0.002 * H);
  auto width = [&](int i) {
    if (s.spans[i].empty()) return 0.0;
    return s.spans[i].back().hi - s.spans[i].front().lo;
  };
  auto central_width = [&](int i) {
    const SectionSpan* c = central(s.spans[i], cx);
    return c ? c->hi - c->lo : 0.0;
  };
  // Crotch: going up from the knees, the first section with body across the centre line.
  f.crotch_y = f.floor_y + 0.47 * H;
  for (int i = s.level(f.floor_y + 0.25 * H); i < s.level(f.floor_y + 0.7 * H); ++i) {
    const SectionSpan* c = central(s.spans[i], cx);
    if (c && c->covers(cx)) {
      f.crotch_y = s.y_of(i);
      break;
    }
  }
  // Neck: the narrowest central slice high up.
  int neck = s.level(f.floor_y + 0.85 * H);
  for (int i = s.level(f.floor_y + 0.75 * H); i <= s.level(f.floor_y + 0.93 * H); ++i)
    if (central_width(i) > 0 && central_width(i) < central_width(neck)) neck = i;
  f.neck_y = s.y_of(neck);
  const double neck_w = std::max(central_width(neck), 0.02 * H);
  // Shoulders: going down from the neck, where the slice widens well beyond the neck.
  f.shoulder_y = f.neck_y - 0.05 * H;
  for (int i = neck; i > s.level(f.floor_y + 0.6 * H); --i)
    if (width(i) > 2.6 * neck_w) {
      f.shoulder_y = s.y_of(i);
      break;
    }
  f.chest_y = f.shoulder_y - 0.08 * H;
  // Waist: narrowest torso between crotch and chest.
  int waist = s.level(f.crotch_y + 0.15 * H);
  for (int i = s.level(f.crotch_y + 0.08 * H); i <= s.level(f.chest_y - 0.03 * H); ++i)
    if (central_width(i) > 0 && central_width(i) < central_width(waist)) waist = i;
  f.waist_y = s.y_of(waist);
  {
    const SectionSpan* c = central(s.spans[waist], cx);
    const double waist_half = c ? 0.5 * (c->hi - c->lo) : 0.1 * H;
    const SectionSpan* ch = central(s.spans[s.level(f.chest_y)], cx);
    double chest_half = ch ? 0.5 * (ch->hi - ch->lo) : waist_half;
    f.torso_half_width = std::min(chest_half, 1.45 * waist_half);
    f.centre_z = ch ? 0.5 * (ch->v_lo + ch->v_hi) : f.bounds.center().z;
  }
  // Arms: side pieces of the slices between the crotch and the shoulders.
  for (int side = 0; side < 2; ++side) {
    const double sgn = side == 0 ? 1.0 : -1.0;
    double sw = 0, sy = 0, sx = 0, syy = 0, sxy = 0, ylo = 1e300, yhi = -1e300;
    // Follow the arm down from the shoulders: in each slice the side piece
    // nearest the previous arm centre, until it ends (the fingertips).
    double prev = 0;
    bool tracking = false;
    for (int i = s.level(f.shoulder_y); i >= s.level(f.floor_y + 0.2 * H); --i) {
      // An arm starts above the crotch (a hanging hand may reach below it);
      // a piece first met below the crotch is a leg: on a T-posed body with
      // its legs apart the thigh would otherwise be taken for a vertical arm.
      if (!tracking && s.y_of(i) < f.crotch_y) break;
      const SectionSpan* c = central(s.spans[i], cx);
      const SectionSpan* pick = nullptr;
      double best = 1e300;
      for (const SectionSpan& k : s.spans[i]) {
        if (&k == c) continue;
        const double mid = k.middle();
        if ((mid - cx) * sgn < f.torso_half_width * 0.8) continue;
        const double d = tracking ? std::abs(mid - prev) : std::abs(mid - cx);
        if (d < best) {
          best = d;
          pick = &k;
        }
      }
      if (!pick || (tracking && best > 0.03 * H)) {
        if (tracking && sw >= 10) break;
        // A short piece (a shoulder muscle cut by the slices): start again below.
        sw = sy = sx = syy = sxy = 0;
        ylo = 1e300;
        yhi = -1e300;
        tracking = false;
        continue;
      }
      tracking = true;
      const double mid = pick->middle();
      prev = mid;
      const double y = s.y_of(i);
      sw += 1;
      sy += y;
      sx += mid;
      syy += y * y;
      sxy += y * mid;
      ylo = std::min(ylo, y);
      yhi = std::max(yhi, y);
    }
    Vec3 top, bottom;
    if (sw >= 5 && syy * sw - sy * sy > 1e-12) {
      const double b = (sw * sxy - sx * sy) / (sw * syy - sy * sy), a = (sx - b * sy) / sw;
      top = {a + b * yhi, yhi, f.centre_z};
      bottom = {a + b * ylo, ylo, f.centre_z};
      // Extend the upper end to shoulder height along the line.
      const double ys = f.shoulder_y - 0.03 * H;
      top = {a + b * ys, ys, f.centre_z};
    } else {  // T-pose or unknown: a horizontal arm from the shoulder out to the bounds
      top = {cx + sgn * f.torso_half_width, f.shoulder_y - 0.03 * H, f.centre_z};
      bottom = {sgn > 0 ? f.bounds.max.x : f.bounds.min.x, top.y, f.centre_z};
    }
    f.shoulder[side] = top;
    f.arm_direction[side] = normalized(bottom - top);
    f.arm_angle_deg[side] =
        std::atan2(-f.arm_direction[side].y, std::abs(f.arm_direction[side].x)) * 180 / std::numbers::pi;
  }
  // Facing: everything here (and the patterns' placement) takes the shoulders
  // across x and the front towards +z. A body turned a quarter about y has its
  // shoulders (and arms) across z: a shirt placed on it tangled for minutes.
  Aabb upper;
  for (const Vec3& p : body.positions)
    if (p.y > f.waist_y && p.y < f.neck_y) upper.expand(p);
  if (!upper.empty() && upper.extent().z > upper.extent().x)
    throw InvalidInput("body mesh: its upper body is " + std::to_string(upper.extent().z) +
                       " m deep (z) and " + std::to_string(upper.extent().x) +
                       " m wide (x): it seems to face along x; drape expects a standing body with its "
                       "shoulders across x, facing +z (MakeHuman's axes): rotate it");
  return f;
}

std::vector<std::uint32_t> label_body_regions(const TriangleMesh& body, const BodyFrame& f) {
  namespace br = body_region;
  std::vector<std::uint32_t> out(body.faces.size());
  const double arm_r = 0.045 * f.height;
  for (std::size_t i = 0; i < body.faces.size(); ++i) {
    const Vec3 c = body.face_centroid(i);
    std::uint32_t bits =
        (c.x >= f.centre_x ? br::left : br::right) | (c.z >= f.centre_z ? br::front : br::back);
    const int side = c.x >= f.centre_x ? 0 : 1;
    const Vec3 hand = f.shoulder[side] + f.arm_direction[side] * (0.45 * f.height);
    const bool beyond_torso = std::abs(c.x - f.centre_x) > f.torso_half_width * 0.9;
    if (c.y > f.neck_y)
      bits |= br::head;
    else if (beyond_torso && c.y > f.crotch_y - 0.15 * f.height &&
             point_segment_xy(c, f.shoulder[side], hand) < arm_r)
      bits |= side == 0 ? br::left_arm : br::right_arm;
    else if (c.y < f.crotch_y)
      bits |= side == 0 ? br::left_leg : br::right_leg;
    else
      bits |= c.y >= f.waist_y ? br::upper : br::lower;
    out[i] = bits;
  }
  return out;
}

bool region_allows(std::uint32_t face, std::uint32_t mask) {
  namespace br = body_region;
  const std::uint32_t part =
      br::upper | br::lower | br::head | br::left_arm | br::right_arm | br::left_leg | br::right_leg;
  const std::uint32_t side = br::left | br::right, facing = br::front | br::back;
  // A mask without side (facing) bits does not restrict sides (facings).
  const bool part_ok = (face & mask & part) != 0;
  const bool side_ok = !(mask & side) || (face & mask & side);
  const bool facing_ok = !(mask & facing) || (face & mask & facing);
  return part_ok && side_ok && facing_ok;
}

BodyFrame analyse_body(const TriangleMesh& body, const std::string& source) {
  try {
    return analyse_body(body);
  } catch (const InvalidInput& e) {
    throw InvalidInput(source, 0, e.what());
  }
}

}  // namespace drape

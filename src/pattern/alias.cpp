#include "drape/pattern/alias.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include "drape/geometry/garment_mesh.h"

namespace drape {
namespace {

std::vector<std::string> tokens_of(const std::string& s) {
  // Split on non-alphanumerics and on lower->upper case changes ("Lfront" -> L, front).
  std::vector<std::string> out;
  std::string cur;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (!std::isalnum(static_cast<unsigned char>(c))) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
      continue;
    }
    if (!cur.empty() && std::isupper(static_cast<unsigned char>(c)) &&
        (std::islower(static_cast<unsigned char>(s[i - 1])) ||
         (i + 1 < s.size() && std::islower(static_cast<unsigned char>(s[i + 1])) && cur.size() == 1))) {
      out.push_back(cur);
      cur.clear();
    }
    cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (!cur.empty()) out.push_back(cur);
  // "lfront" / "rback" (GPG's Lfront after lower-casing): side letter + facing.
  std::vector<std::string> split;
  for (const std::string& t : out) {
    if (t.size() > 1 && (t[0] == 'l' || t[0] == 'r') &&
        (t.substr(1) == "front" || t.substr(1) == "back" || t.substr(1) == "f" || t.substr(1) == "b")) {
      split.push_back(t.substr(0, 1));
      split.push_back(t.substr(1));
    } else {
      split.push_back(t);
    }
  }
  return split;
}

bool has_prefix(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

// Placement rules (metres, the source frame's reference body): a piece placed
// wholly beyond this distance from the centre plane, above the waist, is a
// sleeve (torso pieces reach the centre or stop at the side seam, about 0.17
// m out on either reference body); a centred strip lower than this is a band.
constexpr double kSleeveInner = 0.18;
constexpr double kBandHeight = 0.08;

const char* part_token(AliasPart p) {
  switch (p) {
    case AliasPart::sleeve:
      return "sleeve";
    case AliasPart::skirt:
      return "skirt";
    case AliasPart::leg:
      return "leg";
    case AliasPart::waistband:
      return "waistband";
    case AliasPart::collar:
      return "collar";
    case AliasPart::hood:
      return "hood";
    case AliasPart::cuff:
      return "cuff";
    default:
      return "";
  }
}

}  // namespace

std::string alias_name(const AliasInfo& a) {
  if (a.part == AliasPart::unknown) return "";
  std::vector<std::string> t;
  if (a.side == AliasSide::left) t.push_back("left");
  if (a.side == AliasSide::right) t.push_back("right");
  if (a.part != AliasPart::torso) t.push_back(part_token(a.part));
  if (a.facing == AliasFacing::front) t.push_back("front");
  if (a.facing == AliasFacing::back) t.push_back("back");
  if (t.empty()) return "";  // a torso piece needs a side or a facing
  std::string s = t[0];
  for (std::size_t i = 1; i < t.size(); ++i) s += "_" + t[i];
  return s;
}

const std::vector<std::string>& known_aliases() {
  static const std::vector<std::string> list = [] {
    std::vector<std::string> l;
    const AliasPart parts[] = {AliasPart::torso,     AliasPart::sleeve, AliasPart::skirt, AliasPart::leg,
                               AliasPart::waistband, AliasPart::collar, AliasPart::hood,  AliasPart::cuff};
    for (AliasPart p : parts)
      for (AliasSide s : {AliasSide::centre, AliasSide::left, AliasSide::right})
        for (AliasFacing f : {AliasFacing::none, AliasFacing::front, AliasFacing::back}) {
          const std::string n = alias_name({p, s, f});
          if (!n.empty() && std::find(l.begin(), l.end(), n) == l.end()) l.push_back(n);
        }
    return l;
  }();
  return list;
}

AliasInfo parse_alias(const std::string& alias) {
  AliasInfo a;
  bool part_given = false;
  for (const std::string& t : tokens_of(alias)) {
    if (t == "left")
      a.side = AliasSide::left;
    else if (t == "right")
      a.side = AliasSide::right;
    else if (t == "front")
      a.facing = AliasFacing::front;
    else if (t == "back")
      a.facing = AliasFacing::back;
    else {
      for (AliasPart p : {AliasPart::sleeve, AliasPart::skirt, AliasPart::leg, AliasPart::waistband,
                          AliasPart::collar, AliasPart::hood, AliasPart::cuff})
        if (t == part_token(p)) {
          a.part = p;
          part_given = true;
        }
      if (!part_given) return {};
    }
  }
  if (!part_given) {
    if (a.side == AliasSide::centre && a.facing == AliasFacing::none) return {};
    a.part = AliasPart::torso;
  }
  return a;
}

namespace {

// What the name says of a panel's part, side and facing, then what its
// placement in `frame` says of what the name leaves open; part unknown when
// neither tells (side and facing may still be known).
AliasInfo inferred_info(const Panel& panel, SourceFrame frame) {
  AliasInfo a;
  bool side_known = false, facing_known = false;
  for (const std::string& t : tokens_of(panel.name)) {
    // Part words (substring matches cover ftorso, btorso, sleeves, pants, ...).
    if (t.find("sleeve") != std::string::npos)
      a.part = AliasPart::sleeve;
    else if (t.find("cuff") != std::string::npos)
      a.part = AliasPart::cuff;
    else if (t.find("hood") != std::string::npos)
      a.part = AliasPart::hood;
    else if (t.find("collar") != std::string::npos || t == "lapel")
      a.part = AliasPart::collar;
    else if (t == "wb" || t.find("waistband") != std::string::npos || t == "belt")
      a.part = AliasPart::waistband;
    else if (t.find("skirt") != std::string::npos)
      a.part = AliasPart::skirt;
    else if (has_prefix(t, "pant") || t == "leg" || t == "legs" || has_prefix(t, "trouser") || t == "shorts")
      a.part = AliasPart::leg;
    else if (t.find("torso") != std::string::npos || t == "bodice" || t == "top" || t == "shirt")
      if (a.part == AliasPart::unknown) a.part = AliasPart::torso;
    // Facing: front / back words, and ftorso / btorso.
    if (t == "front" || t == "f" || t == "ftorso" || t == "fr") {
      a.facing = AliasFacing::front;
      facing_known = true;
    } else if (t == "back" || t == "b" || t == "btorso" || t == "bk") {
      a.facing = AliasFacing::back;
      facing_known = true;
    }
    if (t == "left" || t == "l" || t == "lt") {
      a.side = AliasSide::left;
      side_known = true;
    } else if (t == "right" || t == "r" || t == "rt") {
      a.side = AliasSide::right;
      side_known = true;
    }
  }
  if (panel.has_placement && !panel.vertices.empty()) {
    // What the name leaves open, read from the placement.
    Vec3 c{};
    double top = -1e30, bottom = 1e30, xmin = 1e30, xmax = -1e30;
    for (const Vec2& v : panel.vertices) {
      const Vec3 p = panel.to_3d(v);
      c += p;
      top = std::max(top, p.y);
      bottom = std::min(bottom, p.y);
      xmin = std::min(xmin, p.x);
      xmax = std::max(xmax, p.x);
    }
    c /= static_cast<double>(panel.vertices.size());
    double area = 0;
    try {
      area = panel_signed_area(panel);
    } catch (...) {
    }
    const Vec3 n = panel.rotation() * Vec3{0, 0, area >= 0 ? 1.0 : -1.0};
    if (!facing_known && std::abs(n.z) > 0.5) a.facing = n.z > 0 ? AliasFacing::front : AliasFacing::back;
    if (!side_known) {
      const double w = xmax - xmin;
      if (c.x > 0.2 * w && xmin > -0.05)
        a.side = AliasSide::left;
      else if (c.x < -0.2 * w && xmax < 0.05)
        a.side = AliasSide::right;
    }
    if (a.part == AliasPart::unknown && frame != SourceFrame::none) {
      // Heights of the reference body, metres above its floor.
      const double floor = frame == SourceFrame::gpg ? -1.121 : 0.0;
      const double waist = 1.05, crotch = 0.80, shoulder = 1.42;
      const double t = top - floor, b = bottom - floor;
      const double height = top - bottom, width = xmax - xmin, mid = 0.5 * (t + b);
      // Nearest approach to the body's centre plane: 0 for a piece across it.
      const double inner = xmin > 0 ? xmin : xmax < 0 ? -xmax : 0.0;
      if (b > shoulder - 0.05 && t > shoulder + 0.15)
        a.part = AliasPart::hood;
      else if (inner > kSleeveInner && mid > waist)
        a.part = AliasPart::sleeve;
      else if (height < kBandHeight && width > 3 * height && std::abs(c.x) < 0.1 && mid > crotch &&
               mid < shoulder - 0.2)
        a.part = AliasPart::waistband;
      else if (t < waist + 0.12 && b < crotch - 0.05)
        a.part = a.side == AliasSide::centre ? AliasPart::skirt : AliasPart::leg;
      else if (t > shoulder - 0.2 && std::abs(c.x) < 0.3 && b < shoulder)
        a.part = AliasPart::torso;
    }
  }
  // A side or facing word alone ("Lfront", "back") names a torso piece.
  if (a.part == AliasPart::unknown && (side_known || facing_known)) a.part = AliasPart::torso;
  if (a.part == AliasPart::leg && a.side == AliasSide::centre) a.part = AliasPart::skirt;
  return a;
}

// Placed x of the middle of a panel edge's chord.
double placed_mid_x(const Panel& p, int e) {
  const PanelEdge& edge = p.edges[static_cast<std::size_t>(e)];
  return 0.5 * (p.to_3d(p.vertices[static_cast<std::size_t>(edge.start)]).x +
                p.to_3d(p.vertices[static_cast<std::size_t>(edge.end)]).x);
}

// A panel sewn into a tube round a leg: a seam to itself (a folded leg), or
// two seams to one other panel of its side on opposite sides of it (the out-
// and inseam: their edges' placed x apart by at least half the panel's placed
// width). A skirt panel meets a neighbour of its side along one side only (a
// godet sewn into a slit meets a panel across the centre on both).
bool sewn_into_a_tube(const Pattern& pat, const std::vector<AliasInfo>& infos, int panel, AliasSide side) {
  const Panel& p = pat.panels[static_cast<std::size_t>(panel)];
  double xmin = 1e30, xmax = -1e30;
  for (const Vec2& v : p.vertices) {
    xmin = std::min(xmin, p.to_3d(v).x);
    xmax = std::max(xmax, p.to_3d(v).x);
  }
  for (std::size_t other = 0; other < pat.panels.size(); ++other) {
    if (static_cast<int>(other) != panel && infos[other].side != side) continue;
    double lo = 1e30, hi = -1e30;
    for (const Stitch& st : pat.stitches) {
      for (const auto& [mine, theirs] : {std::pair{st.a, st.b}, std::pair{st.b, st.a}}) {
        if (mine.panel != panel || theirs.panel != static_cast<int>(other)) continue;
        if (theirs.panel == panel) return true;
        lo = std::min(lo, placed_mid_x(p, mine.edge));
        hi = std::max(hi, placed_mid_x(p, mine.edge));
      }
    }
    if (hi - lo >= 0.5 * (xmax - xmin)) return true;
  }
  return false;
}

}  // namespace

std::string infer_alias(const Panel& panel, SourceFrame frame) {
  return alias_name(inferred_info(panel, frame));
}

namespace {

// infer_alias(pattern, panel) with every panel's own inference given (the
// rules look at neighbours), so inferring all panels costs O(P) inferences.
std::string inferred_alias_among(const Pattern& pat, const std::vector<AliasInfo>& infos, int panel) {
  const Panel& p = pat.panels.at(static_cast<std::size_t>(panel));
  AliasInfo a = infos[static_cast<std::size_t>(panel)];
  if (!p.has_placement) return alias_name(a);
  if (a.part == AliasPart::leg) {
    // Called a leg by its placement only (the name says no part): a skirt
    // piece unless it is sewn into a tube.
    if (inferred_info(p, SourceFrame::none).part != AliasPart::leg &&
        !sewn_into_a_tube(pat, infos, panel, a.side))
      a.part = AliasPart::skirt;
  } else if (a.part == AliasPart::unknown) {
    // A piece hanging from a waistband is a skirt piece (a flared panel whose
    // placement says nothing of its height).
    for (const Stitch& st : pat.stitches)
      for (const auto& [mine, theirs] : {std::pair{st.a, st.b}, std::pair{st.b, st.a}})
        if (mine.panel == panel && theirs.panel != panel &&
            infos[static_cast<std::size_t>(theirs.panel)].part == AliasPart::waistband)
          a.part = AliasPart::skirt;
  }
  return alias_name(a);
}

std::vector<AliasInfo> own_inferences(const Pattern& pat) {
  std::vector<AliasInfo> infos;
  infos.reserve(pat.panels.size());
  for (const Panel& q : pat.panels) infos.push_back(inferred_info(q, pat.frame));
  return infos;
}

}  // namespace

std::string infer_alias(const Pattern& pat, int panel) {
  if (panel < 0 || static_cast<std::size_t>(panel) >= pat.panels.size())
    throw std::out_of_range("infer_alias: panel index out of range");
  return inferred_alias_among(pat, own_inferences(pat), panel);
}

std::vector<std::string> infer_aliases(const Pattern& pat) {
  const std::vector<AliasInfo> infos = own_inferences(pat);
  std::vector<std::string> aliases;
  aliases.reserve(pat.panels.size());
  for (std::size_t i = 0; i < pat.panels.size(); ++i)
    aliases.push_back(inferred_alias_among(pat, infos, static_cast<int>(i)));
  return aliases;
}

std::uint32_t alias_body_regions(const std::string& alias) {
  namespace br = body_region;
  const AliasInfo a = parse_alias(alias);
  // Part bits only: a body face is allowed when its part bit is in the mask
  // (the side and facing bits of the faces then play no part; see region_allows).
  switch (a.part) {
    // A torso piece ends where its pattern says, and on a short body or for
    // a long top that is below the crotch, on the thighs: the leg faces
    // begin at the body's crotch landmark, not where the pattern's hem does.
    // Without them a hem hanging there sank through the thighs unanswered
    // (docs/CLOTH.md "A torso piece's hem on the thighs").
    case AliasPart::torso:
      return br::upper | br::lower | br::left_arm | br::right_arm | br::left_leg | br::right_leg;
    case AliasPart::sleeve:
    case AliasPart::cuff:
      if (a.side == AliasSide::left) return br::upper | br::left_arm;
      if (a.side == AliasSide::right) return br::upper | br::right_arm;
      return br::upper | br::left_arm | br::right_arm;
    // Lower-body pieces meet everything below the chest, the arms included
    // (in an A-pose the hands hang beside the hips). Restricting them to the
    // lower part and legs let a flared skirt fall through the hips, where the
    // waist landmark splits the faces into upper and lower.
    case AliasPart::skirt:
    case AliasPart::leg:
    case AliasPart::waistband:
      return br::upper | br::lower | br::left_leg | br::right_leg | br::left_arm | br::right_arm;
    case AliasPart::collar:
    case AliasPart::hood:
      return br::upper | br::head;
    default:
      return br::all;
  }
}

}  // namespace drape

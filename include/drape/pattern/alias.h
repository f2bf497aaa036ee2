#pragma once
// Standard panel aliases (docs/METHODS.md "Patterns and placement", step 15): an alias says which part of the
// body a panel covers, so it decides the panel's initial position and the body regions it may touch
// (docs/METHODS.md "Patterns and placement", step 16).
//
// An alias is a string of tokens joined by '_': an optional side (left,
// right), a part (none for torso pieces, sleeve, skirt, leg, waistband,
// collar, hood, cuff, pocket) and an optional facing (front, back), e.g.
// "front", "left_back", "left_sleeve_front", "skirt_back", "right_leg_front",
// "waistband_front", "collar", "hood". See known_aliases().

#include <cstdint>
#include <string>
#include <vector>

#include "drape/pattern/pattern.h"

namespace drape {

enum class AliasPart : std::uint8_t { unknown, torso, sleeve, skirt, leg, waistband, collar, hood, cuff };
enum class AliasSide : std::uint8_t { centre, left, right };
enum class AliasFacing : std::uint8_t { none, front, back };

struct AliasInfo {
  AliasPart part = AliasPart::unknown;
  AliasSide side = AliasSide::centre;
  AliasFacing facing = AliasFacing::none;
};

/// The documented list of aliases (every combination this module knows).
const std::vector<std::string>& known_aliases();

/// Parses an alias string; part = unknown when it is not a known alias.
AliasInfo parse_alias(const std::string& alias);
/// Canonical string of an alias (inverse of parse_alias); "" for unknown.
std::string alias_name(const AliasInfo& info);

/// Infers a panel's alias from its name (e.g. left_ftorso -> left_front,
/// right_btorso -> right_back, skirt_front, wb_back -> waistband_back,
/// left_sleeve_f -> left_sleeve_front, pant_f_l -> left_leg_front, hood) and,
/// for what the name does not say, from its placement in `frame`: side from
/// the placed centre's x, facing from the outward normal, part from height.
/// Returns "" when nothing can be inferred.
std::string infer_alias(const Panel& panel, SourceFrame frame);

/// Infers the alias of panel `panel` of `pattern` as above, then tells a leg
/// from a skirt panel by its seams where only the placement called it a leg
/// (a skirt cut in halves is placed like trouser legs): it stays a leg when it
/// is sewn into a tube (to itself, or to one other panel by two seams on
/// opposite sides of it: out- and inseam), else it is a skirt panel of that
/// side. `panel` indexes pattern.panels.
std::string infer_alias(const Pattern& pattern, int panel);

/// infer_alias(pattern, i) for every panel i, in panel order, each panel's own
/// inference done once.
std::vector<std::string> infer_aliases(const Pattern& pattern);

/// Body regions (body_region part bits of geometry/garment_mesh.h: upper,
/// lower, head, arms, legs) a panel with this alias may touch, e.g. a left
/// sleeve: upper | left_arm. body_region::all for unknown aliases.
std::uint32_t alias_body_regions(const std::string& alias);

}  // namespace drape

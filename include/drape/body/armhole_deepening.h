#pragma once
// Deepening a pattern's armholes (issue 15), as a pattern maker drops an
// armhole for a larger arm: the underarm corner of every torso panel round
// an armhole (garment_fit.h armhole_loops) moves down along the panel's up
// direction, shortening the side seam it tops and lengthening the armhole
// edge that runs down to it. The two sides of a side seam move alike, so
// the seam keeps its length ratio; sleeves sewn to the deepened armholes
// follow as they follow a widened one (pattern_grading.h: stretched along
// their cap's chord). Nothing else moves: the shoulders, neckline, bust and
// hem stay where they were.
//
// The two edges at a corner keep their shape under the displacement that is
// the corner's at the corner and zero at their other ends, linear in the
// Bezier parameter (exact for lines, quadratics and cubics; an arc is first
// made the cubic with its end tangents).

#include <vector>

#include "drape/body/pattern_grading.h"
#include "drape/landmarks/body_frame.h"
#include "drape/pattern/pattern.h"

namespace drape {

/// Lowers the underarm corners of `pattern`'s armholes by `drop` metres of
/// height (each panel's up direction from `panel_transforms`, its placement
/// as in grade_pattern), at most 70 % of the side edge below the corner.
/// Armholes are found on the pattern meshed at 2 cm and placed rigidly by
/// `panel_transforms` (`frame`: the body's centre line, torso width, chest).
/// Returns the result as grade_pattern does (graded false when no armhole
/// was found or drop <= 0; levels empty); a corner whose side edge is not
/// sewn to another torso panel is left, with a warning.
/// \throw InvalidInput when the deepened pattern is not valid.
GradingResult deepen_armholes(const Pattern& pattern, const std::vector<RigidTransform>& panel_transforms,
                              const BodyFrame& frame, double drop);

}  // namespace drape

#pragma once
// Grading a pattern to a body (issue 15): where the fit check
// (garment_fit.h) finds the garment's girth at the bust, waist or hip shorter
// than the body's, every panel that goes round the torso is widened
// horizontally so that the girth there becomes the body's girth times
// (1 + ease); where it finds the garment too loose to stay up, the level of
// its opening is narrowed the same way.
//
// The grading field. At each level l the garment reaches, the factor is
//   f_l = body_l * (1 + ease) / garment_l, at least 1 (never shrink unless asked).
// Between two levels the factor F(h) at body height h blends the two by a
// smoothstep of h (so F is C1 and the graded outlines stay G1); below the
// lowest level it keeps the lowest level's factor (a skirt's or a leg's hem
// widens with the hip), above the highest it fades to 1 at the shoulders (the
// neckline and shoulder seams keep their lengths) unless the highest level
// was narrowed (a too-loose opening), which keeps its factor up to the top. F depends on body height
// only, so the two sides of a seam at the same height get the same factor.
// A narrowed opening grades the garment a size down: every lower level looser
// than its target takes the opening's factor, or the factor that brings it to
// its target if that is larger (a flared hip shrinks in proportion, a
// straight one to the body with ease).
//
// Along an edge the field is read at the height of the edge's chord, and an
// edge that runs round the body is scaled as a whole (bulge included) by the
// similarity taking its chord to the graded chord: a circle skirt's waist arc
// bulges in the flat pattern only, and must shrink as the straight waistband
// edge sewn to it does. Edges that run up the body take the map below; the
// two images blend by cos^2 of the chord's angle to the across direction.
//
// The grading map (docs/METHODS.md "M3 Spline tangents under bones", rig/spline_tangents.h). A panel's height
// above the floor is an affine function of its coordinates (its placement before any bending); "up" is that
// function's gradient direction u and "across" v = perp(u). One bone per level lies on the panel's vertical
// centre line (through its centroid, along u) with scale_across = f_l (bone2_transform); a point's weights
// are the smoothstep pair of the two bones whose heights bracket it, so the blend of the bones is exactly
//   x -> c + u (u . (x - c)) + F(h(x)) v (v . (x - c)):
// every horizontal section through the panel is stretched by F about the
// centre line, and the girth, a sum of those sections' lengths, by F.
// The outline becomes a closed Bline2 (one vertex per panel vertex, in and out
// tangents from its two edges: lines and quadratics raised to cubics, arcs
// as one cubic each), deformed by deform_bline with proposal 2 tangents
// (T' = J T, the same J for a vertex's in and out tangent: G1 kept where the
// outline was smooth). Deformed lines whose tangents stay along the chord
// stay lines; arcs under the identity stay arcs; every other edge becomes a
// cubic with proposal 2's tangent directions and its two handle lengths
// fitted (least squares) to the exact image of the original edge.
//
// Panels that do not go round the torso (sleeves, collars, hoods, cuffs) are
// not graded by the field; those sewn to a graded panel (a sleeve cap to its
// armhole) follow it: stretched uniformly along the chord of their longest
// such edge, by the factor that restores those seams' length ratios
// together. Panels sewn only to those are not followed.
// GradingResult::seams says how much every stitch's length ratio changed.
//
// Grading to a measured body (fit check, grading, corrections, guards):
// body_grading.h.

#include <optional>
#include <string>
#include <vector>

#include "drape/body/body_measurements.h"
#include "drape/body/garment_fit.h"
#include "drape/core/mat3.h"
#include "drape/pattern/pattern.h"

namespace drape {

struct GradingOptions {
  /// Wearing ease: the graded girth is body * (1 + ease) at every level that
  /// was tighter than that. 0.04 = 4 cm on a 1 m hip, the usual minimum
  /// ease of a woven skirt or trousers at the hip.
  double ease = 0.04;
  /// Also narrow levels looser than body * (1 + ease) (off: a garment that
  /// already fits is never made smaller).
  bool shrink = false;
};

/// One level of the grading field.
struct GradeLevel {
  std::string name;    ///< "bust", "waist", "hip"; "armhole" (deepened, not a level of the field)
  double height = 0;   ///< above the floor, metres
  double body = 0;     ///< the body's girth there, metres
  double garment = 0;  ///< the garment's girth there before grading, metres
  /// body * (1 + ease), metres (armhole: body, the fit check's need, which holds its ease)
  double target = 0;
  double factor = 1;  ///< horizontal scale applied there (armhole: 1)
  /// Armhole only: how far its underarm corners are lowered along their
  /// panels' up direction, metres (armhole_deepening.h).
  double drop = 0;
  /// The level narrowed because the garment was too loose to stay up
  /// (FitReport::opening): its factor is below 1 whatever `shrink` says.
  bool narrowed = false;
  /// target / garment exceeded kMaxGradingFactor: not graded (factor 1).
  bool out_of_range = false;
  /// The garment passes this level but its section there does not go round
  /// the body (FitReport::unread): not graded (factor 1), held there by the
  /// field between the levels graded below and above it.
  bool unread = false;
};

/// A stitch's two edge lengths before and after grading.
struct SeamLengthChange {
  int stitch = 0;
  double before_a = 0, before_b = 0, after_a = 0, after_b = 0;  ///< metres
  /// |(after_a / after_b) / (before_a / before_b) - 1|: how much grading
  /// changed the ratio of the sides' lengths (0 = they still match as before).
  double mismatch() const;
};

struct GradingResult {
  Pattern pattern;  ///< the graded pattern (validated: closed, simple outlines)
  /// The pattern before grading with the edges grading split (split_edge:
  /// same shape, the stitch at a split edge made two): `pattern`'s panels,
  /// edges and stitches correspond to its one to one, and `seams` compares them.
  Pattern source;
  std::vector<GradeLevel> levels;       ///< every level the garment reaches, low to high
  bool graded = false;                  ///< some factor differs from 1
  std::vector<int> graded_panels;       ///< indices of the panels that changed
  std::vector<SeamLengthChange> seams;  ///< every stitch
  double max_seam_mismatch = 0;         ///< the largest SeamLengthChange::mismatch()
  /// The largest distance between a graded edge and the exact image of the
  /// original edge under the grading map (sampled), metres.
  double max_curve_deviation = 0;
  std::vector<std::string> warnings;

  /// The result that says "not graded": `pattern` and `source` are `pattern`
  /// itself, every level's factor is 1 (out_of_range and narrowed marks
  /// kept), no panel changed, every stitch compared with itself. Used
  /// wherever grading leaves a pattern as it is (nothing to grade, every
  /// level out of range, a grading undone).
  static GradingResult ungraded(const Pattern& pattern, std::vector<GradeLevel> levels);
  /// Fills `seams` and `max_seam_mismatch` from the stitches' lengths in
  /// `source` and `pattern`, and appends a "grading: stitch ..." warning for
  /// each stitch past kGradingSeamTolerance.
  void compare_seams();
};

/// Seam mismatch above which grading warns (the sewing closes a few percent
/// by stretching one side; more shows as gathers or a pulled seam). Measured:
/// 0.2 % on trousers graded by 1.27 at the hip, 2.4 % at a shirt's sleeve
/// caps graded by 1.11 at the bust (a sleeve follows two armhole edges with
/// one stretch).
constexpr double kGradingSeamTolerance = 0.03;

/// The largest factor grading applies at a level, corrections included. A
/// garment more than this much smaller than the body at a level is not that
/// body's size there (or its section there missed part of it: a tier's hem
/// cut along its length): grading by the factor field would distort the
/// pattern far beyond a size step, so that level is left as it is and the
/// fit check's finding stands.
constexpr double kMaxGradingFactor = 2.5;

/// The most an armhole's underarm corner is lowered (GradeLevel::drop),
/// metres: a size step lowers it by about a centimetre; GPG's 37.5 cm
/// armholes on the Godot man's 37 cm arms take about 8 cm.
constexpr double kMaxArmholeDrop = 0.15;

/// The girth a too-loose garment's opening, narrowed by grading, must still
/// reach to close round the body: the larger of the body's waist (its
/// narrowest torso girth) and the body's girth where the opening ring sits
/// (OpeningFit::body_at_ring), times (1 + ease); 0 when there is no opening,
/// no body girth for it, or that girth would not stay under the one that
/// holds the garment up (OpeningFit::body): nothing then both closes and stays up.
double narrowed_opening_need(const FitReport& fit, double ease);

/// The grading factors for a fit report: one per level it holds, low to high.
/// A garment too loose to stay up (fit.opening->too_loose) is narrowed at the
/// level nearest its opening ring, to body * (1 + ease) there but no wider
/// than the body girth that must hold it (FitReport::opening body): the
/// grader's answer to a waist wider than the hip. The levels below it looser
/// than their targets then take factor max(opening's, target / garment).
/// A level whose factor would exceed kMaxGradingFactor keeps factor 1 and is
/// marked out_of_range. An unread level (FitReport::unread) between the
/// lowest and the highest level read joins them with factor 1, marked
/// unread: without it the field would blend across it from the levels
/// either side (a strapless dress's waist, unread, widened between its hip
/// and bust, and the dress slid off the short heavy man). The armhole is not
/// among them (armhole_level).
std::vector<GradeLevel> grading_levels(const FitReport& fit, const GradingOptions& options = {});

/// The armhole level when the fit check found the armhole too small: drop =
/// half the shortfall (its front and back sides each grow by about the
/// drop; at most kMaxArmholeDrop), the first guess grade_with corrects by
/// measuring (deepen_armholes does the deepening; grade_pattern ignores the level).
std::optional<GradeLevel> armhole_level(const FitReport& fit);

/// Grades `pattern` by `levels` (grading_levels). `panel_transforms[p]` maps
/// panel p's coordinates (x, y, 0) to body space (PlacementResult::
/// panel_transforms, metres); `frame` is the body's (floor and shoulder heights).
/// With `split_edges`, an edge that runs up the body across a height where
/// the factors peak (a bust graded wider than the waist and the shoulders) is
/// split there first, with its sewn partner (GradingResult::source).
/// \throw InvalidInput when the panel count does not match or the graded
///        pattern is not valid (e.g. a self-intersecting outline).
GradingResult grade_pattern(const Pattern& pattern, const std::vector<RigidTransform>& panel_transforms,
                            const std::vector<GradeLevel>& levels, const BodyFrame& frame,
                            bool split_edges = true);

}  // namespace drape

#pragma once
// The fit check before simulating: does the garment go round the body where
// it has to? At the body's bust, waist and hip heights, the girth the placed
// garment gives (the summed length of the horizontal section through every
// panel that goes round the body: torso, skirt, leg and waistband panels,
// where that section runs from seam to seam: garment_girth_near) is
// compared with the body's torso girth (body_measurements.h). A garment
// shorter than the body by more than the fabric can stretch cannot close its
// seams there; drape says where and by how much instead of leaving the
// simulation to stall.
//
// The other way round: a garment that is not held by the shoulders (skirts,
// trousers, strapless dresses) stays up only where its narrowest ring (its
// waist opening) is smaller than the body somewhere below it (the hip). One
// whose opening is wider than every body girth below it slides off; drape
// says so ("too loose to stay up") instead of leaving the simulation to end
// with the garment round the feet.
//
// Placement preserves panel lengths (flat panels, or the isometric shoulder
// wrap), so the section's length is the pattern's own width at that height.

#include <optional>
#include <string>
#include <vector>

#include "drape/body/body_measurements.h"
#include "drape/landmarks/body_frame.h"
#include "drape/pattern/boundary_loops.h"
#include "drape/pattern/mesher.h"
#include "drape/pattern/pattern.h"

namespace drape {

struct GirthFit {
  /// "bust", "waist", "hip"; "thigh", "upper_arm" (limb levels); "armhole".
  std::string name;
  /// Above the floor, metres (upper_arm: the shoulder's; armhole: its lowest point).
  double height = 0;
  /// The body's girth there (torso, one thigh, one upper arm), metres;
  /// armhole: what it must go round, GarmentFitOptions::armhole_per_upper_arm
  /// times the upper arm.
  double body = 0;
  double garment = 0;    ///< the garment's girth there, metres (0 = the garment does not reach it)
  double shortfall = 0;  ///< body * (1 + ... ) - garment when it is too small, else 0, metres
  bool too_small = false;
};

/// The loose check's finding: the garment's narrowest ring and what holds it.
struct OpeningFit {
  double height = 0;   ///< the ring's height above the floor, metres
  double garment = 0;  ///< the ring's girth, metres
  double body = 0;     ///< the largest body girth at or below the ring (bust, waist, hip), metres
  std::string holds;   ///< the level that body girth is at ("hip", ...)
  /// The body's torso girth at the ring's height (BodyMeasurements::torso_profile),
  /// metres; 0 when not measured there. Grading a too-loose garment narrows
  /// its opening to no less than this and the waist, with the ease.
  double body_at_ring = 0;
  bool too_loose = false;
};

struct FitReport {
  std::vector<GirthFit> girths;  ///< every level the garment reaches
  /// The torso levels the garment goes round as a whole section would read
  /// them (garment_girth_near's rule on garment_girth: not within 1 cm of a
  /// top or hem) but whose section does not go round the body
  /// (garment_girth_near 0): not checked, garment 0. Grading holds them at
  /// factor 1 between levels it grades (grading_levels).
  std::vector<GirthFit> unread;
  /// The opening ring, for garments the shoulders do not hold (absent for tops).
  std::optional<OpeningFit> opening;
  bool fits = true;  ///< no level too small and not too loose
  /// One line per level that is too small, e.g. "waist: garment 60.0 cm on a
  /// 74.2 cm body (14.2 cm short)", and one starting "too loose to stay up"
  /// when the garment is too loose.
  std::vector<std::string> problems;
};

struct GarmentFitOptions {
  /// How much longer than the garment the body may be at a level before the
  /// garment is called too small: the stretch the fabric gives without
  /// strain the user would see (woven cloth a few percent, knits far more).
  double allowed_stretch = 0.02;
  /// How much wider than the body below it the opening may be before the
  /// garment is called too loose. 0: in the drapes measured (docs/SWEEP.md,
  /// issue 16 rows) every skirt whose opening was at or above the hip slid
  /// off, down to 0.8 % over it.
  double allowed_looseness = 0.0;
  /// The armhole a top needs, in upper-arm girths. An armhole goes round the
  /// arm's root, where arm and shoulder join, not round the upper arm, so it
  /// is drafted well over the upper arm (a shirt's roughly 1.4 times).
  /// Chosen on the shared rows (docs/BODY.md "Armhole"): GPG's 37.5 cm
  /// armholes close on upper arms of 25-29 cm, stay open under the Godot
  /// man's 37.3 cm arm, and close there deepened to 1.35 times it; at 1.4
  /// the T-pose body's dresses, 5 % short, were deepened by 1 cm and two
  /// stalled 4 mm open at the armpit.
  double armhole_per_upper_arm = 1.35;
};

/// True for the panels that go round the torso (torso, skirt, leg and
/// waistband aliases): the ones whose sections make up the garment's girth.
bool goes_round_torso(const Panel& panel);

/// The garment's girth at height y (world metres): the summed length of the
/// section of every triangle of `placed` whose panel goes round the body.
/// `placed` is the mesh after place_on_body (metres, canonical body frame).
double garment_girth(const Pattern& pattern, const PatternMesh& placed, double y);

/// The garment's girth at a body level y, read only where the garment goes
/// round the body there: the section at y of the panels that go round the
/// torso counts when every piece of it (a chain of triangle cuts) runs
/// between two different edges of its panel, each sewn to an edge that also
/// spans y (or to a sleeve, collar or other panel that does not go round the
/// torso), or free and running up the body (chord more up than across: an
/// open front). Otherwise the section is 0: a piece that leaves through a
/// hem or top edge, through a seam whose other side is placed elsewhere, or
/// twice through one edge cuts a corner or runs along a bulge of a panel
/// (GarmentCode places a circle skirt's tiers flat: a section through a
/// tier's hem sag read 22 cm at a short man's hip). The level's girth is
/// that section at y, or, when y falls in a gap a file's placement leaves
/// between two panels sewn one above the other (less than half the section
/// `reach` above and below), the smaller of those two; 0 when the garment
/// does not go round both `reach` above and below y (y within reach of its
/// top or hem: a tall man's waist level through the curved top edge of a
/// skirt's waistband read as "80 cm short"). 0 = not reached: the fit check
/// skips the level.
double garment_girth_near(const Pattern& pattern, const PatternMesh& placed, double y, double reach = 0.01);

/// The smallest closed ring of the panels that go round the torso at height
/// y (world): panels joined by seams that cross y, their sections summed; a
/// ring counts only when each of its panels is joined across y on two edges.
/// For trousers, the girth of the narrower leg; for a skirt, the whole skirt.
/// 0 when no closed ring crosses y.
double leg_ring_girth(const Pattern& pattern, const PatternMesh& placed, double y);

/// The smallest closed ring of sleeve panels cut by the plane through
/// frame.shoulder[side] + 0.09 H arm_direction[side] perpendicular to the arm
/// (where measure_body takes the upper arm), over both sides; only triangles
/// within 25 cm of that point are cut. 0 when there is none (sleeveless, or
/// sleeves ending above the plane).
double sleeve_ring_girth(const Pattern& pattern, const PatternMesh& placed, const BodyFrame& frame);

/// The girth of the garment's opening: the pattern length of its top free
/// boundary loop (boundary_loops.h: the highest loop, by the mean height of
/// its placed vertices, with an edge on a panel that goes round the torso),
/// when that loop stays above the garment's middle height. Otherwise (a slit
/// or wrap opening from the top down to the hem) the narrowest ring of
/// horizontal sections near its top: for each panel that goes round the
/// torso, the largest girth within 5 cm below that panel's top; the smallest
/// of those over the panels. `height` gets the opening's y (world: the
/// loop's mean height, or the ring's). 0 when no panel goes round the torso.
double opening_girth(const Pattern& pattern, const PatternMesh& placed, double* height = nullptr);

/// The garment's armholes: the free boundary loops of the panels that go
/// round the torso (boundary_loops over them alone: an armhole sewn to a
/// sleeve is free there) lying wholly on one side of the body's centre line,
/// at least 40 % of the torso's half width out, and reaching above the
/// chest. None for skirts, trousers, strapless tops and raglan sleeves
/// (their torso boundary runs in to the neck).
std::vector<BoundaryLoop> armhole_loops(const Pattern& pattern, const PatternMesh& placed,
                                        const BodyFrame& frame);

/// The pattern length of the shorter armhole (armhole_loops); 0 when there
/// is none. `height` gets that loop's lowest point above the floor (the
/// underarm corner), with `frame`'s floor.
double armhole_girth(const Pattern& pattern, const PatternMesh& placed, const BodyFrame& frame,
                     double* height = nullptr);

/// Checks the placed garment against the body at bust, waist and hip
/// (garment_girth_near), and, for a garment whose top lies below the
/// shoulders, its opening against the body below it (too loose) and against
/// the body's waist (too small: reported as the waist, at the opening's
/// height, when the garment does not reach the waist). When `body` holds the limb measures (measure_body with
/// limbs_and_head), also each leg ring at the thigh (leg_ring_girth against
/// body.thigh) and each sleeve ring at the upper arm (sleeve_ring_girth
/// against body.upper_arm): levels "thigh" and "upper_arm".
/// `body` holds the body's girths and their heights (measure_body),
/// taken on the body `placed` was placed on.
FitReport check_fit(const Pattern& pattern, const PatternMesh& placed, const BodyMeasurements& body,
                    const GarmentFitOptions& options = {});

}  // namespace drape

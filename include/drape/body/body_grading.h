#pragma once
// Grading a pattern to a measured body (issue 15): the fit check on the
// garment as placed (garment_fit.h), a too-small armhole deepened first
// (armhole_deepening.h, measured until it meets its need), the grading the
// girths ask for (pattern_grading.h: grading_levels, grade_pattern), then the graded
// garment measured again and corrected until every graded level meets its
// target, and three guards that leave the pattern as it is
// (GradingResult::ungraded) rather than make it worse:
// - a level whose factor would pass kMaxGradingFactor, corrections included,
//   is not graded there (grading_levels marks it out_of_range; a correction
//   stops at the cap: a level whose section does not grow with the grading
//   would otherwise compound pass after pass);
// - a grading whose summed shortfall (FitReport girths) is worse than before
//   by more than kGradingWorse is undone;
// - a grading that leaves a level it widened more than kGradingOvershoot
//   over its target (a section that moved across the garment as it widened,
//   corrected past where it read right) is undone.

#include <functional>
#include <vector>

#include "drape/body/body_measurements.h"
#include "drape/body/garment_fit.h"
#include "drape/body/pattern_grading.h"
#include "drape/bvh/triangle_mesh_bvh.h"

namespace drape {

/// How far grade_to_body lets a graded level's girth miss body * (1 + ease)
/// before it corrects it with another pass (relative).
constexpr double kGradingGirthTolerance = 0.002;

/// How much more short of the body in all (the summed GirthFit::shortfall)
/// a graded garment may be than the original before its grading is undone, metres.
constexpr double kGradingWorse = 0.005;

/// How far over its target (relative) a level grading widened may end before
/// the grading is undone. Gradings that meet their targets end within
/// kGradingGirthTolerance; the corpus' three-tier circle dress on the tall
/// heavy man ended 43 % over (a bust graded 2.32x to 172 cm for a 120 cm
/// target: its section had moved off the bodice's bottom edge as it widened).
constexpr double kGradingOvershoot = 0.10;

/// Meshes `pattern` at `particle_distance`, places it on `body` and checks
/// its fit (the steps `drape dress` takes before simulating).
FitReport fit_on_body(const Pattern& pattern, const TriangleMesh& body, const BodyMeasurements& measurements,
                      double particle_distance, std::vector<RigidTransform>* panel_transforms = nullptr);
/// The same on a tree over the body (body.mesh() is the body), placed by
/// `placement_frame` (null = measurements.frame): the landmarks of the body
/// the garment is placed on when it is not the measured one (a body with its
/// arms raised, same torso).
FitReport fit_on_body(const Pattern& pattern, const TriangleMeshBvh& body,
                      const BodyMeasurements& measurements, double particle_distance,
                      std::vector<RigidTransform>* panel_transforms = nullptr,
                      const BodyFrame* placement_frame = nullptr);

/// What grade_to_body did: the grading and the fit before and after.
struct BodyGrading {
  FitReport before, after;
  GradingResult grading;
};

/// How a pattern fits as placed: its fit report, and each panel's placement
/// in `panel_transforms` (fit_on_body on one body; a test's own measure).
using FitMeasure = std::function<FitReport(const Pattern&, std::vector<RigidTransform>& panel_transforms)>;

/// Grades `pattern` by what `measure` finds, `frame` being the body's (floor
/// and shoulder heights): the levels grading_levels gives, then, where a
/// graded level misses its target by more than kGradingGirthTolerance (one
/// cubic per edge follows a factor that varies along the edge only
/// approximately), again by target / measured, up to two more passes, never
/// past kMaxGradingFactor in all; the levels' factors are then the products.
/// Undone (GradingResult::ungraded, with a warning) when the graded garment
/// is shorter of the body in all by more than kGradingWorse than the
/// original, or a level it widened ends more than kGradingOvershoot over its
/// target. Seams are compared with the original pattern.
BodyGrading grade_with(const Pattern& pattern, const BodyFrame& frame, const FitMeasure& measure,
                       const GradingOptions& options = {});

/// grade_with on `body`: each measure meshes the pattern at
/// `particle_distance` (metres), places it and checks its fit (fit_on_body).
BodyGrading grade_to_body(const Pattern& pattern, const TriangleMesh& body,
                          const BodyMeasurements& measurements, double particle_distance,
                          const GradingOptions& options = {});
/// The same on a tree over the body (body.mesh() is the body), e.g. the one a
/// `drape dress` job shares between its stages; the garment is placed by
/// `placement_frame` as in fit_on_body (the frame `drape dress` places it by,
/// so that grading meets its targets on the garment as that job places it).
BodyGrading grade_to_body(const Pattern& pattern, const TriangleMeshBvh& body,
                          const BodyMeasurements& measurements, double particle_distance,
                          const GradingOptions& options = {}, const BodyFrame* placement_frame = nullptr);

}  // namespace drape

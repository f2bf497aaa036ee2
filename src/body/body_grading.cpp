#include "drape/body/body_grading.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <optional>
#include <sstream>

#include "drape/body/armhole_deepening.h"
#include "drape/pattern/mesher.h"
#include "drape/pattern/placement.h"

namespace drape {

FitReport fit_on_body(const Pattern& pattern, const TriangleMesh& body, const BodyMeasurements& measurements,
                      double particle_distance, std::vector<RigidTransform>* panel_transforms) {
  return fit_on_body(pattern, TriangleMeshBvh(body), measurements, particle_distance, panel_transforms);
}

FitReport fit_on_body(const Pattern& pattern, const TriangleMeshBvh& body,
                      const BodyMeasurements& measurements, double particle_distance,
                      std::vector<RigidTransform>* panel_transforms, const BodyFrame* placement_frame) {
  MeshingOptions mo;
  mo.particle_distance = particle_distance;
  PatternMesh pm = mesh_pattern(pattern, mo);
  const PlacementResult placed =
      place_on_body(pattern, pm, body, placement_frame ? *placement_frame : measurements.frame);
  if (panel_transforms) *panel_transforms = placed.panel_transforms;
  return check_fit(pattern, pm, measurements);
}

namespace {

bool is_stitch_warning(const std::string& w) { return w.rfind("grading: stitch", 0) == 0; }

double summed_shortfall(const FitReport& f) {
  double sum = 0;
  for (const GirthFit& l : f.girths) sum += l.shortfall;
  return sum;
}

// Leaves the pattern as it was, keeping the levels (factor 1) and the
// warnings so far, with `why` added; the fit after is the fit before.
void undo(BodyGrading& g, const Pattern& original, const std::string& why) {
  std::vector<std::string> warnings = g.grading.warnings;
  warnings.push_back(why);
  g.grading = GradingResult::ungraded(original, g.grading.levels);
  std::erase_if(warnings, is_stitch_warning);
  g.grading.warnings.insert(g.grading.warnings.begin(), warnings.begin(), warnings.end());
  g.after = g.before;
}

// Adds to `into` the panels `from` changed and its curves' deviation.
void merge_changes(GradingResult& into, const GradingResult& from) {
  for (int p : from.graded_panels)
    if (std::find(into.graded_panels.begin(), into.graded_panels.end(), p) == into.graded_panels.end())
      into.graded_panels.push_back(p);
  std::sort(into.graded_panels.begin(), into.graded_panels.end());
  into.max_curve_deviation = std::max(into.max_curve_deviation, from.max_curve_deviation);
}

// Phase 1 of grade_with: an armhole the fit check found too small for the
// arm (level "armhole") is deepened (deepen_armholes): first by
// armhole_level's guess, then by secant steps on the drop (the armhole grows
// about linearly with it), each deepening the original pattern and measured,
// three measures at most. Returns the deepened pattern's grading (ungraded
// when no armhole is short); `fit` and `transforms` then become the
// deepened garment's.
GradingResult deepen_armhole(const Pattern& pattern, const BodyFrame& frame, const FitMeasure& measure,
                             FitReport& fit, std::vector<RigidTransform>& transforms) {
  std::optional<GradeLevel> armhole = armhole_level(fit);
  if (!armhole) return GradingResult::ungraded(pattern, {});
  const std::vector<RigidTransform> placed = transforms;
  const double start = armhole->garment;
  GradingResult r;
  FitReport now;
  std::vector<RigidTransform> now_placed;
  for (int pass = 0;; ++pass) {
    r = deepen_armholes(pattern, placed, frame, armhole->drop);
    if (!r.graded) return r;
    now = measure(r.pattern, now_placed);
    double got = 0;
    for (const GirthFit& f : now.girths)
      if (f.name == "armhole") got = f.garment;
    if (!(got > 0) || std::abs(got / armhole->target - 1) <= kGradingGirthTolerance || pass == 2) break;
    const double next =
        got > start + 1e-3 ? armhole->drop * (armhole->target - start) / (got - start) : 2 * armhole->drop;
    armhole->drop = std::clamp(next, 0.0, kMaxArmholeDrop);
  }
  r.levels = {*armhole};
  fit = now;
  transforms = now_placed;
  return r;
}

}  // namespace

BodyGrading grade_with(const Pattern& pattern, const BodyFrame& frame, const FitMeasure& measure,
                       const GradingOptions& options) {
  BodyGrading g;
  std::vector<RigidTransform> transforms;
  g.before = measure(pattern, transforms);
  // The armhole first: the girths are then graded, and measured, on the
  // deepened pattern.
  FitReport fit = g.before;
  const GradingResult deepened = deepen_armhole(pattern, frame, measure, fit, transforms);
  const Pattern& base = deepened.graded ? deepened.pattern : pattern;
  const std::vector<GradeLevel> levels = grading_levels(fit, options);
  std::vector<std::string> out_of_range;
  for (const GradeLevel& l : levels)
    if (l.out_of_range) {
      std::ostringstream os;
      os << std::fixed << std::setprecision(1) << "grading: the garment measures " << 100 * l.garment
         << " cm round the body's " << 100 * l.body << " cm at the " << l.name << ": more than "
         << kMaxGradingFactor << "x, not graded there";
      out_of_range.push_back(os.str());
    }
  g.grading = grade_pattern(base, transforms, levels, frame);
  g.grading.warnings.insert(g.grading.warnings.begin(), out_of_range.begin(), out_of_range.end());
  if (!g.grading.graded && !deepened.graded) {
    g.after = g.before;
    return g;
  }
  if (deepened.graded) {
    g.grading.graded = true;
    g.grading.levels.push_back(deepened.levels.front());
    std::sort(g.grading.levels.begin(), g.grading.levels.end(),
              [](const GradeLevel& a, const GradeLevel& b) { return a.height < b.height; });
    merge_changes(g.grading, deepened);
  }
  // One cubic per edge follows the grading map only approximately where the
  // factor varies along the edge: measure the graded garment again and
  // correct the levels that missed their target by more than kGradingGirthTolerance.
  std::vector<std::string> warnings = g.grading.warnings;
  // What a narrowed opening must go round (grading_levels), 0 = nothing.
  const double opening_need = narrowed_opening_need(g.before, options.ease);
  for (int pass = 0;; ++pass) {
    g.after = measure(g.grading.pattern, transforms);
    std::vector<GradeLevel> correction = g.grading.levels;
    bool needed = false;
    for (std::size_t i = 0; i < correction.size(); ++i) {
      GradeLevel& l = correction[i];
      const double so_far = l.factor;  // the product of the factors applied
      l.factor = 1;
      if (l.out_of_range || l.unread || l.name == "armhole") continue;  // the armhole: deepen_armhole
      // A graded level is brought to its target; one that was not graded is
      // corrected only when its neighbour's grading (a narrowed waist above
      // the hip) left it short of its target.
      const bool graded = l.target > l.garment || options.shrink || l.narrowed;
      for (const GirthFit& f : g.after.girths)
        if (f.name == l.name && f.garment > 0 &&
            (graded ? std::abs(f.garment / l.target - 1) > kGradingGirthTolerance
                    : f.garment < l.target * (1 - kGradingGirthTolerance))) {
          // No correction past kMaxGradingFactor in all (a level whose
          // section does not grow with the grading would compound).
          const double cap = kMaxGradingFactor / so_far;
          l.factor = std::min(l.target / f.garment, std::max(1.0, cap));
          needed = needed || l.factor != 1;
        }
      // The narrowed level widened further while the opening above it is
      // still short of what it must go round (the opening and the level do
      // not scale alike: its ring can read narrower than the level).
      if (l.narrowed && opening_need > 0 && g.after.opening && g.after.opening->garment > 0 &&
          g.after.opening->garment < opening_need * (1 - kGradingGirthTolerance)) {
        l.factor = std::max(l.factor, opening_need / g.after.opening->garment);
        needed = true;
      }
    }
    if (!needed || pass == 2) break;
    // No new splits: `source` must keep corresponding to the pattern.
    const GradingResult c =
        grade_pattern(g.grading.pattern, transforms, correction, frame, /*split_edges=*/false);
    g.grading.pattern = c.pattern;
    for (std::size_t i = 0; i < correction.size(); ++i) g.grading.levels[i].factor *= correction[i].factor;
    merge_changes(g.grading, c);
    for (const std::string& w : c.warnings)
      if (!is_stitch_warning(w)) warnings.push_back(w);
  }
  std::erase_if(warnings, is_stitch_warning);
  g.grading.warnings = warnings;
  // Grading that leaves the garment shorter of the body in all than it was
  // (a level whose section moves off the garment as it widens) is undone:
  // the original pattern, with the fit check's findings, serves the user better.
  if (summed_shortfall(g.after) > summed_shortfall(g.before) + kGradingWorse) {
    std::ostringstream os;
    os << std::fixed << std::setprecision(1) << "grading: the graded garment fell "
       << 100 * summed_shortfall(g.after) << " cm short of the body in all, the original "
       << 100 * summed_shortfall(g.before) << " cm: left ungraded";
    undo(g, pattern, os.str());
    return g;
  }
  // So is one that took a level it widened far past its target.
  for (const GradeLevel& l : g.grading.levels) {
    if (l.out_of_range || l.unread || !(l.factor > 1)) continue;
    for (const GirthFit& f : g.after.girths)
      if (f.name == l.name && f.garment > l.target * (1 + kGradingOvershoot)) {
        std::ostringstream os;
        os << std::fixed << std::setprecision(1) << "grading: the graded garment measures " << 100 * f.garment
           << " cm at the " << l.name << ", more than " << 100 * kGradingOvershoot << " % over its target of "
           << 100 * l.target << " cm: left ungraded";
        undo(g, pattern, os.str());
        return g;
      }
  }
  g.grading.compare_seams();
  // compare_seams compared with the deepened pattern; the deepening's own
  // changes (sleeves following their armholes) are added.
  if (deepened.graded) {
    g.grading.max_seam_mismatch = std::max(g.grading.max_seam_mismatch, deepened.max_seam_mismatch);
    for (const std::string& w : deepened.warnings)
      if (is_stitch_warning(w)) g.grading.warnings.push_back(w + " (deepening the armhole)");
  }
  return g;
}

BodyGrading grade_to_body(const Pattern& pattern, const TriangleMesh& body,
                          const BodyMeasurements& measurements, double particle_distance,
                          const GradingOptions& options) {
  return grade_to_body(pattern, TriangleMeshBvh(body), measurements, particle_distance, options);
}

BodyGrading grade_to_body(const Pattern& pattern, const TriangleMeshBvh& body,
                          const BodyMeasurements& measurements, double particle_distance,
                          const GradingOptions& options, const BodyFrame* placement_frame) {
  const FitMeasure measure = [&](const Pattern& p, std::vector<RigidTransform>& transforms) {
    return fit_on_body(p, body, measurements, particle_distance, &transforms, placement_frame);
  };
  return grade_with(pattern, measurements.frame, measure, options);
}

}  // namespace drape

#pragma once
// Solving for MakeHuman macro values that give a body of asked measures
// (height, bust, waist, hip): a damped Gauss-Newton (Levenberg-Marquardt)
// search over gender, muscle, weight, height and proportions with numeric
// derivatives of the measures (body_measurements.h), values kept in 0..1.

#include <optional>
#include <string>
#include <vector>

#include "drape/body/body_measurements.h"
#include "drape/body/macro_targets.h"
#include "drape/body/morphed_obj.h"

namespace drape {

/// Asked measures, metres; unset ones are free.
struct MeasureGoal {
  std::optional<double> height, bust, waist, hip;
  bool empty() const { return !height && !bust && !waist && !hip; }
};

/// Parses "height=170,bust=90,waist=70,hip=96" (centimetres, any subset, each at most once).
/// \throw InvalidInput naming `option` and the bad part: an unknown name, a
///        missing '=', a value that is not a positive number, a repeated name, nothing given.
MeasureGoal parse_measure_goal(const std::string& text, const std::string& option = "--fit");

struct MacroFitResult {
  MacroValues values;         ///< the solution (age and ethnic shares as started)
  BodyMeasurements achieved;  ///< of the solution's body
  double max_residual = 0;    ///< largest |achieved - asked| over the asked measures, metres
  bool reached = false;       ///< max_residual <= tolerance
  int evaluations = 0;        ///< bodies built and measured
};

/// Measures of the body made from `values` (see measure_body for `limbs_and_head`).
BodyMeasurements measure_macro_body(MacroTargets& targets, const MorphableBody& base,
                                    const MacroValues& values, bool limbs_and_head = true);

/// Fits gender, muscle, weight, height and proportions (age and ethnic shares
/// stay as in `start`) so the measured body lands within `tolerance` (metres)
/// of every asked measure; among several starts (start, then female and male
/// variants) the best is kept. Deterministic.
/// \throw InvalidInput when `goal` is empty or start is invalid.
MacroFitResult fit_macro_values(MacroTargets& targets, const MorphableBody& base, const MeasureGoal& goal,
                                const MacroValues& start = {}, double tolerance = 0.01);

}  // namespace drape

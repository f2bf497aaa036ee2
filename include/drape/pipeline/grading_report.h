#pragma once
// The JSON summary of grading a pattern to a body (`drape pattern grade
// --json`; report.json's fit.graded section has the same fields).

#include <string>

#include "drape/body/body_grading.h"

namespace drape {

/// {"graded", "levels": [{level, height_m, body_m, garment_m, target_m, factor}],
///  "panels", "max_seam_ratio_change", "seams_changed", "max_curve_deviation_m",
///  "fit_before", "fit_after", "warnings"} as JSON text.
std::string grading_report_json(const BodyGrading& grading);

}  // namespace drape

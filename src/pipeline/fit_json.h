#pragma once
// JSON forms of the fit check and the grading, for report.json and
// `drape pattern grade --json` (private to the pipeline).

#include <nlohmann/json.hpp>

#include "drape/body/garment_fit.h"
#include "drape/body/pattern_grading.h"

namespace drape {

/// {"fits", "girths": [{level, height_m, body_m, garment_m, too_small, shortfall_m}],
///  "opening": {height_m, garment_m, body_m, held_by, body_at_ring_m, too_loose} (garments the
///  shoulders do not hold; body_at_ring_m: the body's girth where the opening sits, 0 = not measured)}
inline nlohmann::ordered_json fit_to_json(const FitReport& fit) {
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  for (const GirthFit& g : fit.girths)
    levels.push_back({{"level", g.name},
                      {"height_m", g.height},
                      {"body_m", g.body},
                      {"garment_m", g.garment},
                      {"too_small", g.too_small},
                      {"shortfall_m", g.shortfall}});
  nlohmann::ordered_json j = {{"fits", fit.fits}, {"girths", levels}};
  if (fit.opening)
    j["opening"] = {{"height_m", fit.opening->height},
                    {"garment_m", fit.opening->garment},
                    {"body_m", fit.opening->body},
                    {"held_by", fit.opening->holds},
                    {"body_at_ring_m", fit.opening->body_at_ring},
                    {"too_loose", fit.opening->too_loose}};
  return j;
}

/// What grading did: the factor per level, the panels it changed, the fit
/// before grading, the stitches whose sides' length ratio changed most.
inline nlohmann::ordered_json grading_to_json(const GradingResult& g, const FitReport& before) {
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  for (const GradeLevel& l : g.levels) {
    levels.push_back({{"level", l.name},
                      {"height_m", l.height},
                      {"body_m", l.body},
                      {"garment_m", l.garment},
                      {"target_m", l.target},
                      {"factor", l.factor}});
    if (l.drop > 0) levels.back()["drop_m"] = l.drop;          // the armhole deepened (GradeLevel::drop)
    if (l.out_of_range) levels.back()["out_of_range"] = true;  // beyond kMaxGradingFactor: not graded
    if (l.unread) levels.back()["unread"] = true;  // its section does not go round the body: not graded
  }
  nlohmann::ordered_json panels = nlohmann::ordered_json::array();
  for (int p : g.graded_panels) panels.push_back(g.pattern.panels[static_cast<std::size_t>(p)].name);
  nlohmann::ordered_json seams = nlohmann::ordered_json::array();
  for (const SeamLengthChange& c : g.seams)
    if (c.mismatch() > 1e-3)
      seams.push_back({{"stitch", c.stitch},
                       {"before_m", {c.before_a, c.before_b}},
                       {"after_m", {c.after_a, c.after_b}},
                       {"ratio_change", c.mismatch()}});
  return {{"levels", levels},
          {"panels", panels},
          {"max_seam_ratio_change", g.max_seam_mismatch},
          {"seams_changed", seams},
          {"max_curve_deviation_m", g.max_curve_deviation},
          {"fit_before", fit_to_json(before)},
          {"warnings", g.warnings}};
}

}  // namespace drape

#include "drape/pipeline/grading_report.h"

#include "fit_json.h"

namespace drape {

std::string grading_report_json(const BodyGrading& g) {
  nlohmann::ordered_json j;
  j["graded"] = g.grading.graded;
  const nlohmann::ordered_json details = grading_to_json(g.grading, g.before);
  for (const auto& [k, v] : details.items()) j[k] = v;
  j["fit_after"] = fit_to_json(g.after);
  return j.dump(2);
}

}  // namespace drape

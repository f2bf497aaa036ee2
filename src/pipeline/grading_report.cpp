#include "drape/pipeline/grading_report.h"

#include "fit_json.h"

namespace drape {

std::string grading_report_json(const BodyGrading& g) {
  nlohmann::ordered_json j;
  j["graded"] = g.grading.graded;
  for (auto& [k, v] : grading_to_json(g.grading, g.before).items()) j[k] = v;
  j["fit_after"] = fit_to_json(g.after);
  return j.dump(2);
}

}  // namespace drape

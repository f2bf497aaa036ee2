#pragma once
// Report stage of `drape dress`: report.json's content (inputs with their
// hashes, settings, body frame, seams, rig, fit, the drape's measures,
// warnings). Private to the pipeline (nlohmann stays out of public headers).

#include <nlohmann/json.hpp>
#include <optional>

#include "drape/pipeline/dress_stages.h"

namespace drape {

/// The report of a finished job, without "times_s" and "files" (the job adds
/// them once the outputs are written).
nlohmann::ordered_json dress_report_json(const DressJob& job, const DressInputs& in,
                                         const std::optional<DressRig>& rig, const PreparedGarment& garment,
                                         const DressSimulation& simulation, const DressResult& result);

}  // namespace drape

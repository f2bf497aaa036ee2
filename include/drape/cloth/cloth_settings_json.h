#pragma once
// ClothSettings as JSON text, beside the settings: report.json shows it and a
// checkpoint's fingerprint hashes it, so it holds EVERY field that can change
// a simulation's result (the thread count and the executor are the only ones
// left out: results are the same for any thread count, docs/HARDENING.md).
// tests/cloth/cloth_settings_json_test.cpp fails when a field is added to
// ClothSettings or ClothModelOptions and not here.

#include <string>

#include "drape/cloth/cloth_simulation.h"

namespace drape {

/// One JSON object, keys in a fixed order, lengths in metres (keys say so).
std::string cloth_settings_json(const ClothSettings& settings);

}  // namespace drape

// Fabric JSON (read_fabric_json: parse, base preset, range checks).
#include "drape/cloth/fabric.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return drape::fuzz::run_reader(data, size, ".json", [](const auto& p) { drape::read_fabric_json(p); });
}

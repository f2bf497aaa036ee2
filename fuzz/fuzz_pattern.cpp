// GarmentCode / GPG pattern JSON: load_pattern (parse, validate, aliases), then
// both meshing methods at a coarse particle distance when the work is bounded.
#include "drape/pattern/pattern_io.h"
#include "fuzz_input.h"
#include "pattern_fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return drape::fuzz::run_reader(data, size, ".json",
                                 [](const auto& p) { drape::fuzz::mesh_if_bounded(drape::load_pattern(p)); });
}

// MakeHuman .mhw weights: read_mhw.
#include "drape/rig/makehuman.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return drape::fuzz::run_reader(data, size, ".mhw", [](const auto& p) { drape::read_mhw(p); });
}

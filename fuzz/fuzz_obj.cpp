#include "drape/io/mesh_io.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return drape::fuzz::run_reader(data, size, ".obj", [](const auto& p) { drape::read_obj(p); });
}

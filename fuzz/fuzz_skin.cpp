// glTF skin (read_gltf_skin: skeleton, inverse binds, joints/weights), .glb or .gltf.
#include "drape/rig/gltf_skin.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const bool binary = size >= 4 && data[0] == 'g' && data[1] == 'l' && data[2] == 'T' && data[3] == 'F';
  return drape::fuzz::run_reader(data, size, binary ? ".glb" : ".gltf",
                                 [](const auto& p) { drape::read_gltf_skin(p); });
}

// BVH motion: read_bvh, then the rest pose and the world pose of a few frames
// (first, middle, last), which index the channels the reader accepted.
#include "drape/rig/bvh_motion.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return drape::fuzz::run_reader(data, size, ".bvh", [](const auto& p) {
    const drape::BvhMotion m = drape::read_bvh(p);
    m.rest_positions();
    const std::size_t n = m.frame_count();
    for (std::size_t f : {std::size_t{0}, n / 2, n - 1})
      if (f < n) m.world_pose(f);
  });
}

// SVG pattern + sidecar JSON: the input is "<svg text>\0<sidecar JSON>" (no NUL:
// no sidecar). load_pattern (parse, validate, aliases), then coarse meshing.
#include <algorithm>

#include "drape/pattern/pattern_io.h"
#include "fuzz_input.h"
#include "pattern_fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::uint8_t* nul = std::find(data, data + size, std::uint8_t{0});
  const bool has_sidecar = nul != data + size;
  const auto svg_size = static_cast<std::size_t>(nul - data);
  std::filesystem::path sidecar;
  if (has_sidecar) sidecar = drape::fuzz::write_input(nul + 1, size - svg_size - 1, ".seams.json");
  drape::fuzz::run_reader(data, svg_size, ".svg", [&](const auto& p) {
    drape::PatternLoadOptions o;
    o.sidecar = sidecar;  // empty: "<stem>.seams.json", removed after every run, so none
    drape::fuzz::mesh_if_bounded(drape::load_pattern(p, o));
  });
  if (has_sidecar) std::filesystem::remove(sidecar);
  return 0;
}

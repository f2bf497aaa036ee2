#pragma once
// Where the CLI finds the bundled reference data (data/ of the source tree,
// or $DRAPE_DATA_DIR when set, e.g. for an installed binary).

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace drape::cli {

inline std::string data_dir() {
  if (const char* env = std::getenv("DRAPE_DATA_DIR"); env && *env) return env;
  return DRAPE_DATA_DIR;
}
inline std::string default_body_path() { return data_dir() + "/bodies/makehuman/base.obj"; }
inline std::string default_pattern_path() {
  return data_dir() + "/patterns/garmentcode/shirt_mean_specification.json";
}
/// The bundled MakeHuman skeletons a body is rigged with when no --skeleton
/// is given: default.mhskel first (the arms raised to sew), cmu_mb for CMU-named motions.
inline std::vector<std::filesystem::path> default_skeleton_candidates() {
  return {data_dir() + "/bodies/makehuman/default.mhskel", data_dir() + "/bodies/makehuman/cmu_mb.mhskel"};
}

}  // namespace drape::cli

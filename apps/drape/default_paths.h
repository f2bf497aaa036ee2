#pragma once
// Where the CLI finds the bundled reference data (data/ of the source tree,
// or $DRAPE_DATA_DIR when set, e.g. for an installed binary).

#include <cstdlib>
#include <string>

namespace drape::cli {

inline std::string data_dir() {
  if (const char* env = std::getenv("DRAPE_DATA_DIR"); env && *env) return env;
  return DRAPE_DATA_DIR;
}
inline std::string default_body_path() { return data_dir() + "/bodies/makehuman/base.obj"; }
inline std::string default_pattern_path() {
  return data_dir() + "/patterns/garmentcode/shirt_mean_specification.json";
}

}  // namespace drape::cli

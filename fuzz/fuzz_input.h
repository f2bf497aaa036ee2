#pragma once
// Fuzz targets feed bytes to the real file readers through a temporary file,
// so the path that users hit (open, read, parse, validate) is the one fuzzed.

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "drape/core/exceptions.h"

namespace drape::fuzz {

/// A per-process temporary file `drape_fuzz_<pid><tag>` holding the bytes.
inline std::filesystem::path write_input(const std::uint8_t* data, std::size_t size, const char* tag) {
  const auto p = std::filesystem::temp_directory_path() / ("drape_fuzz_" + std::to_string(::getpid()) + tag);
  std::ofstream(p, std::ios::binary)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return p;
}

/// Runs `read` on the input; drape's typed errors are expected outcomes,
/// anything else (a crash, a sanitizer report, another exception) is a bug.
template <class F>
int run_reader(const std::uint8_t* data, std::size_t size, const char* ext, F&& read) {
  const auto p = write_input(data, size, ext);
  try {
    read(p);
  } catch (const drape::Error&) {
  }
  std::filesystem::remove(p);
  return 0;
}

/// The repository's data/ folder (shared inputs some readers need, e.g. base.obj).
inline std::filesystem::path data_dir() { return std::filesystem::path(DRAPE_SOURCE_DIR) / "data"; }

}  // namespace drape::fuzz

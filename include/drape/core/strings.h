#pragma once
// Small string helpers shared by every module (file-type dispatch, option
// parsing). ASCII only: file extensions and option values are ASCII.

#include <filesystem>
#include <string>
#include <string_view>

namespace drape {

/// `text` with ASCII letters lower-cased.
inline std::string to_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

/// The extension of `path` with its dot, lower-cased: "a/B.GLB" -> ".glb", "a/b" -> "".
inline std::string lower_extension(const std::filesystem::path& path) {
  return to_lower(path.extension().string());
}

}  // namespace drape

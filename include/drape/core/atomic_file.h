#pragma once
// Crash-safe file output: write to a temporary file beside the target, then
// rename it over the target, so a reader never sees a partial result.

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

namespace drape {

/// Writes `path` atomically: `write` fills a stream that goes to a temporary
/// file in the same folder; on success it is flushed and renamed to `path`;
/// on any exception the temporary file is removed and the exception rethrown.
/// \throw IoError when the file cannot be created, written or renamed.
void write_file_atomically(const std::filesystem::path& path,
                           const std::function<void(std::ostream&)>& write);

/// Writes `bytes` to `path` atomically.
/// \throw IoError as above.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

/// Reads a whole file.
/// \throw IoError when it cannot be opened or read.
std::string read_file(const std::filesystem::path& path);

}  // namespace drape

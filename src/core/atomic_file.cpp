#include "drape/core/atomic_file.h"

#include <atomic>
#include <fstream>
#include <sstream>
#include <system_error>

#include <unistd.h>

#include "drape/core/exceptions.h"

namespace drape {

namespace fs = std::filesystem;

void write_file_atomically(const fs::path& path, const std::function<void(std::ostream&)>& write) {
  static std::atomic<unsigned> counter{0};
  fs::path tmp = path;
  tmp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  try {
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      if (!out) throw IoError(path.string() + ": cannot create file");
      write(out);
      out.flush();
      if (!out) throw IoError(path.string() + ": write failed");
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) throw IoError(path.string() + ": cannot rename temporary file: " + ec.message());
  } catch (...) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw;
  }
}

void write_file_atomically(const fs::path& path, std::string_view bytes) {
  write_file_atomically(path, [&](std::ostream& out) {
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  });
}

std::string read_file(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw IoError(path.string() + ": is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(path.string() + ": cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw IoError(path.string() + ": read failed");
  return ss.str();
}

}  // namespace drape

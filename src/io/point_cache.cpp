#include "drape/io/point_cache.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"

namespace drape {

namespace {

static_assert(std::endian::native == std::endian::little, "PC2 is little-endian; add a byte swap here");

template <class T>
void put(std::string& out, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out.append(b, sizeof(T));
}

}  // namespace

void write_pc2(const std::filesystem::path& path, const std::vector<std::vector<Vec3>>& samples,
               double start_frame, double sampling) {
  const std::string where = path.string();
  if (samples.empty() || samples.front().empty())
    throw InvalidInput(where, 0, "point cache: no samples or no points");
  if (!(sampling > 0) || !std::isfinite(start_frame))
    throw InvalidInput(where, 0, "point cache: sampling must be > 0 and the start frame finite");
  const std::size_t points = samples.front().size();
  if (points > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()) ||
      samples.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    throw InvalidInput(where, 0, "point cache: too many points or samples for PC2");
  std::string out;
  out.reserve(32 + samples.size() * points * 12);
  out.append("POINTCACHE2\0", 12);
  put<std::int32_t>(out, 1);
  put<std::int32_t>(out, static_cast<std::int32_t>(points));
  put<float>(out, static_cast<float>(start_frame));
  put<float>(out, static_cast<float>(sampling));
  put<std::int32_t>(out, static_cast<std::int32_t>(samples.size()));
  for (std::size_t s = 0; s < samples.size(); ++s) {
    if (samples[s].size() != points)
      throw InvalidInput(where, 0,
                         "point cache: sample " + std::to_string(s) + " has " +
                             std::to_string(samples[s].size()) + " points, the first has " +
                             std::to_string(points));
    for (const Vec3& p : samples[s]) {
      if (!is_finite(p))
        throw InvalidInput(where, 0,
                           "point cache: sample " + std::to_string(s) + " has a non-finite position");
      for (int a = 0; a < 3; ++a) put<float>(out, static_cast<float>(p[a]));
    }
  }
  write_file_atomically(path, out);
}

}  // namespace drape

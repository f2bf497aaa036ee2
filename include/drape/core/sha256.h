#pragma once
// SHA-256 of a byte string, for recording the inputs of a run in its report.

#include <string>
#include <string_view>

namespace drape {

/// Lower-case hex SHA-256 digest of `bytes` (FIPS 180-4).
std::string sha256_hex(std::string_view bytes);

}  // namespace drape

#pragma once
// An 8-bit RGB raster image and its PNG encoding (through stb, libstb-dev).

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "drape/core/vec.h"

namespace drape {

/// 8-bit RGB colour.
struct Rgb8 {
  std::uint8_t r = 0, g = 0, b = 0;
  constexpr bool operator==(const Rgb8&) const = default;
};

/// Converts a colour with components in [0,1] (clamped) to 8 bits, rounding to nearest.
Rgb8 to_rgb8(const Vec3& c);

/// Row-major RGB image; row 0 is the top row.
struct Image {
  int width = 0;
  int height = 0;
  /// width * height * 3 bytes, R G B per pixel.
  std::vector<std::uint8_t> pixels;

  Image() = default;
  /// A width x height image filled with `fill`.
  Image(int width, int height, Rgb8 fill = {});

  Rgb8 at(int x, int y) const {
    const std::size_t i = 3 * (static_cast<std::size_t>(y) * width + x);
    return {pixels[i], pixels[i + 1], pixels[i + 2]};
  }
  void set(int x, int y, Rgb8 c) {
    const std::size_t i = 3 * (static_cast<std::size_t>(y) * width + x);
    pixels[i] = c.r;
    pixels[i + 1] = c.g;
    pixels[i + 2] = c.b;
  }
  bool contains(int x, int y) const { return x >= 0 && y >= 0 && x < width && y < height; }
  /// Copies `src` into this image with its top-left corner at (x, y), clipped.
  void blit(const Image& src, int x, int y);
};

/// Encodes `image` as PNG bytes.
/// \throw InvalidInput for an empty image; IoError when stb fails.
std::string encode_png(const Image& image);

/// Writes `image` as a PNG file atomically (temporary file + rename).
/// \throw InvalidInput for an empty image; IoError when it cannot be written.
void write_png(const std::filesystem::path& path, const Image& image);

/// Reads a PNG (or any format stb_image reads) as RGB.
/// \throw IoError naming the file when it cannot be read or decoded.
Image read_png(const std::filesystem::path& path);

}  // namespace drape

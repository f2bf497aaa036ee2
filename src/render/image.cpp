#include "drape/render/image.h"

#include <stb/stb_image.h>
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"

namespace drape {

Rgb8 to_rgb8(const Vec3& c) {
  auto q = [](double v) {
    if (!(v > 0)) return std::uint8_t{0};  // also NaN
    return static_cast<std::uint8_t>(std::lround(std::min(v, 1.0) * 255.0));
  };
  return {q(c.x), q(c.y), q(c.z)};
}

Image::Image(int w, int h, Rgb8 fill) : width(w), height(h) {
  if (w < 0 || h < 0) throw InvalidInput("Image: negative size");
  pixels.resize(static_cast<std::size_t>(w) * h * 3);
  for (std::size_t i = 0; i < pixels.size(); i += 3) {
    pixels[i] = fill.r;
    pixels[i + 1] = fill.g;
    pixels[i + 2] = fill.b;
  }
}

void Image::blit(const Image& src, int x0, int y0) {
  for (int y = std::max(0, -y0); y < src.height && y + y0 < height; ++y)
    for (int x = std::max(0, -x0); x < src.width && x + x0 < width; ++x) set(x + x0, y + y0, src.at(x, y));
}

namespace {
void append_bytes(void* context, void* data, int size) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
}
}  // namespace

std::string encode_png(const Image& image) {
  if (image.width <= 0 || image.height <= 0 ||
      image.pixels.size() != static_cast<std::size_t>(image.width) * image.height * 3)
    throw InvalidInput("encode_png: empty or inconsistent image");
  std::string bytes;
  if (!stbi_write_png_to_func(append_bytes, &bytes, image.width, image.height, 3, image.pixels.data(),
                              image.width * 3))
    throw IoError("encode_png: stb could not encode the image");
  return bytes;
}

void write_png(const std::filesystem::path& path, const Image& image) {
  write_file_atomically(path, encode_png(image));
}

Image read_png(const std::filesystem::path& path) {
  int w = 0, h = 0, channels = 0;
  std::unique_ptr<stbi_uc, void (*)(void*)> data(stbi_load(path.c_str(), &w, &h, &channels, 3),
                                                 stbi_image_free);
  if (!data)
    throw IoError(path.string() + ": cannot read image (" +
                  (stbi_failure_reason() ? stbi_failure_reason() : "unknown") + ")");
  Image img;
  img.width = w;
  img.height = h;
  img.pixels.assign(data.get(), data.get() + static_cast<std::size_t>(w) * h * 3);
  return img;
}

}  // namespace drape

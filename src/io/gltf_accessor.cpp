// The one glTF accessor reader (see gltf_accessor.h). tinygltf is a shared
// library here: no TINYGLTF_IMPLEMENTATION.
#include "drape/io/gltf_accessor.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <vector>

#include "drape/core/exceptions.h"

namespace drape {

namespace {

// A component of type T at p, stored little-endian, as a double.
template <class T>
double gltf_component(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return static_cast<double>(v);
}

// A value as the errors show it: 7, 2.5, 2.3e+09, nan.
std::string gltf_value_text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string gltf_type_name(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR:
      return "SCALAR";
    case TINYGLTF_TYPE_VEC2:
      return "VEC2";
    case TINYGLTF_TYPE_VEC3:
      return "VEC3";
    case TINYGLTF_TYPE_VEC4:
      return "VEC4";
    case TINYGLTF_TYPE_MAT2:
      return "MAT2";
    case TINYGLTF_TYPE_MAT3:
      return "MAT3";
    case TINYGLTF_TYPE_MAT4:
      return "MAT4";
    default:
      return "type " + std::to_string(type);
  }
}

bool gltf_component_type_read(int type) {
  switch (type) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
    case TINYGLTF_COMPONENT_TYPE_DOUBLE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
    case TINYGLTF_COMPONENT_TYPE_BYTE:
      return true;
    default:
      return false;
  }
}

}  // namespace

const tinygltf::Accessor& GltfAccessor::find(const tinygltf::Model& model, int index,
                                             const std::string& source, const std::string& what) {
  if (index < 0 || index >= static_cast<int>(model.accessors.size()))
    throw InvalidInput(source, 0,
                       "glTF " + what + " accessor " + std::to_string(index) +
                           " does not exist (the file has " + std::to_string(model.accessors.size()) + ")");
  return model.accessors[index];
}

GltfAccessor::GltfAccessor(const tinygltf::Model& model, int index, const std::string& source,
                           std::string what, int components)
    : source_(source), what_(std::move(what)), index_(index) {
  const tinygltf::Accessor& a = find(model, index, source_, what_);
  auto refuse = [&](const std::string& problem) { throw InvalidInput(source_, 0, name() + " " + problem); };
  if (a.sparse.isSparse) refuse("is sparse (not supported)");
  if (a.bufferView < 0 || a.bufferView >= static_cast<int>(model.bufferViews.size()))
    refuse("has no valid buffer view (" + std::to_string(a.bufferView) + ")");
  const tinygltf::BufferView& view = model.bufferViews[a.bufferView];
  if (view.buffer < 0 || view.buffer >= static_cast<int>(model.buffers.size()))
    refuse("has a buffer view naming a missing buffer (" + std::to_string(view.buffer) + ")");
  const std::vector<unsigned char>& data = model.buffers[view.buffer].data;
  const std::size_t size = data.size();
  if (view.byteOffset > size || view.byteLength > size - view.byteOffset)
    refuse("has a buffer view reaching past the end of its buffer");
  components_ = tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(a.type));
  if (components_ <= 0) refuse("has an unknown element type (" + std::to_string(a.type) + ")");
  if (!gltf_component_type_read(a.componentType))
    refuse("has an unsupported component type (" + std::to_string(a.componentType) + ")");
  if (components > 0 && components_ != components)
    refuse("has " + gltf_type_name(a.type) + " elements (" + std::to_string(components_) + " component" +
           (components_ == 1 ? "" : "s") + " each), not the " + std::to_string(components) + " it needs");
  component_bytes_ = static_cast<std::size_t>(
      tinygltf::GetComponentSizeInBytes(static_cast<std::uint32_t>(a.componentType)));
  const int stride = a.ByteStride(view);  // -1 when the component size does not divide it
  if (stride <= 0) refuse("has a byte stride (" + std::to_string(view.byteStride) + ") it cannot use");
  stride_ = static_cast<std::size_t>(stride);
  count_ = a.count;
  if (count_ == 0) refuse("has no elements");
  // Overflow-safe: a huge claimed count must not wrap the bound below the buffer size.
  const std::size_t element = component_bytes_ * static_cast<std::size_t>(components_);
  const bool fits = a.byteOffset <= size - view.byteOffset &&
                    element <= size - view.byteOffset - a.byteOffset &&
                    (count_ - 1) <= (size - view.byteOffset - a.byteOffset - element) / stride_;
  if (!fits) refuse("reads past the end of its buffer (" + std::to_string(count_) + " elements)");
  base_ = data.data() + view.byteOffset + a.byteOffset;
  component_type_ = a.componentType;
  normalized_ = a.normalized;
}

std::string GltfAccessor::name() const { return "glTF " + what_ + " accessor " + std::to_string(index_); }

double GltfAccessor::get(std::size_t i, int c) const {
  const unsigned char* p = base_ + i * stride_ + static_cast<std::size_t>(c) * component_bytes_;
  switch (component_type_) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return gltf_component<float>(p);
    case TINYGLTF_COMPONENT_TYPE_DOUBLE:
      return gltf_component<double>(p);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
      return gltf_component<std::uint32_t>(p);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      const double v = gltf_component<std::uint16_t>(p);
      return normalized_ ? v / 65535.0 : v;
    }
    case TINYGLTF_COMPONENT_TYPE_SHORT: {
      const double v = gltf_component<std::int16_t>(p);
      return normalized_ ? std::max(v / 32767.0, -1.0) : v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: {
      const double v = gltf_component<std::uint8_t>(p);
      return normalized_ ? v / 255.0 : v;
    }
    default: {  // TINYGLTF_COMPONENT_TYPE_BYTE (the constructor refused the rest)
      const double v = gltf_component<std::int8_t>(p);
      return normalized_ ? std::max(v / 127.0, -1.0) : v;
    }
  }
}

int GltfAccessor::index(std::size_t i, int c, std::size_t limit, const char* of) const {
  const double v = get(i, c);
  if (!(v >= 0 && v < static_cast<double>(limit) && v <= std::numeric_limits<int>::max()) ||
      v != std::floor(v))
    throw InvalidInput(source_, 0,
                       name() + " element " + std::to_string(i) + ": " + gltf_value_text(v) +
                           " is not one of the " + std::to_string(limit) + " " + of + " (an index from 0)");
  return static_cast<int>(v);
}

}  // namespace drape

// GltfAccessor: the one reader of glTF accessors (read_gltf, read_gltf_skin),
// on models built in memory.
#include "drape/io/gltf_accessor.h"

#include <gtest/gtest.h>
#include <tiny_gltf.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "drape/core/exceptions.h"

namespace {

using drape::GltfAccessor;
using drape::InvalidInput;

const std::string kSource = "test.gltf";

// A model with one buffer holding `bytes`, one view over all of it and one
// accessor on that view.
tinygltf::Model accessor_model(const std::vector<unsigned char>& bytes, int component_type, int type,
                               std::size_t count, int byte_stride = 0) {
  tinygltf::Model m;
  m.buffers.resize(1);
  m.buffers[0].data = bytes;
  tinygltf::BufferView view;
  view.buffer = 0;
  view.byteOffset = 0;
  view.byteLength = bytes.size();
  view.byteStride = byte_stride;
  m.bufferViews.push_back(view);
  tinygltf::Accessor a;
  a.bufferView = 0;
  a.componentType = component_type;
  a.type = type;
  a.count = count;
  m.accessors.push_back(a);
  return m;
}

template <class T>
std::vector<unsigned char> bytes_of(const std::vector<T>& values) {
  std::vector<unsigned char> b(values.size() * sizeof(T));
  std::memcpy(b.data(), values.data(), b.size());
  return b;
}

// The error of constructing a reader on accessor 0 ("" when none).
std::string refusal(const tinygltf::Model& m, int components = 0, int index = 0) {
  try {
    const GltfAccessor r(m, index, kSource, "POSITION", components);
    return r.count() > 0 ? "" : "no elements";
  } catch (const InvalidInput& e) {
    return e.what();
  }
}

}  // namespace

TEST(GltfAccessor, ReadsFloatsThroughAByteStride) {
  // Two VEC3 elements interleaved with a fourth float each (stride 16 bytes).
  const auto m = accessor_model(bytes_of<float>({1, 2, 3, 99, 4, 5, 6, 99}), TINYGLTF_COMPONENT_TYPE_FLOAT,
                                TINYGLTF_TYPE_VEC3, 2, 16);
  const GltfAccessor r(m, 0, kSource, "POSITION", 3);
  EXPECT_EQ(r.count(), 2u);
  EXPECT_EQ(r.components(), 3);
  EXPECT_EQ(r.get(0, 2), 3.0);
  EXPECT_EQ(r.get(1, 0), 4.0);
  EXPECT_EQ(r.get(1, 2), 6.0);
}

TEST(GltfAccessor, NormalisedIntegersReadInTheUnitRange) {
  auto m = accessor_model({0, 255, 51, 0}, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_TYPE_VEC4, 1);
  m.accessors[0].normalized = true;
  const GltfAccessor ub(m, 0, kSource, "WEIGHTS_0", 4);
  EXPECT_EQ(ub.get(0, 1), 1.0);
  EXPECT_NEAR(ub.get(0, 2), 0.2, 1e-12);
  m.accessors[0].normalized = false;
  EXPECT_EQ(GltfAccessor(m, 0, kSource, "JOINTS_0", 4).get(0, 1), 255.0);

  auto us = accessor_model(bytes_of<std::uint16_t>({65535, 0}), TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                           TINYGLTF_TYPE_VEC2, 1);
  us.accessors[0].normalized = true;
  EXPECT_EQ(GltfAccessor(us, 0, kSource, "TEXCOORD_0").get(0, 0), 1.0);
  auto ss = accessor_model(bytes_of<std::int16_t>({-32768, 32767}), TINYGLTF_COMPONENT_TYPE_SHORT,
                           TINYGLTF_TYPE_VEC2, 1);
  ss.accessors[0].normalized = true;
  EXPECT_EQ(GltfAccessor(ss, 0, kSource, "TEXCOORD_0").get(0, 0), -1.0);  // clamped, as the spec says
  EXPECT_EQ(GltfAccessor(ss, 0, kSource, "TEXCOORD_0").get(0, 1), 1.0);
  auto sb = accessor_model(bytes_of<std::int8_t>({-128, 127, -5, 0}), TINYGLTF_COMPONENT_TYPE_BYTE,
                           TINYGLTF_TYPE_VEC4, 1);
  EXPECT_EQ(GltfAccessor(sb, 0, kSource, "NORMAL").get(0, 2), -5.0);
  const auto d =
      accessor_model(bytes_of<double>({0.1, -2.5}), TINYGLTF_COMPONENT_TYPE_DOUBLE, TINYGLTF_TYPE_SCALAR, 2);
  EXPECT_EQ(GltfAccessor(d, 0, kSource, "x").get(1, 0), -2.5);
}

TEST(GltfAccessor, RefusesWhatCannotBeReadNamingTheAccessor) {
  const auto good = accessor_model(bytes_of<float>({0, 0, 0, 1, 1, 1}), TINYGLTF_COMPONENT_TYPE_FLOAT,
                                   TINYGLTF_TYPE_VEC3, 2);
  EXPECT_EQ(refusal(good, 3), "");
  auto expect_refused = [](const std::string& error, const std::string& part) {
    EXPECT_NE(error.find(kSource), std::string::npos) << error;
    EXPECT_NE(error.find("glTF POSITION accessor"), std::string::npos) << error;
    EXPECT_NE(error.find(part), std::string::npos) << error;
  };
  expect_refused(refusal(good, 3, 4), "accessor 4 does not exist");
  expect_refused(refusal(good, 3, -1), "accessor -1 does not exist");
  expect_refused(refusal(good, 4), "VEC3 elements (3 components each), not the 4 it needs");
  auto m = good;
  m.accessors[0].bufferView = 3;
  expect_refused(refusal(m), "no valid buffer view");
  m = good;
  m.bufferViews[0].buffer = 1;
  expect_refused(refusal(m), "naming a missing buffer");
  m = good;
  m.bufferViews[0].byteLength = 100;
  expect_refused(refusal(m), "buffer view reaching past the end of its buffer");
  m = good;
  m.accessors[0].type = 77;
  expect_refused(refusal(m), "unknown element type");
  m = good;
  m.accessors[0].componentType = TINYGLTF_COMPONENT_TYPE_INT;  // not a glTF 2.0 accessor type
  expect_refused(refusal(m), "unsupported component type");
  m = good;
  m.bufferViews[0].byteStride = 6;  // not a multiple of 4 (float)
  expect_refused(refusal(m), "byte stride");
  m = good;
  m.accessors[0].count = 0;
  expect_refused(refusal(m), "has no elements");
  m = good;
  m.accessors[0].count = 3;
  expect_refused(refusal(m), "reads past the end of its buffer");
  m = good;
  m.accessors[0].byteOffset = 4;  // the second element's last float would lie past the end
  expect_refused(refusal(m), "reads past the end of its buffer");
  m = good;
  m.accessors[0].count = std::numeric_limits<std::size_t>::max() / 2;  // would wrap a naive bound
  expect_refused(refusal(m), "reads past the end of its buffer");
  m = good;
  m.accessors[0].sparse.isSparse = true;
  expect_refused(refusal(m), "sparse");
}

TEST(GltfAccessor, IndicesMustBeWholeAndInRange) {
  const auto m = accessor_model(bytes_of<float>({2, 3, 2.5f, -1, std::nanf(""), 2.3e9f}),
                                TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_SCALAR, 6);
  const GltfAccessor r(m, 0, kSource, "indices", 1);
  EXPECT_EQ(r.index(0, 0, 3, "vertices"), 2);
  for (std::size_t i = 1; i < 6; ++i) {
    try {
      r.index(i, 0, 3, "vertices");
      ADD_FAILURE() << "element " << i << " accepted";
    } catch (const InvalidInput& e) {
      const std::string error = e.what();
      EXPECT_NE(error.find("glTF indices accessor 0 element " + std::to_string(i)), std::string::npos)
          << error;
      EXPECT_NE(error.find("3 vertices"), std::string::npos) << error;
    }
  }
  // Below the limit but beyond int: refused before the cast.
  EXPECT_THROW(r.index(5, 0, std::size_t{1} << 40, "vertices"), InvalidInput);
}

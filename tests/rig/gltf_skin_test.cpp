#include "drape/rig/gltf_skin.h"

#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "rig_test_data.h"
#include "test_temp_dir.h"

using namespace drape;
using namespace drape::test;
namespace fs = std::filesystem;

TEST(GltfSkin, RiggedBodyRoundTripsWithInverseBindMatrices) {
  const MakeHumanSkeleton& mh = mh_skeleton("cmu_mb");
  RiggedMesh rig{body(), mh.skeleton, makehuman_skin_weights(mh, mh_weights(), body().source_vertex)};
  for (const char* ext : {".glb", ".gltf"}) {
    const fs::path p = drape::test::test_temp_dir() / (std::string("drape_rig_roundtrip") + ext);
    write_gltf_skin(p, rig);
    const RiggedMesh back = read_gltf_skin(p);
    ASSERT_EQ(back.skeleton.size(), rig.skeleton.size());
    for (std::size_t b = 0; b < rig.skeleton.size(); ++b) {
      const Bone& want = rig.skeleton.bones[b];
      const int i = back.skeleton.find(want.name);
      ASSERT_GE(i, 0) << want.name;
      const Bone& got = back.skeleton.bones[i];
      EXPECT_EQ(got.parent < 0 ? "" : back.skeleton.bones[got.parent].name,
                want.parent < 0 ? "" : rig.skeleton.bones[want.parent].name);
      EXPECT_LT(norm(got.head - want.head), 1e-6) << want.name;
      const Mat3 rw = rig.skeleton.rest_rotation(static_cast<int>(b)), rg = back.skeleton.rest_rotation(i);
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(rg(r, c), rw(r, c), 1e-5) << want.name;
    }
    ASSERT_EQ(back.mesh.vertex_count(), body().vertex_count());
    ASSERT_EQ(back.mesh.face_count(), body().face_count());
    ASSERT_EQ(back.weights.size(), body().vertex_count());
    for (std::size_t v = 0; v < body().vertex_count(); v += 37) {
      EXPECT_LT(norm(back.mesh.positions[v] - body().positions[v]), 1e-6);
      const auto& w0 = rig.weights.vertices[v];
      const auto& w1 = back.weights.vertices[v];
      for (int k = 0; k < SkinWeights::kMaxInfluences && w0.bone[k] >= 0; ++k) {
        EXPECT_EQ(back.skeleton.bones[w1.bone[k]].name, rig.skeleton.bones[w0.bone[k]].name);
        EXPECT_NEAR(w1.weight[k], w0.weight[k], 1e-6);
      }
    }
    fs::remove(p);
  }
}

TEST(GltfSkin, MalformedFilesNameTheFileAndProblem) {
  for (const auto& [file, needle] :
       {std::pair{"bad_magic.glb", "invalid glTF"}, std::pair{"no_skin.gltf", "no skin"},
        std::pair{"bad_joint.gltf", "joint node 7"}}) {
    try {
      read_gltf_skin(test_data(file));
      ADD_FAILURE() << file << " did not throw";
    } catch (const InvalidInput& e) {
      EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(write_gltf_skin(drape::test::test_temp_dir() / "drape_empty.glb", RiggedMesh{}), InvalidInput);
}

TEST(GltfSkin, EverySkinnedPrimitiveIsPartOfTheMesh) {
  // The GDQuest mannequin is one skinned mesh of three primitives; the skin's
  // mesh holds them all, with weights for every vertex. The counts come from
  // the file's own JSON chunk, read here with nlohmann.
  const std::string path = data("bodies/gdquest_mannequin/mannequiny-0.3.0.glb");
  const std::string bytes = drape::read_file(path);
  std::uint32_t json_length = 0;
  std::memcpy(&json_length, bytes.data() + 12, 4);
  const auto gltf = nlohmann::json::parse(bytes.substr(20, json_length));
  std::size_t vertices = 0, triangles = 0, primitives = 0;
  for (const auto& node : gltf["nodes"])
    if (node.contains("skin") && node.contains("mesh"))
      for (const auto& p : gltf["meshes"][node["mesh"].get<int>()]["primitives"]) {
        ++primitives;
        vertices += gltf["accessors"][p["attributes"]["POSITION"].get<int>()]["count"].get<std::size_t>();
        triangles += gltf["accessors"][p["indices"].get<int>()]["count"].get<std::size_t>() / 3;
      }
  ASSERT_GT(primitives, 1u);
  const RiggedMesh rm = read_gltf_skin(path);
  EXPECT_EQ(rm.mesh.vertex_count(), vertices);
  EXPECT_EQ(rm.mesh.face_count(), triangles);
  EXPECT_EQ(rm.weights.size(), vertices);
  EXPECT_EQ(rm.weights.unweighted_count(), 0u);
}

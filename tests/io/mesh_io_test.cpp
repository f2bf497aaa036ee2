#include "drape/io/mesh_io.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "drape/core/exceptions.h"
#include "drape/geometry/mesh_adjacency.h"
#include "test_temp_dir.h"

using namespace drape;
namespace fs = std::filesystem;

namespace {
const std::string kBody = std::string(DRAPE_DATA_DIR) + "/bodies/makehuman/base.obj";

fs::path write_temp(const std::string& name, const std::string& text) {
  const fs::path p = drape::test::test_temp_dir() / ("drape_io_" + name);
  std::ofstream(p) << text;
  return p;
}

std::string error_of(const fs::path& p) {
  try {
    read_obj(p);
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(ObjIo, MakeHumanBodyGroupIsClosedDecimetreBody) {
  const LoadedMesh lm = read_obj(kBody, {.group = "body"});
  EXPECT_EQ(lm.file_unit, LengthUnit::decimetre);
  EXPECT_TRUE(lm.unit_detected);
  EXPECT_EQ(lm.mesh.vertex_count(), 13380u);
  EXPECT_EQ(lm.mesh.face_count(), 2u * 13378u);
  // Body vertices are the first 13380 of base.obj: ids survive the group selection.
  EXPECT_EQ(lm.mesh.source_vertex.front(), 0);
  EXPECT_EQ(lm.mesh.source_vertex.back(), 13379);
  const Aabb b = lm.mesh.bounds();
  EXPECT_NEAR(b.min.y, -0.8168, 2e-3);  // floor at y = -8.168 dm
  EXPECT_GT(b.extent().y, 1.5);
  EXPECT_LT(b.extent().y, 1.9);
  EXPECT_TRUE(MeshAdjacency::build(lm.mesh).is_closed());
  EXPECT_GT(lm.mesh.signed_volume(), 0.03);  // outward oriented, ~ 60 litres
  EXPECT_NE(std::find(lm.groups.begin(), lm.groups.end(), "helper-tights"), lm.groups.end());
}

TEST(ObjIo, UnknownGroupNamesTheGroups) {
  try {
    read_obj(kBody, {.group = "nope"});
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("no group named 'nope'"), std::string::npos);
  }
}

TEST(ObjIo, QuadIsTriangulatedAndRoundTrips) {
  const auto p = write_temp("quad.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n");
  const LoadedMesh lm = read_obj(p, {.unit = LengthUnit::metre});
  ASSERT_EQ(lm.mesh.face_count(), 2u);
  EXPECT_NEAR(lm.mesh.area(), 1.0, 1e-12);
  const auto out = drape::test::test_temp_dir() / "drape_io_quad_out.obj";
  write_obj(out, lm.mesh, LengthUnit::centimetre);
  const LoadedMesh back = read_obj(out, {.unit = LengthUnit::centimetre});
  EXPECT_NEAR(back.mesh.area(), 1.0, 1e-9);
}

TEST(ObjIo, BadInputNamesFileAndLine) {
  auto e = error_of(write_temp("oob.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 9\n"));
  EXPECT_NE(e.find("drape_io_oob.obj:4"), std::string::npos) << e;
  EXPECT_NE(e.find("out of range"), std::string::npos) << e;
  e = error_of(write_temp("nan.obj", "v 0 0 0\nv nan 0 0\nv 1 1 0\nf 1 2 3\n"));
  EXPECT_NE(e.find(":2"), std::string::npos) << e;
  EXPECT_NE(e.find("NaN"), std::string::npos) << e;
  e = error_of(write_temp("empty.obj", ""));
  EXPECT_NE(e.find("no faces"), std::string::npos) << e;
  e = error_of(write_temp("garbage.obj", "v 0 0 zz\n"));
  EXPECT_NE(e.find("not a number"), std::string::npos) << e;
  EXPECT_THROW(read_obj("/nonexistent.obj"), IoError);
}

TEST(GltfIo, GlbAndGltfRoundTripInUnits) {
  const LoadedMesh lm = read_obj(kBody, {.group = "body"});
  for (const char* name : {"drape_body.glb", "drape_body.gltf"}) {
    const fs::path p = drape::test::test_temp_dir() / name;
    GltfMeshNode node{.name = "body", .mesh = &lm.mesh};
    write_gltf(p, {node}, LengthUnit::decimetre);
    const LoadedMesh back = read_gltf(p, {.unit = LengthUnit::decimetre});
    ASSERT_EQ(back.mesh.vertex_count(), lm.mesh.vertex_count());
    ASSERT_EQ(back.mesh.face_count(), lm.mesh.face_count());
    for (std::size_t i = 0; i < lm.mesh.vertex_count(); i += 97)
      EXPECT_NEAR(norm(back.mesh.positions[i] - lm.mesh.positions[i]), 0.0, 1e-6);
    EXPECT_EQ(back.mesh.faces[123], lm.mesh.faces[123]);
  }
}

TEST(GltfIo, GarbageIsInvalidInput) {
  const auto p = write_temp("garbage.glb", "glTF\x02\x00\x00\x00garbage");
  EXPECT_THROW(read_gltf(p), InvalidInput);
  const auto q = write_temp("garbage.gltf", "{\"asset\": 5}");
  EXPECT_THROW(read_gltf(q), InvalidInput);
}

TEST(ObjIo, PanelGroupsRoundTripAsOneGroupPerPanel) {
  // Two unit squares side by side, panel 0 on the left, panel 1 on the right;
  // the faces interleave the panels so a group must be reopened.
  GarmentMesh g;
  g.mesh.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {2, 0, 0}, {2, 1, 0}};
  g.panel_of_vertex = {0, 0, 0, 0, 1, 1};
  // A face's panel is its first vertex's: faces 1 and 3 start on panel 1.
  g.mesh.faces = {{0, 1, 2}, {4, 5, 1}, {0, 2, 3}, {5, 2, 1}};
  g.panel_names = {"front panel", "back"};
  const ObjFaceGroups groups = panel_face_groups(g);
  ASSERT_EQ(groups.group_of_face, (std::vector<int>{0, 1, 0, 1}));
  const auto out = drape::test::test_temp_dir() / "drape_io_groups.obj";
  write_obj(out, g.mesh, LengthUnit::metre, false, &groups);
  const LoadedMesh front = read_obj(out, {.group = "front_panel", .unit = LengthUnit::metre});
  const LoadedMesh back = read_obj(out, {.group = "back", .unit = LengthUnit::metre});
  EXPECT_EQ(front.mesh.face_count(), 2u);
  EXPECT_EQ(back.mesh.face_count(), 2u);
  EXPECT_NEAR(front.mesh.area(), 1.0, 1e-12);
  EXPECT_NEAR(back.mesh.area(), 1.0, 1e-12);

  // A face map (faces dropped by a weld) picks the panels of the kept faces.
  const std::vector<int> kept = {3, 0};
  EXPECT_EQ(panel_face_groups(g, &kept).group_of_face, (std::vector<int>{1, 0}));

  // Groups that do not fit the mesh are refused before anything is written.
  fs::remove(out);
  ObjFaceGroups bad = groups;
  bad.group_of_face.pop_back();
  EXPECT_THROW(write_obj(out, g.mesh, LengthUnit::metre, false, &bad), InvalidInput);
  bad = groups;
  bad.group_of_face[0] = 7;
  EXPECT_THROW(write_obj(out, g.mesh, LengthUnit::metre, false, &bad), InvalidInput);
  EXPECT_FALSE(fs::exists(out));
}

// The body loader on bodies as users bring them: without groups, Z-up,
// facing +X or -Z, in centimetres, as glTF with node transforms. The
// independent answer is the transform the test applied itself (or the one the
// data's README states), never what the loader detected elsewhere.

#include "drape/body/body_loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "drape/core/exceptions.h"
#include "drape/io/mesh_io.h"
#include "test_temp_dir.h"

namespace drape {
namespace {

namespace fs = std::filesystem;

const std::string kData = DRAPE_DATA_DIR;

// A fresh folder per test run (two runs on one machine never collide).
fs::path temp_dir() {
  static const fs::path dir = [] {
    std::random_device rd;
    fs::path d = drape::test::test_temp_dir() / ("drape_body_test_" + std::to_string(rd()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

// Writes `m` (metres) as an OBJ in `unit` with no groups, every position first mapped by `r`.
fs::path write_turned(const TriangleMesh& m, const Mat3& r, LengthUnit unit, const std::string& name) {
  const fs::path p = temp_dir() / name;
  TriangleMesh t = m;
  for (Vec3& v : t.positions) v = r * v;
  write_obj(p, t, unit, false);
  return p;
}

Mat3 from_rows(const Vec3& a, const Vec3& b, const Vec3& c) {
  Mat3 r;
  const Vec3 rows[3] = {a, b, c};
  for (int i = 0; i < 3; ++i) {
    r(i, 0) = rows[i].x;
    r(i, 1) = rows[i].y;
    r(i, 2) = rows[i].z;
  }
  return r;
}

double max_distance(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  EXPECT_EQ(a.size(), b.size());
  double d = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) d = std::max(d, norm(a[i] - b[i]));
  return d;
}

const Body& makehuman() {
  static const Body b = load_body(kData + "/bodies/makehuman/base.obj");
  return b;
}

TEST(BodyLoader, MakeHumanIsReadFromItsBodyGroupAndIsAlreadyCanonical) {
  const Body& b = makehuman();
  // data/README.md: group `body` is vertices 0..13379, decimetres, +Y up, facing +Z.
  EXPECT_EQ(b.group, "body");
  EXPECT_EQ(b.mesh.vertex_count(), 13380u);
  EXPECT_EQ(b.file_unit, LengthUnit::decimetre);
  EXPECT_EQ(b.axes, (BodyAxes{{1, 1}, {2, 1}}));
  EXPECT_TRUE(b.axes_detected);
  // Every vertex of the file is kept for rigs (19158 `v` lines, helpers included).
  EXPECT_EQ(b.all_vertices.size(), 19158u);
}

TEST(BodyLoader, BodiesWithoutGroupsAreReadWhole) {
  for (const char* name : {"mean_female.obj", "mean_all_tpose.obj"}) {
    const Body b = load_body(kData + "/bodies/garmentcode/" + name);
    const LoadedMesh raw = read_mesh(kData + "/bodies/garmentcode/" + name);
    EXPECT_EQ(b.group, "") << name;
    EXPECT_EQ(b.mesh.face_count(), raw.mesh.face_count()) << name;
    EXPECT_EQ(b.file_unit, LengthUnit::metre) << name;
    // data/README.md: metres, +Y up, facing +Z, A-pose and T-pose.
    EXPECT_EQ(b.axes, (BodyAxes{{1, 1}, {2, 1}})) << name;
  }
}

TEST(BodyLoader, ANamedGroupThatIsMissingIsAnError) {
  const fs::path p = kData + "/bodies/garmentcode/mean_female.obj";
  EXPECT_THROW(load_body(p, {.group = "body"}), InvalidInput);
}

// The MakeHuman body turned into the conventions of other tools: each must be
// detected as the turn the test applied, and come back to the same canonical mesh.
TEST(BodyLoader, TurnedAndScaledBodiesAreBroughtBackToTheCanonicalFrame) {
  const Body& canonical = makehuman();
  struct Case {
    const char* name;
    Mat3 turn;  // file = turn * canonical
    LengthUnit unit;
    BodyAxes expected;
  };
  const Vec3 X{1, 0, 0}, Y{0, 1, 0}, Z{0, 0, 1};
  const std::vector<Case> cases = {
      // Blender: Z up, facing -Y (canonical y -> z, z -> -y).
      {"zup_minus_y.obj", from_rows(X, -1.0 * Z, Y), LengthUnit::metre, {{2, 1}, {1, -1}}},
      // Y up, facing +X (a quarter turn about y).
      {"facing_x.obj", from_rows(Z, Y, -1.0 * X), LengthUnit::metre, {{1, 1}, {0, 1}}},
      // Y up, facing -Z (a half turn about y), in centimetres.
      {"facing_minus_z_cm.obj", from_rows(-1.0 * X, Y, -1.0 * Z), LengthUnit::centimetre, {{1, 1}, {2, -1}}},
      // Z up, facing +X, in millimetres.
      {"zup_facing_x_mm.obj", from_rows(Z, X, Y), LengthUnit::millimetre, {{2, 1}, {0, 1}}},
  };
  for (const Case& c : cases) {
    const fs::path p = write_turned(canonical.mesh, c.turn, c.unit, c.name);
    const Body b = load_body(p);
    EXPECT_EQ(b.file_unit, c.unit) << c.name;
    EXPECT_EQ(b.axes, c.expected) << c.name << ": detected " << b.axes.describe();
    // OBJ text keeps 6 significant digits or so: within 0.1 mm of the original.
    EXPECT_LT(max_distance(b.mesh.positions, canonical.mesh.positions), 1e-4) << c.name;
    // And back: the canonical mesh turned by to_file() is the file's mesh (in metres).
    const TriangleMesh back = b.in_file_frame(b.mesh);
    TriangleMesh expected = canonical.mesh;
    for (Vec3& v : expected.positions) v = c.turn * v;
    EXPECT_LT(max_distance(back.positions, expected.positions), 1e-4) << c.name;
  }
}

TEST(BodyLoader, GivenAxesOverrideDetection) {
  const Body& canonical = makehuman();
  const Vec3 X{1, 0, 0}, Y{0, 1, 0}, Z{0, 0, 1};
  const fs::path p = write_turned(canonical.mesh, from_rows(X, -1.0 * Z, Y), LengthUnit::metre, "given.obj");
  const Body b = load_body(p, {.up = SignedAxis{2, 1}, .front = SignedAxis{1, -1}});
  EXPECT_FALSE(b.axes_detected);
  EXPECT_LT(max_distance(b.mesh.positions, canonical.mesh.positions), 1e-4);
  // Only up given: front is detected.
  EXPECT_EQ(load_body(p, {.up = SignedAxis{2, 1}}).axes.front, (SignedAxis{1, -1}));
  EXPECT_THROW(load_body(p, {.up = SignedAxis{2, 1}, .front = SignedAxis{2, -1}}), InvalidInput);
}

TEST(BodyLoader, GltfSkinnedMeshIsPlacedByItsJointsAsBlenderImportsIt) {
  // data/README.md: the raw vertices face +X. The node above the mesh and the
  // rig turns them +90 degrees about y and moves them down 1 m, and the inverse
  // bind matrices undo exactly that (every joint's world transform times its
  // inverse bind matrix is the identity). A skinned mesh is placed by its
  // joints, never by its node (glTF 2.0, "Skins"), so the body stands where
  // its raw vertices are: facing +X, between the POSITION accessor's lowest
  // and highest y, -0.99693 and 0.94766 m. Blender 3.4's importer puts it
  // there (the import exported to OBJ has those bounds and faces +X).
  const Body b = load_body(kData + "/bodies/godot_male_base_mesh/male_base_mesh.glb");
  EXPECT_EQ(b.axes, (BodyAxes{{1, 1}, {0, 1}})) << b.axes.describe();
  EXPECT_NEAR(b.mesh.bounds().min.y, -0.99693, 1e-4);
  EXPECT_NEAR(b.mesh.bounds().max.y, 0.94766, 1e-4);
}

TEST(BodyLoader, AMeshThatIsNotAStandingHumanIsRefusedNamingTheFile) {
  // A closed box 0.5 x 0.5 x 0.5 m: no axis is a standing body's.
  TriangleMesh box;
  for (int i = 0; i < 8; ++i)
    box.positions.push_back({(i & 1) * 0.5, ((i >> 1) & 1) * 0.5, ((i >> 2) & 1) * 0.5});
  box.faces = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
               {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  const fs::path p = temp_dir() / "box.obj";
  write_obj(p, box, LengthUnit::metre, false);
  try {
    load_body(p);
    FAIL() << "a box was taken for a body";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("box.obj"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--up"), std::string::npos) << e.what();
  }
}

TEST(BodyAxes, ParsesSignedAxesAndRefusesOthers) {
  EXPECT_EQ(parse_signed_axis("+Z", "--up"), (SignedAxis{2, 1}));
  EXPECT_EQ(parse_signed_axis("-y", "--up"), (SignedAxis{1, -1}));
  EXPECT_EQ(parse_signed_axis("x", "--up"), (SignedAxis{0, 1}));
  EXPECT_THROW(parse_signed_axis("up", "--up"), InvalidInput);
  EXPECT_THROW(parse_signed_axis("+w", "--up"), InvalidInput);
  // The rotation is proper for every pair of distinct axes (a body is never mirrored).
  for (int u = 0; u < 3; ++u)
    for (int f = 0; f < 3; ++f)
      for (int su : {-1, 1})
        for (int sf : {-1, 1}) {
          if (u == f) continue;
          const BodyAxes a{{u, su}, {f, sf}};
          EXPECT_DOUBLE_EQ(a.to_canonical().determinant(), 1.0) << a.describe();
        }
}

}  // namespace
}  // namespace drape

#include "drape/geometry/triangle_mesh.h"

#include <gtest/gtest.h>

#include <limits>

#include "drape/core/exceptions.h"

using namespace drape;

namespace {
// Unit cube [0,1]^3 with outward-facing triangles.
TriangleMesh unit_cube() {
  TriangleMesh m;
  for (int i = 0; i < 8; ++i) m.positions.push_back({double(i & 1), double((i >> 1) & 1), double((i >> 2) & 1)});
  m.faces = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
             {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  return m;
}
}  // namespace

TEST(TriangleMesh, CubeAreaVolumeBounds) {
  const TriangleMesh m = unit_cube();
  EXPECT_NEAR(m.area(), 6.0, 1e-12);
  EXPECT_NEAR(m.signed_volume(), 1.0, 1e-12);
  const Aabb b = m.bounds();
  EXPECT_EQ(b.min, (Vec3{0, 0, 0}));
  EXPECT_EQ(b.max, (Vec3{1, 1, 1}));
}

TEST(TriangleMesh, NormalsPointOutward) {
  const TriangleMesh m = unit_cube();
  for (std::size_t f = 0; f < m.face_count(); ++f) {
    const Vec3 c = m.face_centroid(f) - Vec3{0.5, 0.5, 0.5};
    EXPECT_GT(dot(m.face_normal(f), c), 0.4);
  }
  const auto vn = m.vertex_normals();
  for (std::size_t v = 0; v < vn.size(); ++v) {
    EXPECT_NEAR(norm(vn[v]), 1.0, 1e-12);
    EXPECT_GT(dot(vn[v], m.positions[v] - Vec3{0.5, 0.5, 0.5}), 0);
  }
}

TEST(TriangleMesh, DegenerateFaceHasZeroNormalAndArea) {
  TriangleMesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
  m.faces = {{0, 1, 2}};
  EXPECT_EQ(m.face_area(0), 0.0);
  EXPECT_EQ(m.face_normal(0), (Vec3{0, 0, 0}));
}

TEST(TriangleMesh, ValidateRejectsBadIndexAndNaN) {
  TriangleMesh m = unit_cube();
  m.faces.push_back({0, 1, 8});
  try {
    m.validate("cube.obj");
    FAIL();
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("cube.obj"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("face 12"), std::string::npos);
  }
  m = unit_cube();
  m.positions[3].y = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(m.validate("cube.obj"), InvalidInput);
}

TEST(Aabb, SeparatingAxesAndRigidTransform) {
  Aabb a{{0, 0, 0}, {1, 1, 1}}, b{{0.5, 0.5, 0.5}, {2, 2, 2}}, c{{1.1, 0, 0}, {2, 1, 1}};
  EXPECT_TRUE(a.overlaps(b));
  EXPECT_FALSE(a.overlaps(c));
  RigidTransform t{Mat3::rotation_z(0.785398163397448), {1, 0, 0}};
  const Aabb r = a.transformed(t);
  // The rotated unit square spans sqrt(2) in x.
  EXPECT_NEAR(r.extent().x, std::sqrt(2.0), 1e-9);
  EXPECT_NEAR(r.extent().z, 1.0, 1e-12);
  EXPECT_EQ(a.longest_axis(), 0);
}

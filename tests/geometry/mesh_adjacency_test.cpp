#include "drape/geometry/mesh_adjacency.h"

#include <gtest/gtest.h>

using namespace drape;

TEST(MeshAdjacency, TwoTrianglesShareOneEdge) {
  TriangleMesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  m.faces = {{0, 1, 2}, {0, 2, 3}};
  const MeshAdjacency a = MeshAdjacency::build(m);
  EXPECT_EQ(a.edges.size(), 5u);
  EXPECT_EQ(a.boundary_edge_count(), 4u);
  EXPECT_FALSE(a.is_closed());
  ASSERT_EQ(a.face_neighbours[0].size(), 1u);
  EXPECT_EQ(a.face_neighbours[0][0], 1);
  EXPECT_EQ(a.vertex_face_offsets[1] - a.vertex_face_offsets[0], 2);  // vertex 0 in both faces
}

TEST(MeshAdjacency, TetrahedronIsClosed) {
  TriangleMesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  m.faces = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}};
  const MeshAdjacency a = MeshAdjacency::build(m);
  EXPECT_TRUE(a.is_closed());
  EXPECT_EQ(a.edges.size(), 6u);
  for (const auto& n : a.face_neighbours) EXPECT_EQ(n.size(), 3u);
  EXPECT_EQ(a.faces_sharing_vertex(m, 0).size(), 3u);
}

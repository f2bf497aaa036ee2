#pragma once
// Private to the rig module: an AABB tree over a triangle mesh answering ray
// casts (all hits), closest-point and inside queries. Kept here so the rig
// does not wait on the bvh module.

#include <vector>

#include "drape/geometry/aabb.h"
#include "drape/geometry/triangle_mesh.h"

namespace drape::rig_detail {

struct RayHit {
  double t;  ///< distance along the (unit) direction
  int face;
  double u, v;  ///< barycentric of vertex 1 and 2
};

struct ClosestPoint {
  Vec3 point;
  int face = -1;
  double b[3] = {1, 0, 0};  ///< barycentric weights of the face's vertices
  double distance = 0;
};

class MeshQuery {
 public:
  explicit MeshQuery(const TriangleMesh& mesh);
  /// All hits with t in (t_min, t_max), sorted by t. Direction must be unit.
  /// `edge_tolerance` widens every triangle by that much in barycentric terms so
  /// a ray through a shared edge cannot slip between its two triangles (it may
  /// then report the same crossing twice: fine for first hits, not for parity).
  std::vector<RayHit> hits(const Vec3& origin, const Vec3& dir, double t_min = 0, double t_max = 1e300,
                           double edge_tolerance = 1e-9) const;
  /// First hit or t = -1 when none.
  RayHit first_hit(const Vec3& origin, const Vec3& dir, double t_min = 0, double t_max = 1e300) const;
  ClosestPoint closest(const Vec3& p) const;
  /// Parity test, majority of three skew directions (mesh should be closed).
  bool inside(const Vec3& p) const;
  /// Interpolated vertex normal at a closest point.
  Vec3 normal_at(const ClosestPoint& c) const;
  const TriangleMesh& mesh() const { return mesh_; }

 private:
  struct Node {
    Aabb box;
    int left = -1, right = -1;  ///< children; -1 for a leaf
    int start = 0, count = 0;   ///< leaf range into order_
  };
  int build(int start, int count, std::vector<Vec3>& centroids);
  const TriangleMesh& mesh_;
  std::vector<Vec3> vertex_normals_;
  std::vector<Node> nodes_;
  std::vector<int> order_;
};

/// Closest point of triangle (a, b, c) to p, with barycentric weights.
Vec3 closest_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, double bary[3]);

}  // namespace drape::rig_detail

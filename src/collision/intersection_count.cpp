#include "drape/collision/intersection_count.h"

#include <algorithm>
#include <vector>

namespace drape {

IntersectionCounts count_intersections(const TriangleMeshBvh& body_tree, const TriangleMesh& garment,
                                       double self_cone_angle, const Executor& executor, bool keep_pairs) {
  garment.validate("garment");
  IntersectionCounts c;
  if (garment.vertex_count() == 0) return c;
  std::vector<unsigned char> inside(garment.vertex_count(), 0);
  executor.for_each(
      0, garment.vertex_count(), [&](std::size_t i) { inside[i] = body_tree.contains(garment.positions[i]); },
      64);
  for (unsigned char b : inside) c.vertices_inside_body += b;
  if (garment.face_count() == 0) return c;
  const TriangleMeshBvh cloth_tree(garment, BvhBuildOptions{}, executor);
  auto body_pairs = body_tree.intersecting_pairs(cloth_tree);
  auto self_pairs = cloth_tree.self_intersecting_pairs(self_cone_angle);
  c.body_crossing_pairs = body_pairs.size();
  c.self_crossing_pairs = self_pairs.size();
  if (keep_pairs) {
    std::sort(body_pairs.begin(), body_pairs.end());
    std::sort(self_pairs.begin(), self_pairs.end());
    c.body_pairs = std::move(body_pairs);
    c.self_pairs = std::move(self_pairs);
  }
  return c;
}

}  // namespace drape

#pragma once
// Seeded random query workloads for a mesh's bounding box: the rays and
// points that `drape bench bvh`, bench/bvh_bench and the tree tests use (one
// generator, so the benchmark and the tests query the same kind of rays).

#include <cstdint>
#include <random>
#include <vector>

#include "drape/geometry/aabb.h"
#include "drape/geometry/triangle_queries.h"

namespace drape {

/// n rays from a sphere of radius 0.75 |box extent| + `pad` around the box
/// centre (uniform directions) towards uniform random points inside the box;
/// direction = target - origin (not normalised), t in [0, inf).
inline std::vector<Ray> random_rays_into_box(const Aabb& box, int n, std::uint32_t seed, double pad = 0) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::normal_distribution<double> g;
  const double r = 0.75 * norm(box.extent()) + pad;
  std::vector<Ray> rays;
  rays.reserve(n > 0 ? n : 0);
  for (int i = 0; i < n; ++i) {
    const Vec3 dir = normalized(Vec3{g(rng), g(rng), g(rng)});
    const Vec3 o = box.center() + dir * r;
    const Vec3 target =
        box.min + Vec3{u(rng) * box.extent().x, u(rng) * box.extent().y, u(rng) * box.extent().z};
    rays.push_back({o, target - o});
  }
  return rays;
}

/// n uniform random points in the box grown by `grow` times its extent on every side.
inline std::vector<Vec3> random_points_in_box(const Aabb& box, int n, std::uint32_t seed, double grow = 0) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-grow, 1 + grow);
  std::vector<Vec3> pts;
  pts.reserve(n > 0 ? n : 0);
  for (int i = 0; i < n; ++i)
    pts.push_back(box.min + Vec3{u(rng) * box.extent().x, u(rng) * box.extent().y, u(rng) * box.extent().z});
  return pts;
}

}  // namespace drape

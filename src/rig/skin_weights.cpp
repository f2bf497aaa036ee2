#include "drape/rig/skin_weights.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/core/exceptions.h"
#include "drape/core/executor.h"
#include "drape/geometry/mesh_adjacency.h"
#include "drape/rig/skeleton.h"

namespace drape {

namespace {
SkinWeights::Influences top_k(std::vector<std::pair<int, double>> list, int k) {
  // Merge duplicates (sorted by bone), drop non-positive, keep the k largest.
  std::sort(list.begin(), list.end());
  std::vector<std::pair<int, double>> merged;
  for (const auto& [b, w] : list) {
    if (!merged.empty() && merged.back().first == b)
      merged.back().second += w;
    else
      merged.push_back({b, w});
  }
  std::erase_if(merged, [](const auto& p) { return !(p.second > 0) || p.first < 0; });
  std::stable_sort(merged.begin(), merged.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  k = std::clamp(k, 1, SkinWeights::kMaxInfluences);
  if (static_cast<int>(merged.size()) > k) merged.resize(k);
  double sum = 0;
  for (const auto& p : merged) sum += p.second;
  SkinWeights::Influences in;
  for (std::size_t i = 0; i < merged.size(); ++i) {
    in.bone[i] = merged[i].first;
    in.weight[i] = merged[i].second / sum;
  }
  return in;
}
}  // namespace

SkinWeights SkinWeights::from_lists(const std::vector<std::vector<std::pair<int, double>>>& lists, int k) {
  SkinWeights s;
  s.vertices.resize(lists.size());
  for (std::size_t v = 0; v < lists.size(); ++v) s.vertices[v] = top_k(lists[v], k);
  return s;
}

double SkinWeights::max_normalisation_error() const {
  double e = 0;
  for (const Influences& in : vertices) {
    if (in.bone[0] < 0) continue;
    double s = 0;
    for (int i = 0; i < kMaxInfluences; ++i)
      if (in.bone[i] >= 0) s += in.weight[i];
    e = std::max(e, std::abs(s - 1));
  }
  return e;
}

std::size_t SkinWeights::unweighted_count() const {
  return std::count_if(vertices.begin(), vertices.end(), [](const Influences& in) { return in.bone[0] < 0; });
}

SkinWeights transfer_weights(const TriangleMesh& source, const SkinWeights& source_weights,
                             const std::vector<Vec3>& points, int k) {
  if (source_weights.size() != source.vertex_count())
    throw InvalidInput("transfer_weights: " + std::to_string(source_weights.size()) + " weight rows for " +
                       std::to_string(source.vertex_count()) + " source vertices");
  if (source.face_count() == 0) throw InvalidInput("transfer_weights: the source mesh has no faces");
  return transfer_weights(TriangleMeshBvh(source), source_weights, points, k);
}

SkinWeights transfer_weights(const TriangleMeshBvh& q, const SkinWeights& source_weights,
                             const std::vector<Vec3>& points, int k) {
  const TriangleMesh& source = q.mesh();
  if (source_weights.size() != source.vertex_count())
    throw InvalidInput("transfer_weights: " + std::to_string(source_weights.size()) + " weight rows for " +
                       std::to_string(source.vertex_count()) + " source vertices");
  if (source.face_count() == 0) throw InvalidInput("transfer_weights: the source mesh has no faces");
  SkinWeights out;
  out.vertices.resize(points.size());
  Executor::global().for_each(
      0, points.size(),
      [&](std::size_t i) {
        const TriangleMeshBvh::PointQuery c = q.closest_point(points[i]);
        std::vector<std::pair<int, double>> list;
        const Triangle& f = source.faces[c.face];
        const double b[3] = {c.u, c.v, c.w};
        for (int j = 0; j < 3; ++j) {
          const auto& in = source_weights.vertices[f[j]];
          for (int s = 0; s < SkinWeights::kMaxInfluences; ++s)
            if (in.bone[s] >= 0) list.push_back({in.bone[s], in.weight[s] * b[j]});
        }
        out.vertices[i] = top_k(std::move(list), k);
      },
      64);
  return out;
}

namespace {
double segment_distance(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 ab = b - a;
  const double l2 = dot(ab, ab);
  const double t = l2 > 0 ? std::clamp(dot(p - a, ab) / l2, 0.0, 1.0) : 0.0;
  return norm(p - (a + ab * t));
}
}  // namespace

SkinWeights compute_distance_weights(const TriangleMesh& mesh, const Skeleton& skeleton,
                                     const ComputedWeightOptions& o) {
  if (skeleton.bones.empty()) throw InvalidInput("compute_distance_weights: the skeleton has no bones");
  std::vector<int> used;
  for (std::size_t b = 0; b < skeleton.size(); ++b)
    if (norm(skeleton.bones[b].tail - skeleton.bones[b].head) >= o.min_bone_length)
      used.push_back(static_cast<int>(b));
  if (used.empty())
    throw InvalidInput("compute_distance_weights: every bone is shorter than min_bone_length");
  const std::size_t n = mesh.vertex_count(), m = used.size();
  // Dense per-vertex weights over the used bones (n * m doubles: fine for bodies and ~50 bones).
  std::vector<double> w(n * m);
  Executor::global().for_each(
      0, n,
      [&](std::size_t v) {
        double sum = 0;
        for (std::size_t j = 0; j < m; ++j) {
          const Bone& b = skeleton.bones[used[j]];
          const double d = std::max(segment_distance(mesh.positions[v], b.head, b.tail), 1e-6);
          w[v * m + j] = std::pow(d, -o.falloff);
          sum += w[v * m + j];
        }
        for (std::size_t j = 0; j < m; ++j) w[v * m + j] /= sum;
      },
      256);
  // Laplacian smoothing over the one-ring (a gather: each vertex reads its neighbours).
  if (o.smoothing_iterations > 0 && mesh.face_count() > 0) {
    const MeshAdjacency adj = MeshAdjacency::build(mesh);
    std::vector<std::vector<int>> ring(n);
    for (const MeshEdge& e : adj.edges) {
      ring[e.v0].push_back(e.v1);
      ring[e.v1].push_back(e.v0);
    }
    std::vector<double> next(w.size());
    for (int it = 0; it < o.smoothing_iterations; ++it) {
      Executor::global().for_each(
          0, n,
          [&](std::size_t v) {
            for (std::size_t j = 0; j < m; ++j) {
              double s = w[v * m + j];
              for (int u : ring[v]) s += w[u * m + j];
              next[v * m + j] = s / (1 + ring[v].size());
            }
          },
          256);
      w.swap(next);
    }
  }
  std::vector<std::vector<std::pair<int, double>>> lists(n);
  for (std::size_t v = 0; v < n; ++v)
    for (std::size_t j = 0; j < m; ++j)
      if (w[v * m + j] > 1e-6) lists[v].push_back({used[j], w[v * m + j]});
  return SkinWeights::from_lists(lists, o.k);
}

}  // namespace drape

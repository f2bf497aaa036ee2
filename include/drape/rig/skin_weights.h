#pragma once
// Per-vertex skin weights: up to kMaxInfluences (bone, weight) pairs per
// vertex, normalised to sum 1, and ways to get them for any mesh.

#include <array>
#include <vector>

#include "drape/core/vec.h"
#include "drape/geometry/triangle_mesh.h"

namespace drape {
class TriangleMeshBvh;
}

namespace drape {

struct Skeleton;

struct SkinWeights {
  static constexpr int kMaxInfluences = 4;
  struct Influences {
    std::array<int, kMaxInfluences> bone{-1, -1, -1, -1};  ///< -1 = unused slot
    std::array<double, kMaxInfluences> weight{0, 0, 0, 0};
  };
  /// One entry per vertex; slots sorted by decreasing weight.
  std::vector<Influences> vertices;

  std::size_t size() const { return vertices.size(); }

  /// Builds weights from arbitrary per-vertex (bone, weight) lists: merges
  /// duplicate bones, drops non-positive weights, keeps the largest `k`
  /// (<= kMaxInfluences) and normalises to sum 1. A vertex with no weight
  /// keeps no influence (it stays at rest when skinned).
  static SkinWeights from_lists(const std::vector<std::vector<std::pair<int, double>>>& lists,
                                int k = kMaxInfluences);
  /// Largest deviation of any vertex's weight sum from 1 (vertices without
  /// influences are skipped).
  double max_normalisation_error() const;
  /// Number of vertices with no influence.
  std::size_t unweighted_count() const;
};

/// Weights for `points` from the closest point on `source` (a mesh with
/// `source_weights` per vertex): the barycentric blend of the closest
/// triangle's three vertex weight lists, then top-k and normalised. This is
/// how a fitted body gets the template's weights and how a garment gets the
/// body's (weights from the nearest body surface point).
/// \throw InvalidInput when sizes disagree or the source mesh has no faces.
SkinWeights transfer_weights(const TriangleMesh& source, const SkinWeights& source_weights,
                             const std::vector<Vec3>& points, int k = SkinWeights::kMaxInfluences);
/// The same on a tree over the source mesh (source.mesh()), built by the caller.
SkinWeights transfer_weights(const TriangleMeshBvh& source, const SkinWeights& source_weights,
                             const std::vector<Vec3>& points, int k = SkinWeights::kMaxInfluences);

struct ComputedWeightOptions {
  /// Weight ~ 1 / distance^falloff to each bone segment.
  double falloff = 4.0;
  /// Rounds of Laplacian smoothing of the weights over mesh edges.
  int smoothing_iterations = 10;
  /// Bones whose length is below this (metres) are ignored (helper bones).
  double min_bone_length = 1e-4;
  int k = SkinWeights::kMaxInfluences;
};

/// Weights computed from the skeleton alone (no template weights):
/// inverse-distance to bone segments, smoothed over the mesh, top-k, normalised.
/// \throw InvalidInput for an empty skeleton.
SkinWeights compute_distance_weights(const TriangleMesh& mesh, const Skeleton& skeleton,
                                     const ComputedWeightOptions& options = {});

}  // namespace drape

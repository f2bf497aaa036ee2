#pragma once
// Rigging any body from a template rig (skeleton + weights on a template
// body): the skeleton is fitted (docs/METHODS.md "M2 Joints by ray casting", joint_fitting.h) and the weights
// are transferred through the same landmark mapping M (template body moved by M, then the closest point on it
// for every target vertex). Without template weights they are computed from the fitted skeleton.

#include "drape/geometry/triangle_mesh.h"
#include "drape/rig/joint_fitting.h"
#include "drape/rig/skeleton.h"
#include "drape/rig/skin_weights.h"

namespace drape {

struct BodyRig {
  Skeleton skeleton;                 ///< fitted to the target body
  SkinWeights weights;               ///< per target vertex
  SkeletonFit fit;                   ///< per-joint fit report, landmarks
  bool weights_transferred = false;  ///< false: computed (compute_distance_weights)
};

/// \throw InvalidInput when weights do not match the template body, or as fit_skeleton.
BodyRig rig_body_by_fitting(const Skeleton& skeleton, const TriangleMesh& template_body,
                            const SkinWeights& template_weights, const TriangleMesh& target_body,
                            const FitOptions& options = {});
/// As above with the target body's query tree built by the caller (the body
/// is `target_body.mesh()`), so the tree can be shared with other stages.
BodyRig rig_body_by_fitting(const Skeleton& skeleton, const TriangleMesh& template_body,
                            const SkinWeights& template_weights, const TriangleMeshBvh& target_body,
                            const FitOptions& options = {});

/// The landmark mapping M of a fit (template -> target).
RbfMap landmark_map(const SkeletonFit& fit, double regularisation = 0);

/// Weights for garment (or any) vertices from the nearest body surface point:
/// the body's weights blended barycentrically at the closest point. The
/// garment is then posed with skin_points / skin_mesh and the body's Pose.
inline SkinWeights weights_from_nearest_body_point(const TriangleMesh& body, const SkinWeights& body_weights,
                                                   const std::vector<Vec3>& points) {
  return transfer_weights(body, body_weights, points);
}
/// The same on a tree over the body (body.mesh()).
inline SkinWeights weights_from_nearest_body_point(const TriangleMeshBvh& body,
                                                   const SkinWeights& body_weights,
                                                   const std::vector<Vec3>& points) {
  return transfer_weights(body, body_weights, points);
}

}  // namespace drape

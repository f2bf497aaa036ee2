#include "drape/rig/body_rig.h"

#include "drape/core/exceptions.h"
#include "drape/core/executor.h"

namespace drape {

RbfMap landmark_map(const SkeletonFit& fit, double regularisation) {
  std::vector<Vec3> from, to;
  for (std::size_t i = 0; i < fit.template_landmarks.size(); ++i) {
    from.push_back(fit.template_landmarks[i].position);
    to.push_back(fit.target_landmarks[i].position);
  }
  return RbfMap(from, to, regularisation);
}

BodyRig rig_body_by_fitting(const Skeleton& skeleton, const TriangleMesh& template_body,
                            const SkinWeights& template_weights, const TriangleMesh& target_body,
                            const FitOptions& options) {
  const TriangleMeshBvh target_tree(target_body);
  return rig_body_by_fitting(skeleton, template_body, template_weights, target_tree, options);
}

BodyRig rig_body_by_fitting(const Skeleton& skeleton, const TriangleMesh& template_body,
                            const SkinWeights& template_weights, const TriangleMeshBvh& target_tree,
                            const FitOptions& options) {
  const TriangleMesh& target_body = target_tree.mesh();
  if (template_weights.size() != 0 && template_weights.size() != template_body.vertex_count())
    throw InvalidInput("rig: " + std::to_string(template_weights.size()) +
                       " weight rows for a template body of " + std::to_string(template_body.vertex_count()) +
                       " vertices");
  BodyRig r;
  const TriangleMeshBvh template_tree(template_body);
  r.fit = fit_skeleton(skeleton, template_tree, target_tree, options);
  r.skeleton = r.fit.skeleton;
  if (template_weights.size() == 0) {
    r.weights = compute_distance_weights(target_body, r.skeleton);
    return r;
  }
  const RbfMap map = landmark_map(r.fit, options.regularisation);
  TriangleMesh moved = template_body;
  Executor::global().for_each(0, moved.positions.size(),
                              [&](std::size_t v) { moved.positions[v] = map(template_body.positions[v]); });
  r.weights = transfer_weights(moved, template_weights, target_body.positions);
  r.weights_transferred = true;
  return r;
}

}  // namespace drape

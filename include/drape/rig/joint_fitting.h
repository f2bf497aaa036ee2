#pragma once
// Fitting a template skeleton to another body (docs/METHODS.md "M2 Joints by ray casting").
//
// 1. A mapping M (RbfMap over automatically found landmarks, template body A_m
//    -> target body R_m) moves every joint j0 to j1 = M(j0).
// 2. Joints classified as surface joints on the template (within
//    surface_tolerance of A_m) take the method's ray cast: the normal n of R_m
//    at the point closest to j1, p_aux = j1 + ray_offset * n, a ray from p_aux
//    along -n; its first hit on R_m is j2. When p_aux is inside R_m or the ray
//    misses (within 2 * ray_offset), j2 = the closest point of R_m to j1.
// 3. Interior joints (inside A_m) are cast both ways along +-n from j1: entry
//    and exit hits. By default n is the template's normal at j0's closest point
//    carried to R_m by M (its Jacobian), so the chord on R_m is the image of
//    the template's chord and an affine M is followed exactly; optionally n is
//    R_m's own normal at the point closest to j1. In midpoint mode the
//    joint goes to the middle of entry and exit; in the default
//    keep_fraction mode it goes to the same fraction between them as the
//    template joint had on the template (0.5 for a centred joint, so both
//    modes agree there, and the identity fit is exact). When j1 is outside
//    R_m or a side misses, j2 = the closest point of R_m.
// 4. Joints outside the template body keep j1.
// The result reports the path every joint took.

#include <string>
#include <vector>

#include "drape/geometry/triangle_mesh.h"
#include "drape/landmarks/body_landmarks.h"
#include "drape/rig/rbf_map.h"
#include "drape/rig/skeleton.h"

namespace drape {

enum class JointFitPath {
  surface_ray,  ///< docs/METHODS.md "M2 Joints by ray casting", step 2: hit of the ray from p_aux along -n
  surface_closest_point,   ///< surface joint, p_aux inside or ray missed
  interior_two_sided,      ///< cast both ways, between entry and exit
  interior_closest_point,  ///< interior joint outside R_m or a side missed
  exterior_mapped,         ///< outside the template body: j1 kept
};
const char* to_string(JointFitPath p);

enum class InteriorPlacement { keep_fraction, midpoint };
enum class InteriorDirection { mapped_template_normal, target_normal };

struct FitOptions {
  /// Length of n in p_aux = j1 + n (metres).
  double ray_offset = 0.02;
  /// Template joints closer than this to A_m are surface joints (metres).
  double surface_tolerance = 1e-6;
  InteriorPlacement interior = InteriorPlacement::keep_fraction;
  InteriorDirection interior_direction = InteriorDirection::mapped_template_normal;
  /// RBF regularisation (0 = interpolate the landmarks exactly).
  double regularisation = 0;
};

/// A named point to fit (a joint, or a bone's head/tail).
struct JointFit {
  Vec3 j0, j1, j2;  ///< template, mapped, final (metres)
  JointFitPath path = JointFitPath::exterior_mapped;
};

struct SkeletonFit {
  Skeleton skeleton;            ///< the fitted skeleton (heads, tails moved; rolls kept)
  std::vector<JointFit> heads;  ///< per bone
  std::vector<JointFit> tails;  ///< per bone
  std::vector<Landmark> template_landmarks, target_landmarks;
  int count(JointFitPath p) const;
};

/// Fits the points `joints` (template positions) onto `target`.
/// \throw InvalidInput when a body has no faces or the landmark finder fails.
std::vector<JointFit> fit_points(const TriangleMesh& template_body, const TriangleMesh& target_body,
                                 const RbfMap& map, const std::vector<Vec3>& joints,
                                 const FitOptions& options = {});
/// As above on the bodies' query trees (bodies = their `mesh()`), built by the caller.
std::vector<JointFit> fit_points(const TriangleMeshBvh& template_body, const TriangleMeshBvh& target_body,
                                 const RbfMap& map, const std::vector<Vec3>& joints,
                                 const FitOptions& options = {});

/// Fits a skeleton whose rest pose sits in `template_body` to `target_body`
/// (landmarks found on both, RbfMap, then fit_points on heads and tails).
/// Heads shared with a parent's tail stay shared.
/// \throw InvalidInput as fit_points.
SkeletonFit fit_skeleton(const Skeleton& skeleton, const TriangleMesh& template_body,
                         const TriangleMesh& target_body, const FitOptions& options = {});
/// As above on the bodies' query trees, built by the caller: one tree per body
/// serves the landmark finder and the joint fit.
SkeletonFit fit_skeleton(const Skeleton& skeleton, const TriangleMeshBvh& template_body,
                         const TriangleMeshBvh& target_body, const FitOptions& options = {});

}  // namespace drape

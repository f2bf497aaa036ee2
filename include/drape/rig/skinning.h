#pragma once
// A pose (one rigid skinning transform per bone) and skinning a mesh with
// it: linear blend skinning (LBS) and dual-quaternion skinning (DQS).

#include <vector>

#include "drape/core/mat3.h"
#include "drape/geometry/triangle_mesh.h"
#include "drape/rig/skeleton.h"
#include "drape/rig/skin_weights.h"

namespace drape {

/// Per bone: the transform taking a rest-pose world point to its posed world
/// place when it moves rigidly with the bone (posed frame * rest frame^-1).
struct Pose {
  std::vector<RigidTransform> bone;

  static Pose identity(std::size_t bone_count);
  /// Posed head/tail of bone b.
  Vec3 head(const Skeleton& s, int b) const { return bone[b](s.bones[b].head); }
  Vec3 tail(const Skeleton& s, int b) const { return bone[b](s.bones[b].tail); }
};

/// Builds a pose from per-bone local rotations (in each bone's rest frame,
/// relative to rest; empty = identity) and a translation of the roots.
/// \throw InvalidInput when `local` has the wrong size.
Pose pose_from_local_rotations(const Skeleton& skeleton, const std::vector<Mat3>& local,
                               const Vec3& root_translation = {});

/// Builds a pose from world-space rotation deltas: bone b turns by world[b]
/// about its own (posed) head, which follows its parent. Roots move by
/// root_translation.
/// \throw InvalidInput when `world` has the wrong size.
Pose pose_from_world_rotations(const Skeleton& skeleton, const std::vector<Mat3>& world,
                               const Vec3& root_translation = {});

/// The pose a fraction t (0..1) of the way from the rest pose to `pose`, for
/// a smooth transition: each bone's world rotation delta is slerped from the
/// identity, the roots' translation scaled by t, and heads follow their
/// parents (as pose_from_world_rotations). t = 0 is the rest pose, t = 1 `pose`.
/// \throw InvalidInput when `pose` has the wrong bone count.
Pose interpolate_from_rest(const Skeleton& skeleton, const Pose& pose, double t);
/// The same between two poses: each bone's world rotation slerped from
/// `from`'s to `to`'s, the roots' translation interpolated linearly, heads
/// following their parents. t = 0 gives `from`'s rotations, t = 1 `to`'s.
/// \throw InvalidInput when a pose has the wrong bone count.
Pose interpolate_poses(const Skeleton& skeleton, const Pose& from, const Pose& to, double t);

/// Per bone the transform taking pose `from` to pose `to` (to o from^-1):
/// skinning points already posed by `from` with it moves them on to `to`.
/// \throw InvalidInput when the bone counts differ.
Pose pose_delta(const Pose& from, const Pose& to);

/// The skeleton's bone frames (bone space to world) in a pose: pose o rest frame.
std::vector<RigidTransform> posed_frames(const Skeleton& skeleton, const Pose& pose);

enum class SkinningMethod { linear_blend, dual_quaternion };

struct SkinnedPoints {
  std::vector<Vec3> positions;
  std::vector<Vec3> normals;  ///< empty when no normals were given
};

/// Skins points (and optional normals, same size or empty) with `weights`.
/// Identity transforms return the input exactly; a vertex without influences
/// stays where it is.
/// \throw InvalidInput when sizes disagree or a weight names a missing bone.
SkinnedPoints skin_points(const std::vector<Vec3>& points, const std::vector<Vec3>& normals,
                          const SkinWeights& weights, const Pose& pose,
                          SkinningMethod method = SkinningMethod::linear_blend);

/// Skins a mesh: positions moved, faces kept (normals recomputed by users
/// through TriangleMesh::vertex_normals, or take them from skin_points).
/// \throw InvalidInput as skin_points.
TriangleMesh skin_mesh(const TriangleMesh& rest, const SkinWeights& weights, const Pose& pose,
                       SkinningMethod method = SkinningMethod::linear_blend);

}  // namespace drape

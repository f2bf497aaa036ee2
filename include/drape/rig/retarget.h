#pragma once
// Posing a skeleton from a BVH frame, with a joint-name map for retargeting.
//
// Method (world-delta retargeting with rest-direction alignment): in a BVH
// file every joint's rest world rotation is the identity, so a frame's world
// rotation W_s of source joint s is its rotation away from the file's rest
// pose. A target bone b mapped to s gets the world rotation
//     D_b = A W_s A^T * C_b,
// where A rotates the BVH's axes into the skeleton's (found automatically:
// the axis permutation that best aligns the mapped rest joints), and C_b is
// the shortest rotation taking the target bone's rest direction to the
// source segment's rest direction (so a T-pose file drives an A-pose
// skeleton correctly); a bone's rest direction runs to its one mapped
// descendant's head where only unmapped bones lie between (a limb split in
// parts), else to its tail. Bone heads follow their parents; unmapped bones move
// rigidly with their parent. The root moves by the source root's
// displacement, scaled by the ratio of skeleton sizes.

#include <map>
#include <string>
#include <vector>

#include "drape/rig/bvh_motion.h"
#include "drape/rig/skeleton.h"
#include "drape/rig/skinning.h"

namespace drape {

/// Target bone name -> source BVH joint name.
using JointNameMap = std::map<std::string, std::string>;

/// Identity map for every bone whose name is also a BVH joint.
JointNameMap same_name_map(const Skeleton& target, const BvhMotion& motion);
/// The CMU motion-capture joint names (Hips, LeftHip, LeftKnee, ...,
/// lowerback, Chest, Chest2, LeftCollar, ...) onto MakeHuman's cmu_mb skeleton.
JointNameMap cmu_to_makehuman_cmu_mb_map();
/// Mixamo's joint names (Hips, Spine, Spine1, Spine2, Neck, Head,
/// LeftShoulder, LeftArm, LeftForeArm, LeftHand, LeftUpLeg, LeftLeg,
/// LeftFoot, LeftToeBase, ... without the "mixamorig:" namespace) onto
/// MakeHuman's cmu_mb skeleton.
JointNameMap mixamo_to_makehuman_cmu_mb_map();
/// A BVH joint name without its namespace: "mixamorig:Hips" -> "Hips".
std::string joint_base_name(const std::string& name);
/// A map between any humanoid skeleton and any humanoid BVH from anatomical
/// roles (joint_roles.h): each role chain of the skeleton takes the chain of
/// the same role and side in the motion. Chains of different lengths are
/// matched end to end (spine05..spine01 onto Spine, Spine1, Spine2: spine05,
/// spine03, spine01); a one-joint source chain drives the first bone of a
/// split chain (upperarm01; upperarm02 follows it as an unmapped bone).
struct RoleJointMap {
  JointNameMap map;
  /// The core roles (hips, both thighs, both upper arms) left unmapped, each
  /// saying which side lacks it: "left thigh (bone thigh_l): no BVH joint".
  std::vector<std::string> missing_core;
};
RoleJointMap role_joint_map(const Skeleton& target, const BvhMotion& motion);
/// The joint map for a motion without a map file. Names are compared without
/// their namespace ("mixamorig:LeftArm" matches "LeftArm"); the map holds the
/// file's names. First the name tables: a Mixamo-named motion (a "mixamorig"
/// namespace or a Spine2 joint) gets the Mixamo map; otherwise the same-name
/// map (MakeHuman's own names, any skeleton's) when it maps at least half of
/// the bones, else the CMU map; each restricted to names present on both
/// sides. When the role map (role_joint_map) maps more bones and places every
/// core role, it is taken instead: so CMU and Mixamo onto cmu_mb and
/// MakeHuman's names onto its skeletons keep their exact tables, and any
/// other humanoid skeleton still gets a map.
/// \throw InvalidInput when neither the tables nor the roles map anything
///        usable, naming the core roles that could not be placed.
JointNameMap guess_joint_map(const Skeleton& target, const BvhMotion& motion);
/// Reads a JSON object {"target bone": "bvh joint", ...}.
/// \throw IoError / InvalidInput naming the file.
JointNameMap read_joint_map(const std::string& path);

enum class RootMotion {
  none,               ///< the root stays at its rest place
  relative_to_first,  ///< displacement since frame 0 (default)
  relative_to_rest,   ///< displacement from the root's rest OFFSET
};

struct RetargetOptions {
  RootMotion root_motion = RootMotion::relative_to_first;
  /// Align each bone's rest direction with its source segment (C_b above).
  bool align_rest_directions = true;
  /// Axis change from the BVH to the skeleton (rows: skeleton axes in BVH
  /// coordinates); only used when auto_axes is false.
  Mat3 axes = Mat3::identity();
  bool auto_axes = true;
};

struct RetargetResult {
  Pose pose;
  Mat3 axes;         ///< BVH -> skeleton rotation used
  double scale = 1;  ///< skeleton units per BVH unit
  int mapped_bones = 0;
};

/// Poses `target` from frame `frame` of `motion`.
/// \throw InvalidInput when the frame is out of range, a mapped name is
///        missing on either side, or nothing maps.
RetargetResult retarget_bvh_frame(const Skeleton& target, const BvhMotion& motion, std::size_t frame,
                                  const JointNameMap& map, const RetargetOptions& options = {});

}  // namespace drape

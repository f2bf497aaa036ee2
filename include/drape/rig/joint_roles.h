#pragma once
// Anatomical roles of the joints of any humanoid hierarchy (a skeleton's
// bones or a BVH file's joints), found from names and structure together.
//
// Why: skeletons and motion files name the same places differently (CMU's
// "LeftShoulder" is the shoulder joint and turns the upper arm, Mixamo's
// "LeftShoulder" is the clavicle; MakeHuman splits the upper arm in
// upperarm01/upperarm02, Rigify calls its hips "spine"). Roles give both
// sides of a retarget a common vocabulary.
//
// Method: names are split into tokens (separators, camelCase, digits) and the
// side is read from a marker token (L, R, Left, Right, .l, _r, or an l/r
// prefix glued to a body word as in CMU's "lhand"). The structure then fixes
// the roles: per side, the hand (hand/wrist) and the foot (foot/ankle) are
// found by name; the hips are the nearest common ancestor of the two legs and
// the chest the nearest common ancestor of the two arms. The path hips ->
// chest is the spine; the path chest -> hand holds clavicle, upper arm and
// forearm, the path hips -> foot holds hip joint, thigh and shin, each placed
// by its name tokens when present ("shoulder" is the clavicle when an upper
// arm follows it and the upper arm when only a forearm does) and by position
// along the path otherwise; the hand chain goes on through a hand-named only
// child (CMU's LeftWrist, lhand); the toe is the foot's only toe/ball child;
// the chain that leaves the chest towards the head holds the neck and the
// head (the last bone when none is named head).
//
// Invariants of the result: every chain lists joints root-to-tip along one
// parent path; a joint is in at most one chain; a (role, side) pair appears at
// most once; arm and leg roles have a left or right side, the others centre.

#include <string>
#include <vector>

#include "drape/rig/bvh_motion.h"
#include "drape/rig/skeleton.h"

namespace drape {

enum class BodyRole {
  hips,   ///< the root of legs and spine (pelvis)
  spine,  ///< the joints from the hips up to the chest, where the arms attach
  neck,   ///< between the chest and the head
  head,
  hip_joint,  ///< a per-side bone between the hips and the thigh (CMU LHipJoint, MakeHuman pelvis.L)
  clavicle,   ///< from the chest to the shoulder joint
  upper_arm,  ///< from the shoulder joint to the elbow
  forearm,    ///< from the elbow to the wrist
  hand,
  thigh,  ///< from the hip joint to the knee
  shin,   ///< from the knee to the ankle
  foot,
  toe,
};

enum class BodySide { center, left, right };

/// The joints holding one role, root-to-tip (several for split chains such as
/// upperarm01/upperarm02 or spine05..spine01).
struct RoleChain {
  BodyRole role = BodyRole::hips;
  BodySide side = BodySide::center;
  std::vector<int> joints;
};

struct JointRoles {
  std::vector<RoleChain> chains;
  /// The chain of (role, side), or nullptr when it was not found.
  const RoleChain* find(BodyRole role, BodySide side = BodySide::center) const;
};

/// Readable name of a role: "hips", "left upper arm", ...
std::string role_name(BodyRole role, BodySide side);

/// Side marked in a joint name ("thigh_l", "LeftArm", "upperarm01.R", "lhand",
/// "mixamorig:RightHand"); center when it has no marker.
BodySide name_side(const std::string& name);

/// Roles of a hierarchy given by names and parents (parent index or -1;
/// parents may come in any order). Roles that cannot be placed are left out.
JointRoles classify_joint_roles(const std::vector<std::string>& names, const std::vector<int>& parents);
/// Roles of a skeleton's bones (indices into Skeleton::bones).
JointRoles classify_joint_roles(const Skeleton& skeleton);
/// Roles of a BVH file's joints (indices into BvhMotion::joints); names are
/// read without their namespace ("mixamorig:").
JointRoles classify_joint_roles(const BvhMotion& motion);

}  // namespace drape

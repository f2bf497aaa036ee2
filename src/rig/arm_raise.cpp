#include "drape/rig/arm_raise.h"

#include <cctype>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "drape/rig/quaternion.h"

namespace drape {

namespace {

// The name without its namespace ("mixamorig:"), lower case, letters and
// digits only: "upper_arm.L" -> "upperarml", "mixamorig:LeftArm" -> "leftarm".
std::string plain_name(const std::string& name) {
  const std::size_t colon = name.find(':');
  std::string out;
  for (const unsigned char c : name.substr(colon == std::string::npos ? 0 : colon + 1))
    if (std::isalnum(c)) out += static_cast<char>(std::tolower(c));
  return out;
}

// Side of an upper-arm name: +1 left, -1 right, 0 not an upper arm.
int upper_arm_side(const Bone& bone) {
  const std::string n = plain_name(bone.name);
  if (n.find("upperarm") != std::string::npos) return bone.head.x >= 0 ? 1 : -1;
  if (n == "leftarm") return 1;
  if (n == "rightarm") return -1;
  return 0;
}

// A forearm's name: MakeHuman's lowerarm01.L, Unreal's lowerarm_l, Rigify's
// forearm.L, Mixamo's / CMU's LeftForeArm.
bool is_forearm(const Bone& bone) {
  const std::string n = plain_name(bone.name);
  return n.find("forearm") != std::string::npos || n.find("lowerarm") != std::string::npos;
}

}  // namespace

Vec3 elbow_of(const Skeleton& skeleton, int bone) {
  // Breadth first below the arm, so the forearm of this arm is met before
  // any deeper bone (a hand's, a finger's).
  const std::vector<std::vector<int>> children = skeleton.children();
  std::vector<int> queue{bone};
  for (std::size_t i = 0; i < queue.size(); ++i)
    for (const int c : children[queue[i]]) {
      if (is_forearm(skeleton.bones[c])) return skeleton.bones[c].head;
      queue.push_back(c);
    }
  return skeleton.bones.at(bone).tail;
}

UpperArms find_upper_arms(const Skeleton& skeleton) {
  UpperArms arms;
  for (std::size_t b = 0; b < skeleton.size(); ++b) {
    const int side = upper_arm_side(skeleton.bones[b]);
    int& slot = side > 0 ? arms.left : arms.right;
    if (side != 0 && slot < 0) slot = static_cast<int>(b);
  }
  return arms;
}

double arm_angle_below_horizontal(const Skeleton& skeleton, int bone) {
  const Vec3 d = elbow_of(skeleton, bone) - skeleton.bones.at(bone).head;
  const double h = std::hypot(d.x, d.z);
  return std::atan2(-d.y, h) * 180 / std::numbers::pi;
}

std::optional<Pose> arms_raised_pose(const Skeleton& skeleton, double degrees_below_horizontal) {
  const UpperArms arms = find_upper_arms(skeleton);
  if (arms.left < 0 || arms.right < 0) return std::nullopt;
  std::vector<Mat3> world(skeleton.size(), Mat3::identity());
  const double a = degrees_below_horizontal * std::numbers::pi / 180;
  for (const int arm : {arms.left, arms.right}) {
    const Vec3 d = normalized(elbow_of(skeleton, arm) - skeleton.bones[arm].head);
    const double h = std::hypot(d.x, d.z);
    if (!(h > 1e-9)) continue;  // straight up or down: no vertical plane through it
    const Vec3 out{d.x / h, 0, d.z / h};
    const Vec3 target = out * std::cos(a) + Vec3{0, -std::sin(a), 0};
    const Vec3 axis = cross(d, target);
    const double s = norm(axis), c = dot(d, target);
    if (!(s > 1e-12)) continue;  // already there
    const Mat3 r = Quat::from_axis_angle(axis / s, std::atan2(s, c)).to_matrix();
    // The arm and every bone below it turn rigidly about the arm's head.
    const std::vector<char> turned = skeleton.subtree_mask(arm);
    for (std::size_t k = 0; k < skeleton.size(); ++k)
      if (turned[k]) world[k] = r;
  }
  return pose_from_world_rotations(skeleton, world);
}

}  // namespace drape

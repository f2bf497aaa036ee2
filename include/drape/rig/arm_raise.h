#pragma once
// The pose with the upper arms raised: the body `drape dress` sews a garment
// on before the arms come down to the body's own pose (CLO's and Marvelous
// Designer's practice of dressing an avatar in a T- or A-pose). Sleeves drawn
// for a T-pose then start round the arm, the seams under the arm do not start
// astride the armpit, and the hands are clear of the hips (docs/PATTERNS.md,
// "Sewn with the arms raised").

#include <optional>

#include "drape/rig/skeleton.h"
#include "drape/rig/skinning.h"

namespace drape {

/// The upper-arm bones of a skeleton: per side the first bone (in bone order)
/// whose name, without namespace, case, dots or underscores, contains
/// "upperarm" (MakeHuman's upperarm01.L, Rigify's upper_arm.L, Unreal's
/// upperarm_l; the side from the head's x) or is "leftarm" / "rightarm"
/// (Mixamo, CMU); -1 where none.
struct UpperArms {
  int left = -1, right = -1;  ///< left = the body's left, +x in drape's frame
};
UpperArms find_upper_arms(const Skeleton& skeleton);

/// The elbow of the upper arm `bone`: the head of the first bone below it
/// (breadth first) named as a forearm (MakeHuman's lowerarm01.L, Unreal's
/// lowerarm_l, Rigify's forearm.L, Mixamo's LeftForeArm), else the bone's
/// own tail. The upper arm's direction is head -> elbow, not head -> tail:
/// MakeHuman splits the upper arm into upperarm01 (a few cm, its tail an
/// interior joint placed by the fit) and upperarm02, and the first alone can
/// lean 20 degrees away from the arm (GarmentCode's mean_female: 33.5 and
/// 54.3 degrees below the horizontal for arms at 44 and 44).
Vec3 elbow_of(const Skeleton& skeleton, int bone);

/// Degrees below the horizontal of the upper arm `bone` (head -> elbow_of)
/// in the rest pose (drape's frame: +y up); 90 = hanging straight down.
double arm_angle_below_horizontal(const Skeleton& skeleton, int bone);

/// The pose that turns each upper arm, with every bone below it, about the
/// arm's head until its head -> elbow_of points `degrees_below_horizontal` below the
/// horizontal, keeping its forward lean (the turn is in the vertical plane
/// through the arm). Every other bone keeps its rest. nullopt when the
/// skeleton has no upper arms (find_upper_arms).
std::optional<Pose> arms_raised_pose(const Skeleton& skeleton, double degrees_below_horizontal);

}  // namespace drape

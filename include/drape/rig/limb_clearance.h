#pragma once
// Posed arms kept clear of the rest of the body. Skinning (linear blend and
// dual quaternion alike) lets an arm that hangs at the side sink into the
// torso: MakeHuman's body in the first frame of a jumping-jacks motion has 52
// arm triangles crossing torso triangles, and a sleeve pinched there has
// nowhere to go. A real arm pressed to the side flattens against it; a
// skinned one passes through. LimbClearance turns each upper arm (with every
// bone below it) outward about its posed head by the least angle that leaves
// the arm's skin at least a gap outside the trunk, so the garment layers
// between them have room (docs/ANIMATION.md, "Arms kept clear of the
// torso"). Legs likewise: thighs that skinning presses together (feet
// together) leave no room for the trouser legs between them; with a leg gap
// each upper leg turns outward until its skin is half that gap from the
// other leg's.

#include <memory>
#include <optional>
#include <vector>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/geometry/triangle_mesh.h"
#include "drape/rig/skeleton.h"
#include "drape/rig/skin_weights.h"
#include "drape/rig/skinning.h"

namespace drape {

/// The upper legs: below the lowest common ancestor of the lowest joint on
/// either side of the skeleton's middle (the feet), the first bone on the
/// way down to each foot whose head stands 5 cm or more to that side of the
/// ancestor's (MakeHuman's upperleg01, not pelvis.L; Mixamo's LeftUpLeg).
/// left = the body's left (+x in drape's frame); -1 where none.
struct UpperLegs {
  int left = -1, right = -1;
};
UpperLegs find_upper_legs(const Skeleton& skeleton);

struct LimbClearanceOptions {
  /// Least distance (metres) from an arm vertex to the trunk; 0 = arms are
  /// not turned.
  double gap = 0.015;
  /// About the least distance (metres) between the two legs' skins; 0 = legs
  /// are not turned. Each leg is held half of it from the other leg as it
  /// stands, so the two turned legs end about this far apart.
  double leg_gap = 0;
  /// Largest outward turn of an arm, degrees; an arm still too close at
  /// this angle is left at it.
  double max_degrees = 30;
  /// Vertices whose weight on the upper arm and the bones below it is at
  /// least this move with the arm; the trunk it is held clear of is the
  /// faces whose vertices all have at most 1 - this on either arm (torso,
  /// head, legs). The mixed skin of the shoulder is neither.
  double limb_weight = 0.9;
  /// Only arm vertices at least this far (metres) from the trunk in the
  /// rest pose count (the skin near the shoulder joins the trunk's).
  double rest_clearance = 0.03;
  /// Bisection steps on the angle (the answer within max_degrees / 2^steps).
  int bisection_steps = 10;
};

/// The turn LimbClearance gave one limb.
struct LimbTurn {
  int bone = -1;       ///< the upper arm or upper leg bone
  bool leg = false;    ///< a leg (held clear of the other leg), else an arm
  double degrees = 0;  ///< outward turn about the bone's posed head
  /// Smallest signed distance (metres, negative inside) from the limb's
  /// vertices to what it is held clear of (an arm: the trunk; a leg: the
  /// other leg), before and after the turn (+inf when no vertex is within the
  /// search reach).
  double before = 0, after = 0;
};

class LimbClearance {
 public:
  /// `rest_body` (metres, drape's frame: +y up, facing +z, the body's left
  /// at +x) with one weight entry per vertex on `skeleton`'s bones. Arms
  /// are found by name (find_upper_arms), legs by the skeleton's shape
  /// (find_upper_legs); a skeleton without both arms (legs) turns none. All
  /// three must outlive this.
  /// \throw InvalidInput when the weights do not match the body.
  LimbClearance(const Skeleton& skeleton, const TriangleMesh& rest_body, const SkinWeights& weights,
                SkinningMethod method, const LimbClearanceOptions& options = {});
  ~LimbClearance();

  /// `pose` with each upper arm whose skin comes closer than the gap to the
  /// trunk (each upper leg closer than half the leg gap to the other leg)
  /// turned outward (about the forward axis of the bone above it) by the
  /// least angle that clears it; `turns` (if given) receives one entry per
  /// limb: arms, then legs, the body's left first. Not thread-safe (one
  /// posed copy of the body is reused).
  Pose apply(const Pose& pose, std::vector<LimbTurn>* turns = nullptr);

 private:
  struct Limb;
  // Adds the limb below `bone` (side +1 the body's left), held `gap` clear of
  // the faces whose vertices are all marked in `clear_of` (per body vertex).
  void add_limb(int bone, double side, bool leg, double gap, const std::vector<char>& clear_of);
  // Signed distance (metres, negative inside) from `p` to the trunk as
  // `posed_` has it, or nothing where the closest point says nothing of
  // inside (beyond the search reach, on the trunk's rim, or off to the side
  // of the closest face).
  std::optional<double> signed_distance(const Limb& limb, const Vec3& p) const;
  // Smallest signed distance from the arm's posed vertices turned by `turn`
  // to the trunk, stopping once one is below `stop_below`.
  double clearance(const Limb& limb, const RigidTransform& turn, double stop_below) const;

  const Skeleton& skeleton_;
  const TriangleMesh& rest_;
  const SkinWeights& weights_;
  SkinningMethod method_;
  LimbClearanceOptions options_;
  TriangleMesh posed_;  // the body in the pose being cleared
  std::vector<std::unique_ptr<Limb>> limbs_;
};

}  // namespace drape

#pragma once
// A skeleton: a hierarchy of bones with rest transforms.
//
// Each bone has a head (its joint, the pivot), a tail and a roll. Its rest
// frame is the Blender convention: the local y axis runs from head to tail,
// and roll turns the frame about y starting from the frame that takes the
// world y axis to the bone by the shortest rotation (see rest_rotation).

#include <string>
#include <string_view>
#include <vector>

#include "drape/core/mat3.h"
#include "drape/core/vec.h"

namespace drape {

struct Bone {
  std::string name;
  int parent = -1;  ///< index into Skeleton::bones, -1 for a root
  Vec3 head;        ///< rest joint position, metres
  Vec3 tail;        ///< rest tail position, metres
  double roll = 0;  ///< radians about the head->tail axis
};

struct Skeleton {
  std::string name;
  /// Bones, parents always before their children.
  std::vector<Bone> bones;

  std::size_t size() const { return bones.size(); }
  /// Index of the bone called `name`, or -1.
  int find(std::string_view name) const;
  /// Children of every bone, in bone order.
  std::vector<std::vector<int>> children() const;
  /// Per bone, 1 for bone `root` and every bone below it, else 0.
  std::vector<char> subtree_mask(int root) const;
  /// Rest rotation of bone b: columns are the bone's x, y (head->tail), z axes.
  Mat3 rest_rotation(int b) const;
  /// Rest frame as a transform from bone space to world (origin at the head).
  RigidTransform rest_frame(int b) const { return {rest_rotation(b), bones[b].head}; }
  /// Height spanned by heads and tails (y extent), metres.
  double height() const;

  /// Checks names (unique, non-empty), parent order and finite positions.
  /// \throw InvalidInput naming `source` and the bone.
  void validate(const std::string& source) const;
  /// Sorts bones so that parents precede children (stable otherwise).
  /// \throw InvalidInput naming `source` on a cycle.
  void sort_parents_first(const std::string& source);
};

/// Rest rotation for a bone along `direction` with `roll` (Blender's
/// vec_roll_to_mat3): shortest rotation taking +y to the direction, then
/// `roll` radians about it. Columns: x, y, z axes.
Mat3 bone_rotation_from_roll(const Vec3& direction, double roll);

/// The roll that makes a bone along `direction` have its z axis as close as
/// possible to `z_hint` (inverse of bone_rotation_from_roll for that axis).
double roll_from_z_axis(const Vec3& direction, const Vec3& z_hint);

/// Roll that makes the bone's x axis as close as possible to `x_hint`.
double roll_from_x_axis(const Vec3& direction, const Vec3& x_hint);

}  // namespace drape

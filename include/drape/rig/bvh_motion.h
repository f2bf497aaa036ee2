#pragma once
// BVH (Biovision hierarchy) motion files: joint hierarchy with offsets and
// channels, then frames of channel values.
//
// Conventions: rotations in degrees; a joint's rotation is the product of its
// rotation channels in the listed order (e.g. "Zrotation Yrotation Xrotation"
// -> R = Rz*Ry*Rx, acting on column vectors); position channels add to the
// joint's OFFSET. All joints at zero rotation form the file's rest pose.
// Positions are in file units (BVH declares none).

#include <filesystem>
#include <string>
#include <vector>

#include "drape/core/mat3.h"
#include "drape/core/vec.h"

namespace drape {

enum class BvhChannel { x_position, y_position, z_position, x_rotation, y_rotation, z_rotation };

struct BvhJoint {
  std::string name;
  int parent = -1;
  Vec3 offset;  ///< in file units
  std::vector<BvhChannel> channels;
  int channel_offset = 0;  ///< index of its first channel in a frame
  bool has_end_site = false;
  Vec3 end_offset;  ///< End Site offset when has_end_site
};

struct BvhMotion {
  std::vector<BvhJoint> joints;  ///< parents before children (file order)
  int channel_count = 0;         ///< values per frame
  double frame_time = 0;         ///< seconds
  std::vector<std::vector<double>> frames;

  std::size_t frame_count() const { return frames.size(); }
  int find(const std::string& name) const;

  /// Local rotation of joint j in frame f (identity without rotation channels).
  Mat3 local_rotation(int j, std::size_t f) const;
  /// Local translation of joint j in frame f: offset + position channels.
  Vec3 local_translation(int j, std::size_t f) const;

  struct WorldPose {
    std::vector<Mat3> rotation;  ///< world rotation of each joint
    std::vector<Vec3> position;  ///< world position of each joint, file units
  };
  /// Forward kinematics of frame f.
  /// \throw InvalidInput when f is out of range.
  WorldPose world_pose(std::size_t f) const;
  /// Rest pose (all channels zero): joint positions from offsets only.
  std::vector<Vec3> rest_positions() const;
  /// Largest extent of the rest pose (joints and end sites) along any axis, in
  /// file units. BVH has no unit field: compare this with a known height (or
  /// let retargeting scale by skeleton size, as it does) to get one.
  double rest_extent() const;
};

/// Reads a BVH file.
/// \throw IoError when unreadable; InvalidInput naming the file and line for a
///        bad keyword, unknown channel, unbalanced braces, a wrong frame count or
///        value count, or a non-finite number.
BvhMotion read_bvh(const std::filesystem::path& path);
/// Parses BVH text; `source` names it in errors.
BvhMotion parse_bvh(const std::string& text, const std::string& source);

}  // namespace drape

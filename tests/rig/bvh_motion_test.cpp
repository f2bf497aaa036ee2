#include "drape/rig/bvh_motion.h"

#include <gtest/gtest.h>

#include <fstream>
#include <numbers>
#include <sstream>

#include "drape/core/exceptions.h"
#include "rig_test_data.h"

using namespace drape;
using namespace drape::test;

namespace {
struct Counts {
  int joints = 0, channels = 0, frames_declared = 0, frame_lines = 0, values_per_line = -1;
};
// Independent simple count straight from the text.
Counts count_by_hand(const std::string& path) {
  std::ifstream in(path);
  Counts c;
  std::string line;
  bool motion = false, after_time = false;
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    std::string w;
    ss >> w;
    if (!motion) {
      if (w == "ROOT" || w == "JOINT") ++c.joints;
      if (w == "CHANNELS") {
        int n;
        ss >> n;
        c.channels += n;
      }
      if (w == "MOTION") motion = true;
    } else if (w == "Frames:") {
      ss >> c.frames_declared;
    } else if (w == "Frame") {
      after_time = true;
    } else if (after_time && !w.empty()) {
      ++c.frame_lines;
      int n = 1;
      while (ss >> w) ++n;
      if (c.values_per_line < 0) c.values_per_line = n;
      EXPECT_EQ(c.values_per_line, n);
    }
  }
  return c;
}

std::string error_of(const std::string& file) {
  try {
    read_bvh(test_data(file));
  } catch (const InvalidInput& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Bvh, SharedFilesParseWithTheRightCounts) {
  for (const std::string f : {"motion/cmu_jumping_jacks.bvh", "motion/makehuman_tpose.bvh"}) {
    const Counts c = count_by_hand(data(f));
    const BvhMotion m = read_bvh(data(f));
    EXPECT_EQ(static_cast<int>(m.joints.size()), c.joints) << f;
    EXPECT_EQ(m.channel_count, c.channels) << f;
    EXPECT_EQ(m.channel_count, c.values_per_line) << f;
    EXPECT_EQ(static_cast<int>(m.frame_count()), c.frames_declared) << f;
    EXPECT_EQ(static_cast<int>(m.frame_count()), c.frame_lines) << f;
  }
  const BvhMotion jj = read_bvh(data("motion/cmu_jumping_jacks.bvh"));
  EXPECT_EQ(jj.frame_count(), 125u);
  EXPECT_NEAR(jj.frame_time, 1.0 / 30, 1e-4);
  EXPECT_EQ(jj.joints[0].name, "Hips");
  EXPECT_EQ(jj.joints[0].channels.size(), 6u);
  EXPECT_EQ(jj.joints[0].channels[3], BvhChannel::z_rotation);  // order as written: Z Y X
  EXPECT_EQ(read_bvh(data("motion/makehuman_tpose.bvh")).frame_count(), 1u);
}

TEST(Bvh, ForwardKinematicsMatchesHandComputation) {
  const BvhMotion m = read_bvh(test_data("tiny.bvh"));
  ASSERT_EQ(m.joints.size(), 2u);
  ASSERT_EQ(m.channel_count, 9);
  EXPECT_TRUE(m.joints[1].has_end_site);
  const auto w0 = m.world_pose(0);
  EXPECT_NEAR(norm(w0.position[1] - Vec3{0, 0.5, 0}), 0, 1e-15);
  // Frame 1: root at offset + (0.1,0.2,0.3), turned 90 deg about z (Z X Y order); knee 90 deg about x.
  const auto w = m.world_pose(1);
  EXPECT_NEAR(norm(w.position[0] - Vec3{0.1, 1.2, 0.3}), 0, 1e-12);
  EXPECT_NEAR(norm(w.position[1] - Vec3{0.6, 1.2, 0.3}), 0, 1e-12);
  const Vec3 end = w.position[1] + w.rotation[1] * m.joints[1].end_offset;
  EXPECT_NEAR(norm(end - Vec3{0.6, 1.2, -0.2}), 0, 1e-12);
  EXPECT_THROW(m.world_pose(2), InvalidInput);
  EXPECT_DOUBLE_EQ(m.rest_extent(), 1.0);  // hips at y=1, end site at y=0
}

TEST(Bvh, RotationOrderIsTheListedOrder) {
  // ZYX vs XYZ give different matrices for the same angles.
  const std::string head = "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 3 ";
  const std::string tail = "\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n";
  const BvhMotion zyx = parse_bvh(head + "Zrotation Yrotation Xrotation" + tail + "30 40 50\n", "zyx");
  const BvhMotion xyz = parse_bvh(head + "Xrotation Yrotation Zrotation" + tail + "50 40 30\n", "xyz");
  const double k = std::numbers::pi / 180;
  const Mat3 expect_zyx = Mat3::rotation_z(30 * k) * Mat3::rotation_y(40 * k) * Mat3::rotation_x(50 * k);
  const Mat3 expect_xyz = Mat3::rotation_x(50 * k) * Mat3::rotation_y(40 * k) * Mat3::rotation_z(30 * k);
  const Mat3 a = zyx.local_rotation(0, 0), b = xyz.local_rotation(0, 0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      EXPECT_NEAR(a(i, j), expect_zyx(i, j), 1e-12);
      EXPECT_NEAR(b(i, j), expect_xyz(i, j), 1e-12);
    }
}

TEST(Bvh, MalformedFilesGiveFileLineAndProblem) {
  std::string e = error_of("bad_channel.bvh");
  EXPECT_NE(e.find("bad_channel.bvh:9"), std::string::npos) << e;
  EXPECT_NE(e.find("Wrotation"), std::string::npos) << e;
  e = error_of("truncated_frames.bvh");
  EXPECT_NE(e.find("truncated_frames.bvh"), std::string::npos) << e;
  EXPECT_NE(e.find("header says 2 frames"), std::string::npos) << e;
  e = error_of("nan_value.bvh");
  EXPECT_NE(e.find("nan_value.bvh:19"), std::string::npos) << e;
  EXPECT_NE(e.find("finite"), std::string::npos) << e;
  e = error_of("unbalanced.bvh");
  EXPECT_NE(e.find("unbalanced.bvh"), std::string::npos) << e;
  e = error_of("huge_frame_count.bvh");
  EXPECT_NE(e.find("huge_frame_count.bvh:8"), std::string::npos) << e;
  EXPECT_THROW(read_bvh(test_data("does_not_exist.bvh")), IoError);
  // A hierarchy nested too deep is refused before it can exhaust the stack.
  std::string deep = "HIERARCHY\nROOT j0\n{\nOFFSET 0 0 0\nCHANNELS 0\n";
  for (int i = 1; i < 1100; ++i) deep += "JOINT j" + std::to_string(i) + "\n{\nOFFSET 0 0 0\nCHANNELS 0\n";
  EXPECT_THROW(parse_bvh(deep, "deep"), InvalidInput);
}

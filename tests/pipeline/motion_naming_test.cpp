// Motions from the common sources drive the body without a map file: a
// Mixamo-named copy of the CMU jumping jacks (tests/data/rig/
// mixamo_jumping_jacks.bvh: the same hierarchy and numbers, joints renamed to
// Mixamo's names with the "mixamorig:" namespace, frames 0-49) must pose the
// MakeHuman body exactly as the CMU original does; MakeHuman's own names map
// onto its default skeleton.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "drape/body/body_loader.h"
#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/pipeline/animation_job.h"
#include "drape/pipeline/body_rigging.h"
#include "drape/rig/retarget.h"
#include "drape/rig/skinning.h"
#include "test_temp_dir.h"

using namespace drape;
namespace fs = std::filesystem;

namespace {

const fs::path kData = DRAPE_DATA_DIR;
const fs::path kCmu = kData / "motion/cmu_jumping_jacks.bvh";
const fs::path kMixamo = fs::path(DRAPE_TEST_DATA_DIR) / "rig/mixamo_jumping_jacks.bvh";

// The body posed by frame `frame` of `motion`, its joints mapped by guess_joint_map.
std::vector<Vec3> posed_body(const RiggedBody& rb, const Body& body, const BvhMotion& motion, long frame) {
  const JointNameMap map = guess_joint_map(rb.skeleton, motion);
  const Pose pose = retarget_bvh_frame(rb.skeleton, motion, static_cast<std::size_t>(frame), map).pose;
  return skin_points(body.mesh.positions, {}, rb.weights, pose, SkinningMethod::linear_blend).positions;
}

double max_distance(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, norm(a[i] - b[i]));
  return d;
}

// The Mixamo test motion with its namespace removed ("mixamorig:Hips" -> "Hips").
fs::path without_namespace(const fs::path& dir) {
  std::string text = read_file(kMixamo);
  for (std::size_t at; (at = text.find("mixamorig:")) != std::string::npos;) text.erase(at, 10);
  const fs::path out = dir / "mixamo_plain.bvh";
  std::ofstream(out) << text;
  return out;
}

}  // namespace

TEST(MotionNaming, MixamoNamesPoseTheBodyExactlyAsTheCmuOriginal) {
  const Body body = load_body(kData / "bodies/makehuman/base.obj");
  const RiggedBody rb =
      rig_body(load_template_rig(kData / "bodies/makehuman/cmu_mb.mhskel"), body.mesh, body.all_vertices);
  const BvhMotion cmu = read_bvh(kCmu);
  const BvhMotion mixamo = read_bvh(kMixamo);
  const BvhMotion plain = read_bvh(without_namespace(drape::test::test_temp_dir()));
  ASSERT_EQ(mixamo.frame_count(), 50u);
  for (long f : {0L, 20L, 35L, 49L}) {
    const std::vector<Vec3> want = posed_body(rb, body, cmu, f);
    // The frames really differ from rest (arms and legs spread from frame ~20).
    if (f >= 20) {
      EXPECT_GT(max_distance(want, body.mesh.positions), 0.1) << "frame " << f;
    }
    EXPECT_LT(max_distance(posed_body(rb, body, mixamo, f), want), 1e-9) << "mixamorig: frame " << f;
    EXPECT_LT(max_distance(posed_body(rb, body, plain, f), want), 1e-9) << "no namespace: frame " << f;
  }
}

TEST(MotionNaming, MixamoMotionPicksTheCmuSkeletonAndPlacesEveryMixamoJoint) {
  const BvhMotion mixamo = read_bvh(kMixamo);
  fs::path chosen;
  const TemplateRig tr = template_rig_for_motion(
      {kData / "bodies/makehuman/default.mhskel", kData / "bodies/makehuman/cmu_mb.mhskel"}, mixamo, {}, {},
      chosen);
  EXPECT_EQ(chosen.filename(), "cmu_mb.mhskel");
  const MotionMapping m = map_motion(tr.skeleton, mixamo, kMixamo);
  EXPECT_EQ(m.rotating_joints, 31u);
  EXPECT_TRUE(m.unplaced.empty()) << m.unplaced.size() << " unplaced";
  EXPECT_EQ(m.map.size(), tr.skeleton.size());  // every cmu_mb bone follows a joint
  // The spine is shifted by one against the same names on cmu_mb.
  EXPECT_EQ(m.map.at("LowerBack"), "mixamorig:Spine");
  EXPECT_EQ(m.map.at("Spine1"), "mixamorig:Spine2");
  EXPECT_EQ(m.map.at("LeftArm"), "mixamorig:LeftArm");
}

TEST(MotionNaming, MakeHumanNamesPlaceEveryJointOfTheDefaultSkeleton) {
  const fs::path tpose = kData / "motion/makehuman_tpose.bvh";
  const BvhMotion motion = read_bvh(tpose);
  fs::path chosen;
  const TemplateRig tr = template_rig_for_motion(
      {kData / "bodies/makehuman/default.mhskel", kData / "bodies/makehuman/cmu_mb.mhskel"}, motion, {}, {},
      chosen);
  EXPECT_EQ(chosen.filename(), "default.mhskel");
  const MotionMapping m = map_motion(tr.skeleton, motion, tpose);
  EXPECT_EQ(m.map.size(), tr.skeleton.size());  // every one of the 163 bones follows its joint
  // The file's only extra joints are 10 metatarsals the default skeleton has no bones for.
  EXPECT_EQ(m.unplaced.size(), 10u);
  for (const std::string& j : m.unplaced) EXPECT_EQ(j.rfind("metatarsal", 0), 0u) << j;
}

TEST(MotionNaming, AMixamoMotionOnASkeletonWithoutItsNamesMapsByRoles) {
  // MakeHuman's default skeleton has none of Mixamo's names: the joints are
  // placed by their anatomical roles (joint_roles.h).
  const Skeleton d = load_template_rig(kData / "bodies/makehuman/default.mhskel").skeleton;
  const MotionMapping m = map_motion(d, read_bvh(kMixamo), kMixamo);
  EXPECT_EQ(m.map.at("root"), "mixamorig:Hips");
  EXPECT_EQ(m.map.at("clavicle.L"), "mixamorig:LeftShoulder");  // Mixamo's shoulder is the clavicle
  EXPECT_EQ(m.map.at("upperarm01.L"), "mixamorig:LeftArm");
  EXPECT_EQ(m.map.at("lowerleg01.R"), "mixamorig:RightLeg");
  // Left unplaced: the fingers and the toe bases (the default skeleton has five toes, no one toe bone).
  EXPECT_EQ(m.unplaced.size(), 8u);
  for (const std::string& j : m.unplaced)
    EXPECT_TRUE(j.find("Index") != std::string::npos || j.find("Thumb") != std::string::npos ||
                j.find("ToeBase") != std::string::npos)
        << j;
}

TEST(MotionNaming, AMotionWithoutHumanJointsNamesTheFileAndTheRoles) {
  // Ten joints j0..j9 in a chain: no name in common with the skeleton, no anatomical role.
  std::string text =
      "HIERARCHY\nROOT j0\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition "
      "Zrotation Xrotation Yrotation\n";
  for (int i = 1; i < 10; ++i)
    text += "JOINT j" + std::to_string(i) + "\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n";
  text += "End Site\n{\nOFFSET 0 1 0\n}\n";
  for (int i = 0; i < 10; ++i) text += "}\n";
  text += "MOTION\nFrames: 1\nFrame Time: 0.033\n";
  for (int i = 0; i < 33; ++i) text += "0 ";
  const fs::path path = drape::test::test_temp_dir() / "j_chain.bvh";
  std::ofstream(path) << text << "\n";
  const Skeleton d = load_template_rig(kData / "bodies/makehuman/default.mhskel").skeleton;
  try {
    map_motion(d, read_bvh(path), path);
    FAIL() << "expected InvalidInput";
  } catch (const InvalidInput& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("j_chain.bvh"), std::string::npos) << what;
    EXPECT_NE(what.find("left thigh (bone upperleg01.L)"), std::string::npos) << what;
    EXPECT_NE(what.find("right upper arm (bone upperarm01.R)"), std::string::npos) << what;
  }
}

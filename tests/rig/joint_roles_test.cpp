// Role-based joint maps: any humanoid skeleton in the repository's data
// driven by the CMU, MakeHuman and Mixamo motions without a map file. The
// expected pairs below were written by hand from the files' hierarchies (a
// BVH joint turns the segment that starts at it: CMU's LeftShoulder is the
// shoulder joint and drives the upper arm, Mixamo's LeftShoulder is the
// clavicle), not taken from the code's output.

#include "drape/rig/joint_roles.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "drape/core/exceptions.h"
#include "drape/rig/gltf_skin.h"
#include "drape/rig/retarget.h"
#include "rig_test_data.h"

using namespace drape;
using namespace drape::test;

namespace {

const Skeleton& target(const std::string& name) {
  static std::map<std::string, Skeleton> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  Skeleton s;
  if (name == "godot")
    s = read_gltf_skin(data("bodies/godot_male_base_mesh/male_base_mesh.glb")).skeleton;
  else if (name == "mannequin")
    s = read_gltf_skin(data("bodies/gdquest_mannequin/mannequiny-0.3.0.glb")).skeleton;
  else
    s = mh_skeleton(name).skeleton;
  return cache.emplace(name, std::move(s)).first->second;
}

const BvhMotion& motion(const std::string& name) {
  static std::map<std::string, BvhMotion> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  const std::string path = name == "cmu"         ? data("motion/cmu_jumping_jacks.bvh")
                           : name == "makehuman" ? data("motion/makehuman_tpose.bvh")
                                                 : test_data("mixamo_jumping_jacks.bvh");
  return cache.emplace(name, read_bvh(path)).first->second;
}

struct MapCase {
  std::string target, motion;
  std::vector<std::pair<std::string, std::string>> pairs;  // bone -> joint, by hand
};

// Per side, "{s}" is replaced by the side's spelling on each side.
std::vector<std::pair<std::string, std::string>> sided(
    std::vector<std::pair<std::string, std::string>> base,
    std::vector<std::pair<std::string, std::string>> per_side, std::pair<std::string, std::string> left,
    std::pair<std::string, std::string> right) {
  auto fill = [](std::string s, const std::string& v) {
    for (std::size_t at; (at = s.find("{s}")) != std::string::npos;) s.replace(at, 3, v);
    return s;
  };
  for (const auto& side : {left, right})
    for (const auto& [b, j] : per_side) base.emplace_back(fill(b, side.first), fill(j, side.second));
  return base;
}

const std::pair<std::string, std::string> kCmuLeft{"", "Left"}, kCmuRight{"", "Right"};

std::vector<MapCase> map_cases() {
  std::vector<MapCase> c;
  // MakeHuman's default skeleton: split limbs (upperarm01/02 ...), five spine and three neck bones.
  c.push_back({"default", "cmu",
               sided({{"root", "Hips"},
                      {"spine05", "lowerback"},
                      {"spine01", "Chest2"},
                      {"neck01", "lowerneck"},
                      {"neck03", "Neck"},
                      {"head", "Head"},
                      {"pelvis.L", "LHipJoint"},
                      {"pelvis.R", "RHipJoint"},
                      // a one-bone hand takes CMU's palm joint (lhand), not LeftWrist's short segment
                      {"wrist.L", "lhand"},
                      {"wrist.R", "rhand"}},
                     {{"upperleg01.{s}", "{s}Hip"},
                      {"lowerleg01.{s}", "{s}Knee"},
                      {"foot.{s}", "{s}Ankle"},
                      {"clavicle.{s}", "{s}Collar"},
                      {"upperarm01.{s}", "{s}Shoulder"},
                      {"lowerarm01.{s}", "{s}Elbow"}},
                     {"L", "Left"}, {"R", "Right"})});
  c.push_back({"default", "mixamo",
               sided({{"root", "mixamorig:Hips"},
                      {"spine05", "mixamorig:Spine"},
                      {"spine01", "mixamorig:Spine2"},
                      {"head", "mixamorig:Head"}},
                     {{"clavicle.{s}", "mixamorig:{s}Shoulder"},
                      {"upperarm01.{s}", "mixamorig:{s}Arm"},
                      {"lowerarm01.{s}", "mixamorig:{s}ForeArm"},
                      {"wrist.{s}", "mixamorig:{s}Hand"},
                      {"upperleg01.{s}", "mixamorig:{s}UpLeg"},
                      {"lowerleg01.{s}", "mixamorig:{s}Leg"},
                      {"foot.{s}", "mixamorig:{s}Foot"}},
                     {"L", "Left"}, {"R", "Right"})});
  // MakeHuman's names on its own skeleton: the exact same-name map.
  c.push_back(
      {"default",
       "makehuman",
       {{"upperarm01.L", "upperarm01.L"}, {"upperarm02.L", "upperarm02.L"}, {"toe1-1.R", "toe1-1.R"}}});
  // Unreal-style game engine skeleton: Root at the floor above pelvis.
  for (const auto& [m, pairs] :
       std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>>{
           {"cmu", sided({{"pelvis", "Hips"},
                          {"spine_01", "lowerback"},
                          {"spine_03", "Chest2"},
                          {"head", "Head"},
                          {"hand_l", "lhand"},
                          {"hand_r", "rhand"}},
                         {{"thigh_{s}", "{s}Hip"},
                          {"calf_{s}", "{s}Knee"},
                          {"foot_{s}", "{s}Ankle"},
                          {"ball_{s}", "{s}Toe"},
                          {"clavicle_{s}", "{s}Collar"},
                          {"upperarm_{s}", "{s}Shoulder"},
                          {"lowerarm_{s}", "{s}Elbow"}},
                         {"l", "Left"}, {"r", "Right"})},
           {"makehuman", sided({{"pelvis", "root"}, {"spine_01", "spine05"}, {"spine_03", "spine01"}},
                               {{"thigh_{s}", "upperleg01.{s}"},
                                {"calf_{s}", "lowerleg01.{s}"},
                                {"clavicle_{s}", "clavicle.{s}"},
                                {"upperarm_{s}", "upperarm01.{s}"},
                                {"lowerarm_{s}", "lowerarm01.{s}"},
                                {"hand_{s}", "wrist.{s}"}},
                               {"l", "L"}, {"r", "R"})},
           {"mixamo", sided({{"pelvis", "mixamorig:Hips"}, {"spine_03", "mixamorig:Spine2"}},
                            {{"thigh_{s}", "mixamorig:{s}UpLeg"},
                             {"ball_{s}", "mixamorig:{s}ToeBase"},
                             {"clavicle_{s}", "mixamorig:{s}Shoulder"},
                             {"upperarm_{s}", "mixamorig:{s}Arm"},
                             {"hand_{s}", "mixamorig:{s}Hand"}},
                            {"l", "Left"}, {"r", "Right"})}})
    c.push_back({"game_engine", m, pairs});
  // Godot's Rigify man: the hips bone is called "spine", the clavicle "shoulder".
  c.push_back({"godot", "cmu",
               sided({{"spine", "Hips"},
                      {"spine.001", "lowerback"},
                      {"spine.003", "Chest2"},
                      {"hand.L", "lhand"},
                      {"hand.R", "rhand"}},
                     {{"thigh.{s}", "{s}Hip"},
                      {"shin.{s}", "{s}Knee"},
                      {"foot.{s}", "{s}Ankle"},
                      {"toe.{s}", "{s}Toe"},
                      {"shoulder.{s}", "{s}Collar"},
                      {"upper_arm.{s}", "{s}Shoulder"},
                      {"forearm.{s}", "{s}Elbow"}},
                     {"L", "Left"}, {"R", "Right"})});
  c.push_back({"godot", "mixamo",
               sided({{"spine", "mixamorig:Hips"}},
                     {{"thigh.{s}", "mixamorig:{s}UpLeg"},
                      {"shin.{s}", "mixamorig:{s}Leg"},
                      {"shoulder.{s}", "mixamorig:{s}Shoulder"},
                      {"upper_arm.{s}", "mixamorig:{s}Arm"},
                      {"forearm.{s}", "mixamorig:{s}ForeArm"}},
                     {"L", "Left"}, {"R", "Right"})});
  c.push_back({"godot", "makehuman",
               sided({{"spine", "root"}},
                     {{"thigh.{s}", "upperleg01.{s}"},
                      {"shin.{s}", "lowerleg01.{s}"},
                      {"shoulder.{s}", "clavicle.{s}"},
                      {"upper_arm.{s}", "upperarm01.{s}"}},
                     {"L", "L"}, {"R", "R"})});
  // The GDQuest mannequin: lowercase .l/.r, two spine bones.
  c.push_back({"mannequin", "cmu",
               sided({{"pelvis", "Hips"},
                      {"spine_01", "lowerback"},
                      {"spine_02", "Chest2"},
                      {"head", "Head"},
                      {"hand.l", "lhand"},
                      {"hand.r", "rhand"}},
                     {{"thigh.{s}", "{s}Hip"},
                      {"calf.{s}", "{s}Knee"},
                      {"ball.{s}", "{s}Toe"},
                      {"clavicle.{s}", "{s}Collar"},
                      {"upperarm.{s}", "{s}Shoulder"},
                      {"lowerarm.{s}", "{s}Elbow"}},
                     {"l", "Left"}, {"r", "Right"})});
  c.push_back({"mannequin", "mixamo",
               sided({{"pelvis", "mixamorig:Hips"}, {"head", "mixamorig:Head"}},
                     {{"thigh.{s}", "mixamorig:{s}UpLeg"},
                      {"calf.{s}", "mixamorig:{s}Leg"},
                      {"clavicle.{s}", "mixamorig:{s}Shoulder"},
                      {"upperarm.{s}", "mixamorig:{s}Arm"}},
                     {"l", "Left"}, {"r", "Right"})});
  c.push_back({"mannequin", "makehuman",
               sided({{"pelvis", "root"}, {"head", "head"}},
                     {{"thigh.{s}", "upperleg01.{s}"},
                      {"calf.{s}", "lowerleg01.{s}"},
                      {"upperarm.{s}", "upperarm01.{s}"}},
                     {"l", "L"}, {"r", "R"})});
  // MakeHuman's BVH onto cmu_mb (no name in common).
  c.push_back({"cmu_mb", "makehuman",
               sided({{"Hips", "root"}, {"LowerBack", "spine05"}, {"Spine1", "spine01"}, {"Head", "head"}},
                     {{"{s}UpLeg", "upperleg01.{s}"},
                      {"{s}Leg", "lowerleg01.{s}"},
                      {"{s}Shoulder", "clavicle.{s}"},
                      {"{s}Arm", "upperarm01.{s}"},
                      {"{s}ForeArm", "lowerarm01.{s}"},
                      {"{s}Hand", "wrist.{s}"}},
                     {"Left", "L"}, {"Right", "R"})});
  return c;
}

double angle_deg(const Vec3& a, const Vec3& b) {
  return std::atan2(norm(cross(a, b)), dot(a, b)) * 180 / std::numbers::pi;
}

}  // namespace

TEST(JointRoles, SidesFromNameMarkers) {
  for (const char* n : {"thigh_l", "LeftArm", "upperarm01.L", "lhand", "mixamorig:LeftHand", "LHipJoint",
                        "clavicle.l", "f_index.01.L"})
    EXPECT_EQ(name_side(n), BodySide::left) << n;
  for (const char* n : {"calf_r", "RightUpLeg", "shoulder.R", "rhand", "RThumb"})
    EXPECT_EQ(name_side(n), BodySide::right) << n;
  for (const char* n : {"Hips", "lowerback", "lowerneck", "spine.003", "leg", "root", "Chest2"})
    EXPECT_EQ(name_side(n), BodySide::center) << n;
}

TEST(JointRoles, ShoulderIsTheClavicleOrTheUpperArmByWhatFollows) {
  // CMU: LeftCollar, LeftShoulder, LeftElbow -> the shoulder is the upper arm.
  const JointRoles cmu = classify_joint_roles(motion("cmu"));
  const BvhMotion& m = motion("cmu");
  ASSERT_TRUE(cmu.find(BodyRole::upper_arm, BodySide::left));
  EXPECT_EQ(m.joints[cmu.find(BodyRole::upper_arm, BodySide::left)->joints.front()].name, "LeftShoulder");
  EXPECT_EQ(m.joints[cmu.find(BodyRole::clavicle, BodySide::left)->joints.front()].name, "LeftCollar");
  // Mixamo: LeftShoulder, LeftArm -> the shoulder is the clavicle.
  const JointRoles mix = classify_joint_roles(motion("mixamo"));
  const BvhMotion& x = motion("mixamo");
  EXPECT_EQ(x.joints[mix.find(BodyRole::clavicle, BodySide::right)->joints.front()].name,
            "mixamorig:RightShoulder");
  // MakeHuman's default skeleton: split chains keep every segment in order.
  const Skeleton& d = target("default");
  const JointRoles dr = classify_joint_roles(d);
  auto names = [&](BodyRole r, BodySide s) {
    std::vector<std::string> out;
    if (const RoleChain* c = dr.find(r, s))
      for (int j : c->joints) out.push_back(d.bones[j].name);
    return out;
  };
  EXPECT_EQ(names(BodyRole::spine, BodySide::center),
            (std::vector<std::string>{"spine05", "spine04", "spine03", "spine02", "spine01"}));
  EXPECT_EQ(names(BodyRole::neck, BodySide::center),
            (std::vector<std::string>{"neck01", "neck02", "neck03"}));
  EXPECT_EQ(names(BodyRole::clavicle, BodySide::left),
            (std::vector<std::string>{"clavicle.L", "shoulder01.L"}));
  EXPECT_EQ(names(BodyRole::upper_arm, BodySide::left),
            (std::vector<std::string>{"upperarm01.L", "upperarm02.L"}));
  EXPECT_EQ(names(BodyRole::shin, BodySide::right),
            (std::vector<std::string>{"lowerleg01.R", "lowerleg02.R"}));
  EXPECT_TRUE(names(BodyRole::toe, BodySide::left).empty());  // five toes: none is "the" toe
}

TEST(JointRoles, GuessedMapsPlaceTheHandCheckedJoints) {
  for (const MapCase& c : map_cases()) {
    const Skeleton& s = target(c.target);
    const BvhMotion& m = motion(c.motion);
    const JointNameMap map = guess_joint_map(s, m);
    for (const auto& [bone, joint] : c.pairs) {
      ASSERT_GE(s.find(bone), 0) << c.target << " has no bone " << bone;
      ASSERT_GE(m.find(joint), 0) << c.motion << " has no joint " << joint;
      const auto it = map.find(bone);
      EXPECT_TRUE(it != map.end() && it->second == joint)
          << c.target << " <- " << c.motion << ": " << bone << " -> "
          << (it == map.end() ? std::string("(unmapped)") : it->second) << ", expected " << joint;
    }
    // Every pair names real bones and joints (retarget_bvh_frame accepts it).
    EXPECT_NO_THROW(retarget_bvh_frame(s, m, 0, map)) << c.target << " <- " << c.motion;
  }
}

TEST(JointRoles, CmuFrames60And64PoseEveryTargetLikeTheExactCmuMbMap) {
  // Frames 60 and 64 of the CMU jumping jacks: hands over the head (the upper
  // arms above horizontal, most at 64), legs apart.
  const BvhMotion& m = motion("cmu");
  // Per target, by hand: hips bone, left/right upper arm (its head and the
  // forearm's head), left thigh (its head and the shin's head), head bone.
  struct Limbs {
    std::string target, up_l, fore_l, up_r, fore_r, thigh_l, shin_l, thigh_r, shin_r, hips, head;
  };
  const std::vector<Limbs> limbs = {
      {"cmu_mb", "LeftArm", "LeftForeArm", "RightArm", "RightForeArm", "LeftUpLeg", "LeftLeg", "RightUpLeg",
       "RightLeg", "Hips", "Head"},
      {"default", "upperarm01.L", "lowerarm01.L", "upperarm01.R", "lowerarm01.R", "upperleg01.L",
       "lowerleg01.L", "upperleg01.R", "lowerleg01.R", "root", "head"},
      {"game_engine", "upperarm_l", "lowerarm_l", "upperarm_r", "lowerarm_r", "thigh_l", "calf_l", "thigh_r",
       "calf_r", "pelvis", "head"},
      {"godot", "upper_arm.L", "forearm.L", "upper_arm.R", "forearm.R", "thigh.L", "shin.L", "thigh.R",
       "shin.R", "spine", "spine.005"},
      {"mannequin", "upperarm.l", "lowerarm.l", "upperarm.r", "lowerarm.r", "thigh.l", "calf.l", "thigh.r",
       "calf.r", "pelvis", "head"},
  };
  // Each limb direction in the skeleton's own rest body frame (x: right to
  // left shoulder, y: hips to head, z: forward), so skeletons facing other
  // ways compare.
  auto directions = [&](const Limbs& l, const JointNameMap& map, std::size_t frame) {
    const Skeleton& s = target(l.target);
    auto bone = [&](const std::string& n) {
      const int b = s.find(n);
      EXPECT_GE(b, 0) << l.target << " " << n;
      return std::max(b, 0);
    };
    const Vec3 up = normalized(s.bones[bone(l.head)].head - s.bones[bone(l.hips)].head);
    Vec3 side = s.bones[bone(l.up_l)].head - s.bones[bone(l.up_r)].head;
    side = normalized(side - up * dot(side, up));
    const Vec3 fwd = cross(side, up);
    const Pose p = retarget_bvh_frame(s, m, frame, map).pose;
    auto dir = [&](const std::string& a, const std::string& b) {
      const Vec3 d = normalized(p.head(s, bone(b)) - p.head(s, bone(a)));
      return Vec3{dot(d, side), dot(d, up), dot(d, fwd)};
    };
    return std::vector<Vec3>{dir(l.up_l, l.fore_l), dir(l.up_r, l.fore_r), dir(l.thigh_l, l.shin_l),
                             dir(l.thigh_r, l.shin_r)};
  };
  const char* what[] = {"left upper arm", "right upper arm", "left thigh", "right thigh"};
  for (std::size_t frame : {60u, 64u}) {
    const std::vector<Vec3> want = directions(limbs[0], cmu_to_makehuman_cmu_mb_map(), frame);
    // The frame is what it should be: upper arms raised above horizontal, legs spread apart.
    EXPECT_GT(want[0].y, 0.15) << frame;
    EXPECT_GT(want[1].y, 0.15) << frame;
    EXPECT_GT(want[2].x, 0.2) << frame;   // left thigh out to the left
    EXPECT_LT(want[3].x, -0.2) << frame;  // right thigh out to the right
    for (std::size_t t = 1; t < limbs.size(); ++t) {
      const std::vector<Vec3> got = directions(limbs[t], guess_joint_map(target(limbs[t].target), m), frame);
      for (int k = 0; k < 4; ++k)
        EXPECT_LT(angle_deg(got[k], want[k]), 20) << limbs[t].target << " " << what[k] << " frame " << frame;
    }
  }
}

TEST(JointRoles, AnUnmappableMotionNamesTheRolesItCouldNotPlace) {
  // A chain of ten joints named j0..j9: no name in common, no role.
  std::string bvh =
      "HIERARCHY\nROOT j0\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition "
      "Zrotation Xrotation Yrotation\n";
  for (int i = 1; i < 10; ++i)
    bvh += "JOINT j" + std::to_string(i) + "\n{\n OFFSET 0 1 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n";
  bvh += "End Site\n{\n OFFSET 0 1 0\n}\n";
  for (int i = 0; i < 10; ++i) bvh += "}\n";
  bvh += "MOTION\nFrames: 1\nFrame Time: 0.033\n";
  for (int i = 0; i < 6 + 9 * 3; ++i) bvh += "0 ";
  bvh += "\n";
  const BvhMotion m = parse_bvh(bvh, "j.bvh");
  try {
    guess_joint_map(target("game_engine"), m);
    FAIL() << "expected InvalidInput";
  } catch (const InvalidInput& e) {
    const std::string w = e.what();
    for (const char* s :
         {"hips (bone pelvis)", "left thigh (bone thigh_l)", "right thigh (bone thigh_r)",
          "left upper arm (bone upperarm_l)", "right upper arm (bone upperarm_r)", "no BVH joint", "--map"})
      EXPECT_NE(w.find(s), std::string::npos) << s << " not in: " << w;
  }
}

TEST(JointRoles, SplitLimbsFollowTheWholeLimbsDirection) {
  // MakeHuman's default skeleton splits thigh, shin, upper arm and forearm in
  // two bones; the role map drives the first, and the first alone can lean
  // off the limb. Both skeletons are placed on the same body (base.obj), so
  // the default skeleton posed by the role map must put knees, ankles,
  // elbows and wrists where cmu_mb, posed by the exact CMU map, puts its own
  // (as far apart as they are at rest, plus 2 cm for the legs, whose chains
  // match bone for bone, and 4.5 cm for the arms, below a spine of five bones
  // driven by CMU's three). Measured: legs 0.6-1.1 cm, arms 3.3-3.9 cm; with
  // the first bone's own direction, 6.7-7.7 and 5.1-5.2 cm at frame 64.
  const BvhMotion& m = motion("cmu");
  const Skeleton& d = target("default");
  const Skeleton& c = target("cmu_mb");
  const std::vector<std::pair<std::string, std::string>> joints = {
      {"lowerleg01.L", "LeftLeg"}, {"lowerleg01.R", "RightLeg"},    {"foot.L", "LeftFoot"},
      {"foot.R", "RightFoot"},     {"lowerarm01.L", "LeftForeArm"}, {"lowerarm01.R", "RightForeArm"},
      {"wrist.L", "LeftHand"},     {"wrist.R", "RightHand"}};
  for (std::size_t frame : {20u, 40u, 64u}) {
    const Pose pd = retarget_bvh_frame(d, m, frame, guess_joint_map(d, m)).pose;
    const Pose pc = retarget_bvh_frame(c, m, frame, cmu_to_makehuman_cmu_mb_map()).pose;
    for (const auto& [dn, cn] : joints) {
      const int bd = d.find(dn), bc = c.find(cn);
      ASSERT_GE(bd, 0) << dn;
      ASSERT_GE(bc, 0) << cn;
      const double rest = norm(d.bones[bd].head - c.bones[bc].head);
      const double posed = norm(pd.head(d, bd) - pc.head(c, bc));
      const bool leg = dn.find("leg") != std::string::npos || dn.find("foot") != std::string::npos;
      EXPECT_LT(posed, rest + (leg ? 0.02 : 0.045)) << dn << " frame " << frame << ": rest " << rest;
    }
  }
}

#include "drape/rig/retarget.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/rig/joint_roles.h"

namespace drape {

JointNameMap same_name_map(const Skeleton& target, const BvhMotion& motion) {
  JointNameMap m;
  for (const Bone& b : target.bones)
    if (motion.find(b.name) >= 0) m[b.name] = b.name;
  return m;
}

JointNameMap cmu_to_makehuman_cmu_mb_map() {
  // cmu_mb bone -> CMU BVH joint. The BVH joint's rotation turns the segment
  // that starts at it, which is the bone of the same anatomical place.
  JointNameMap m = {{"Hips", "Hips"},     {"LowerBack", "lowerback"}, {"Spine", "Chest"},
                    {"Spine1", "Chest2"}, {"Neck", "lowerneck"},      {"Neck1", "Neck"},
                    {"Head", "Head"}};
  for (const char* side : {"L", "R"}) {
    const std::string s = side, full = s == "L" ? "Left" : "Right", low = s == "L" ? "l" : "r";
    m[s + "HipJoint"] = s + "HipJoint";
    m[full + "UpLeg"] = full + "Hip";
    m[full + "Leg"] = full + "Knee";
    m[full + "Foot"] = full + "Ankle";
    m[full + "ToeBase"] = full + "Toe";
    m[full + "Shoulder"] = full + "Collar";
    m[full + "Arm"] = full + "Shoulder";
    m[full + "ForeArm"] = full + "Elbow";
    m[full + "Hand"] = full + "Wrist";
    m[full + "FingerBase"] = low + "hand";
    m[full + "HandFinger1"] = s + "Fingers";
    m[s + "Thumb"] = s + "Thumb";
  }
  return m;
}

JointNameMap mixamo_to_makehuman_cmu_mb_map() {
  // cmu_mb bone -> Mixamo joint (without its "mixamorig:" namespace). A
  // Mixamo joint turns the segment that starts at it, like a CMU joint: the
  // CMU map above with the Mixamo names for the same places. Mixamo's spine
  // has three joints above the hips (Spine, Spine1, Spine2) where cmu_mb has
  // LowerBack, Spine, Spine1; it has one neck joint (a second, Neck1, is
  // followed when a file has it). cmu_mb's hip joints have no Mixamo
  // counterpart: they follow the hips, or the CMU hip joints (LHipJoint,
  // RHipJoint) that CMU motions renamed to Mixamo names keep.
  JointNameMap m = {{"Hips", "Hips"}, {"LowerBack", "Spine"}, {"Spine", "Spine1"}, {"Spine1", "Spine2"},
                    {"Neck", "Neck"}, {"Neck1", "Neck1"},     {"Head", "Head"}};
  for (const std::string full : {"Left", "Right"}) {
    const std::string s = full.substr(0, 1);
    for (const char* same : {"UpLeg", "Leg", "Foot", "ToeBase", "Shoulder", "Arm", "ForeArm", "Hand"})
      m[full + same] = full + same;
    m[full + "FingerBase"] = full + "HandIndex1";
    m[full + "HandFinger1"] = full + "HandIndex2";
    m[s + "Thumb"] = full + "HandThumb1";
    m[s + "HipJoint"] = s + "HipJoint";
  }
  return m;
}

std::string joint_base_name(const std::string& name) {
  const auto colon = name.rfind(':');
  return colon == std::string::npos ? name : name.substr(colon + 1);
}

namespace {

// True for Mixamo's naming: a "mixamorig" namespace (mixamorig:, mixamorig1:
// ...) or its third spine joint, a name neither CMU nor MakeHuman uses.
bool mixamo_named(const BvhMotion& motion) {
  for (const BvhJoint& j : motion.joints)
    if (j.name.rfind("mixamorig", 0) == 0 || joint_base_name(j.name) == "Spine2") return true;
  return false;
}

// `names` (target bone -> source base name) restricted to bones of `target`
// and joints of `motion` (matched by base name; the map holds the file's name).
JointNameMap restricted(const JointNameMap& names, const Skeleton& target, const BvhMotion& motion) {
  std::map<std::string, std::string> by_base;
  for (const BvhJoint& j : motion.joints) by_base.emplace(joint_base_name(j.name), j.name);
  JointNameMap m;
  for (const auto& [t, s] : names)
    if (const auto it = by_base.find(s); target.find(t) >= 0 && it != by_base.end()) m[t] = it->second;
  return m;
}

}  // namespace

namespace {

// Pairs the joints of a target chain with a source chain of the same role,
// ends with ends: the longer chain's joints at the shorter one's evenly spread
// places; a one-joint chain pairs with the other's first joint, except a
// one-bone target hand, which takes the source hand's last joint (CMU's
// lhand, the palm, not LeftWrist, the short segment before it).
void map_chain(BodyRole role, const std::vector<int>& t, const std::vector<int>& s, const Skeleton& target,
               const BvhMotion& motion, JointNameMap& out) {
  const std::size_t n = t.size(), m = s.size();
  if (role == BodyRole::hand && n == 1) {
    out[target.bones[t[0]].name] = motion.joints[s.back()].name;
    return;
  }
  auto spread = [](std::size_t i, std::size_t from, std::size_t to) {
    return from == 1 ? 0
                     : static_cast<std::size_t>(std::lround(double(i) * double(to - 1) / double(from - 1)));
  };
  if (m >= n)
    for (std::size_t i = 0; i < n; ++i) out[target.bones[t[i]].name] = motion.joints[s[spread(i, n, m)]].name;
  else
    for (std::size_t j = 0; j < m; ++j) out[target.bones[t[spread(j, m, n)]].name] = motion.joints[s[j]].name;
}

}  // namespace

RoleJointMap role_joint_map(const Skeleton& target, const BvhMotion& motion) {
  const JointRoles tr = classify_joint_roles(target), sr = classify_joint_roles(motion);
  RoleJointMap r;
  for (const RoleChain& tc : tr.chains)
    if (const RoleChain* sc = sr.find(tc.role, tc.side))
      map_chain(tc.role, tc.joints, sc->joints, target, motion, r.map);
  const std::pair<BodyRole, BodySide> core[] = {{BodyRole::hips, BodySide::center},
                                                {BodyRole::thigh, BodySide::left},
                                                {BodyRole::thigh, BodySide::right},
                                                {BodyRole::upper_arm, BodySide::left},
                                                {BodyRole::upper_arm, BodySide::right}};
  for (const auto& [role, side] : core) {
    const RoleChain* t = tr.find(role, side);
    const RoleChain* s = sr.find(role, side);
    if (t && s) continue;
    std::string what = role_name(role, side);
    if (t) what += " (bone " + target.bones[t->joints.front()].name + ")";
    if (s) what += " (joint " + motion.joints[s->joints.front()].name + ")";
    what += !t && !s ? ": found in neither" : !t ? ": no bone of the skeleton" : ": no BVH joint";
    r.missing_core.push_back(what);
  }
  return r;
}

JointNameMap guess_joint_map(const Skeleton& target, const BvhMotion& motion) {
  // The exact tables.
  JointNameMap exact;
  if (mixamo_named(motion)) {
    // Mixamo shares many names with cmu_mb (Hips, Spine, LeftArm ...) but not
    // their places along the spine: never the same-name map.
    exact = restricted(mixamo_to_makehuman_cmu_mb_map(), target, motion);
  }
  if (exact.empty()) {
    JointNameMap same;
    for (const Bone& b : target.bones) same[b.name] = b.name;
    same = restricted(same, target, motion);
    if (2 * same.size() >= target.size()) {
      exact = same;
    } else {
      JointNameMap cmu = restricted(cmu_to_makehuman_cmu_mb_map(), target, motion);
      exact = cmu.size() > same.size() ? cmu : same;
    }
  }
  // The roles, where the tables cover less.
  RoleJointMap roles = role_joint_map(target, motion);
  if (!exact.empty() && exact.size() >= roles.map.size()) return exact;
  if (roles.missing_core.empty()) return std::move(roles.map);
  if (!exact.empty()) return exact;
  std::string missing;
  for (const std::string& m : roles.missing_core) missing += (missing.empty() ? "" : "; ") + m;
  const std::string skeleton = target.name.empty() ? "the skeleton" : "skeleton '" + target.name + "'";
  throw InvalidInput("retarget: cannot map the motion onto " + skeleton +
                     ": no joint name in common and the core roles could not all be placed (" + missing +
                     "); give a joint map with --map {\"bone\": \"bvh joint\"}");
}

JointNameMap read_joint_map(const std::string& path) {
  const std::string text = read_file(path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InvalidInput(path, 0, std::string("invalid JSON: ") + e.what());
  }
  if (!j.is_object())
    throw InvalidInput(path, 0, "a joint map must be a JSON object {\"bone\": \"bvh joint\"}");
  JointNameMap m;
  for (const auto& [k, v] : j.items()) {
    if (!v.is_string()) throw InvalidInput(path, 0, "joint map entry '" + k + "' is not a string");
    m[k] = v.get<std::string>();
  }
  return m;
}

namespace {
// Shortest rotation taking unit a to unit b.
Mat3 rotation_between(const Vec3& a_in, const Vec3& b_in) {
  const Vec3 a = normalized(a_in), b = normalized(b_in);
  const Vec3 axis = cross(a, b);
  const double s = norm(axis), c = dot(a, b);
  if (s < 1e-12) {
    if (c > 0) return Mat3::identity();
    Vec3 perp = std::abs(a.x) < 0.9 ? cross(a, Vec3{1, 0, 0}) : cross(a, Vec3{0, 1, 0});
    return Mat3::rotation_axis_angle(perp, std::numbers::pi);
  }
  return Mat3::rotation_axis_angle(axis, std::atan2(s, c));
}

// The 24 proper rotations among signed permutation matrices.
std::vector<Mat3> axis_rotations() {
  std::vector<Mat3> out;
  const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (const auto& p : perms)
    for (int signs = 0; signs < 8; ++signs) {
      Mat3 m;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) m.m[r][c] = 0;
      for (int r = 0; r < 3; ++r) m.m[r][p[r]] = (signs >> r & 1) ? -1 : 1;
      if (m.determinant() > 0) out.push_back(m);
    }
  return out;
}

// Rest direction of the segment a BVH joint turns (zero when undefined).
Vec3 source_segment(const BvhMotion& m, int j) {
  int kids = 0;
  Vec3 d;
  for (const BvhJoint& c : m.joints)
    if (c.parent == j) {
      ++kids;
      d = c.offset;
    }
  if (kids == 0 && m.joints[j].has_end_site) return m.joints[j].end_offset;
  return kids == 1 ? d : Vec3{};
}
// Rest direction of the segment target bone b stands for: to the head of
// its one mapped descendant when only unmapped bones lie between (a limb
// split in parts, MakeHuman's upperleg01 -> upperleg02 -> lowerleg01: the
// first part alone can lean 20 degrees off the limb), else head -> tail.
Vec3 target_segment(const Skeleton& s, std::size_t b, const std::vector<int>& source_of,
                    const std::vector<std::vector<int>>& children) {
  const Bone& bone = s.bones[b];
  std::vector<int> below = children[b], found;
  bool direct = true;
  while (!below.empty() && found.size() < 2) {
    std::vector<int> next;
    for (int c : below) {
      if (source_of[c] >= 0) {
        found.push_back(c);
        continue;
      }
      next.insert(next.end(), children[c].begin(), children[c].end());
    }
    if (!found.empty()) break;
    below = std::move(next);
    direct = false;
  }
  if (found.size() == 1 && !direct) return s.bones[found[0]].head - bone.head;
  return bone.tail - bone.head;
}

}  // namespace

RetargetResult retarget_bvh_frame(const Skeleton& target, const BvhMotion& motion, std::size_t frame,
                                  const JointNameMap& map, const RetargetOptions& o) {
  if (frame >= motion.frame_count())
    throw InvalidInput("retarget: frame " + std::to_string(frame) + " out of range (the motion has " +
                       std::to_string(motion.frame_count()) + " frames)");
  std::vector<int> source_of(target.size(), -1);
  RetargetResult r;
  for (const auto& [t, s] : map) {
    const int tb = target.find(t), sj = motion.find(s);
    if (tb < 0) throw InvalidInput("retarget: joint map names bone '" + t + "' missing from the skeleton");
    if (sj < 0) throw InvalidInput("retarget: joint map names joint '" + s + "' missing from the BVH");
    source_of[tb] = sj;
    ++r.mapped_bones;
  }
  if (r.mapped_bones == 0) throw InvalidInput("retarget: no bone of the skeleton maps to a BVH joint");

  // Axes and scale from the mapped rest joints (centred).
  const std::vector<Vec3> src_rest = motion.rest_positions();
  Vec3 sc, tc;
  for (std::size_t b = 0; b < target.size(); ++b)
    if (source_of[b] >= 0) {
      sc += src_rest[source_of[b]];
      tc += target.bones[b].head;
    }
  sc /= r.mapped_bones;
  tc /= r.mapped_bones;
  double s_spread = 0, t_spread = 0;
  for (std::size_t b = 0; b < target.size(); ++b)
    if (source_of[b] >= 0) {
      s_spread += norm(src_rest[source_of[b]] - sc);
      t_spread += norm(target.bones[b].head - tc);
    }
  r.scale = s_spread > 0 ? t_spread / s_spread : 1.0;
  r.axes = o.axes;
  if (o.auto_axes) {
    double best = -1e300;
    for (const Mat3& a : axis_rotations()) {
      double score = 0;
      for (std::size_t b = 0; b < target.size(); ++b)
        if (source_of[b] >= 0) score += dot(a * (src_rest[source_of[b]] - sc), target.bones[b].head - tc);
      if (score > best + 1e-12) {
        best = score;
        r.axes = a;
      }
    }
  }
  const Mat3 A = r.axes, At = A.transposed();

  // Each bone's children, in bone order (target_segment walks down them).
  const std::vector<std::vector<int>> children = target.children();
  const BvhMotion::WorldPose wp = motion.world_pose(frame);
  std::vector<Mat3> world(target.size());
  for (std::size_t b = 0; b < target.size(); ++b) {
    const int s = source_of[b];
    if (s < 0) {
      world[b] = target.bones[b].parent >= 0 ? world[target.bones[b].parent] : Mat3::identity();
      continue;
    }
    Mat3 c = Mat3::identity();
    if (o.align_rest_directions) {
      const Vec3 seg = source_segment(motion, s);
      const Vec3 dir = target_segment(target, b, source_of, children);
      if (norm(seg) > 1e-9 && norm(dir) > 1e-9) c = rotation_between(dir, A * seg);
    }
    world[b] = A * wp.rotation[s] * At * c;
  }
  Vec3 root_move;
  if (o.root_motion != RootMotion::none) {
    const Vec3 ref = o.root_motion == RootMotion::relative_to_first ? motion.world_pose(0).position[0]
                                                                    : motion.joints[0].offset;
    root_move = A * (wp.position[0] - ref) * r.scale;
  }
  r.pose = pose_from_world_rotations(target, world, root_move);
  return r;
}

}  // namespace drape

#include "drape/rig/joint_roles.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <initializer_list>
#include <string_view>

namespace drape {

namespace {

// What a name alone says about a joint. `shoulder` is ambiguous (clavicle in
// Mixamo and MakeHuman, the shoulder joint that turns the upper arm in CMU);
// the structure decides.
enum class NameClass {
  none,
  finger,
  hips,
  spine,
  neck,
  head,
  hip_joint,
  clavicle,
  shoulder,
  upper_arm,
  forearm,
  hand,
  thigh,
  shin,
  foot,
  toe,
};

bool contains(std::string_view s, std::string_view word) { return s.find(word) != std::string_view::npos; }
bool contains_any(std::string_view s, std::initializer_list<std::string_view> words) {
  return std::any_of(words.begin(), words.end(), [&](std::string_view w) { return contains(s, w); });
}

// Body words that may carry a glued one-letter side prefix, as in CMU's
// "lhand" / "rhand".
bool glued_body_word(std::string_view w) {
  static constexpr std::array<std::string_view, 20> kWords = {
      "hand",  "foot",  "arm",   "leg", "shoulder", "collar", "clavicle", "hip",     "thigh", "knee",
      "elbow", "wrist", "ankle", "toe", "fingers",  "finger", "thumb",    "forearm", "upleg", "shin"};
  return std::find(kWords.begin(), kWords.end(), w) != kWords.end();
}

// A name split into lowercase tokens: at non-alphanumeric characters, at
// camelCase boundaries ("LeftUpLeg" -> left up leg, "LHipJoint" -> l hip
// joint) and between letters and digits ("upperarm01" -> upperarm 01). The
// namespace before the last ':' is dropped.
std::vector<std::string> tokens(const std::string& raw) {
  const auto colon = raw.rfind(':');
  const std::string s = colon == std::string::npos ? raw : raw.substr(colon + 1);
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty()) out.push_back(cur);
    cur.clear();
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (!std::isalnum(c)) {
      flush();
      continue;
    }
    if (i > 0 && !cur.empty()) {
      const auto p = static_cast<unsigned char>(s[i - 1]);
      const bool next_lower = i + 1 < s.size() && std::islower(static_cast<unsigned char>(s[i + 1]));
      const bool camel = std::isupper(c) && (std::islower(p) || (std::isupper(p) && next_lower));
      const bool digit_edge = (std::isdigit(c) != 0) != (std::isdigit(p) != 0);
      if (camel || digit_edge) flush();
    }
    cur += static_cast<char>(std::tolower(c));
  }
  flush();
  return out;
}

struct ParsedName {
  BodySide side = BodySide::center;
  std::string key;  ///< the tokens other than the side and numbers, concatenated
};

ParsedName parse_name(const std::string& name) {
  ParsedName p;
  for (const std::string& t : tokens(name)) {
    if (std::isdigit(static_cast<unsigned char>(t[0]))) continue;
    if (p.side == BodySide::center) {
      if (t == "l" || t == "left") {
        p.side = BodySide::left;
        continue;
      }
      if (t == "r" || t == "right") {
        p.side = BodySide::right;
        continue;
      }
      if ((t[0] == 'l' || t[0] == 'r') && glued_body_word(std::string_view(t).substr(1))) {
        p.side = t[0] == 'l' ? BodySide::left : BodySide::right;
        p.key += t.substr(1);
        continue;
      }
    }
    p.key += t;
  }
  return p;
}

NameClass classify_name(const ParsedName& p) {
  const std::string_view k = p.key;
  const bool sided = p.side != BodySide::center;
  // Fingers first: Mixamo's "LeftHandIndex1" must not read as a hand.
  if (contains_any(k, {"finger", "thumb", "index", "middle", "ring", "pinky", "pinkie", "carpal", "digit"}))
    return NameClass::finger;
  if (contains_any(k, {"clavicle", "collar"})) return NameClass::clavicle;
  if (contains_any(k, {"forearm", "lowerarm", "elbow"})) return NameClass::forearm;
  if (contains_any(k, {"upperarm", "uparm", "humerus"}) || k == "arm") return NameClass::upper_arm;
  if (contains(k, "shoulder")) return NameClass::shoulder;
  if (contains_any(k, {"hand", "wrist"})) return NameClass::hand;
  if (contains(k, "hipjoint") || (sided && contains(k, "pelvis"))) return NameClass::hip_joint;
  if (contains_any(k, {"thigh", "upleg", "upperleg", "femur"}) || (sided && k == "hip"))
    return NameClass::thigh;
  if (contains_any(k, {"shin", "calf", "lowerleg", "knee", "tibia"}) || k == "leg") return NameClass::shin;
  if (contains_any(k, {"foot", "ankle"})) return NameClass::foot;
  if (contains_any(k, {"toe", "ball"})) return NameClass::toe;
  if (!sided && (k == "hips" || k == "hip" || k == "pelvis")) return NameClass::hips;
  if (contains(k, "neck")) return NameClass::neck;
  if (contains(k, "head")) return NameClass::head;
  if (contains_any(k, {"spine", "chest", "back", "torso", "abdomen", "waist"})) return NameClass::spine;
  return NameClass::none;
}

// The hierarchy with each joint's side and name class.
class Tree {
 public:
  Tree(const std::vector<std::string>& names, const std::vector<int>& parents)
      : parent_(parents), children_(names.size()), depth_(names.size(), 0) {
    const int n = static_cast<int>(names.size());
    for (int j = 0; j < n; ++j) {
      const ParsedName p = parse_name(names[j]);
      side_.push_back(p.side);
      cls_.push_back(classify_name(p));
      if (parent_[j] < 0 || parent_[j] >= n || parent_[j] == j) parent_[j] = -1;
      if (parent_[j] >= 0) children_[parent_[j]].push_back(j);
    }
    // A walk longer than the joint count is a cycle: such joints get depth 0.
    for (int j = 0; j < n; ++j) {
      int d = 0;
      for (int a = parent_[j]; a >= 0 && d <= n; a = parent_[a]) ++d;
      depth_[j] = d > n ? 0 : d;
    }
  }

  std::size_t size() const { return parent_.size(); }
  int parent(int j) const { return parent_[j]; }
  const std::vector<int>& children(int j) const { return children_[j]; }
  NameClass cls(int j) const { return cls_[j]; }
  BodySide side(int j) const { return side_[j]; }
  int depth(int j) const { return depth_[j]; }

  /// True when a is b or one of its ancestors.
  bool ancestor_or_self(int a, int b) const {
    for (int x = b, steps = 0; x >= 0 && steps <= static_cast<int>(size()); x = parent_[x], ++steps)
      if (x == a) return true;
    return false;
  }
  /// Nearest common ancestor of a and b, or -1.
  int common_ancestor(int a, int b) const {
    for (int x = a, steps = 0; x >= 0 && steps <= static_cast<int>(size()); x = parent_[x], ++steps)
      if (ancestor_or_self(x, b)) return x;
    return -1;
  }
  /// The joints below `from` down to `to` (inclusive), root-to-tip; empty
  /// when `from` is not a proper ancestor of `to`.
  std::vector<int> path(int from, int to) const {
    std::vector<int> p;
    if (from == to || !ancestor_or_self(from, to)) return p;
    for (int x = to; x != from; x = parent_[x]) p.push_back(x);
    std::reverse(p.begin(), p.end());
    return p;
  }
  /// True when some proper ancestor of j has one of the classes on side s.
  bool has_ancestor(int j, BodySide s, std::initializer_list<NameClass> cs) const {
    for (int a = parent_[j], steps = 0; a >= 0 && steps <= static_cast<int>(size()); a = parent_[a], ++steps)
      if (side_[a] == s && std::find(cs.begin(), cs.end(), cls_[a]) != cs.end()) return true;
    return false;
  }

 private:
  std::vector<int> parent_;
  std::vector<std::vector<int>> children_;
  std::vector<int> depth_;
  std::vector<BodySide> side_;
  std::vector<NameClass> cls_;
};

// The joint of class `c` on side `s` that ends a limb: one below a joint of
// the limb (`limb`, which keeps control bones such as Unreal's ik_hand_l
// out), else any; the shallowest, then the first.
int limb_end(const Tree& t, NameClass c, BodySide s, std::initializer_list<NameClass> limb) {
  int best = -1;
  bool best_in_limb = false;
  for (int j = 0; j < static_cast<int>(t.size()); ++j) {
    if (t.cls(j) != c || t.side(j) != s) continue;
    const bool in_limb = t.has_ancestor(j, s, limb);
    if (best < 0 || (in_limb && !best_in_limb) || (in_limb == best_in_limb && t.depth(j) < t.depth(best))) {
      best = j;
      best_in_limb = in_limb;
    }
  }
  return best;
}

// Index in p[lo, hi) of the first joint with one of the classes, or -1.
int first_of(const Tree& t, const std::vector<int>& p, int lo, int hi, std::initializer_list<NameClass> cs) {
  for (int i = std::max(lo, 0); i < hi && i < static_cast<int>(p.size()); ++i)
    if (std::find(cs.begin(), cs.end(), t.cls(p[i])) != cs.end()) return i;
  return -1;
}
int last_of(const Tree& t, const std::vector<int>& p, int lo, int hi, std::initializer_list<NameClass> cs) {
  for (int i = std::min(hi, static_cast<int>(p.size())) - 1; i >= std::max(lo, 0); --i)
    if (std::find(cs.begin(), cs.end(), t.cls(p[i])) != cs.end()) return i;
  return -1;
}

class Builder {
 public:
  explicit Builder(JointRoles& out) : out_(out) {}
  /// Adds p[lo, hi) as the chain of (role, side), skipping joints already placed.
  void add(BodyRole role, BodySide side, const std::vector<int>& p, int lo, int hi) {
    if (out_.find(role, side)) return;
    RoleChain c{role, side, {}};
    for (int i = std::max(lo, 0); i < hi && i < static_cast<int>(p.size()); ++i)
      if (std::find(used_.begin(), used_.end(), p[i]) == used_.end()) {
        c.joints.push_back(p[i]);
        used_.push_back(p[i]);
      }
    if (!c.joints.empty()) out_.chains.push_back(std::move(c));
  }

 private:
  JointRoles& out_;
  std::vector<int> used_;
};

// Arm roles along p, the path from the chest (exclusive) to the arm's end.
void place_arm(const Tree& t, const std::vector<int>& p, BodySide s, Builder& b) {
  const int n = static_cast<int>(p.size());
  int h = first_of(t, p, 0, n, {NameClass::hand});
  if (h < 0) h = n;
  int f = first_of(t, p, 0, h, {NameClass::forearm});
  if (f < 0) f = h < n ? h - 1 : -1;
  if (f < 1) return;  // no room for an upper arm
  int u = first_of(t, p, 0, f, {NameClass::upper_arm});
  if (u < 0) u = last_of(t, p, 0, f, {NameClass::shoulder});  // CMU: the shoulder joint turns the upper arm
  if (u < 0) u = f - 1;
  int c = first_of(t, p, 0, u, {NameClass::clavicle, NameClass::shoulder});
  if (c < 0 && u > 0) c = 0;
  if (c >= 0) b.add(BodyRole::clavicle, s, p, c, u);
  b.add(BodyRole::upper_arm, s, p, u, f);
  b.add(BodyRole::forearm, s, p, f, h);
  if (h < n) {
    // The hand chain goes on through a hand-named only child: CMU's LeftWrist
    // turns a short wrist segment, its child lhand the palm.
    std::vector<int> hand{p[h]};
    for (std::vector<int> kids; hand.size() <= t.size(); hand.push_back(kids.front())) {
      kids.clear();
      for (int c : t.children(hand.back()))
        if (t.cls(c) == NameClass::hand) kids.push_back(c);
      if (kids.size() != 1) break;
    }
    b.add(BodyRole::hand, s, hand, 0, static_cast<int>(hand.size()));
  }
}

// Leg roles along p, the path from the hips (exclusive) to the leg's end.
void place_leg(const Tree& t, const std::vector<int>& p, BodySide s, Builder& b) {
  const int n = static_cast<int>(p.size());
  int ft = first_of(t, p, 0, n, {NameClass::foot});
  if (ft < 0) ft = n;
  int sh = first_of(t, p, 0, ft, {NameClass::shin});
  if (sh < 0) sh = ft < n ? ft - 1 : -1;
  if (sh < 1) return;  // no room for a thigh
  int th = first_of(t, p, 0, sh, {NameClass::thigh});
  if (th < 0) th = sh - 1;
  int hj = first_of(t, p, 0, th, {NameClass::hip_joint});
  if (hj < 0 && th > 0) hj = 0;
  if (hj >= 0) b.add(BodyRole::hip_joint, s, p, hj, th);
  b.add(BodyRole::thigh, s, p, th, sh);
  b.add(BodyRole::shin, s, p, sh, ft);
  if (ft < n) {
    b.add(BodyRole::foot, s, p, ft, ft + 1);
    // One toe joint below the foot (MakeHuman's five toe chains stay unplaced).
    std::vector<int> toes;
    for (int c : t.children(p[ft]))
      if (t.cls(c) == NameClass::toe) toes.push_back(c);
    if (toes.size() == 1) b.add(BodyRole::toe, s, toes, 0, 1);
  }
}

// The chain from the chest towards the head: the shallowest joint named head
// outside the arms, else the chain of non-arm children (preferring spine,
// neck and head names) to its end.
std::vector<int> neck_path(const Tree& t, int chest, const std::vector<int>& arm_starts) {
  auto in_arm = [&](int j) {
    return std::any_of(arm_starts.begin(), arm_starts.end(),
                       [&](int a) { return a >= 0 && t.ancestor_or_self(a, j); });
  };
  int head = -1;
  for (int j = 0; j < static_cast<int>(t.size()); ++j)
    if (t.cls(j) == NameClass::head && j != chest && t.ancestor_or_self(chest, j) && !in_arm(j) &&
        (head < 0 || t.depth(j) < t.depth(head)))
      head = j;
  if (head >= 0) return t.path(chest, head);
  std::vector<int> p;
  for (int at = chest;;) {
    int next = -1, candidates = 0;
    for (int c : t.children(at)) {
      if (in_arm(c)) continue;
      ++candidates;
      const NameClass k = t.cls(c);
      if (next < 0 && (k == NameClass::spine || k == NameClass::neck || k == NameClass::head)) next = c;
    }
    if (next < 0 && candidates == 1)
      for (int c : t.children(at))
        if (!in_arm(c)) next = c;
    if (next < 0 || p.size() > t.size()) break;
    p.push_back(next);
    at = next;
  }
  return p;
}

}  // namespace

const RoleChain* JointRoles::find(BodyRole role, BodySide side) const {
  for (const RoleChain& c : chains)
    if (c.role == role && c.side == side) return &c;
  return nullptr;
}

std::string role_name(BodyRole role, BodySide side) {
  static constexpr std::array<const char*, 13> kNames = {
      "hips",    "spine", "neck",  "head", "hip joint", "clavicle", "upper arm",
      "forearm", "hand",  "thigh", "shin", "foot",      "toe"};
  const std::string r = kNames[static_cast<std::size_t>(role)];
  return side == BodySide::left ? "left " + r : side == BodySide::right ? "right " + r : r;
}

BodySide name_side(const std::string& name) { return parse_name(name).side; }

JointRoles classify_joint_roles(const std::vector<std::string>& names, const std::vector<int>& parents) {
  JointRoles out;
  if (names.size() != parents.size() || names.empty()) return out;
  const Tree t(names, parents);
  Builder b(out);
  constexpr std::array<BodySide, 2> kSides = {BodySide::left, BodySide::right};
  const std::initializer_list<NameClass> arm = {NameClass::clavicle, NameClass::shoulder,
                                                NameClass::upper_arm, NameClass::forearm};
  const std::initializer_list<NameClass> leg = {NameClass::hip_joint, NameClass::thigh, NameClass::shin};

  std::array<int, 2> arm_end{-1, -1}, leg_end{-1, -1};
  for (int i = 0; i < 2; ++i) {
    for (NameClass c : {NameClass::hand, NameClass::forearm})
      if (arm_end[i] < 0) arm_end[i] = limb_end(t, c, kSides[i], arm);
    for (NameClass c : {NameClass::foot, NameClass::shin})
      if (leg_end[i] < 0) leg_end[i] = limb_end(t, c, kSides[i], leg);
  }

  // Hips: where the legs meet; else the shallowest joint named hips/pelvis.
  int hips = leg_end[0] >= 0 && leg_end[1] >= 0 ? t.common_ancestor(leg_end[0], leg_end[1]) : -1;
  if (hips < 0)
    for (int j = 0; j < static_cast<int>(t.size()); ++j)
      if (t.cls(j) == NameClass::hips && (hips < 0 || t.depth(j) < t.depth(hips))) hips = j;
  // Chest: where the arms meet.
  const int chest = arm_end[0] >= 0 && arm_end[1] >= 0 ? t.common_ancestor(arm_end[0], arm_end[1]) : -1;

  if (hips >= 0) b.add(BodyRole::hips, BodySide::center, std::vector<int>{hips}, 0, 1);
  std::array<std::vector<int>, 2> arm_path;
  for (int i = 0; i < 2; ++i)
    if (chest >= 0 && arm_end[i] >= 0) arm_path[i] = t.path(chest, arm_end[i]);
  std::vector<int> spine = hips >= 0 && chest >= 0 ? t.path(hips, chest) : std::vector<int>{};
  if (chest >= 0) {
    const std::vector<int> q = neck_path(
        t, chest, {arm_path[0].empty() ? -1 : arm_path[0][0], arm_path[1].empty() ? -1 : arm_path[1][0]});
    // Spine-named joints above the chest and below a neck-named one are upper spine.
    const int first_neck = first_of(t, q, 0, static_cast<int>(q.size()), {NameClass::neck});
    int k = 0;
    while (first_neck > 0 && k < first_neck && t.cls(q[k]) == NameClass::spine) spine.push_back(q[k++]);
    if (!q.empty()) {
      const int n = static_cast<int>(q.size());
      int head = first_of(t, q, k, n, {NameClass::head});
      if (head < 0) head = n - 1;
      b.add(BodyRole::spine, BodySide::center, spine, 0, static_cast<int>(spine.size()));
      b.add(BodyRole::neck, BodySide::center, q, k, head);
      b.add(BodyRole::head, BodySide::center, q, head, head + 1);
    }
  }
  b.add(BodyRole::spine, BodySide::center, spine, 0, static_cast<int>(spine.size()));
  for (int i = 0; i < 2; ++i) {
    if (!arm_path[i].empty()) place_arm(t, arm_path[i], kSides[i], b);
    if (hips >= 0 && leg_end[i] >= 0) place_leg(t, t.path(hips, leg_end[i]), kSides[i], b);
  }
  return out;
}

JointRoles classify_joint_roles(const Skeleton& skeleton) {
  std::vector<std::string> names;
  std::vector<int> parents;
  for (const Bone& b : skeleton.bones) {
    names.push_back(b.name);
    parents.push_back(b.parent);
  }
  return classify_joint_roles(names, parents);
}

JointRoles classify_joint_roles(const BvhMotion& motion) {
  std::vector<std::string> names;
  std::vector<int> parents;
  for (const BvhJoint& j : motion.joints) {
    names.push_back(j.name);
    parents.push_back(j.parent);
  }
  return classify_joint_roles(names, parents);
}

}  // namespace drape

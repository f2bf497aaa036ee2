#include "drape/rig/skeleton.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>

#include "drape/core/exceptions.h"

namespace drape {

int Skeleton::find(std::string_view n) const {
  for (std::size_t i = 0; i < bones.size(); ++i)
    if (bones[i].name == n) return static_cast<int>(i);
  return -1;
}

std::vector<std::vector<int>> Skeleton::children() const {
  std::vector<std::vector<int>> c(bones.size());
  for (std::size_t i = 0; i < bones.size(); ++i)
    if (bones[i].parent >= 0) c[bones[i].parent].push_back(static_cast<int>(i));
  return c;
}

std::vector<char> Skeleton::subtree_mask(int root) const {
  // Parents come before their children: one pass marks the whole subtree.
  std::vector<char> in(bones.size(), 0);
  in.at(static_cast<std::size_t>(root)) = 1;
  for (std::size_t b = static_cast<std::size_t>(root) + 1; b < bones.size(); ++b)
    in[b] = bones[b].parent >= 0 && in[static_cast<std::size_t>(bones[b].parent)];
  return in;
}

Mat3 bone_rotation_from_roll(const Vec3& direction, double roll) {
  const Vec3 nor = normalized(direction);
  const Vec3 y{0, 1, 0};
  Mat3 b;
  const Vec3 axis = cross(y, nor);
  if (dot(axis, axis) > 1e-20) {
    b = Mat3::rotation_axis_angle(axis, std::atan2(norm(axis), dot(y, nor)));
  } else if (dot(y, nor) < 0) {
    b = Mat3::rotation_z(std::numbers::pi);  // pointing down: half turn keeps a proper rotation
  }
  if (roll == 0) return b;
  return Mat3::rotation_axis_angle(nor, roll) * b;
}

namespace {
Vec3 column(const Mat3& m, int c) { return {m(0, c), m(1, c), m(2, c)}; }

// Roll that turns axis `col` of the roll-0 frame towards `hint` about the bone.
double roll_towards(const Vec3& direction, const Vec3& hint, int col) {
  const Vec3 nor = normalized(direction);
  const Mat3 b = bone_rotation_from_roll(direction, 0);
  const Vec3 a = column(b, col);
  const Vec3 h = hint - nor * dot(hint, nor);
  if (norm(h) < 1e-12) return 0;
  return std::atan2(dot(cross(a, h), nor), dot(a, h));
}
}  // namespace

double roll_from_z_axis(const Vec3& direction, const Vec3& z_hint) {
  return roll_towards(direction, z_hint, 2);
}
double roll_from_x_axis(const Vec3& direction, const Vec3& x_hint) {
  return roll_towards(direction, x_hint, 0);
}

Mat3 Skeleton::rest_rotation(int b) const {
  const Bone& bone = bones[b];
  Vec3 d = bone.tail - bone.head;
  if (norm(d) == 0) d = {0, 1, 0};
  return bone_rotation_from_roll(d, bone.roll);
}

double Skeleton::height() const {
  if (bones.empty()) return 0;
  double lo = bones[0].head.y, hi = lo;
  for (const Bone& b : bones) {
    lo = std::min({lo, b.head.y, b.tail.y});
    hi = std::max({hi, b.head.y, b.tail.y});
  }
  return hi - lo;
}

void Skeleton::validate(const std::string& source) const {
  std::set<std::string> names;
  for (std::size_t i = 0; i < bones.size(); ++i) {
    const Bone& b = bones[i];
    if (b.name.empty()) throw InvalidInput(source, 0, "bone " + std::to_string(i) + " has no name");
    if (!names.insert(b.name).second) throw InvalidInput(source, 0, "duplicate bone name '" + b.name + "'");
    if (b.parent >= static_cast<int>(i))
      throw InvalidInput(source, 0, "bone '" + b.name + "' comes before its parent");
    if (!is_finite(b.head) || !is_finite(b.tail) || !std::isfinite(b.roll))
      throw InvalidInput(source, 0, "bone '" + b.name + "' has a non-finite head, tail or roll");
  }
}

void Skeleton::sort_parents_first(const std::string& source) {
  const std::size_t n = bones.size();
  std::vector<int> order, state(n, 0);  // 0 new, 1 visiting, 2 done
  order.reserve(n);
  for (std::size_t s = 0; s < n; ++s) {
    // Walk up to the first placed ancestor, then place the chain top-down.
    std::vector<int> chain;
    int c = static_cast<int>(s);
    while (c >= 0 && state[c] == 0) {
      state[c] = 1;
      chain.push_back(c);
      c = bones[c].parent;
    }
    if (c >= 0 && state[c] == 1)
      throw InvalidInput(source, 0, "bone '" + bones[c].name + "' is its own ancestor");
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      state[*it] = 2;
      order.push_back(*it);
    }
  }
  std::vector<int> new_index(n);
  for (std::size_t i = 0; i < n; ++i) new_index[order[i]] = static_cast<int>(i);
  std::vector<Bone> sorted;
  sorted.reserve(n);
  for (int o : order) {
    Bone b = bones[o];
    if (b.parent >= 0) b.parent = new_index[b.parent];
    sorted.push_back(std::move(b));
  }
  bones = std::move(sorted);
}

}  // namespace drape

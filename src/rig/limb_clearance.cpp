#include "drape/rig/limb_clearance.h"

#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <utility>

#include "drape/core/exceptions.h"
#include "drape/rig/arm_raise.h"
#include "drape/rig/quaternion.h"

namespace drape {

namespace {

// How far from an arm vertex the trunk is searched: farther than any arm
// sinks into a skinned torso, so a vertex inside finds the surface it is
// under.
constexpr double kReach = 0.12;

// Bone `root` and every bone below it.
std::vector<int> subtree_of(const Skeleton& skeleton, int root) {
  const std::vector<std::vector<int>> children = skeleton.children();
  std::vector<int> out, stack{root};
  while (!stack.empty()) {
    const int b = stack.back();
    stack.pop_back();
    out.push_back(b);
    for (const int c : children[static_cast<std::size_t>(b)]) stack.push_back(c);
  }
  return out;
}

// Weight of vertex influences on the bones marked in `in_subtree`.
double weight_on(const SkinWeights::Influences& inf, const std::vector<char>& in_subtree) {
  double w = 0;
  for (int k = 0; k < SkinWeights::kMaxInfluences; ++k)
    if (inf.bone[k] >= 0 && in_subtree[static_cast<std::size_t>(inf.bone[k])]) w += inf.weight[k];
  return w;
}

// The turn by `radians` about unit `axis` through `pivot`.
RigidTransform turn_about(const Vec3& pivot, const Vec3& axis, double radians) {
  const Mat3 r = Quat::from_axis_angle(axis, radians).to_matrix();
  return {r, pivot - r * pivot};
}

}  // namespace

LimbClearance::LimbClearance(const Skeleton& skeleton, const TriangleMesh& rest_body,
                             const SkinWeights& weights, SkinningMethod method,
                             const LimbClearanceOptions& options)
    : skeleton_(skeleton), rest_(rest_body), weights_(weights), method_(method), options_(options) {
  if (weights.size() != rest_body.vertex_count())
    throw InvalidInput("limb clearance: " + std::to_string(weights.size()) +
                       " weight entries for a body of " + std::to_string(rest_body.vertex_count()) +
                       " vertices");
  const UpperArms arms = find_upper_arms(skeleton);
  if (arms.left < 0 || arms.right < 0) return;
  arm_bone_ = {arms.left, arms.right};
  std::array<std::vector<double>, 2> on_arm;
  for (int side = 0; side < 2; ++side) {
    subtree_[side] = subtree_of(skeleton, arm_bone_[side]);
    std::vector<char> marked(skeleton.size(), 0);
    for (const int b : subtree_[side]) marked[static_cast<std::size_t>(b)] = 1;
    on_arm[side].resize(rest_body.vertex_count());
    for (std::size_t v = 0; v < rest_body.vertex_count(); ++v) {
      on_arm[side][v] = weight_on(weights.vertices[v], marked);
      if (on_arm[side][v] >= options.limb_weight) arm_vertices_[side].push_back(static_cast<int>(v));
    }
  }
  const double trunk_limit = 1 - options.limb_weight;
  for (std::size_t f = 0; f < rest_body.faces.size(); ++f) {
    bool trunk = true;
    for (const int v : rest_body.faces[f])
      trunk = trunk && weights.vertices[static_cast<std::size_t>(v)].bone[0] >= 0 &&  // moves with the body
              on_arm[0][static_cast<std::size_t>(v)] <= trunk_limit &&
              on_arm[1][static_cast<std::size_t>(v)] <= trunk_limit;
    if (trunk) trunk_faces_.push_back(static_cast<int>(f));
  }
  // Faces at the trunk's rim (round the shoulders' skin left out): a
  // closest point there says nothing of inside or outside.
  std::map<std::pair<int, int>, int> edge_uses;
  for (const int f : trunk_faces_)
    for (int k = 0; k < 3; ++k) {
      const int a = rest_body.faces[static_cast<std::size_t>(f)][k];
      const int b = rest_body.faces[static_cast<std::size_t>(f)][(k + 1) % 3];
      ++edge_uses[{std::min(a, b), std::max(a, b)}];
    }
  std::vector<char> on_rim(rest_body.vertex_count(), 0);
  for (const auto& [edge, uses] : edge_uses)
    if (uses == 1)
      on_rim[static_cast<std::size_t>(edge.first)] = on_rim[static_cast<std::size_t>(edge.second)] = 1;
  rim_face_.assign(rest_body.faces.size(), 0);
  for (const int f : trunk_faces_)
    for (const int v : rest_body.faces[static_cast<std::size_t>(f)])
      if (on_rim[static_cast<std::size_t>(v)]) rim_face_[static_cast<std::size_t>(f)] = 1;
  if (trunk_faces_.empty()) {
    arm_bone_ = {-1, -1};
    return;
  }
  posed_ = rest_body;
  trunk_ = std::make_unique<TriangleMeshBvh>(posed_, std::span<const int>(trunk_faces_));
  // Only skin that stands clear of the trunk at rest is held clear: near the
  // shoulder the arm's skin runs into the trunk's by construction.
  for (int side = 0; side < 2; ++side) {
    std::vector<int> kept;
    for (const int v : arm_vertices_[side])
      if (clearance({v}, RigidTransform{Mat3::identity(), {}}, 0) >= options.rest_clearance)
        kept.push_back(v);
    arm_vertices_[side] = std::move(kept);
  }
}

double LimbClearance::clearance(const std::vector<int>& vertices, const RigidTransform& turn,
                                double stop_below) const {
  double least = std::numeric_limits<double>::infinity();
  for (const int v : vertices) {
    const Vec3 p = turn(posed_.positions[static_cast<std::size_t>(v)]);
    const TriangleMeshBvh::PointQuery q = trunk_->closest_point(p, kReach);
    if (q.face < 0 || rim_face_[static_cast<std::size_t>(q.face)]) continue;
    const auto& f = posed_.faces[static_cast<std::size_t>(q.face)];
    const Vec3 n = cross(posed_.positions[f[1]] - posed_.positions[f[0]],
                         posed_.positions[f[2]] - posed_.positions[f[0]]);
    const double signed_distance = dot(p - q.point, n) >= 0 ? q.distance : -q.distance;
    least = std::min(least, signed_distance);
    if (least < stop_below) break;
  }
  return least;
}

Pose LimbClearance::apply(const Pose& pose, std::array<ArmClearance, 2>* arms) {
  if (arms) *arms = {};
  if (arm_bone_[0] < 0) return pose;
  if (pose.bone.size() != skeleton_.size())
    throw InvalidInput("limb clearance: a pose of " + std::to_string(pose.bone.size()) +
                       " bones for a skeleton of " + std::to_string(skeleton_.size()));
  posed_.positions = skin_points(rest_.positions, {}, weights_, pose, method_).positions;
  trunk_->refit();
  Pose out = pose;
  const double max_radians = options_.max_degrees * std::numbers::pi / 180;
  for (int side = 0; side < 2; ++side) {
    const int arm = arm_bone_[side];
    const int parent = skeleton_.bones[static_cast<std::size_t>(arm)].parent;
    const Mat3 frame = parent >= 0 ? pose.bone[static_cast<std::size_t>(parent)].rotation : Mat3::identity();
    // Turning about the forward axis by +angle takes a hanging arm toward +x
    // (the body's left): the left arm turns by +angle, the right by -angle.
    const Vec3 forward = frame * Vec3{0, 0, 1};
    const double sign = side == 0 ? 1 : -1;
    const Vec3 pivot = pose.head(skeleton_, arm);
    auto turn = [&](double radians) { return turn_about(pivot, forward, sign * radians); };
    ArmClearance done;
    done.before = clearance(arm_vertices_[side], turn(0), -std::numeric_limits<double>::infinity());
    done.after = done.before;
    if (done.before < options_.gap) {
      // The least angle that clears: bisection between a blocked and a clear turn.
      double lo = 0, hi = max_radians;
      if (clearance(arm_vertices_[side], turn(hi), options_.gap) >= options_.gap) {
        for (int it = 0; it < options_.bisection_steps; ++it) {
          const double mid = 0.5 * (lo + hi);
          (clearance(arm_vertices_[side], turn(mid), options_.gap) >= options_.gap ? hi : lo) = mid;
        }
      }
      const RigidTransform t = turn(hi);
      for (const int b : subtree_[side])
        out.bone[static_cast<std::size_t>(b)] = compose(t, pose.bone[static_cast<std::size_t>(b)]);
      done.degrees = hi * 180 / std::numbers::pi;
      done.after = clearance(arm_vertices_[side], t, -std::numeric_limits<double>::infinity());
    }
    if (arms) (*arms)[static_cast<std::size_t>(side)] = done;
  }
  return out;
}

}  // namespace drape

#include "drape/rig/limb_clearance.h"

#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
#include <tuple>
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
constexpr double kInfinity = std::numeric_limits<double>::infinity();
// A closest point this near is a contact whatever the side.
constexpr double kSureDistance = 1e-3;
// Cosine between a closest face's normal and the way to the vertex from
// which the normal tells inside from outside.
constexpr double kFacing = 0.5;

// Per vertex, the weight on the bones marked in `in_subtree`.
std::vector<double> weight_on(const SkinWeights& weights, const std::vector<char>& in_subtree) {
  std::vector<double> w(weights.size(), 0.0);
  for (std::size_t v = 0; v < weights.size(); ++v) {
    const SkinWeights::Influences& inf = weights.vertices[v];
    for (int k = 0; k < SkinWeights::kMaxInfluences; ++k)
      if (inf.bone[k] >= 0 && in_subtree[static_cast<std::size_t>(inf.bone[k])]) w[v] += inf.weight[k];
  }
  return w;
}

// The turn by `radians` about unit `axis` through `pivot`.
RigidTransform turn_about(const Vec3& pivot, const Vec3& axis, double radians) {
  const Mat3 r = Quat::from_axis_angle(axis, radians).to_matrix();
  return {r, pivot - r * pivot};
}

// Faces among `faces` that touch the boundary of the surface they make: a
// closest point there says nothing of inside or outside.
std::vector<char> rim_faces(const TriangleMesh& mesh, const std::vector<int>& faces) {
  std::map<std::pair<int, int>, int> edge_uses;
  for (const int f : faces)
    for (int k = 0; k < 3; ++k) {
      const int a = mesh.faces[static_cast<std::size_t>(f)][k];
      const int b = mesh.faces[static_cast<std::size_t>(f)][(k + 1) % 3];
      ++edge_uses[{std::min(a, b), std::max(a, b)}];
    }
  std::vector<char> on_rim(mesh.vertex_count(), 0);
  for (const auto& [edge, uses] : edge_uses)
    if (uses == 1)
      on_rim[static_cast<std::size_t>(edge.first)] = on_rim[static_cast<std::size_t>(edge.second)] = 1;
  std::vector<char> rim(mesh.faces.size(), 0);
  for (const int f : faces)
    for (const int v : mesh.faces[static_cast<std::size_t>(f)])
      if (on_rim[static_cast<std::size_t>(v)]) rim[static_cast<std::size_t>(f)] = 1;
  return rim;
}

}  // namespace

UpperLegs find_upper_legs(const Skeleton& skeleton) {
  UpperLegs legs;
  if (skeleton.size() < 3) return legs;
  double mid = 0;
  for (const Bone& b : skeleton.bones) mid += b.head.x;
  mid /= static_cast<double>(skeleton.size());
  int foot[2] = {-1, -1};  // the body's left, right
  for (std::size_t b = 0; b < skeleton.size(); ++b) {
    const Bone& bone = skeleton.bones[b];
    const double low = std::min(bone.head.y, bone.tail.y);
    int& slot = foot[bone.head.x > mid ? 0 : 1];
    const Bone* had = slot >= 0 ? &skeleton.bones[static_cast<std::size_t>(slot)] : nullptr;
    if (bone.head.x != mid && (!had || low < std::min(had->head.y, had->tail.y))) slot = static_cast<int>(b);
  }
  if (foot[0] < 0 || foot[1] < 0) return legs;
  auto chain = [&](int b) {  // root first
    std::vector<int> c;
    for (; b >= 0; b = skeleton.bones[static_cast<std::size_t>(b)].parent) c.insert(c.begin(), b);
    return c;
  };
  const std::vector<int> to_left = chain(foot[0]), to_right = chain(foot[1]);
  std::size_t common = 0;
  while (common < to_left.size() && common < to_right.size() && to_left[common] == to_right[common]) ++common;
  if (common == 0) return legs;  // two roots
  const Vec3 ancestor = skeleton.bones[static_cast<std::size_t>(to_left[common - 1])].head;
  constexpr double kHipOffset = 0.05;
  for (const auto& [path, slot] : {std::pair{&to_left, &legs.left}, std::pair{&to_right, &legs.right}})
    for (std::size_t k = common; k < path->size(); ++k)
      if (std::abs(skeleton.bones[static_cast<std::size_t>((*path)[k])].head.x - ancestor.x) >= kHipOffset) {
        *slot = (*path)[k];
        break;
      }
  return legs;
}

// One limb: its bones, its skin, and a tree over what it is held clear of.
struct LimbClearance::Limb {
  int bone = -1;
  bool leg = false;
  double gap = 0;                         // least distance of its skin from clear_of
  double side = 1;                        // +1 the body's left (+x), -1 its right
  std::vector<char> in_limb;              // per bone: the arm's
  std::vector<int> vertices;              // skin that moves with the arm and stood clear at rest
  std::vector<int> clear_of;              // the trunk's faces
  std::vector<char> rim;                  // per body face: a clear_of face at that surface's boundary
  std::unique_ptr<TriangleMeshBvh> tree;  // over posed_'s clear_of faces
};

LimbClearance::~LimbClearance() = default;

LimbClearance::LimbClearance(const Skeleton& skeleton, const TriangleMesh& rest_body,
                             const SkinWeights& weights, SkinningMethod method,
                             const LimbClearanceOptions& options)
    : skeleton_(skeleton), rest_(rest_body), weights_(weights), method_(method), options_(options) {
  if (weights.size() != rest_body.vertex_count())
    throw InvalidInput("limb clearance: " + std::to_string(weights.size()) +
                       " weight entries for a body of " + std::to_string(rest_body.vertex_count()) +
                       " vertices");
  posed_ = rest_body;
  const double other = 1 - options.limb_weight;
  // Arms are held clear of the faces off both arms.
  const UpperArms arms = find_upper_arms(skeleton);
  if (options.gap > 0 && arms.left >= 0 && arms.right >= 0) {
    std::vector<char> both = skeleton.subtree_mask(arms.left);
    const std::vector<char> right = skeleton.subtree_mask(arms.right);
    for (std::size_t b = 0; b < both.size(); ++b) both[b] = both[b] || right[b];
    const std::vector<double> on_arms = weight_on(weights, both);
    std::vector<char> trunk(rest_body.vertex_count(), 0);
    for (std::size_t v = 0; v < trunk.size(); ++v)
      trunk[v] = weights.vertices[v].bone[0] >= 0 && on_arms[v] <= other;  // moves with the body
    for (const auto& [bone, side] : {std::pair{arms.left, 1.0}, std::pair{arms.right, -1.0}})
      add_limb(bone, side, false, options.gap, trunk);
  }
  // Each leg is held clear of the other leg's own skin.
  const UpperLegs legs = find_upper_legs(skeleton);
  if (options.leg_gap > 0 && legs.left >= 0 && legs.right >= 0)
    for (const auto& [bone, side, opposite] :
         {std::tuple{legs.left, 1.0, legs.right}, std::tuple{legs.right, -1.0, legs.left}}) {
      const std::vector<double> on_other = weight_on(weights, skeleton.subtree_mask(opposite));
      std::vector<char> other_leg(rest_body.vertex_count(), 0);
      for (std::size_t v = 0; v < other_leg.size(); ++v) other_leg[v] = on_other[v] >= options.limb_weight;
      add_limb(bone, side, true, 0.5 * options.leg_gap, other_leg);
    }
}

void LimbClearance::add_limb(int bone, double side, bool leg, double gap, const std::vector<char>& clear_of) {
  auto limb = std::make_unique<Limb>();
  limb->bone = bone;
  limb->leg = leg;
  limb->gap = gap;
  limb->side = side;
  limb->in_limb = skeleton_.subtree_mask(bone);
  for (std::size_t f = 0; f < rest_.faces.size(); ++f) {
    bool all = true;
    for (const int v : rest_.faces[f]) all = all && clear_of[static_cast<std::size_t>(v)];
    if (all) limb->clear_of.push_back(static_cast<int>(f));
  }
  if (limb->clear_of.empty()) return;
  limb->rim = rim_faces(rest_, limb->clear_of);
  limb->tree = std::make_unique<TriangleMeshBvh>(posed_, std::span<const int>(limb->clear_of));
  // Only skin that moves with the limb and stands clear at rest is held clear.
  const std::vector<double> on_limb = weight_on(weights_, limb->in_limb);
  for (std::size_t v = 0; v < rest_.vertex_count(); ++v)
    if (on_limb[v] >= options_.limb_weight &&
        signed_distance(*limb, rest_.positions[v]).value_or(kInfinity) >= options_.rest_clearance)
      limb->vertices.push_back(static_cast<int>(v));
  limbs_.push_back(std::move(limb));
}

std::optional<double> LimbClearance::signed_distance(const Limb& limb, const Vec3& p) const {
  const TriangleMeshBvh::PointQuery q = limb.tree->closest_point(p, kReach);
  if (q.face < 0 || limb.rim[static_cast<std::size_t>(q.face)]) return std::nullopt;
  const auto& f = posed_.faces[static_cast<std::size_t>(q.face)];
  const Vec3& a = posed_.positions[static_cast<std::size_t>(f[0])];
  const Vec3 n = cross(posed_.positions[static_cast<std::size_t>(f[1])] - a,
                       posed_.positions[static_cast<std::size_t>(f[2])] - a);
  // The side comes from the face's normal where the vertex lies along it;
  // off to the side of a face's edge (a fold, the patch's end) the normal
  // says nothing, and the vertex is judged by the faces it does face.
  const double along = dot(p - q.point, n);
  if (q.distance > kSureDistance && std::abs(along) < kFacing * q.distance * norm(n)) return std::nullopt;
  return along >= 0 ? q.distance : -q.distance;
}

double LimbClearance::clearance(const Limb& limb, const RigidTransform& turn, double stop_below) const {
  double least = kInfinity;
  for (const int v : limb.vertices) {
    const std::optional<double> d =
        signed_distance(limb, turn(posed_.positions[static_cast<std::size_t>(v)]));
    if (!d) continue;
    least = std::min(least, *d);
    if (least < stop_below) break;
  }
  return least;
}

Pose LimbClearance::apply(const Pose& pose, std::vector<LimbTurn>* turns) {
  if (turns) turns->clear();
  if (limbs_.empty()) return pose;
  if (pose.bone.size() != skeleton_.size())
    throw InvalidInput("limb clearance: a pose of " + std::to_string(pose.bone.size()) +
                       " bones for a skeleton of " + std::to_string(skeleton_.size()));
  posed_.positions = skin_points(rest_.positions, {}, weights_, pose, method_).positions;
  Pose out = pose;
  const double max_radians = options_.max_degrees * std::numbers::pi / 180;
  for (const std::unique_ptr<Limb>& limb : limbs_) {
    limb->tree->refit();
    const int parent = skeleton_.bones[static_cast<std::size_t>(limb->bone)].parent;
    const Mat3 frame = parent >= 0 ? pose.bone[static_cast<std::size_t>(parent)].rotation : Mat3::identity();
    // Turning about the forward axis by +angle takes an arm that points down
    // toward +x (the body's left): the left arm turns by +angle, the right
    // by -angle.
    const Vec3 forward = frame * Vec3{0, 0, 1};
    const Vec3 pivot = pose.head(skeleton_, limb->bone);
    auto turn = [&](double radians) { return turn_about(pivot, forward, limb->side * radians); };
    LimbTurn done;
    done.bone = limb->bone;
    done.leg = limb->leg;
    done.before = clearance(*limb, turn(0), -kInfinity);
    done.after = done.before;
    if (done.before < limb->gap) {
      // The least angle that clears: bisection between a blocked and a clear turn.
      double lo = 0, hi = max_radians;
      if (clearance(*limb, turn(hi), limb->gap) >= limb->gap) {
        for (int it = 0; it < options_.bisection_steps; ++it) {
          const double mid = 0.5 * (lo + hi);
          (clearance(*limb, turn(mid), limb->gap) >= limb->gap ? hi : lo) = mid;
        }
      }
      const RigidTransform t = turn(hi);
      for (std::size_t b = 0; b < skeleton_.size(); ++b)
        if (limb->in_limb[b]) out.bone[b] = compose(t, pose.bone[b]);
      done.degrees = hi * 180 / std::numbers::pi;
      done.after = clearance(*limb, t, -kInfinity);
    }
    if (turns) turns->push_back(done);
  }
  return out;
}

}  // namespace drape

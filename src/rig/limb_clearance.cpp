#include "drape/rig/limb_clearance.h"

#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
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

// One arm: its bones, its skin, and a tree over the trunk it is held clear of.
struct LimbClearance::Limb {
  int bone = -1;
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
  const UpperArms arms = find_upper_arms(skeleton);
  if (arms.left < 0 || arms.right < 0) return;
  // Weight on either arm: an arm is held clear of the faces off both.
  std::vector<char> both = skeleton.subtree_mask(arms.left);
  const std::vector<char> right = skeleton.subtree_mask(arms.right);
  for (std::size_t b = 0; b < both.size(); ++b) both[b] = both[b] || right[b];
  const std::vector<double> on_arms = weight_on(weights, both);
  const double other = 1 - options.limb_weight;
  for (const auto& [bone, side] : {std::pair{arms.left, 1.0}, std::pair{arms.right, -1.0}}) {
    auto limb = std::make_unique<Limb>();
    limb->bone = bone;
    limb->side = side;
    limb->in_limb = skeleton.subtree_mask(bone);
    const std::vector<double> on_limb = weight_on(weights, limb->in_limb);
    for (std::size_t f = 0; f < rest_body.faces.size(); ++f) {
      bool off = true;
      for (const int v : rest_body.faces[f]) {
        const auto u = static_cast<std::size_t>(v);
        off = off && weights.vertices[u].bone[0] >= 0 && on_arms[u] <= other;  // moves with the body
      }
      if (off) limb->clear_of.push_back(static_cast<int>(f));
    }
    if (limb->clear_of.empty()) continue;
    limb->rim = rim_faces(rest_body, limb->clear_of);
    limb->tree = std::make_unique<TriangleMeshBvh>(posed_, std::span<const int>(limb->clear_of));
    // Only skin that stands clear at rest is held clear.
    for (std::size_t v = 0; v < rest_body.vertex_count(); ++v)
      if (on_limb[v] >= options.limb_weight &&
          signed_distance(*limb, rest_body.positions[v]).value_or(kInfinity) >= options.rest_clearance)
        limb->vertices.push_back(static_cast<int>(v));
    limbs_.push_back(std::move(limb));
  }
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
    done.before = clearance(*limb, turn(0), -kInfinity);
    done.after = done.before;
    if (done.before < options_.gap) {
      // The least angle that clears: bisection between a blocked and a clear turn.
      double lo = 0, hi = max_radians;
      if (clearance(*limb, turn(hi), options_.gap) >= options_.gap) {
        for (int it = 0; it < options_.bisection_steps; ++it) {
          const double mid = 0.5 * (lo + hi);
          (clearance(*limb, turn(mid), options_.gap) >= options_.gap ? hi : lo) = mid;
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

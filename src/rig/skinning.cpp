#include "drape/rig/skinning.h"

#include <cmath>

#include "drape/core/exceptions.h"
#include "drape/core/executor.h"
#include "drape/rig/quaternion.h"

namespace drape {

namespace {
bool is_identity(const Mat3& m) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      if (m(r, c) != (r == c ? 1.0 : 0.0)) return false;
  return true;
}
}  // namespace

Pose Pose::identity(std::size_t n) { return Pose{std::vector<RigidTransform>(n)}; }

Pose pose_from_world_rotations(const Skeleton& s, const std::vector<Mat3>& world,
                               const Vec3& root_translation) {
  if (world.size() != s.size())
    throw InvalidInput("pose: " + std::to_string(world.size()) + " rotations for " +
                       std::to_string(s.size()) + " bones");
  Pose p;
  p.bone.resize(s.size());
  for (std::size_t b = 0; b < s.size(); ++b) {
    const Bone& bone = s.bones[b];
    const Vec3 new_head = bone.parent >= 0 ? p.bone[bone.parent](bone.head) : bone.head + root_translation;
    p.bone[b].rotation = world[b];
    p.bone[b].translation = new_head - world[b] * bone.head;
  }
  return p;
}

Pose interpolate_from_rest(const Skeleton& s, const Pose& pose, double t) {
  return interpolate_poses(s, Pose::identity(s.size()), pose, t);
}

Pose interpolate_poses(const Skeleton& s, const Pose& from, const Pose& to, double t) {
  for (const Pose* p : {&from, &to})
    if (p->bone.size() != s.size())
      throw InvalidInput("pose: " + std::to_string(p->bone.size()) + " transforms for " +
                         std::to_string(s.size()) + " bones");
  std::vector<Mat3> world(s.size());
  for (std::size_t b = 0; b < s.size(); ++b) {
    const Mat3& ra = from.bone[b].rotation;
    const Mat3& rb = to.bone[b].rotation;
    if (is_identity(ra) && is_identity(rb))
      world[b] = Mat3::identity();
    else if (t == 0)
      world[b] = ra;
    else if (t == 1)
      world[b] = rb;
    else
      world[b] = slerp(Quat::from_matrix(ra), Quat::from_matrix(rb), t).to_matrix();
  }
  Vec3 root_from, root_to;
  for (std::size_t b = 0; b < s.size(); ++b)
    if (s.bones[b].parent < 0) {
      root_from = from.bone[b](s.bones[b].head) - s.bones[b].head;
      root_to = to.bone[b](s.bones[b].head) - s.bones[b].head;
      break;
    }
  return pose_from_world_rotations(s, world, root_from + (root_to - root_from) * t);
}

Pose pose_delta(const Pose& from, const Pose& to) {
  if (from.bone.size() != to.bone.size())
    throw InvalidInput("pose delta: " + std::to_string(from.bone.size()) + " and " +
                       std::to_string(to.bone.size()) + " bones");
  Pose d;
  d.bone.resize(to.bone.size());
  for (std::size_t b = 0; b < to.bone.size(); ++b) d.bone[b] = compose(to.bone[b], inverse(from.bone[b]));
  return d;
}

std::vector<RigidTransform> posed_frames(const Skeleton& s, const Pose& pose) {
  std::vector<RigidTransform> f(s.size());
  for (std::size_t b = 0; b < s.size(); ++b)
    f[b] = compose(pose.bone.at(b), s.rest_frame(static_cast<int>(b)));
  return f;
}

Pose pose_from_local_rotations(const Skeleton& s, const std::vector<Mat3>& local,
                               const Vec3& root_translation) {
  if (!local.empty() && local.size() != s.size())
    throw InvalidInput("pose: " + std::to_string(local.size()) + " rotations for " +
                       std::to_string(s.size()) + " bones");
  // Posed frame F_b = F_parent * (Rest_parent^-1 * Rest_b) * L_b; world delta D_b = F_b.rot * Rest_b.rot^T.
  std::vector<Mat3> world(s.size());
  for (std::size_t b = 0; b < s.size(); ++b) {
    const Mat3 parent_delta = s.bones[b].parent >= 0 ? world[s.bones[b].parent] : Mat3::identity();
    const bool identity = local.empty() || is_identity(local[b]);
    if (identity) {
      world[b] = parent_delta;  // exact: no rest * I * rest^T rounding
      continue;
    }
    const Mat3 rest = s.rest_rotation(static_cast<int>(b));
    world[b] = parent_delta * (rest * local[b] * rest.transposed());
  }
  return pose_from_world_rotations(s, world, root_translation);
}

namespace {
// Cofactor matrix = det * inverse-transpose: transforms normals of a blended linear map.
Mat3 cofactor(const Mat3& a) {
  Mat3 c;
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) {
      const int r1 = (r + 1) % 3, r2 = (r + 2) % 3, k1 = (k + 1) % 3, k2 = (k + 2) % 3;
      c.m[r][k] = a(r1, k1) * a(r2, k2) - a(r1, k2) * a(r2, k1);
    }
  return c;
}
}  // namespace

SkinnedPoints skin_points(const std::vector<Vec3>& points, const std::vector<Vec3>& normals,
                          const SkinWeights& weights, const Pose& pose, SkinningMethod method) {
  if (weights.size() != points.size())
    throw InvalidInput("skinning: " + std::to_string(weights.size()) + " weight rows for " +
                       std::to_string(points.size()) + " points");
  if (!normals.empty() && normals.size() != points.size())
    throw InvalidInput("skinning: normals and points differ in count");
  const int nb = static_cast<int>(pose.bone.size());
  for (const auto& in : weights.vertices)
    for (int b : in.bone)
      if (b >= nb)
        throw InvalidInput("skinning: a weight names bone " + std::to_string(b) + " of " +
                           std::to_string(nb));
  std::vector<DualQuat> dq;
  if (method == SkinningMethod::dual_quaternion) {
    dq.reserve(nb);
    for (const auto& t : pose.bone) dq.push_back(DualQuat::from_rigid(t));
  }
  SkinnedPoints out;
  out.positions.resize(points.size());
  if (!normals.empty()) out.normals.resize(points.size());
  Executor::global().for_each(
      0, points.size(),
      [&](std::size_t v) {
        const auto& in = weights.vertices[v];
        const Vec3& x = points[v];
        if (in.bone[0] < 0) {
          out.positions[v] = x;
          if (!normals.empty()) out.normals[v] = normals[v];
          return;
        }
        if (method == SkinningMethod::linear_blend) {
          // x + sum w (T x - x): exact for identity transforms, LBS when weights sum to 1.
          Vec3 d;
          Mat3 blend;
          blend.m[0][0] = blend.m[1][1] = blend.m[2][2] = 0;
          for (int s = 0; s < SkinWeights::kMaxInfluences && in.bone[s] >= 0; ++s) {
            const RigidTransform& t = pose.bone[in.bone[s]];
            d += (t(x) - x) * in.weight[s];
            for (int r = 0; r < 3; ++r)
              for (int c = 0; c < 3; ++c) blend.m[r][c] += in.weight[s] * t.rotation(r, c);
          }
          out.positions[v] = x + d;
          if (!normals.empty()) {
            const Mat3 c = cofactor(blend);
            const Vec3 n = c * normals[v];
            out.normals[v] = normalized(blend.determinant() < 0 ? -n : n);
          }
        } else {
          const DualQuat& q0 = dq[in.bone[0]];
          Quat real{0, 0, 0, 0}, dual{0, 0, 0, 0};
          for (int s = 0; s < SkinWeights::kMaxInfluences && in.bone[s] >= 0; ++s) {
            const DualQuat& q = dq[in.bone[s]];
            // Antipodality: blend in the hemisphere of the strongest bone.
            const double w = q.real.dot(q0.real) < 0 ? -in.weight[s] : in.weight[s];
            real = real + q.real * w;
            dual = dual + q.dual * w;
          }
          const double len = real.norm();
          // Divide (not multiply by 1/len) so that a pure identity blend is exactly (1,0,0,0).
          DualQuat b{{real.w / len, real.x / len, real.y / len, real.z / len},
                     {dual.w / len, dual.x / len, dual.y / len, dual.z / len}};
          out.positions[v] = b.transform_point(x);
          if (!normals.empty()) out.normals[v] = normalized(b.real.rotate(normals[v]));
        }
      },
      256);
  return out;
}

TriangleMesh skin_mesh(const TriangleMesh& rest, const SkinWeights& weights, const Pose& pose,
                       SkinningMethod method) {
  TriangleMesh m = rest;
  m.positions = skin_points(rest.positions, {}, weights, pose, method).positions;
  return m;
}

}  // namespace drape

// BodyCollider::sweep_vertex: continuous collision of a cloth vertex's step
// with the (static or moving) body, candidates from the collider's own trees;
// BodyCollider::segment_known_clear, the sweep's skip for cloth known far away.
#include <algorithm>

#include "drape/collision/body_collider.h"
#include "drape/collision/continuous_collision.h"

namespace drape {

BodyCollider::SweptContact BodyCollider::sweep_vertex(const Vec3& x0, const Vec3& x1, int group, double gap,
                                                      double tolerance, double thickness,
                                                      std::span<const Vec3> body_start,
                                                      double body_reach) const {
  SweptContact best;
  const TriangleMeshBvh& tree = groups_[group].tree ? *groups_[group].tree : *full_;
  const std::vector<Vec3>& end = mesh_->positions;
  const Vec3* start = body_start.empty() ? end.data() : body_start.data();
  Aabb box;
  box.expand(x0);
  box.expand(x1);
  const double margin = gap + tolerance;
  box.min -= Vec3{margin, margin, margin};
  box.max += Vec3{margin, margin, margin};
  const Aabb reach_box = box;
  const bool moving = !body_start.empty();
  box.min -= Vec3{body_reach, body_reach, body_reach};
  box.max += Vec3{body_reach, body_reach, body_reach};
  tree.tree().for_each_overlap(box, [&](int primitive) {
    const int f = tree.face_of_primitive(primitive);
    const Triangle& tri = mesh_->faces[f];
    const Vec3 &a0 = start[tri[0]], &b0 = start[tri[1]], &c0 = start[tri[2]];
    const Vec3 &a1 = end[tri[0]], &b1 = end[tri[1]], &c1 = end[tri[2]];
    if (moving) {  // the face's own swept box (the tree's grows every face by the largest move)
      Aabb swept;
      for (const Vec3* p : {&a0, &b0, &c0, &a1, &b1, &c1}) swept.expand(*p);
      if (!swept.overlaps(reach_box)) return;
    }
    const ContinuousContact c = vertex_triangle_ccd(x0, a0, b0, c0, x1, a1, b1, c1, gap, tolerance);
    if (!c.hit || c.t > best.t || (c.t == best.t && best.face >= 0 && f > best.face)) return;
    // The side it comes from: the face's normal at the time of impact (from
    // the vertex's own start when it touches the face there).
    const double t = c.t;
    const Vec3 at = a0 + (a1 - a0) * t, bt = b0 + (b1 - b0) * t, ct = c0 + (c1 - c0) * t;
    const Vec3 nt = cross(bt - at, ct - at);
    const Vec3 from = c.distance > 0 ? c.direction : x0 - (a0 + b0 + c0) / 3.0;
    if (!(dot(from, nt) > 0)) return;  // from inside the body: leaving it
    const Vec3& n1 = face_normals_[f];
    const Vec3 q = a1 * c.weights.x + b1 * c.weights.y + c1 * c.weights.z;
    if (dot(x1 - q, n1) >= thickness) return;  // ends clear of the face: nothing to answer
    best.face = f;
    best.t = t;
    best.normal = n1;
    best.point = q;
    best.motion = q - (a0 * c.weights.x + b0 * c.weights.y + c0 * c.weights.z);
  });
  return best;
}

bool BodyCollider::segment_known_clear(std::size_t vertex, const Vec3& x0, const Vec3& x1,
                                       double distance) const {
  if (!far_valid_ || vertex >= far_.size() || !far_[vertex]) return false;
  // The ball of radius far_radius_ - distance about far_at_ holds no point
  // within `distance` of a face; it is convex, so it holds the segment when it
  // holds both ends (a relative 1e-6 kept back against rounding).
  const double r = (far_radius_[vertex] - distance) * (1 - 1e-6);
  if (!(r > 0)) return false;
  return squared_norm(x0 - far_at_[vertex]) < r * r && squared_norm(x1 - far_at_[vertex]) < r * r;
}

}  // namespace drape

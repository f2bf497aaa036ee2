#include "drape/rig/joint_fitting.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/core/exceptions.h"
#include "drape/core/executor.h"

namespace drape {

const char* to_string(JointFitPath p) {
  switch (p) {
    case JointFitPath::surface_ray:
      return "surface_ray";
    case JointFitPath::surface_closest_point:
      return "surface_closest_point";
    case JointFitPath::interior_two_sided:
      return "interior_two_sided";
    case JointFitPath::interior_closest_point:
      return "interior_closest_point";
    case JointFitPath::exterior_mapped:
      return "exterior_mapped";
  }
  return "?";
}

int SkeletonFit::count(JointFitPath p) const {
  int n = 0;
  for (const auto& v : {heads, tails})
    for (const JointFit& f : v) n += f.path == p;
  return n;
}

namespace {

// The body's smooth normal at a closest point: the vertex normals blended by
// the point's barycentrics (the face normal where they cancel).
Vec3 normal_at(const TriangleMesh& m, const std::vector<Vec3>& vertex_normals,
               const TriangleMeshBvh::PointQuery& c) {
  const Triangle& f = m.faces[c.face];
  Vec3 n = vertex_normals[f[0]] * c.u + vertex_normals[f[1]] * c.v + vertex_normals[f[2]] * c.w;
  if (norm(n) < 1e-12) n = m.face_normal(c.face);
  return normalized(n);
}

// Distance along the unit direction d from o to the first face hit, or -1.
double first_hit(const TriangleMeshBvh& tree, const Vec3& o, const Vec3& d) {
  const auto h = tree.intersect(Ray{o, d});
  return h ? h->t : -1;
}

}  // namespace

std::vector<JointFit> fit_points(const TriangleMesh& template_body, const TriangleMesh& target_body,
                                 const RbfMap& map, const std::vector<Vec3>& joints, const FitOptions& o) {
  if (template_body.face_count() == 0) throw InvalidInput("fit: the template body has no faces");
  if (target_body.face_count() == 0) throw InvalidInput("fit: the target body has no faces");
  const TriangleMeshBvh qa(template_body), qr(target_body);
  return fit_points(qa, qr, map, joints, o);
}

std::vector<JointFit> fit_points(const TriangleMeshBvh& qa, const TriangleMeshBvh& qr, const RbfMap& map,
                                 const std::vector<Vec3>& joints, const FitOptions& o) {
  const TriangleMesh &template_body = qa.mesh(), &target_body = qr.mesh();
  if (template_body.face_count() == 0) throw InvalidInput("fit: the template body has no faces");
  if (target_body.face_count() == 0) throw InvalidInput("fit: the target body has no faces");
  const std::vector<Vec3> na_vertex = template_body.vertex_normals(),
                          nr_vertex = target_body.vertex_normals();
  std::vector<JointFit> out(joints.size());
  Executor::global().for_each(
      0, joints.size(),
      [&](std::size_t i) {
        JointFit& jf = out[i];
        jf.j0 = joints[i];
        jf.j1 = map(jf.j0);
        const TriangleMeshBvh::PointQuery ca = qa.closest_point(jf.j0);
        const TriangleMeshBvh::PointQuery cr = qr.closest_point(jf.j1);
        const Vec3 n = normal_at(target_body, nr_vertex, cr);
        auto closest_fallback = [&](JointFitPath p) {
          jf.j2 = cr.point;
          jf.path = p;
        };
        if (ca.distance <= o.surface_tolerance) {
          // docs/METHODS.md "M2 Joints by ray casting", step 2: p_aux = j1 + n, ray from p_aux along -n; of
          // several hits the one nearest j1 (a crease can put a second sheet inside the offset).
          const Vec3 p_aux = jf.j1 + n * o.ray_offset;
          if (qr.contains(p_aux)) return closest_fallback(JointFitPath::surface_closest_point);
          const auto hits = qr.all_hits(Ray{p_aux, -n, 0, 2 * o.ray_offset + 2 * cr.distance});
          if (hits.empty()) return closest_fallback(JointFitPath::surface_closest_point);
          const auto best = std::min_element(hits.begin(), hits.end(), [&](const auto& a, const auto& b) {
            return std::abs(a.t - o.ray_offset) < std::abs(b.t - o.ray_offset);
          });
          jf.j2 = p_aux - n * best->t;
          jf.path = JointFitPath::surface_ray;
          return;
        }
        if (!qa.contains(jf.j0)) {
          jf.j2 = jf.j1;
          jf.path = JointFitPath::exterior_mapped;
          return;
        }
        // Interior: where the template joint sat between entry and exit on A_m.
        const Vec3 na = normal_at(template_body, na_vertex, ca);
        double s0 = 0.5;
        if (o.interior == InteriorPlacement::keep_fraction) {
          const double ea = first_hit(qa, jf.j0, na), ba = first_hit(qa, jf.j0, -na);
          if (ea > 0 && ba > 0) s0 = ba / (ba + ea);
        }
        if (!qr.contains(jf.j1)) return closest_fallback(JointFitPath::interior_closest_point);
        Vec3 d = n;
        if (o.interior_direction == InteriorDirection::mapped_template_normal) {
          const Vec3 mapped = normalized(map.jacobian(jf.j0) * na);
          if (norm(mapped) > 0.5) d = mapped;
        }
        const double exit_t = first_hit(qr, jf.j1, d), entry_t = first_hit(qr, jf.j1, -d);
        if (exit_t < 0 || entry_t < 0) return closest_fallback(JointFitPath::interior_closest_point);
        const Vec3 entry = jf.j1 - d * entry_t, exit = jf.j1 + d * exit_t;
        jf.j2 = entry + (exit - entry) * s0;
        jf.path = JointFitPath::interior_two_sided;
      },
      8);
  return out;
}

SkeletonFit fit_skeleton(const Skeleton& skeleton, const TriangleMesh& template_body,
                         const TriangleMesh& target_body, const FitOptions& o) {
  const TriangleMeshBvh template_tree(template_body), target_tree(target_body);
  return fit_skeleton(skeleton, template_tree, target_tree, o);
}

SkeletonFit fit_skeleton(const Skeleton& skeleton, const TriangleMeshBvh& template_body,
                         const TriangleMeshBvh& target_body, const FitOptions& o) {
  SkeletonFit r;
  r.template_landmarks = find_body_landmarks(template_body, "template body");
  r.target_landmarks = find_body_landmarks(target_body, "target body");
  std::vector<Vec3> from, to;
  for (std::size_t i = 0; i < r.template_landmarks.size(); ++i) {
    from.push_back(r.template_landmarks[i].position);
    to.push_back(r.target_landmarks[i].position);
  }
  const RbfMap map(from, to, o.regularisation);
  // Fit each distinct point once, so heads shared with tails stay shared.
  auto key = [](const Vec3& v) { return std::make_tuple(v.x, v.y, v.z); };
  std::map<std::tuple<double, double, double>, int> index;
  std::vector<Vec3> points;
  auto add = [&](const Vec3& v) {
    const auto [it, inserted] = index.try_emplace(key(v), static_cast<int>(points.size()));
    if (inserted) points.push_back(v);
    return it->second;
  };
  std::vector<int> hi, ti;
  for (const Bone& b : skeleton.bones) {
    hi.push_back(add(b.head));
    ti.push_back(add(b.tail));
  }
  const std::vector<JointFit> fits = fit_points(template_body, target_body, map, points, o);
  r.skeleton = skeleton;
  for (std::size_t b = 0; b < skeleton.size(); ++b) {
    r.heads.push_back(fits[hi[b]]);
    r.tails.push_back(fits[ti[b]]);
    r.skeleton.bones[b].head = fits[hi[b]].j2;
    r.skeleton.bones[b].tail = fits[ti[b]].j2;
  }
  return r;
}

}  // namespace drape

#include "drape/bvh/triangle_mesh_bvh.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "drape/core/exceptions.h"
#include "drape/geometry/mesh_adjacency.h"

namespace drape {
namespace {

constexpr double kEps = 1.1102230246251565e-16;

// Per-ray constants of the slab test, in double against the float boxes
// (exact conversion), so the test is conservative up to a few ulps of slack.
struct SlabRay {
  double o[3], inv[3];
  int neg[3];
  explicit SlabRay(const Ray& r) {
    for (int a = 0; a < 3; ++a) {
      o[a] = r.origin[a];
      inv[a] = 1.0 / r.direction[a];  // +-inf for a zero component
      neg[a] = std::signbit(inv[a]) ? 1 : 0;
    }
  }
  // Entry parameter, or +inf when the box is missed within [t0, t1].
  inline double enter(const BvhNode& n, double t0, double t1) const {
    const float* lo = n.lo;
    const float* hi = n.hi;
    double tn = t0, tf = t1;
    for (int a = 0; a < 3; ++a) {
      const double bn = neg[a] ? hi[a] : lo[a];
      const double bf = neg[a] ? lo[a] : hi[a];
      const double e = (bn - o[a]) * inv[a];
      const double x = (bf - o[a]) * inv[a];
      if (e > tn) tn = e;  // NaN (origin on a plane of a parallel slab) is ignored: conservative
      if (x < tf) tf = x;
    }
    const double slack = 8 * kEps * (std::abs(tn) + std::abs(tf));
    return tn <= tf + slack ? tn : std::numeric_limits<double>::infinity();
  }
};

struct StackEntry {
  int node;
  double key;
};

double cone_angle_between(const Vec3& a, const Vec3& b) {
  return std::acos(std::clamp(dot(a, b), -1.0, 1.0));
}

}  // namespace

TriangleMeshBvh::TriangleMeshBvh(const TriangleMesh& mesh, const BvhBuildOptions& options,
                                 const Executor& executor)
    : mesh_(&mesh) {
  faces_.resize(mesh.face_count());
  for (std::size_t f = 0; f < faces_.size(); ++f) faces_[f] = static_cast<int>(f);
  init(options, executor);
}

TriangleMeshBvh::TriangleMeshBvh(const TriangleMesh& mesh, std::span<const int> faces,
                                 const BvhBuildOptions& options, const Executor& executor)
    : mesh_(&mesh), faces_(faces.begin(), faces.end()) {
  for (std::size_t i = 0; i < faces_.size(); ++i)
    if (faces_[i] < 0 || static_cast<std::size_t>(faces_[i]) >= mesh.face_count())
      throw InvalidInput("TriangleMeshBvh: face id " + std::to_string(faces_[i]) + " (entry " +
                         std::to_string(i) + ") out of range for a mesh of " +
                         std::to_string(mesh.face_count()) + " faces");
  init(options, executor);
}

void TriangleMeshBvh::init(const BvhBuildOptions& options, const Executor& executor) {
  const TriangleMesh& m = *mesh_;
  m.validate("TriangleMeshBvh mesh");
  const std::size_t n = faces_.size();
  std::vector<Aabb> boxes(n);
  std::vector<Vec3> centroids(n);
  executor.for_each(
      0, n,
      [&](std::size_t i) {
        const Triangle& t = m.faces[faces_[i]];
        Aabb b;
        for (int v : t) b.expand(m.positions[v]);
        boxes[i] = b;
        centroids[i] = (m.positions[t[0]] + m.positions[t[1]] + m.positions[t[2]]) / 3.0;
      },
      4096);
  tree_ = Bvh::build(boxes, centroids, options, executor);
  const auto order = tree_.primitive_order();
  leaf_tris_.resize(n);
  leaf_faces_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    leaf_faces_[i] = faces_[order[i]];
    leaf_tris_[i] = m.faces[leaf_faces_[i]];
  }
}

void TriangleMeshBvh::refit(double margin) {
  const Vec3* p = mesh_->positions.data();
  auto boxes = tree_.primitive_boxes_mutable();
  for (std::size_t i = 0; i < leaf_tris_.size(); ++i) {
    const Triangle& t = leaf_tris_[i];
    const Vec3 &a = p[t[0]], &b = p[t[1]], &c = p[t[2]];
    BvhBox& box = boxes[i];
    for (int k = 0; k < 3; ++k) {
      box.lo[k] = BvhBox::down(std::min(a[k], std::min(b[k], c[k])) - margin);
      box.hi[k] = BvhBox::up(std::max(a[k], std::max(b[k], c[k])) + margin);
    }
  }
  tree_.refit_from_leaf_boxes();
}

void TriangleMeshBvh::transform(const RigidTransform& t) { tree_.transform(t); }

std::optional<RayHit> TriangleMeshBvh::intersect(const Ray& ray) const {
  WatertightRay wr(ray);
  if (!wr.valid || tree_.empty() || !(ray.t_min <= ray.t_max)) return std::nullopt;
  const SlabRay sr(ray);
  const auto nodes = tree_.nodes();
  const Vec3* p = mesh_->positions.data();
  RayHit best;
  double best_t = ray.t_max;
  StackEntry stack[Bvh::kMaxDepth + 2];
  int sp = 0;
  const double t_root = sr.enter(nodes[0], ray.t_min, best_t);
  if (t_root == std::numeric_limits<double>::infinity()) return std::nullopt;
  stack[sp++] = {0, t_root};
  while (sp > 0) {
    const StackEntry e = stack[--sp];
    if (e.key > best_t) continue;
    const BvhNode& n = nodes[e.node];
    if (n.is_leaf()) {
      for (int i = n.index; i < n.index + n.count; ++i) {
        const Triangle& t = leaf_tris_[i];
        double tt, u, v;
        wr.t_max = best_t;
        if (intersect_ray_triangle(wr, p[t[0]], p[t[1]], p[t[2]], tt, u, v)) {
          best_t = tt;
          best = {leaf_faces_[i], tt, u, v};
        }
      }
      continue;
    }
    const double t0 = sr.enter(nodes[n.index], ray.t_min, best_t);
    const double t1 = sr.enter(nodes[n.index + 1], ray.t_min, best_t);
    constexpr double kInf = std::numeric_limits<double>::infinity();
    if (t0 != kInf && t1 != kInf) {
      // Nearer child on top of the stack: ordered traversal.
      if (t0 <= t1) {
        stack[sp++] = {n.index + 1, t1};
        stack[sp++] = {n.index, t0};
      } else {
        stack[sp++] = {n.index, t0};
        stack[sp++] = {n.index + 1, t1};
      }
    } else if (t0 != kInf) {
      stack[sp++] = {n.index, t0};
    } else if (t1 != kInf) {
      stack[sp++] = {n.index + 1, t1};
    }
  }
  if (best.face < 0) return std::nullopt;
  return best;
}

namespace {
// Visits every leaf the ray's segment passes; `leaf(n)` returns true to stop.
template <class F>
void visit_ray_leaves(const Bvh& tree, const Ray& ray, F&& leaf) {
  if (tree.empty()) return;
  const SlabRay sr(ray);
  const auto nodes = tree.nodes();
  int stack[Bvh::kMaxDepth + 2];
  int sp = 0;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (sr.enter(nodes[0], ray.t_min, ray.t_max) == kInf) return;
  stack[sp++] = 0;
  while (sp > 0) {
    const BvhNode& n = nodes[stack[--sp]];
    if (n.is_leaf()) {
      if (leaf(n)) return;
      continue;
    }
    if (sr.enter(nodes[n.index + 1], ray.t_min, ray.t_max) != kInf) stack[sp++] = n.index + 1;
    if (sr.enter(nodes[n.index], ray.t_min, ray.t_max) != kInf) stack[sp++] = n.index;
  }
}
}  // namespace

bool TriangleMeshBvh::intersects_any(const Ray& ray) const {
  const WatertightRay wr(ray);
  if (!wr.valid || !(ray.t_min <= ray.t_max)) return false;
  const Vec3* p = mesh_->positions.data();
  bool hit = false;
  visit_ray_leaves(tree_, ray, [&](const BvhNode& n) {
    for (int i = n.index; i < n.index + n.count; ++i) {
      const Triangle& t = leaf_tris_[i];
      double tt, u, v;
      if (intersect_ray_triangle(wr, p[t[0]], p[t[1]], p[t[2]], tt, u, v)) return hit = true;
    }
    return false;
  });
  return hit;
}

int TriangleMeshBvh::count_hits(const Ray& ray) const {
  const WatertightRay wr(ray);
  if (!wr.valid || !(ray.t_min <= ray.t_max)) return 0;
  const Vec3* p = mesh_->positions.data();
  int count = 0;
  visit_ray_leaves(tree_, ray, [&](const BvhNode& n) {
    for (int i = n.index; i < n.index + n.count; ++i) {
      const Triangle& t = leaf_tris_[i];
      double tt, u, v;
      count += intersect_ray_triangle(wr, p[t[0]], p[t[1]], p[t[2]], tt, u, v);
    }
    return false;
  });
  return count;
}

void TriangleMeshBvh::intersect(std::span<const Ray> rays, std::span<std::optional<RayHit>> hits,
                                const Executor& executor) const {
  if (hits.size() != rays.size())
    throw InvalidInput("TriangleMeshBvh::intersect: " + std::to_string(hits.size()) + " results for " +
                       std::to_string(rays.size()) + " rays");
  executor.for_each(
      0, rays.size(), [&](std::size_t i) { hits[i] = intersect(rays[i]); }, 64);
}

TriangleMeshBvh::PointQuery TriangleMeshBvh::closest_point(const Vec3& q, double max_distance) const {
  PointQuery best;
  if (tree_.empty() || !is_finite(q) || !(max_distance >= 0)) return best;
  const auto nodes = tree_.nodes();
  const Vec3* p = mesh_->positions.data();
  double best_d2 = max_distance * max_distance;
  const auto pboxes = tree_.primitive_boxes();
  StackEntry stack[Bvh::kMaxDepth + 2];
  int sp = 0;
  const double d_root = nodes[0].box().squared_distance(q);
  if (d_root > best_d2) return best;
  stack[sp++] = {0, d_root};
  while (sp > 0) {
    const StackEntry e = stack[--sp];
    if (e.key > best_d2) continue;
    const BvhNode& n = nodes[e.node];
    if (n.is_leaf()) {
      for (int i = n.index; i < n.index + n.count; ++i) {
        if (pboxes[i].squared_distance(q) > best_d2) continue;  // cheap reject before the exact test
        const Triangle& t = leaf_tris_[i];
        const ClosestPoint cp = closest_point_on_triangle(q, p[t[0]], p[t[1]], p[t[2]]);
        const double d2 = squared_norm(cp.point - q);
        if (d2 < best_d2 || (best.face < 0 && d2 <= best_d2)) {
          best_d2 = d2;
          best.face = leaf_faces_[i];
          best.point = cp.point;
          best.u = cp.u;
          best.v = cp.v;
          best.w = cp.w;
        }
      }
      continue;
    }
    const double d0 = nodes[n.index].box().squared_distance(q);
    const double d1 = nodes[n.index + 1].box().squared_distance(q);
    if (d0 <= d1) {
      if (d1 <= best_d2) stack[sp++] = {n.index + 1, d1};
      if (d0 <= best_d2) stack[sp++] = {n.index, d0};
    } else {
      if (d0 <= best_d2) stack[sp++] = {n.index, d0};
      if (d1 <= best_d2) stack[sp++] = {n.index + 1, d1};
    }
  }
  if (best.face >= 0) best.distance = std::sqrt(best_d2);
  return best;
}

void TriangleMeshBvh::closest_points(std::span<const Vec3> points, std::span<PointQuery> results,
                                     double max_distance, const Executor& executor) const {
  if (results.size() != points.size())
    throw InvalidInput("TriangleMeshBvh::closest_points: " + std::to_string(results.size()) +
                       " results for " + std::to_string(points.size()) + " points");
  executor.for_each(
      0, points.size(), [&](std::size_t i) { results[i] = closest_point(points[i], max_distance); }, 64);
}

bool TriangleMeshBvh::contains(const Vec3& q) const {
  // A fixed direction with no simple ratios, so typical meshes' edges and
  // symmetry planes are rarely hit; parity is exact regardless.
  const Ray ray{q, {0.4311728093, 0.7642155361, 0.4795384227}, 0.0};
  return count_hits(ray) % 2 == 1;
}

std::vector<std::pair<int, int>> TriangleMeshBvh::intersecting_pairs(const TriangleMeshBvh& other) const {
  std::vector<std::pair<int, int>> out;
  const Vec3* pa = mesh_->positions.data();
  const Vec3* pb = other.mesh_->positions.data();
  tree_.for_each_overlapping_pair(other.tree_, [&](int a, int b) {
    const int fa = faces_[a], fb = other.faces_[b];
    const Triangle& ta = mesh_->faces[fa];
    const Triangle& tb = other.mesh_->faces[fb];
    if (triangles_intersect(pa[ta[0]], pa[ta[1]], pa[ta[2]], pb[tb[0]], pb[tb[1]], pb[tb[2]]))
      out.emplace_back(fa, fb);
  });
  std::sort(out.begin(), out.end());
  return out;
}

const std::vector<std::uint8_t>& TriangleMeshBvh::node_connected() const {
  std::call_once(lazy_->once, [&] {
    const auto nodes = tree_.nodes();
    std::vector<std::uint8_t>& connected = lazy_->connected;
    connected.assign(nodes.size(), 0);
    if (nodes.empty()) return;
    const std::vector<int> parent = tree_.parents();
    std::vector<int> depth(nodes.size(), 0);
    for (std::size_t i = 1; i < nodes.size(); ++i)
      if (parent[i] >= 0) depth[i] = depth[parent[i]] + 1;  // parents precede children
    // Leaf and leaf-order position of every mesh face in the tree.
    std::vector<int> pos_of_face(mesh_->face_count(), -1), leaf_of_pos(leaf_faces_.size(), -1);
    for (std::size_t i = 0; i < leaf_faces_.size(); ++i) pos_of_face[leaf_faces_[i]] = static_cast<int>(i);
    for (std::size_t k = 0; k < nodes.size(); ++k)
      if (nodes[k].is_leaf())
        for (int i = nodes[k].index; i < nodes[k].index + nodes[k].count; ++i)
          leaf_of_pos[i] = static_cast<int>(k);
    // Union-find over leaf positions, used inside leaves only.
    std::vector<int> uf(leaf_faces_.size());
    for (std::size_t i = 0; i < uf.size(); ++i) uf[i] = static_cast<int>(i);
    auto find = [&](int x) {
      while (uf[x] != x) x = uf[x] = uf[uf[x]];
      return x;
    };
    std::vector<int> cross(nodes.size(), 0);
    const MeshAdjacency adj = MeshAdjacency::build(*mesh_);
    for (const MeshEdge& e : adj.edges) {
      if (e.face0 < 0 || e.face1 < 0) continue;
      const int a = pos_of_face[e.face0], b = pos_of_face[e.face1];
      if (a < 0 || b < 0) continue;
      int x = leaf_of_pos[a], y = leaf_of_pos[b];
      if (x == y) {
        uf[find(a)] = find(b);
        continue;
      }
      while (depth[x] > depth[y]) x = parent[x];
      while (depth[y] > depth[x]) y = parent[y];
      while (x != y) {
        x = parent[x];
        y = parent[y];
      }
      ++cross[x];  // this edge joins the two children of their lowest common ancestor
    }
    for (int k = static_cast<int>(nodes.size()) - 1; k >= 0; --k) {
      const BvhNode& n = nodes[k];
      if (n.count < 0) continue;
      if (n.is_leaf()) {
        bool one = true;
        for (int i = n.index + 1; i < n.index + n.count; ++i) one = one && find(i) == find(n.index);
        connected[k] = one;
      } else {
        connected[k] = connected[n.index] && connected[n.index + 1] && cross[k] > 0;
      }
    }
  });
  return lazy_->connected;
}

std::vector<std::pair<int, int>> TriangleMeshBvh::self_intersecting_pairs(double normal_cone_cull_angle,
                                                                          SelfStats* stats) const {
  std::vector<std::pair<int, int>> out;
  SelfStats local;
  const TriangleMesh& m = *mesh_;
  const Vec3* p = m.positions.data();
  auto test = [&](int a, int b) {
    const Triangle& ta = m.faces[faces_[a]];
    const Triangle& tb = m.faces[faces_[b]];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        if (ta[i] == tb[j]) return;  // neighbours share a vertex: not a self-intersection
    ++local.candidate_pairs;
    if (triangles_intersect(p[ta[0]], p[ta[1]], p[ta[2]], p[tb[0]], p[tb[1]], p[tb[2]])) {
      const int fa = faces_[a], fb = faces_[b];
      out.emplace_back(std::min(fa, fb), std::max(fa, fb));
    }
  };
  if (normal_cone_cull_angle <= 0) {
    tree_.for_each_self_overlap(test);
  } else {
    const double limit = std::min(normal_cone_cull_angle, std::numbers::pi / 2);
    const auto& connected = node_connected();
    // Normal cones from the current positions, bottom-up: axis and half-angle.
    const auto nodes = tree_.nodes();
    std::vector<Vec3> axis(nodes.size());
    std::vector<double> half(nodes.size(), std::numbers::pi);
    for (int k = static_cast<int>(nodes.size()) - 1; k >= 0; --k) {
      const BvhNode& n = nodes[k];
      if (n.count < 0) continue;
      if (n.is_leaf()) {
        Vec3 sum;
        bool degenerate = false;
        for (int i = n.index; i < n.index + n.count; ++i) {
          const Triangle& t = leaf_tris_[i];
          const Vec3 nn = normalized(cross(p[t[1]] - p[t[0]], p[t[2]] - p[t[0]]));
          degenerate = degenerate || nn == Vec3{};
          sum += nn;
        }
        const Vec3 ax = normalized(sum);
        if (degenerate || ax == Vec3{}) continue;  // half stays pi: never culled
        double h = 0;
        for (int i = n.index; i < n.index + n.count; ++i) {
          const Triangle& t = leaf_tris_[i];
          h = std::max(h, cone_angle_between(ax, normalized(cross(p[t[1]] - p[t[0]], p[t[2]] - p[t[0]]))));
        }
        axis[k] = ax;
        half[k] = h;
      } else {
        const int l = n.index, r = n.index + 1;
        if (half[l] >= std::numbers::pi || half[r] >= std::numbers::pi) continue;
        const Vec3 ax = normalized(axis[l] + axis[r]);
        if (ax == Vec3{}) continue;
        axis[k] = ax;
        half[k] =
            std::max(cone_angle_between(ax, axis[l]) + half[l], cone_angle_between(ax, axis[r]) + half[r]);
      }
    }
    tree_.for_each_self_overlap(test, [&](int node) {
      const bool skip = connected[node] && half[node] < limit;
      local.culled_nodes += skip;
      return skip;
    });
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (stats) *stats = local;
  return out;
}

}  // namespace drape

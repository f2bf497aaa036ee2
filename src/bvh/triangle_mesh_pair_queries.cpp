#include <algorithm>
#include <cmath>
#include <numbers>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/geometry/mesh_adjacency.h"

// Pair queries of the triangle tree: tree-vs-tree and self intersections
// (exact triangle-triangle tests at the leaves), with the normal-cone cull.

namespace drape {
namespace {

double cone_angle_between(const Vec3& a, const Vec3& b) {
  return std::acos(std::clamp(dot(a, b), -1.0, 1.0));
}

}  // namespace

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

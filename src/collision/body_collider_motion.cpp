// BodyCollider::move_vertices: the body's update when it moves (a pose, an
// animation: every step of a motion frame). Only what a moved vertex touches
// changes: its faces' normals, the normals of their vertices, its box and its
// edges' boxes, and the trees over faces with a moved vertex. Each is
// recomputed as a whole update computes it (a vertex normal sums its faces'
// cross products in face order), so the result is bit-identical to
// recomputing everything.
#include <string>

#include "drape/collision/body_collider.h"
#include "drape/core/exceptions.h"
#include "drape/core/executor.h"

namespace drape {

void BodyCollider::move_vertices(const std::vector<Vec3>& positions) {
  if (positions.size() != mesh_->vertex_count())
    throw InvalidInput("body motion: " + std::to_string(positions.size()) + " positions for " +
                       std::to_string(mesh_->vertex_count()) + " body vertices");
  for (const Vec3& p : positions)
    if (!is_finite(p)) throw InvalidInput("body motion: a position is not finite");
  // The vertices that moved (any coordinate changed), and the regions they belong to.
  std::uint32_t moved_regions = 0;
  moved_.clear();
  for (std::size_t v = 0; v < positions.size(); ++v)
    if (positions[v] != mesh_->positions[v]) {
      moved_.push_back(static_cast<int>(v));
      moved_regions |= vertex_regions_[v];
    }
  if (moved_.empty()) return;  // the same body: every tree, normal, list and skip still holds
  if (!own_full_) {
    // The shared tree stays with the rest body: build our own over our copy,
    // from the same (rest) positions, so it is the tree we would have built.
    own_full_ = std::make_unique<TriangleMeshBvh>(*mesh_, BvhBuildOptions{}, *executor_);
    full_ = own_full_.get();
    shared_full_.reset();
  }
  if (moved_.size() == positions.size())
    move_every_vertex(positions);
  else
    move_some_vertices(positions);
  own_full_->refit();
  for (Group& g : groups_)
    if (g.tree && (g.mask & moved_regions)) {  // a face of the tree has a moved vertex
      g.tree->refit();
      ++region_refits_;
    }
  vertex_tree_.refit_from_leaf_boxes();
  edge_tree_.refit_from_leaf_boxes();
  body_moved_ = true;
  far_valid_ = false;
}

// What both paths compute, per element: a face's cross product and normal
// (as TriangleMesh::face_normal() and vertex_normals() compute them), a
// vertex's normal (its faces' cross products summed in face order), and the
// leaf boxes of a vertex and of an edge, as Bvh::refit makes them.
void BodyCollider::update_face(int f) {
  const std::vector<Vec3>& p = mesh_->positions;
  const Triangle& t = mesh_->faces[f];
  face_cross_[f] = cross(p[t[1]] - p[t[0]], p[t[2]] - p[t[0]]);
  face_normals_[f] = normalized(face_cross_[f]);
}

void BodyCollider::update_vertex_normal(int u) {
  Vec3 n{};
  for (int k = vertex_face_offsets_[u]; k < vertex_face_offsets_[u + 1]; ++k)
    n += face_cross_[vertex_faces_[k]];
  vertex_normals_[u] = normalized(n);
}

void BodyCollider::update_vertex_leaf(int v) {
  Aabb b;
  b.expand(mesh_->positions[v]);
  vertex_tree_.primitive_boxes_mutable()[vertex_leaf_[v]] = BvhBox::from(b);
}

void BodyCollider::update_edge_leaf(int e) {
  Aabb b;
  b.expand(mesh_->positions[edges_[e][0]]);
  b.expand(mesh_->positions[edges_[e][1]]);
  edge_tree_.primitive_boxes_mutable()[edge_leaf_[e]] = BvhBox::from(b);
}

// The moved vertices only: their faces' normals, the normals of those faces'
// vertices, their leaf boxes and their edges'.
void BodyCollider::move_some_vertices(const std::vector<Vec3>& positions) {
  std::vector<Vec3>& p = mesh_->positions;
  for (int v : moved_) p[v] = positions[v];
  touched_faces_.clear();
  touched_vertices_.clear();
  for (int v : moved_)
    for (int k = vertex_face_offsets_[v]; k < vertex_face_offsets_[v + 1]; ++k) {
      const int f = vertex_faces_[k];
      if (face_mark_[f]) continue;
      face_mark_[f] = 1;
      touched_faces_.push_back(f);
    }
  for (int f : touched_faces_) {
    face_mark_[f] = 0;
    update_face(f);
    for (int u : mesh_->faces[f])
      if (!vertex_mark_[u]) {
        vertex_mark_[u] = 1;
        touched_vertices_.push_back(u);
      }
  }
  for (int u : touched_vertices_) {
    vertex_mark_[u] = 0;
    update_vertex_normal(u);
  }
  for (int v : moved_) {
    update_vertex_leaf(v);
    for (int k = vertex_edge_offsets_[v]; k < vertex_edge_offsets_[v + 1]; ++k)
      update_edge_leaf(vertex_edges_[k]);
  }
}

// Every vertex moved (a posed or animated body, every step): each face,
// vertex and edge once, in parallel (each writes only its own entries).
void BodyCollider::move_every_vertex(const std::vector<Vec3>& positions) {
  std::vector<Vec3>& p = mesh_->positions;
  const Executor& ex = *executor_;
  const auto id = [](std::size_t i) { return static_cast<int>(i); };
  ex.for_each(
      0, p.size(), [&](std::size_t v) { p[v] = positions[v]; }, 4096);
  ex.for_each(
      0, mesh_->faces.size(), [&](std::size_t f) { update_face(id(f)); }, 2048);
  ex.for_each(
      0, p.size(),
      [&](std::size_t u) {
        update_vertex_normal(id(u));
        update_vertex_leaf(id(u));
      },
      2048);
  ex.for_each(
      0, edges_.size(), [&](std::size_t e) { update_edge_leaf(id(e)); }, 4096);
}

}  // namespace drape

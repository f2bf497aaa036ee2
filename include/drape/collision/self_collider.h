#pragma once
// Cloth self-collision (M1 steps 10-11): vertex-triangle and edge-edge
// proximity within a thickness, answered by moving the points apart
// (position-based, inverse-mass weighted), with the side taken from the
// previous step's positions so that the answer never pushes through.
// Candidates come from AABB trees over the cloth's triangles and edges,
// refitted every step (M1 step 8). M1 step 10: a vertex and a triangle of the
// same low-curvature neighbourhood are skipped.

#include <array>
#include <cstddef>
#include <vector>

#include "drape/bvh/bvh.h"
#include "drape/core/executor.h"
#include "drape/geometry/triangle_mesh.h"

namespace drape {

struct SelfCollisionStats {
  std::size_t vertex_triangle_contacts = 0;
  std::size_t edge_edge_contacts = 0;
  std::size_t culled_candidates = 0;  ///< candidates skipped by the curvature test
};

class SelfCollider {
 public:
  /// \param faces the cloth's triangles; \param positions initial positions (for the trees).
  /// \param thickness minimum distance kept between cloth parts, m.
  /// \param cone_angle neighbourhoods whose normals differ by less than this
  ///        (radians) are flat and are not tested against themselves.
  /// \param vertex_alias optional, per vertex a representative id: vertices with the
  ///        same representative (e.g. the two sides of a seam) count as one vertex for
  ///        adjacency, so a seam is never pushed open. Empty = every vertex is its own.
  SelfCollider(const std::vector<Triangle>& faces, const std::vector<Vec3>& positions, double thickness,
               double cone_angle, std::vector<int> vertex_alias = {});

  /// Refits the trees to the swept boxes of x_prev -> x (inflated by the thickness).
  /// No allocation.
  void refit(const std::vector<Vec3>& x, const std::vector<Vec3>& x_prev, const Executor& executor);

  /// Finds contacts (parallel) and resolves them (sequentially, deterministic order).
  /// \param x positions to correct; \param x_prev positions at the start of the step (decide sides).
  /// \param inv_mass 0 = pinned.
  SelfCollisionStats resolve(std::vector<Vec3>& x, const std::vector<Vec3>& x_prev,
                             const std::vector<double>& inv_mass, const Executor& executor);

  /// Recomputes which triangles lie in a flat neighbourhood (call once per frame).
  void update_curvature(const std::vector<Vec3>& x, const Executor& executor);

 private:
  static constexpr int kMaxContacts = 8;
  struct VtContact {
    int tri;
    float b0, b1, b2;
    Vec3 n;  // side-corrected direction from triangle to vertex
  };
  struct EeContact {
    int other;
    float s, t;
    Vec3 n;  // direction from the other edge to this one
  };

  std::vector<Triangle> faces_;
  std::vector<Triangle> alias_faces_;  // faces_ with vertex ids replaced by their alias
  std::vector<int> alias_;
  std::vector<std::array<int, 2>> edges_;
  std::vector<int> vertex_face_offsets_, vertex_faces_;
  double thickness_;
  double cos_cone_;
  Bvh tri_tree_, edge_tree_;
  std::vector<Aabb> tri_boxes_, edge_boxes_;
  std::vector<Vec3> face_normals_;
  std::vector<unsigned char> flat_;
  std::vector<VtContact> vt_;
  std::vector<int> vt_count_;
  std::vector<EeContact> ee_;
  std::vector<int> ee_count_;
  std::vector<int> culled_;
};

}  // namespace drape

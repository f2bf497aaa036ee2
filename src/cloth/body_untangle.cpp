// Untangling the cloth from the body: intersection contour minimisation (ICM)
// against the body, which stays put.
//
// The body's answers (vertex contacts, the push of body features out of cloth
// triangles) keep the cloth outside the body point by point, but a body ridge
// that ends up through a fold of cloth can be held there by the layers around
// it: each answer moves a layer into its neighbour and the self pass moves it
// back, step after step. On the Godot man the front fold of the left armpit
// (one body edge) went through five triangles of the shirt's pinched cloth in
// the 30th frame of the arms' descent and stayed there through the settle.
//
// So at the end of every frame the body features through cloth triangles
// whose corners are all outside the body are looked for (a corner inside is
// the vertex answers' to bring out, and through a deep crossing the contour's
// gradient can point the wrong way). Such crossings come and go while cloth
// slides over a face's features; once they have been there for
// kHeldFrames frames in a row (SimulationState::body_crossing_frames), the
// crossing cloth triangles move against the gradient of their intersection
// contour with the body, a quarter of the thickness per pass, up to
// ClothSettings::untangle_iterations passes a frame, as the self
// untangling moves cloth against cloth (src/collision/contour_untangle.cpp).
// A move that would take the cloth through itself is not made:
// self-collision keeps each point on the side it is on, so such a crossing
// would stay.
#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/collision/contour_untangle.h"
#include "simulation_impl.h"

namespace drape {

namespace {
// 0.5 s at 60 frames a second: longer than a face's nose or ears stay
// through the cloth sliding over them (the 60 cm square dropped on the
// MakeHuman head: 2 to 7 frames in a row).
constexpr std::int64_t kHeldFrames = 30;
// Frames the untangle is given once it starts before a run may end at rest
// with the crossings still there.
constexpr std::int64_t kUntangleFrames = 30;
}  // namespace

bool ClothSimulation::Impl::body_untangle_pending() const {
  return st.body_crossing_frames > 0 && st.body_crossing_frames < kHeldFrames + kUntangleFrames;
}

// The body features through cloth triangles whose corners are all outside
// the body, as pairs (cloth face, body face) of one mesh of the cloth and the
// body (the body's faces after the cloth's).
void ClothSimulation::Impl::find_held_body_crossings() {
  const TriangleMeshBvh& body_tree = body->tree();
  // A tree over the cloth, built once and refitted (its faces never change).
  std::copy(st.x.begin(), st.x.end(), body_untangle_cloth.positions.begin());
  body_untangle_tree->refit();
  body_untangle_pairs.clear();
  const int body_face0 = static_cast<int>(model.faces.size());
  for (const auto& [body_face, cloth_face] : body_tree.intersecting_pairs(*body_untangle_tree)) {
    const Triangle& t = model.faces[static_cast<std::size_t>(cloth_face)];
    if (body_tree.contains(st.x[t[0]]) || body_tree.contains(st.x[t[1]]) || body_tree.contains(st.x[t[2]]))
      continue;
    body_untangle_pairs.emplace_back(cloth_face, body_face0 + body_face);
  }
}

void ClothSimulation::Impl::untangle_from_body() {
  if (!body || model.faces.empty()) return;
  if (!body_untangle_tree) {
    body_untangle_cloth.faces = model.faces;
    body_untangle_cloth.positions = st.x;
    body_untangle_tree = std::make_unique<TriangleMeshBvh>(body_untangle_cloth, BvhBuildOptions{}, *ex);
  }
  find_held_body_crossings();
  if (body_untangle_pairs.empty()) {
    st.body_crossing_frames = 0;
    return;
  }
  if (++st.body_crossing_frames < kHeldFrames) return;
  const TriangleMesh& body_mesh = body->tree().mesh();
  const std::size_t n = model.vertex_count;
  body_untangle_faces = model.faces;
  for (const Triangle& t : body_mesh.faces)
    body_untangle_faces.push_back(
        {t[0] + static_cast<int>(n), t[1] + static_cast<int>(n), t[2] + static_cast<int>(n)});
  body_untangle_inv_mass = model.inv_mass;
  body_untangle_inv_mass.resize(n + body_mesh.vertex_count(), 0.0);  // the body does not move
  for (int pass = 0; pass < settings.untangle_iterations && !body_untangle_pairs.empty(); ++pass) {
    body_untangle_x = st.x;
    body_untangle_x.insert(body_untangle_x.end(), body_mesh.positions.begin(), body_mesh.positions.end());
    if (contour_minimization_step(body_untangle_faces, body_untangle_x, body_untangle_inv_mass,
                                  body_untangle_pairs, 0.25 * settings.thickness) == 0)
      return;
    // The faces at a moved vertex may cross no more cloth after the step
    // than before it (body_untangle_x holds the cloth first, indexed as st.x).
    body_untangle_near.clear();
    for (std::size_t f = 0; f < model.faces.size(); ++f) {
      const Triangle& t = model.faces[f];
      if (body_untangle_x[t[0]] != st.x[t[0]] || body_untangle_x[t[1]] != st.x[t[1]] ||
          body_untangle_x[t[2]] != st.x[t[2]])
        body_untangle_near.push_back(static_cast<int>(f));
    }
    if (crossing_face_pairs(model.faces, body_untangle_x, body_untangle_near).size() >
        crossing_face_pairs(model.faces, st.x, body_untangle_near).size())
      return;
    std::copy(body_untangle_x.begin(), body_untangle_x.begin() + static_cast<std::ptrdiff_t>(n),
              st.x.begin());
    find_held_body_crossings();
  }
}

}  // namespace drape

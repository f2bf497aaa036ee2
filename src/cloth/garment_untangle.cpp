// Untangling the whole garment once no seam corner is exempt any more.
//
// Self-collision keeps each point on the side it is on, so a crossing left in
// the cloth once every corner group has been handed back (a contour that slid
// out of a corner group before the group was released, cloth pulled through
// by a seam) is locked in for good: tee_hood on MakeHuman rested with a hood
// corner folded through the shirt's front (8 crossing pairs from frame 35 to
// the end). So after every frame with the body still, gravity on and no
// corner group left, the whole garment gets the contour minimisation of the
// corners (nothing is done while no triangle crosses another), never into the
// body: a step that would take a vertex nearer the body than half the
// thickness, and nearer than it was, is refused for that vertex (the body's
// answer comes only in the next step).
#include "simulation_impl.h"

namespace drape {

void ClothSimulation::Impl::untangle_released_garment() {
  if (!self || settings.untangle_iterations <= 0 || model.seam_a.empty() || st.gravity_on_frame < 0 ||
      !st.corner_group.empty())
    return;
  const double h = settings.thickness;
  CornerUntangler::StepFilter into_body;
  if (body)
    into_body = [&](std::size_t v, const Vec3& from, const Vec3& to) {
      const BodyContact c_to = body->query(to, vertex_group[v], h);
      if (c_to.face < 0 || c_to.signed_distance >= 0.5 * h) return false;
      const BodyContact c_from = body->query(from, vertex_group[v], h);
      const double d_from = c_from.face < 0 ? h : c_from.signed_distance;
      return c_to.signed_distance < d_from;
    };
  untangler.untangle_everywhere(model, st.seam_joined, settings.untangle_iterations, 0.25 * h, st.x,
                                into_body);
}

}  // namespace drape

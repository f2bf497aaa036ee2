// Collisions inside a step of ClothSimulation: body and self, in the order
// whose invariant is that neither answer undoes the other.
#include <algorithm>
#include <cmath>
#include <limits>

#include "drape/cloth/seam_sewing.h"
#include "simulation_impl.h"
#include "stage_clock.h"

namespace drape {

// The step cap (no vertex moves more than max_step(), so none tunnels),
// self-collision on the capped positions, the cap again (self-collision's
// answer may move a vertex further), the body's answer (with the strain
// limit's rounds, the body's vertex response last), then self-collision
// again: pushing cloth out of the body (both layers of an armpit onto the same
// surface) must not push one layer through the other (docs/CLOTH.md). Then
// the body answers once more on what that pass moved (answer_body_after_self),
// so that the step ends with the body's answer: a self answer that pressed one
// layer onto a body ridge (cloth pinched under an arm) would otherwise leave
// the ridge through that layer at every step's end.
// Capping before the first self pass keeps every position that pass sees
// within a step's move (under the self-collider's slack) of the step's start:
// cloth at rest pressed on the body, which the solve pulls several mm into
// it every step and the body puts back, needs no new candidate search.
void ClothSimulation::Impl::collide() {
  std::vector<Vec3>& x = st.x;
  const std::size_t n = model.vertex_count;
  auto t0 = Clock::now();
  // With continuous collision the body needs no cap (its sweep rules out
  // tunnelling); self-collision's proximity pass still does.
  cap_steps(self ? max_step() : body_max_step());
  if (self) {
    self->update(x, *ex);  // refit + candidate search when something moved more than the slack
    report.times.refit += seconds_since(t0);
    t0 = Clock::now();
    self->resolve(x, x_prev, model.inv_mass, *ex);
    ex->for_each(
        0, n, [&](std::size_t i) { moved[i] = 1; }, 4096);
    report.times.self_collision += seconds_since(t0);
  }
  t0 = Clock::now();
  cap_steps(body_max_step());
  if (body) {
    body_response();
    // The body's push re-stretches edges the limit had shortened; the limit
    // again, then the body again, so the body's answer stays the last.
    if (settings.strain_limit_body_rounds > 0 && strain_limit_acts())
      for (int r = 0; r < settings.strain_limit_body_rounds; ++r) {
        limit_strain(&body_held);
        body_response();
      }
    // Then body vertices poking into cloth triangles (sharp features); only
    // deep contacts, so the friction of the vertex response above is kept.
    push_cloth_off_body_features();
  }
  report.times.body_collision += seconds_since(t0);
  if (self) {
    t0 = Clock::now();
    if (body) self_start = x;
    self->resolve(x, x_prev, model.inv_mass, *ex);
    report.times.self_collision += seconds_since(t0);
    if (body) {
      t0 = Clock::now();
      answer_body_after_self();
      report.times.body_collision += seconds_since(t0);
    }
  }
}

// The body's last word on what the final self pass moved: the triangle push
// again on the triangles with a corner that pass moved, then the vertex
// answer on every vertex that pass or this push moved (the vertex answer
// last, as in the first round). The rest of the cloth is where the first
// round left it.
void ClothSimulation::Impl::answer_body_after_self() {
  const std::vector<Vec3>& x = st.x;
  const std::size_t n = model.vertex_count;
  const auto moved_since_self = [&](std::size_t i) { return x[i] != self_start[i]; };
  self_moved.assign(n, 0);
  bool any = false;
  for (std::size_t i = 0; i < n; ++i)
    if (moved_since_self(i)) self_moved[i] = 1, any = true;
  if (!any) return;
  faces_to_push.assign(model.faces.size(), 0);
  for (std::size_t f = 0; f < model.faces.size(); ++f) {
    const Triangle& t = model.faces[f];
    faces_to_push[f] = self_moved[t[0]] | self_moved[t[1]] | self_moved[t[2]];
  }
  push_cloth_off_body_features(&faces_to_push);
  const bool ccd = continuous();
  ex->for_each(
      0, n,
      [&](std::size_t i) {
        if (model.inv_mass[i] != 0 && moved_since_self(i)) answer_body_contact(i, ccd);
      },
      128);
}

// Cloth vertices within the thickness of the body go to the thickness, with
// Coulomb friction on the step's tangential motion (position-based), except
// at the ends of open seam pairs once gravity is on, which slide (seam_sewing.h),
// and everywhere in a stall resew (stall_resew.h).
void ClothSimulation::Impl::body_response() {
  if (resewing())
    frictionless.assign(model.vertex_count, 1);
  else if (st.gravity_on_frame >= 0)
    open_seam_ends(model, st.seam_joined, frictionless);
  else
    frictionless.assign(model.vertex_count, 0);
  // Vertices far from the body are not searched for again until they moved a
  // thickness (BodyCollider::query_vertex: the same answers).
  body->prepare_vertex_queries(model.vertex_count);
  body_held.assign(model.vertex_count, 0);
  const bool ccd = continuous();
  ex->for_each(
      0, model.vertex_count,
      [&](std::size_t i) {
        if (model.inv_mass[i] != 0) answer_body_contact(i, ccd);
      },
      128);
}

// Vertex i's answer (body_response): the sweep when `ccd`, then the
// proximity answer with friction.
void ClothSimulation::Impl::answer_body_contact(std::size_t i, bool ccd) {
  std::vector<Vec3>& x = st.x;
  const double h = settings.thickness;
  if (ccd) sweep_vertex_against_body(i);
  const BodyContact c = body->query_vertex(i, x[i], vertex_group[i], h, h);
  if (c.face < 0 || c.signed_distance >= h) return;
  const double depth = h - c.signed_distance;
  Vec3 p = x[i] + c.normal * depth;
  const Vec3 dx = p - x_prev[i];
  const Vec3 dt_vec = dx - c.normal * dot(dx, c.normal);
  const double lt = norm(dt_vec);
  const double mu = frictionless[i] ? 0.0 : fabric.friction;
  if (lt > 0) p -= lt <= mu * depth ? dt_vec : dt_vec * (mu * depth / lt);
  x[i] = p;
  moved[i] = 1;
  body_held[i] = 1;
}

// Continuous collision (docs/CLOTH.md "No tunnelling"): vertex i's path over
// the step, from where it started (before this step's share of a motion's
// carry) to x[i], swept against the body moving from the step's start to its
// end. On the earliest crossing from outside, the vertex goes to the
// thickness in front of the face's plane at the step's end, with the
// friction rule of the proximity answer applied to its motion relative to
// the surface point it met (a moving body carries what it hits); the new
// path is swept again (a vertex pushed across a neighbouring face), and
// after kSweeps answers a vertex still crossing goes to the thickness in
// front of its last contact. The proximity answer of body_response follows.
void ClothSimulation::Impl::sweep_vertex_against_body(std::size_t i) {
  constexpr int kSweeps = 4;
  const double h = settings.thickness;
  const double gap = 0.1 * h, tolerance = 0.1 * h;
  std::vector<Vec3>& x = st.x;
  const Vec3 x0 = carry_share > 0 ? x_prev[i] - carry[i] * carry_share : x_prev[i];
  // A path known to stay clear of the body by more than the sweep's reach
  // (gap + tolerance) meets nothing: most cloth away from the body once it rests.
  if (body->segment_known_clear(i, x0, x[i], gap + tolerance)) return;
  const double mu = frictionless[i] ? 0.0 : fabric.friction;
  for (int k = 0; k < kSweeps; ++k) {
    const BodyCollider::SweptContact s =
        body->sweep_vertex(x0, x[i], vertex_group[i], gap, tolerance, h, body_step_start, body_step_reach);
    if (s.face < 0) return;
    moved[i] = 1;
    if (k == kSweeps - 1) {
      x[i] = s.point + s.normal * h;
      return;
    }
    const double depth = h - dot(x[i] - s.point, s.normal);
    Vec3 p = x[i] + s.normal * depth;
    // Friction on the motion relative to the body's surface point it met.
    const Vec3 dx = p - x0 - s.motion;
    const Vec3 dt_vec = dx - s.normal * dot(dx, s.normal);
    const double lt = norm(dt_vec);
    if (lt > 0) p -= lt <= mu * depth ? dt_vec : dt_vec * (mu * depth / lt);
    x[i] = p;
  }
}

// The body's pushes on cloth triangles (sharp features, body edges through
// triangles) add up on a vertex shared by several pushed triangles, to far
// more than a step's move where cloth starts cut into the body; in one piece
// such a push could carry the vertex through other cloth unseen. So a long
// push is applied in increments of at most a step's move per vertex, at most
// kMaxIncrements of them (the body pushes again in the next step), with
// self-collision after each, deciding sides from the positions before that
// increment (docs/CLOTH.md: why not from the step's start).
void ClothSimulation::Impl::push_cloth_off_body_features(const std::vector<unsigned char>* only_faces) {
  std::vector<Vec3>& x = st.x;
  const std::size_t n = model.vertex_count;
  if (self) push_start = x;
  if (body->push_cloth_triangles(model.faces, face_masks, x, model.inv_mass, 0.5 * settings.thickness, *ex,
                                 welded_copies_now(), only_faces) == 0)
    return;
  ex->for_each(
      0, n, [&](std::size_t i) { moved[i] = 1; }, 4096);
  if (!self) return;
  const double step = max_step();
  double longest2 = 0;
  for (std::size_t i = 0; i < n; ++i) longest2 = std::max(longest2, squared_norm(x[i] - push_start[i]));
  constexpr int kMaxIncrements = 8;
  const int k = static_cast<int>(std::min<double>(kMaxIncrements, std::ceil(std::sqrt(longest2) / step)));
  if (k <= 1) return;  // short pushes: the step's own self-collision pass follows
  push_delta.resize(n);
  ex->for_each(
      0, n,
      [&](std::size_t i) {  // the first increment
        push_delta[i] = x[i] - push_start[i];
        const double l = norm(push_delta[i]);
        if (l > step) x[i] = push_start[i] + push_delta[i] * (step / l);
      },
      4096);
  std::swap(push_prev, push_start);  // push_prev: the positions before the current increment
  for (int j = 2; j <= k; ++j) {     // the last increment is followed by the step's own self-collision pass
    self->update(x, *ex);
    self->resolve(x, push_prev, model.inv_mass, *ex);
    push_prev = x;
    ex->for_each(
        0, n,
        [&](std::size_t i) {
          const double l = norm(push_delta[i]);
          if (l > (j - 1) * step) x[i] += push_delta[i] * (std::min(l, j * step) - (j - 1) * step) / l;
        },
        4096);
  }
}

// The copies of each seam vertex whose pairs are joined move as one under
// the body's triangle pushes: the weld after the step takes a set to its
// copies' mean, so a push on one copy alone would keep only its share (a
// third at a three-panel corner) and the solve pulls the cloth back through
// (docs/CLOTH.md "A push on a seam vertex moves its welded set"). Null while
// no pair is joined.
const WeldedCopies* ClothSimulation::Impl::welded_copies_now() {
  if (st.seam_joined != welded_joined) {
    welded_joined = st.seam_joined;
    welded_any = welded_copies(model, welded_joined, welded_sets, welded_rep, welded);
  }
  return welded_any ? &welded : nullptr;
}

// No vertex moves more than dmax in a step (max_step() < half the thickness:
// no tunnelling through a layer the step's collision passes have seen).
void ClothSimulation::Impl::cap_steps(double dmax) {
  std::vector<Vec3>& x = st.x;
  ex->for_each(
      0, model.vertex_count,
      [&](std::size_t i) {
        const Vec3 d = x[i] - x_prev[i];
        const double l2 = squared_norm(d);
        if (l2 > dmax * dmax) {
          x[i] = x_prev[i] + d * (dmax / std::sqrt(l2));
          moved[i] = 1;
        }
      },
      1024);
}

// Cloth vertices inside the body (deeper than a step's response reaches) go
// back to the surface, a thickness outside.
void ClothSimulation::Impl::project_inside_vertices() {
  std::vector<Vec3>& x = st.x;
  const std::size_t n = model.vertex_count;
  inside.assign(n, 0);
  ex->for_each(
      0, n, [&](std::size_t i) { inside[i] = model.inv_mass[i] != 0 && body->contains(x[i]); }, 64);
  for (std::size_t i = 0; i < n; ++i) {
    if (!inside[i]) continue;
    const BodyContact c = body->query(x[i], vertex_group[i], std::numeric_limits<double>::infinity());
    if (c.face >= 0 && c.signed_distance < 0) x[i] = c.point + c.normal * settings.thickness;
  }
}

}  // namespace drape

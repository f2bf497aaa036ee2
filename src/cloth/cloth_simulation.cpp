#include "drape/cloth/cloth_simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>
#include <sstream>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/cloth/percentile.h"
#include "drape/collision/body_collider.h"
#include "drape/collision/contour_untangle.h"
#include "drape/collision/intersection_count.h"
#include "drape/collision/self_collider.h"
#include "drape/core/exceptions.h"
#include "drape/core/executor.h"
#include "drape/core/union_find.h"
#include "drape/geometry/triangle_queries.h"

namespace drape {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

constexpr double kPi = 3.14159265358979323846;

// Seam corners: vertices in more than one seam pair (an armpit, a crotch,
// where several panels meet).
std::vector<unsigned char> seam_corners(const ClothModel& m) {
  std::vector<unsigned char> corner(m.vertex_count, 0);
  for (std::size_t v = 0; v < m.vertex_count; ++v)
    corner[v] = m.vertex_seam_offsets[v + 1] - m.vertex_seam_offsets[v] > 1;
  return corner;
}

// Grows the vertex set `in` by `rings` rings, across triangles and across seam
// pairs. When `sets` is given, every vertex reached is united with the one it
// was reached from (one set per connected region).
void grow_by_rings(const ClothModel& m, int rings, std::vector<unsigned char>& in, UnionFind* sets) {
  for (int ring = 0; ring < rings; ++ring) {
    std::vector<unsigned char> next = in;
    for (const Triangle& t : m.faces)
      for (int k = 0; k < 3; ++k)
        if (in[t[k]]) {
          next[t[0]] = next[t[1]] = next[t[2]] = 1;
          if (sets) {
            sets->unite(t[k], t[(k + 1) % 3]);
            sets->unite(t[k], t[(k + 2) % 3]);
          }
        }
    for (std::size_t k = 0; k < m.seam_a.size(); ++k)
      if (next[m.seam_a[k]] || next[m.seam_b[k]]) {
        next[m.seam_a[k]] = next[m.seam_b[k]] = 1;
        if (sets) sets->unite(m.seam_a[k], m.seam_b[k]);
      }
    in = std::move(next);
  }
}

// out[v]: the mean of x over the vertices with v's representative (summed in
// vertex order, so every caller gets the same bits).
void mean_by_representative(const std::vector<Vec3>& x, const std::vector<int>& rep, std::vector<Vec3>& out) {
  const std::size_t n = x.size();
  out.assign(n, Vec3{});
  std::vector<int> count(n, 0);
  for (std::size_t v = 0; v < n; ++v) out[rep[v]] += x[v], ++count[rep[v]];
  for (std::size_t v = 0; v < n; ++v)
    if (count[v] > 1) out[v] /= static_cast<double>(count[v]);
  for (std::size_t v = 0; v < n; ++v) out[v] = out[rep[v]];
}

}  // namespace

const char* integrator_name(Integrator i) {
  switch (i) {
    case Integrator::explicit_euler:
      return "explicit";
    case Integrator::paper_euler:
      return "paper";
    case Integrator::symplectic_euler:
      return "symplectic";
    case Integrator::xpbd:
      return "xpbd";
  }
  return "?";
}

Integrator parse_integrator(const std::string& name) {
  if (name == "explicit") return Integrator::explicit_euler;
  if (name == "paper") return Integrator::paper_euler;
  if (name == "symplectic") return Integrator::symplectic_euler;
  if (name == "xpbd") return Integrator::xpbd;
  throw InvalidInput("unknown integrator '" + name + "' (known: explicit, paper, symplectic, xpbd)");
}

struct ClothSimulation::Impl {
  ClothModel model;
  Fabric fabric;
  ClothSettings settings;
  std::unique_ptr<Executor> own_executor;
  const Executor* ex = nullptr;
  std::unique_ptr<BodyCollider> body;
  std::vector<int> vertex_group;
  std::vector<std::uint32_t> face_masks;  // per cloth triangle: its panel's region mask
  std::unique_ptr<SelfCollider> self;

  std::vector<Vec3> x, v, x_prev, force, spring_force, hinge_force;
  std::vector<Vec3> push_start, push_delta, push_prev;  // scratch of push_cloth_off_body_features()
  std::vector<Vec3> snap_x, snap_v, frame_start;
  std::vector<double> lambda_spring, lambda_seam;
  std::vector<unsigned char> seam_joined, snap_joined, moved;
  // Per seam pair: a factor on the sewing stiffness and force cap that grows
  // while the pair stays open (stalled) after the zero-gravity phase and the
  // straight segment between its ends is clear of the body. The cap exists so
  // that a seam cannot drag cloth through the body; a clear segment cannot.
  std::vector<double> seam_cap_scale, seam_gap_prev, snap_cap_scale, snap_gap_prev;
  std::vector<unsigned char> near_seam_corner;  // see mark_near_seam_corners()
  // Per vertex its seam corner's group while that corner passes through
  // itself, -1 otherwise; empty once no corner does (see build_corner_groups()).
  std::vector<int> corner_group;
  int last_join_frame = 0;  // frame at whose end a seam pair last joined

  int substeps = 10;
  double dt = 0;
  int frame = 0;
  int gravity_on_frame = -1;  // frame at which gravity came on
  double gravity_scale = 1;
  double ke_prev = -1;
  int ke_growth = 0;
  bool collisions = false;
  DrapeReport report;

  // Body motion (pose transition): frames done, and this frame's start and end.
  BodyMotion motion;
  int motion_done = 0;
  bool motion_frame_ready = false;
  std::vector<Vec3> body_from, body_to, body_now;
  std::vector<Vec3> carry;  // this motion frame's kinematic cloth displacement
  // First frame of the current run() (frame limits count from it); a loaded
  // state sets it for the next run().
  int run_first_frame = 0;
  int resume_first_frame = -1;
  bool moving() const { return body && motion_done < motion.frames; }

  // Sets the body to its place after `fraction` of the current motion frame.
  void place_body(double fraction) {
    const std::size_t nb = body_from.size();
    body_now.resize(nb);
    ex->for_each(
        0, nb, [&](std::size_t i) { body_now[i] = body_from[i] + (body_to[i] - body_from[i]) * fraction; },
        4096);
    body->move_vertices(body_now);
  }

  // Cloth vertices inside the body (deeper than a step's response reaches) go
  // back to the surface, a thickness outside.
  void project_inside_vertices() {
    const std::size_t n = model.vertex_count;
    std::vector<unsigned char> inside(n, 0);
    ex->for_each(
        0, n, [&](std::size_t i) { inside[i] = model.inv_mass[i] != 0 && body->contains(x[i]); }, 64);
    for (std::size_t i = 0; i < n; ++i) {
      if (!inside[i]) continue;
      const BodyContact c = body->query(x[i], vertex_group[i], std::numeric_limits<double>::infinity());
      if (c.face >= 0 && c.signed_distance < 0) x[i] = c.point + c.normal * settings.thickness;
    }
  }

  double max_step() const { return settings.max_step_fraction * settings.thickness; }

  // ---- forces ------------------------------------------------------------
  void spring_forces(bool with_damping) {
    const std::size_t ns = model.spring_a.size();
    ex->for_each(
        0, ns,
        [&](std::size_t s) {
          const int a = model.spring_a[s], b = model.spring_b[s];
          const Vec3 d = x[b] - x[a];
          const double L = norm(d);
          if (!(L > 1e-15)) {
            spring_force[s] = {};
            return;
          }
          const Vec3 u = d / L;
          double mag = model.spring_stiffness[s] * (L - model.spring_rest[s]);
          if (with_damping) mag += model.spring_damping[s] * dot(v[b] - v[a], u);
          spring_force[s] = u * mag;  // force on a; b gets the opposite
        },
        1024);
  }

  // Bridson, Marino, Fedkiw 2003 bending force with flat rest angle.
  void hinge_forces() {
    ex->for_each(
        0, model.hinges.size(),
        [&](std::size_t h) {
          const auto& hv = model.hinges[h];
          const Vec3 &x1 = x[hv[0]], &x2 = x[hv[1]], &x3 = x[hv[2]], &x4 = x[hv[3]];
          const Vec3 E = x4 - x3;
          const Vec3 N1 = cross(x1 - x3, x1 - x4), N2 = cross(x2 - x4, x2 - x3);
          const double le = norm(E), n1 = squared_norm(N1), n2 = squared_norm(N2);
          Vec3* out = &hinge_force[4 * h];
          if (!(le > 1e-12 && n1 > 1e-24 && n2 > 1e-24)) {
            out[0] = out[1] = out[2] = out[3] = {};
            return;
          }
          const Vec3 u1 = N1 * (le / n1), u2 = N2 * (le / n2);
          const Vec3 u3 = N1 * (dot(x1 - x4, E) / le / n1) + N2 * (dot(x2 - x4, E) / le / n2);
          const Vec3 u4 = N1 * (-dot(x1 - x3, E) / le / n1) + N2 * (-dot(x2 - x3, E) / le / n2);
          const Vec3 nn1 = N1 / std::sqrt(n1), nn2 = N2 / std::sqrt(n2);
          const double c = std::clamp(dot(nn1, nn2), -1.0, 1.0);
          double s = std::sqrt(std::max(0.0, 0.5 * (1 - c)));
          if (dot(cross(nn1, nn2), E) < 0) s = -s;
          // Rest quantities already in hinge_stiffness (B |E0|^2 / (|N1_0| + |N2_0|)).
          const double k = model.hinge_stiffness[h] * s;  // sign checked by the hinge-flattening test
          out[0] = u1 * k;
          out[1] = u2 * k;
          out[2] = u3 * k;
          out[3] = u4 * k;
        },
        1024);
  }

  Vec3 sewing_force(int s) const {
    if (fabric.sewing_stiffness <= 0) return {};
    const int a = model.seam_a[s], b = model.seam_b[s];
    // M1 step 3: F = C_s |p - q| unit(q - p), capped (Blender's sewing_force_max).
    Vec3 f = (x[b] - x[a]) * fabric.sewing_stiffness;
    const double m = norm(f);
    if (m > fabric.sewing_force_max) f *= fabric.sewing_force_max / m;
    return f;  // on a; b gets the opposite
  }

  // Total force per vertex (gather over the per-spring/per-hinge buffers).
  // include_springs=false for XPBD (springs and seams are constraints there).
  void gather_forces(bool include_springs) {
    const Vec3 g = settings.gravity * gravity_scale;
    const double air = fabric.air_damping;
    ex->for_each(
        0, model.vertex_count,
        [&](std::size_t i) {
          Vec3 f = g * model.mass[i] - v[i] * (air * model.mass[i]);
          if (include_springs) {
            for (int k = model.vertex_spring_offsets[i]; k < model.vertex_spring_offsets[i + 1]; ++k) {
              const int s = model.vertex_springs[k];
              f += model.spring_a[s] == static_cast<int>(i) ? spring_force[s] : -spring_force[s];
            }
            for (int k = model.vertex_seam_offsets[i]; k < model.vertex_seam_offsets[i + 1]; ++k) {
              const int s = model.vertex_seams[k];
              const Vec3 fs = sewing_force(s);
              f += model.seam_a[s] == static_cast<int>(i) ? fs : -fs;
            }
          }
          for (int k = model.vertex_hinge_offsets[i]; k < model.vertex_hinge_offsets[i + 1]; ++k)
            f += hinge_force[model.vertex_hinge_slots[k]];
          force[i] = f;
        },
        512);
  }

  // ---- XPBD constraints ---------------------------------------------------
  void project_springs(double dt2) {
    for (std::size_t c = 0; c + 1 < model.colour_offsets.size(); ++c) {
      ex->for_each(
          model.colour_offsets[c], model.colour_offsets[c + 1],
          [&](std::size_t k) {
            const int s = model.colour_springs[k];
            const int a = model.spring_a[s], b = model.spring_b[s];
            const double wa = model.inv_mass[a], wb = model.inv_mass[b];
            if (wa + wb == 0) return;
            const Vec3 d = x[b] - x[a];
            const double L = norm(d);
            if (!(L > 1e-15)) return;
            const double alpha = 1 / (model.spring_stiffness[s] * dt2);
            const double C = L - model.spring_rest[s];
            const double dl = (-C - alpha * lambda_spring[s]) / (wa + wb + alpha);
            lambda_spring[s] += dl;
            const Vec3 corr = d * (dl / L);
            x[a] -= corr * wa;
            x[b] += corr * wb;
          },
          512);
    }
  }

  void project_seams(double dt2) {
    if (model.seam_a.empty()) return;
    const double cap = fabric.sewing_force_max * dt2;
    for (std::size_t c = 0; c + 1 < model.seam_colour_offsets.size(); ++c) {
      ex->for_each(
          model.seam_colour_offsets[c], model.seam_colour_offsets[c + 1],
          [&](std::size_t k) {
            const int s = model.seam_colour_pairs[k];
            const int a = model.seam_a[s], b = model.seam_b[s];
            const double wa = model.inv_mass[a], wb = model.inv_mass[b];
            if (wa + wb == 0) return;
            const Vec3 d = x[b] - x[a];
            const double L = norm(d);
            if (!(L > 1e-15)) return;
            const bool joined = seam_joined[s];
            if (!joined && fabric.sewing_stiffness <= 0) return;
            const double alpha = joined ? 0.0 : 1 / (fabric.sewing_stiffness * seam_cap_scale[s] * dt2);
            double dl = (-L - alpha * lambda_seam[s]) / (wa + wb + alpha);
            if (!joined)
              dl = std::max(lambda_seam[s] + dl, -cap * seam_cap_scale[s]) - lambda_seam[s];  // force cap
            lambda_seam[s] += dl;
            const Vec3 corr = d * (dl / L);
            x[a] -= corr * wa;
            x[b] += corr * wb;
          },
          512);
    }
  }

  // ---- collisions ---------------------------------------------------------
  void body_response() {
    const double h = settings.thickness;
    const double mu = fabric.friction;
    ex->for_each(
        0, model.vertex_count,
        [&](std::size_t i) {
          if (model.inv_mass[i] == 0) return;
          const BodyContact c = body->query(x[i], vertex_group[i], h);
          if (c.face < 0 || c.signed_distance >= h) return;
          const double depth = h - c.signed_distance;
          Vec3 p = x[i] + c.normal * depth;
          // Coulomb friction on the step's tangential motion (position-based).
          const Vec3 dx = p - x_prev[i];
          const Vec3 dt_vec = dx - c.normal * dot(dx, c.normal);
          const double lt = norm(dt_vec);
          if (lt > 0) p -= lt <= mu * depth ? dt_vec : dt_vec * (mu * depth / lt);
          x[i] = p;
          moved[i] = 1;
        },
        128);
  }

  // The body's pushes on cloth triangles (sharp features, body edges through
  // triangles) add up on a vertex shared by several pushed triangles, to far
  // more than a step's move where cloth starts cut into the body. In one
  // piece such a push carries the vertex through other cloth unseen (the
  // candidate search follows moves up to its slack, the side test moves up
  // to the thickness): a tube started cut into the thighs tangled that way.
  // So a long push is applied in increments of at most a step's move per
  // vertex, at most kMaxIncrements of them (the body pushes again in the
  // next step), with self-collision after each that decides sides from the
  // positions before the increment. Deciding them from the step's start
  // instead let a coarse tube dropped onto a thin bar slide through it.
  void push_cloth_off_body_features() {
    const std::size_t n = model.vertex_count;
    if (self) push_start = x;
    if (body->push_cloth_triangles(model.faces, face_masks, x, model.inv_mass, 0.5 * settings.thickness,
                                   *ex) == 0)
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

  void cap_steps() {
    const double dmax = max_step();
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

  void step(double h) {
    auto t0 = Clock::now();
    const std::size_t n = model.vertex_count;
    ex->for_each(
        0, n,
        [&](std::size_t i) {
          x_prev[i] = x[i];
          moved[i] = 0;
        },
        2048);
    const bool xpbd = settings.integrator == Integrator::xpbd;
    if (!model.hinges.empty()) hinge_forces();
    if (!xpbd) spring_forces(true);
    gather_forces(!xpbd);
    report.times.forces += seconds_since(t0);
    t0 = Clock::now();
    if (xpbd) {
      ex->for_each(
          0, n,
          [&](std::size_t i) {
            if (model.inv_mass[i] == 0) {
              v[i] = {};
              return;
            }
            v[i] += force[i] * (h * model.inv_mass[i]);
            x[i] += v[i] * h;
          },
          2048);
      std::fill(lambda_spring.begin(), lambda_spring.end(), 0.0);
      std::fill(lambda_seam.begin(), lambda_seam.end(), 0.0);
      const double h2 = h * h;
      // A softer cloth while the seams close in zero gravity lets panels stretch
      // towards their partners; full stiffness once gravity is on.
      const int iterations =
          gravity_on_frame < 0 ? settings.sewing_solver_iterations : settings.solver_iterations;
      for (int it = 0; it < iterations; ++it) {
        project_springs(h2);
        project_seams(h2);
      }
    } else if (settings.integrator == Integrator::explicit_euler) {
      ex->for_each(
          0, n,
          [&](std::size_t i) {
            x[i] += v[i] * h;
            v[i] += force[i] * (h * model.inv_mass[i]);
          },
          2048);
    } else {  // paper_euler / symplectic_euler: a = F(t)/m; v += dt a; x += dt v(t+dt)
      ex->for_each(
          0, n,
          [&](std::size_t i) {
            v[i] += force[i] * (h * model.inv_mass[i]);
            x[i] += v[i] * h;
          },
          2048);
    }
    report.times.solve += seconds_since(t0);

    if (collisions) {
      if (self) {
        t0 = Clock::now();
        self->update(x, *ex);  // refit + candidate search when something moved more than the slack
        report.times.refit += seconds_since(t0);
        t0 = Clock::now();
        self->resolve(x, x_prev, model.inv_mass, *ex);
        ex->for_each(
            0, n, [&](std::size_t i) { moved[i] = 1; }, 4096);
        report.times.self_collision += seconds_since(t0);
      }
      t0 = Clock::now();
      cap_steps();
      if (body) {
        body_response();
        // Then body vertices poking into cloth triangles (sharp features); only
        // deep contacts, so the friction of the vertex response above is kept.
        push_cloth_off_body_features();
      }
      report.times.body_collision += seconds_since(t0);
      if (self) {
        // Again after the body's answer: pushing cloth out of the body (both
        // layers of an armpit onto the same surface) must not push one layer
        // through the other. One pass before and one after: a shirt's armpits
        // went from 66 crossing pairs to none (docs/CLOTH.md).
        t0 = Clock::now();
        self->resolve(x, x_prev, model.inv_mass, *ex);
        report.times.self_collision += seconds_since(t0);
      }
    }
    t0 = Clock::now();
    weld_joined();
    const double inv_h = 1 / h;
    ex->for_each(
        0, n,
        [&](std::size_t i) {
          if (model.inv_mass[i] == 0) {
            x[i] = x_prev[i];
            v[i] = {};
          } else if (xpbd || moved[i]) {
            v[i] = (x[i] - x_prev[i]) * inv_h;
          }
        },
        2048);
    report.times.solve += seconds_since(t0);
    ++report.steps;
  }

  // Joined seam pairs move as one point: both take their mass-weighted mean
  // (colour by colour, so a vertex in several pairs is handled deterministically).
  void weld_joined() {
    if (model.seam_a.empty()) return;
    for (std::size_t c = 0; c + 1 < model.seam_colour_offsets.size(); ++c) {
      ex->for_each(
          model.seam_colour_offsets[c], model.seam_colour_offsets[c + 1],
          [&](std::size_t k) {
            const int s = model.seam_colour_pairs[k];
            if (!seam_joined[s]) return;
            const int a = model.seam_a[s], b = model.seam_b[s];
            const double wa = model.inv_mass[a], wb = model.inv_mass[b];
            if (wa + wb == 0) return;
            // Weighted by mass (inverse of inverse mass); a pinned side keeps its place.
            const Vec3 p = wa == 0 ? x[a] : (wb == 0 ? x[b] : (x[a] * wb + x[b] * wa) / (wa + wb));
            x[a] = p;
            x[b] = p;
            moved[a] = moved[b] = 1;
          },
          512);
    }
  }

  double kinetic() const {
    double e = 0;
    for (std::size_t i = 0; i < model.vertex_count; ++i) e += 0.5 * model.mass[i] * squared_norm(v[i]);
    return e;
  }

  double seam_gap() const {
    double g = 0;
    for (std::size_t s = 0; s < model.seam_a.size(); ++s)
      g = std::max(g, norm(x[model.seam_a[s]] - x[model.seam_b[s]]));
    return g;
  }

  // Returns "" when healthy, else what went wrong.
  std::string divergence() {
    double vmax2 = 0;
    for (std::size_t i = 0; i < model.vertex_count; ++i) {
      if (!is_finite(x[i]) || !is_finite(v[i]))
        return "non-finite position or velocity at vertex " + std::to_string(i);
      vmax2 = std::max(vmax2, squared_norm(v[i]));
    }
    if (vmax2 > settings.divergence_speed * settings.divergence_speed)
      return "speed " + std::to_string(std::sqrt(vmax2)) + " m/s above the limit " +
             std::to_string(settings.divergence_speed) + " m/s";
    const double ke = kinetic();
    // Energy growing without bound: 10x per frame for several frames in a row,
    // above the energy of the whole cloth moving at 1 cm/s.
    const double floor = 0.5 * model.total_mass * 1e-4;
    if (ke_prev >= 0 && ke > 10 * ke_prev && ke > floor)
      ++ke_growth;
    else
      ke_growth = 0;
    ke_prev = ke;
    if (ke_growth >= settings.divergence_growth_frames)
      return "kinetic energy grew tenfold per frame for " + std::to_string(ke_growth) + " frames";
    return "";
  }

  std::string last_divergence;

  bool advance_frame() {
    const std::size_t n = model.vertex_count;
    if (moving() && !motion_frame_ready) {
      // Once per motion frame (a retried frame keeps its carry and its target).
      body_from = body->mesh().positions;
      body_to = motion.body_at(motion_done + 1);
      if (body_to.size() != body_from.size())
        throw InvalidInput("body motion: frame " + std::to_string(motion_done + 1) + " has " +
                           std::to_string(body_to.size()) + " positions for " +
                           std::to_string(body_from.size()) + " body vertices");
      // The carry is spread over the frame's steps like the body's motion, as a
      // kinematic shift (no velocity), so the cloth neither leads nor lags the body.
      carry.assign(x.size(), Vec3{});
      if (motion.carry_cloth) {
        std::vector<Vec3> carried = x;
        motion.carry_cloth(motion_done + 1, carried);
        if (carried.size() != x.size()) throw InvalidInput("body motion: the carry changed the vertex count");
        for (std::size_t i = 0; i < x.size(); ++i)
          if (model.inv_mass[i] != 0) carry[i] = carried[i] - x[i];
      }
      motion_frame_ready = true;
    }
    snap_x = x;
    snap_v = v;
    snap_joined = seam_joined;
    snap_cap_scale = seam_cap_scale;
    snap_gap_prev = seam_gap_prev;
    const double ke_prev_saved = ke_prev;
    const int growth_saved = ke_growth;
    const long long steps_saved = report.steps;
    const bool move_body = moving();
    for (int s = 0; s < substeps; ++s) {
      if (move_body) {
        place_body(static_cast<double>(s + 1) / substeps);
        const double share = 1.0 / substeps;
        ex->for_each(
            0, n, [&](std::size_t i) { x[i] += carry[i] * share; }, 4096);
      }
      step(dt);
    }
    if (move_body) project_inside_vertices();
    last_divergence = divergence();
    if (!last_divergence.empty()) {
      if (move_body) place_body(0);
      x = snap_x;
      v = snap_v;
      seam_joined = snap_joined;
      seam_cap_scale = snap_cap_scale;
      seam_gap_prev = snap_gap_prev;
      ke_prev = ke_prev_saved;
      ke_growth = growth_saved;
      report.steps = steps_saved;
      return false;
    }
    (void)n;
    ++frame;
    if (move_body) {
      ++motion_done;
      motion_frame_ready = false;
    }
    // Join seams whose gap is under the join distance (stiff zero-length constraints).
    for (std::size_t s = 0; s < model.seam_a.size(); ++s)
      if (!seam_joined[s] && norm(x[model.seam_a[s]] - x[model.seam_b[s]]) < settings.seam_join_distance) {
        seam_joined[s] = 1;
        last_join_frame = frame;
      }
    if (gravity_on_frame >= 0 && body)
      for (std::size_t s = 0; s < model.seam_a.size(); ++s) {
        if (seam_joined[s]) continue;
        const Vec3 a = x[model.seam_a[s]], b = x[model.seam_b[s]];
        const double gap = norm(b - a);
        const bool stalled = gap > 0.98 * seam_gap_prev[s];
        seam_gap_prev[s] = gap;
        if (!stalled || body->tree().intersects_any(Ray{a, b - a, 0, 1})) continue;
        // In a corner that passes through itself, what lies between is that
        // corner's own cloth, and it is untangled once the corner is joined.
        const bool in_corner = !corner_group.empty() && corner_group[model.seam_a[s]] >= 0;
        if (gap < settings.stalled_seam_join_distance &&
            (in_corner || (!near_seam_corner[model.seam_a[s]] && !near_seam_corner[model.seam_b[s]] &&
                           !cloth_between(model.seam_a[s], model.seam_b[s])))) {
          seam_joined[s] = 1;
          last_join_frame = frame;
          continue;
        }
        seam_cap_scale[s] =
            std::min(seam_cap_scale[s] * settings.seam_cap_growth, settings.seam_cap_max_scale);
      }
    update_corner_groups();
    update_gravity();
    if (self) self->update_curvature(x, *ex);
    return true;
  }

  // True when the segment between cloth vertices a and b passes through a cloth
  // triangle that has neither of them (another layer lies between the two sides).
  // Brute force: called only for the few stalled pairs within a thickness.
  bool cloth_between(int a, int b) const {
    const Ray seg{x[a], x[b] - x[a], 0, 1};
    for (const Triangle& t : model.faces) {
      if (t[0] == a || t[1] == a || t[2] == a || t[0] == b || t[1] == b || t[2] == b) continue;
      double th, u, v;
      if (intersect_ray_triangle(seg, x[t[0]], x[t[1]], x[t[2]], th, u, v)) return true;
    }
    return false;
  }

  // Vertices within two rings of a seam corner (a vertex in more than one seam
  // pair: several panels meet there, e.g. an armpit). Such a corner is pulled
  // from several sides; snapping a stalled pair next to it folded a shirt's
  // armpit into itself, so those pairs are left to the sewing force.
  void mark_near_seam_corners() {
    near_seam_corner = seam_corners(model);
    grow_by_rings(model, 2, near_seam_corner, nullptr);
  }

  // Seam corners (vertices in more than one seam pair: an armpit, a crotch)
  // with the cloth within `rings` rings of them, across seams, one group per
  // corner. Panels placed flat around the body can start with another panel's
  // corner between the two sides of a corner pair (the shirt's front sleeve
  // between the torso's side seam tops); self-collision would hold them apart
  // for good, so a group's cloth passes through itself until its pairs are
  // joined, and then is untangled (update_corner_groups()).
  void build_corner_groups(int rings) {
    const std::size_t n = model.vertex_count;
    std::vector<unsigned char> in = seam_corners(model);
    corner_group.clear();
    if (std::none_of(in.begin(), in.end(), [](unsigned char c) { return c != 0; })) return;
    UnionFind sets(n);
    grow_by_rings(model, rings, in, &sets);
    corner_group.assign(n, -1);
    for (std::size_t v = 0; v < n; ++v)
      if (in[v]) corner_group[v] = sets.find(static_cast<int>(v));
  }

  // At the end of a frame: a corner group whose seam pairs are all joined (or
  // that is corner_pass_through_frames old, or when the run ends) is
  // untangled by intersection contour minimisation (at most
  // untangle_iterations steps a frame) and, once none of its triangles crosses
  // another, handed back to self-collision, which then keeps it apart.
  void update_corner_groups(bool run_ends = false) {
    if (corner_group.empty() || !self) return;
    const std::size_t n = model.vertex_count;
    std::vector<unsigned char> open(n, 0);
    // A corner that has not closed by corner_pass_through_frames is untangled
    // as it is: a region passing through itself for good would end crossed.
    if (frame < settings.corner_pass_through_frames && !run_ends)
      for (std::size_t k = 0; k < model.seam_a.size(); ++k)
        if (!seam_joined[k] && corner_group[model.seam_a[k]] >= 0) open[corner_group[model.seam_a[k]]] = 1;
    // (group, face) for the faces with a vertex in a closed group, by group.
    std::vector<std::pair<int, int>> group_faces;
    for (std::size_t f = 0; f < model.faces.size(); ++f) {
      int last = -1;
      for (int v : model.faces[f]) {
        const int g = corner_group[v];
        if (g >= 0 && g != last && !open[g]) group_faces.push_back({g, static_cast<int>(f)});
        last = g;
      }
    }
    if (group_faces.empty()) return;
    std::sort(group_faces.begin(), group_faces.end());
    group_faces.erase(std::unique(group_faces.begin(), group_faces.end()), group_faces.end());
    // Joined seam pairs are one vertex: their faces are adjacent, not crossing.
    UnionFind welded(n);
    for (std::size_t k = 0; k < model.seam_a.size(); ++k)
      if (seam_joined[k]) welded.unite(model.seam_a[k], model.seam_b[k]);
    const std::vector<int> rep = welded.representatives();
    std::vector<Vec3> xw;
    bool changed = false;
    std::vector<int> faces;
    for (std::size_t first = 0; first < group_faces.size();) {
      const int g = group_faces[first].first;
      faces.clear();
      for (; first < group_faces.size() && group_faces[first].first == g; ++first)
        faces.push_back(group_faces[first].second);
      bool untangled = false;
      for (int it = 0;; ++it) {
        // As the result will be: joined pairs welded at their mean (a pair
        // joined a few mm apart, welded, can cross where the raw cloth does not).
        mean_by_representative(x, rep, xw);
        const auto pairs = crossing_face_pairs(model.faces, xw, faces, rep);
        if (pairs.empty()) {
          untangled = true;
          break;
        }
        if (it == settings.untangle_iterations) break;
        const std::vector<Vec3> before = xw;
        contour_minimization_step(model.faces, xw, model.inv_mass, pairs, 0.25 * settings.thickness);
        for (std::size_t v = 0; v < n; ++v) x[v] += xw[v] - before[v];
      }
      if (!untangled) continue;
      for (int& c : corner_group)
        if (c == g) c = -1;
      changed = true;
    }
    if (!changed) return;
    if (std::all_of(corner_group.begin(), corner_group.end(), [](int c) { return c < 0; }))
      corner_group.clear();
    self->set_exempt_groups(corner_group);
  }

  bool all_joined() const {
    return std::all_of(seam_joined.begin(), seam_joined.end(), [](unsigned char b) { return b != 0; });
  }

  void update_gravity() {
    if (gravity_on_frame >= 0) return;
    if (all_joined() || frame >= settings.zero_gravity_frames) {
      gravity_scale = 1;
      gravity_on_frame = frame;
    } else {
      gravity_scale = 0;
    }
  }
};

ClothSimulation::ClothSimulation(const GarmentMesh& garment, const TriangleMesh& body,
                                 const std::vector<std::uint32_t>& body_face_regions, const Fabric& fabric,
                                 const ClothSettings& settings)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  if (!(settings.frame_rate > 0) || settings.substeps < 1 || settings.solver_iterations < 1 ||
      settings.sewing_solver_iterations < 1 || !(settings.seam_cap_growth >= 1) ||
      !(settings.seam_cap_max_scale >= 1) || !(settings.stalled_seam_join_distance >= 0) ||
      settings.corner_pass_through_rings < 0 || settings.corner_pass_through_frames < 0 ||
      settings.untangle_iterations < 0 || settings.max_frames < 1 || !(settings.thickness > 0) ||
      settings.max_step_halvings < 0 || !(settings.max_step_fraction > 0))
    throw InvalidInput(
        "cloth settings: frame_rate, substeps, solver_iterations, max_frames, thickness and "
        "max_step_fraction "
        "must be positive");
  s.settings = settings;
  s.fabric = fabric;
  if (settings.executor) {
    s.ex = settings.executor;
  } else {
    s.own_executor = std::make_unique<Executor>(settings.threads);
    s.ex = s.own_executor.get();
  }
  s.model = build_cloth_model(garment, fabric, settings.model);
  for (int p : settings.pinned) pin_vertex(s.model, p);
  const std::size_t n = s.model.vertex_count;
  s.x = garment.mesh.positions;
  s.v.assign(n, {});
  s.x_prev = s.x;
  s.force.assign(n, {});
  s.spring_force.assign(s.model.spring_a.size(), {});
  s.hinge_force.assign(4 * s.model.hinges.size(), {});
  s.lambda_spring.assign(s.model.spring_a.size(), 0.0);
  s.lambda_seam.assign(s.model.seam_a.size(), 0.0);
  s.seam_joined.assign(s.model.seam_a.size(), 0);
  s.seam_cap_scale.assign(s.model.seam_a.size(), 1.0);
  s.mark_near_seam_corners();
  s.seam_gap_prev.assign(s.model.seam_a.size(), std::numeric_limits<double>::infinity());
  s.moved.assign(n, 0);
  s.substeps = settings.substeps;
  s.dt = 1 / (settings.frame_rate * settings.substeps);
  s.report.integrator = integrator_name(settings.integrator);
  s.report.vertices = n;
  s.report.triangles = s.model.faces.size();
  s.report.seam_pairs = s.model.seam_a.size();

  if (settings.body_collision && body.face_count() > 0) {
    s.body = std::make_unique<BodyCollider>(body, body_face_regions, *s.ex);
    s.vertex_group.resize(n);
    for (std::size_t i = 0; i < n; ++i) s.vertex_group[i] = s.body->group_for_mask(s.model.vertex_regions[i]);
    s.face_masks.resize(s.model.faces.size());
    for (std::size_t f = 0; f < s.model.faces.size(); ++f)
      s.face_masks[f] = s.model.vertex_regions[s.model.faces[f][0]];
    // Cloth placed inside the body (deeper than any step could reach) is put
    // back on the surface once, before the first step.
    s.project_inside_vertices();
  }
  if (settings.self_collision && !s.model.faces.empty()) {
    // The two sides of a seam count as one vertex for self-collision adjacency.
    UnionFind sides(n);
    for (std::size_t k = 0; k < s.model.seam_a.size(); ++k) sides.unite(s.model.seam_a[k], s.model.seam_b[k]);
    std::vector<int> alias = sides.representatives();
    s.self = std::make_unique<SelfCollider>(s.model.faces, s.x, settings.thickness,
                                            settings.self_cone_angle_degrees * kPi / 180, std::move(alias));
    if (settings.corner_pass_through_rings > 0) {
      s.build_corner_groups(settings.corner_pass_through_rings);
      s.self->set_exempt_groups(s.corner_group);
    }
  }
  s.collisions = s.body || s.self;
  s.gravity_scale = 1;
  if (!s.model.seam_a.empty() && settings.zero_gravity_frames > 0) {
    s.gravity_scale = 0;
  } else {
    s.gravity_on_frame = 0;
  }
}

ClothSimulation::~ClothSimulation() = default;

bool ClothSimulation::advance_frame() { return impl_->advance_frame(); }
void ClothSimulation::step(double dt) { impl_->step(dt); }
const std::vector<Vec3>& ClothSimulation::positions() const { return impl_->x; }
const std::vector<Vec3>& ClothSimulation::velocities() const { return impl_->v; }
void ClothSimulation::set_positions(const std::vector<Vec3>& x) {
  if (x.size() != impl_->x.size()) throw InvalidInput("set_positions: wrong vertex count");
  impl_->x = x;
}
void ClothSimulation::set_velocities(const std::vector<Vec3>& v) {
  if (v.size() != impl_->v.size()) throw InvalidInput("set_velocities: wrong vertex count");
  impl_->v = v;
}
const ClothModel& ClothSimulation::model() const { return impl_->model; }
double ClothSimulation::kinetic_energy() const { return impl_->kinetic(); }
double ClothSimulation::max_seam_gap() const { return impl_->seam_gap(); }
const DrapeReport& ClothSimulation::running_report() const { return impl_->report; }
bool ClothSimulation::body_moving() const { return impl_->moving(); }

const TriangleMesh& ClothSimulation::body() const {
  static const TriangleMesh kNone;
  return impl_->body ? impl_->body->mesh() : kNone;
}

namespace {

constexpr char kStateMagic[8] = {'D', 'R', 'P', 'S', 'T', 'A', 'T', '4'};

struct StateWriter {
  std::string out;
  template <class T>
  void put(const T& v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof(T));
  }
  template <class T>
  void put_vector(const std::vector<T>& v) {
    put<std::uint64_t>(v.size());
    if (!v.empty()) out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
};

struct StateReader {
  const std::string& in;
  const std::string& source;
  std::size_t at = 0;
  template <class T>
  T get() {
    if (in.size() - at < sizeof(T)) throw InvalidInput(source, 0, "checkpoint state is truncated");
    T v;
    std::memcpy(&v, in.data() + at, sizeof(T));
    at += sizeof(T);
    return v;
  }
  template <class T>
  std::vector<T> get_vector(std::size_t expected, const char* what) {
    const auto n = get<std::uint64_t>();
    if (n != expected)
      throw InvalidInput(source, 0,
                         std::string("checkpoint state has ") + std::to_string(n) + " " + what +
                             ", this run has " + std::to_string(expected));
    if ((in.size() - at) / sizeof(T) < n) throw InvalidInput(source, 0, "checkpoint state is truncated");
    std::vector<T> v(n);
    if (n)
      std::memcpy(v.data(), in.data() + at, n * sizeof(T));  // memcpy from/to null is UB even for 0 bytes
    at += n * sizeof(T);
    return v;
  }
};

// A fingerprint of the model, so that a state is only loaded into the cloth it was saved from.
double model_fingerprint(const ClothModel& m) {
  double f = 0;
  for (std::size_t k = 0; k < m.spring_rest.size(); ++k)
    f += m.spring_rest[k] * static_cast<double>(k % 97 + 1);
  for (std::size_t i = 0; i < m.mass.size(); ++i) f += m.mass[i] * static_cast<double>(i % 89 + 1);
  return f;
}

}  // namespace

std::string ClothSimulation::save_state() const {
  const Impl& s = *impl_;
  StateWriter w;
  w.out.append(kStateMagic, sizeof(kStateMagic));
  w.put<std::uint64_t>(s.model.faces.size());
  w.put<double>(model_fingerprint(s.model));
  w.put<std::int32_t>(s.frame);
  w.put<std::int32_t>(s.gravity_on_frame);
  w.put<std::int32_t>(s.substeps);
  w.put<std::int32_t>(s.ke_growth);
  w.put<std::int32_t>(s.run_first_frame);
  w.put<std::int32_t>(s.motion_done);
  w.put<std::int32_t>(s.report.step_halvings);
  w.put<std::int32_t>(s.last_join_frame);
  w.put<std::int64_t>(s.report.steps);
  w.put<double>(s.dt);
  w.put<double>(s.gravity_scale);
  w.put<double>(s.ke_prev);
  w.put_vector(s.x);
  w.put_vector(s.v);
  w.put_vector(s.seam_joined);
  w.put_vector(s.seam_cap_scale);
  w.put_vector(s.seam_gap_prev);
  w.put_vector(s.corner_group);
  w.put_vector(s.body ? s.body->mesh().positions : std::vector<Vec3>{});
  return w.out;
}

void ClothSimulation::load_state(const std::string& bytes, const std::string& source) {
  Impl& s = *impl_;
  if (bytes.size() < sizeof(kStateMagic) ||
      bytes.compare(0, sizeof(kStateMagic), kStateMagic, sizeof(kStateMagic)))
    throw InvalidInput(source, 0, "not a drape checkpoint state");
  StateReader r{bytes, source, sizeof(kStateMagic)};
  if (r.get<std::uint64_t>() != s.model.faces.size() || r.get<double>() != model_fingerprint(s.model))
    throw InvalidInput(source, 0, "checkpoint state belongs to another garment or mesh settings");
  const int frame = r.get<std::int32_t>(), gravity_on = r.get<std::int32_t>(),
            substeps = r.get<std::int32_t>();
  const int growth = r.get<std::int32_t>(), first = r.get<std::int32_t>(),
            motion_done = r.get<std::int32_t>();
  const int halvings = r.get<std::int32_t>();
  const int last_join = r.get<std::int32_t>();
  const auto steps = r.get<std::int64_t>();
  const double dt = r.get<double>(), gravity_scale = r.get<double>(), ke_prev = r.get<double>();
  if (frame < 0 || substeps < 1 || first < 0 || first > frame || motion_done < 0 || !(dt > 0) ||
      halvings < 0 || last_join < 0 || last_join > frame)
    throw InvalidInput(source, 0, "checkpoint state has inconsistent counters");
  if (motion_done > 0 && motion_done > s.motion.frames)
    throw InvalidInput(source, 0, "checkpoint state is in a body motion this run does not have");
  std::vector<Vec3> x = r.get_vector<Vec3>(s.model.vertex_count, "cloth vertices");
  std::vector<Vec3> v = r.get_vector<Vec3>(s.model.vertex_count, "cloth vertices");
  std::vector<unsigned char> joined = r.get_vector<unsigned char>(s.model.seam_a.size(), "seam pairs");
  std::vector<double> cap_scale = r.get_vector<double>(s.model.seam_a.size(), "seam pairs");
  std::vector<double> gap_prev = r.get_vector<double>(s.model.seam_a.size(), "seam pairs");
  // A corner group list is empty (none left) or one per vertex.
  const std::size_t groups_at = r.at;
  const auto group_count = r.get<std::uint64_t>();
  r.at = groups_at;
  std::vector<int> corner_group =
      r.get_vector<int>(group_count == 0 ? 0 : s.model.vertex_count, "corner group entries");
  for (int g : corner_group)
    if (g < -1 || g >= static_cast<int>(s.model.vertex_count))
      throw InvalidInput(source, 0, "checkpoint state has a bad seam corner group");
  std::vector<Vec3> body = r.get_vector<Vec3>(s.body ? s.body->mesh().vertex_count() : 0, "body vertices");
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!is_finite(x[i]) || !is_finite(v[i]))
      throw InvalidInput(source, 0, "checkpoint state has a non-finite value");
  s.frame = frame;
  s.gravity_on_frame = gravity_on;
  s.substeps = substeps;
  s.ke_growth = growth;
  s.resume_first_frame = first;
  s.run_first_frame = first;
  s.motion_done = motion_done;
  s.motion_frame_ready = false;
  s.report.step_halvings = halvings;
  s.report.steps = steps;
  s.last_join_frame = last_join;
  s.dt = dt;
  s.gravity_scale = gravity_scale;
  s.ke_prev = ke_prev;
  s.x = std::move(x);
  s.v = std::move(v);
  s.x_prev = s.x;
  s.seam_joined = std::move(joined);
  s.seam_cap_scale = std::move(cap_scale);
  s.seam_gap_prev = std::move(gap_prev);
  s.corner_group = std::move(corner_group);
  if (s.self) s.self->set_exempt_groups(s.corner_group);
  if (s.body) s.body->move_vertices(body);
  if (s.self) s.self->update_curvature(s.x, *s.ex);
}

void ClothSimulation::set_body_motion(BodyMotion motion) {
  Impl& s = *impl_;
  if (!s.body) throw InvalidInput("body motion: the simulation has no body");
  if (motion.frames < 1 || !motion.body_at) throw InvalidInput("body motion: needs frames >= 1 and body_at");
  s.motion = std::move(motion);
  s.motion_done = 0;
  s.motion_frame_ready = false;
}
double ClothSimulation::step_size() const { return impl_->dt; }

void ClothSimulation::set_frame_stepping(double frame_seconds, int substeps) {
  if (!(frame_seconds > 0) || !std::isfinite(frame_seconds) || substeps < 1 || substeps > 100000)
    throw InvalidInput("frame stepping: needs a frame time > 0 and 1..100000 steps per frame");
  impl_->substeps = substeps;
  impl_->dt = frame_seconds / substeps;
}

double ClothSimulation::potential_energy() const {
  const Impl& s = *impl_;
  double e = 0;
  for (std::size_t k = 0; k < s.model.spring_a.size(); ++k) {
    const double d = norm(s.x[s.model.spring_b[k]] - s.x[s.model.spring_a[k]]) - s.model.spring_rest[k];
    e += 0.5 * s.model.spring_stiffness[k] * d * d;
  }
  for (std::size_t k = 0; k < s.model.seam_a.size(); ++k)
    e += 0.5 * s.fabric.sewing_stiffness * squared_norm(s.x[s.model.seam_b[k]] - s.x[s.model.seam_a[k]]);
  const Vec3 g = s.settings.gravity * s.gravity_scale;
  for (std::size_t i = 0; i < s.model.vertex_count; ++i) e -= s.model.mass[i] * dot(g, s.x[i]);
  return e;
}

DrapeReport ClothSimulation::measure() const {
  const Impl& s = *impl_;
  const auto t0 = Clock::now();
  DrapeReport r = s.report;
  r.frames = s.frame;
  r.substeps = s.substeps;
  r.dt = s.dt;
  r.kinetic_energy = s.kinetic();
  r.max_seam_gap = s.seam_gap();
  r.seam_pairs_joined = static_cast<std::size_t>(std::count(s.seam_joined.begin(), s.seam_joined.end(), 1));
  for (std::size_t k = 0; k < s.seam_joined.size(); ++k) {
    if (s.seam_joined[k]) continue;
    const int seam = s.model.seam_stitch[k];
    auto it = std::find_if(r.open_seams.begin(), r.open_seams.end(),
                           [&](const DrapeReport::OpenSeam& o) { return o.seam == seam; });
    if (it == r.open_seams.end()) it = r.open_seams.insert(r.open_seams.end(), {seam, 0, 0.0, {}});
    ++it->open_pairs;
    const Vec3 a = s.x[s.model.seam_a[k]], b = s.x[s.model.seam_b[k]];
    if (norm(b - a) > it->max_gap) {
      it->max_gap = norm(b - a);
      it->widest_at = (a + b) * 0.5;
    }
  }
  std::sort(r.open_seams.begin(), r.open_seams.end(),
            [](const DrapeReport::OpenSeam& a, const DrapeReport::OpenSeam& b) { return a.seam < b.seam; });
  // Edge strain.
  std::vector<double> strain;
  for (std::size_t k = 0; k < s.model.spring_a.size(); ++k) {
    if (!s.model.spring_is_edge[k]) continue;
    const double L = norm(s.x[s.model.spring_b[k]] - s.x[s.model.spring_a[k]]);
    strain.push_back(std::abs(L / s.model.spring_rest[k] - 1));
  }
  if (!strain.empty()) {
    r.strain_mean = std::accumulate(strain.begin(), strain.end(), 0.0) / strain.size();
    std::sort(strain.begin(), strain.end());
    r.strain_max = strain.back();
    r.strain_p95 = percentile(strain, 0.95);
    r.strain_p99 = percentile(strain, 0.99);
  }
  r.times.measure = seconds_since(t0);
  return r;
}

namespace {

// Welds the joined seam pairs into shared vertices (union-find, smallest id
// represents, position = mean); drops triangles that collapse.
TriangleMesh weld(const ClothModel& m, const std::vector<Vec3>& x, const std::vector<unsigned char>& joined,
                  std::vector<int>& vertex_map, std::vector<int>& face_map) {
  const std::size_t n = m.vertex_count;
  UnionFind sets(n);
  for (std::size_t s = 0; s < m.seam_a.size(); ++s)
    if (joined[s]) sets.unite(m.seam_a[s], m.seam_b[s]);
  const std::vector<int> rep = sets.representatives();
  std::vector<Vec3> mean;
  mean_by_representative(x, rep, mean);
  TriangleMesh out;
  vertex_map.assign(n, -1);
  std::vector<int> root_index(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    const int r = rep[i];
    if (root_index[r] < 0) {
      root_index[r] = static_cast<int>(out.positions.size());
      out.positions.push_back(mean[r]);
    }
    vertex_map[i] = root_index[r];
  }
  face_map.clear();
  for (std::size_t f = 0; f < m.faces.size(); ++f) {
    const Triangle& t = m.faces[f];
    const Triangle w{vertex_map[t[0]], vertex_map[t[1]], vertex_map[t[2]]};
    if (w[0] == w[1] || w[1] == w[2] || w[0] == w[2]) continue;
    out.faces.push_back(w);
    face_map.push_back(static_cast<int>(f));
  }
  return out;
}

}  // namespace

DrapeResult ClothSimulation::run(const ClothProgressCallback& progress) {
  Impl& s = *impl_;
  const auto t_run = Clock::now();
  const std::size_t n = s.model.vertex_count;
  s.frame_start = s.x;
  bool equilibrium = false, stalled = false;
  double moving_fraction = 1;
  const auto t_sps = Clock::now();
  const long long steps_at_start = s.report.steps;
  const int first_frame = s.resume_first_frame >= 0 ? s.resume_first_frame : s.frame;
  s.resume_first_frame = -1;
  s.run_first_frame = first_frame;
  while (s.frame - first_frame < s.settings.max_frames) {
    s.frame_start = s.x;
    if (!s.advance_frame()) {
      if (s.report.step_halvings >= s.settings.max_step_halvings) {
        std::ostringstream os;
        os << "cloth simulation diverged at frame " << s.frame << " (" << s.last_divergence << ") with "
           << integrator_name(s.settings.integrator) << " at dt = " << s.dt << " s after "
           << s.report.step_halvings << " step halvings; no result written";
        throw SolverError(os.str());
      }
      ++s.report.step_halvings;
      s.substeps *= 2;
      s.dt *= 0.5;
      continue;
    }
    std::size_t moving = 0;
    const double lim2 = s.settings.equilibrium_distance * s.settings.equilibrium_distance;
    for (std::size_t i = 0; i < n; ++i) moving += squared_norm(s.x[i] - s.frame_start[i]) > lim2;
    moving_fraction = n ? static_cast<double>(moving) / n : 0;
    if (progress) {
      ClothProgress p;
      p.stage = s.moving() ? "posing" : (s.gravity_on_frame < 0 ? "sewing" : "draping");
      p.frame = s.frame - first_frame;
      p.max_frames = s.settings.max_frames;
      p.steps_per_second = (s.report.steps - steps_at_start) / std::max(1e-9, seconds_since(t_sps));
      p.max_seam_gap = s.seam_gap();
      p.moving_fraction = moving_fraction;
      progress(p);
    }
    if (s.gravity_on_frame >= 0 &&
        s.frame - std::max(s.gravity_on_frame, first_frame) >= s.settings.min_frames && !s.moving() &&
        1 - moving_fraction >= s.settings.equilibrium_fraction) {
      if (s.all_joined()) {
        equilibrium = true;
        break;
      }
      // Still, but seams open that have not moved on for a while: more frames
      // would not close them (the report lists them).
      if (s.settings.stalled_seam_frames > 0 &&
          s.frame - std::max({s.last_join_frame, s.gravity_on_frame, first_frame}) >=
              s.settings.stalled_seam_frames) {
        stalled = true;
        break;
      }
    }
  }
  if (progress) {
    ClothProgress p;
    p.stage = "measuring";
    p.frame = s.frame - first_frame;
    p.max_frames = s.settings.max_frames;
    progress(p);
  }
  // A corner still passing through itself when the run stops is untangled as
  // it is, for the result only: a later run (a pose, a resumed job) goes on
  // from the state as it was.
  std::vector<Vec3> x_at_stop;
  const std::vector<int> groups_at_stop = s.corner_group;
  if (!groups_at_stop.empty()) {
    x_at_stop = s.x;
    s.update_corner_groups(true);
  }
  DrapeResult result;
  DrapeReport r = measure();
  const auto t0 = Clock::now();
  result.mesh = weld(s.model, s.x, s.seam_joined, result.vertex_map, result.face_map);
  // Per-vertex strain: largest |strain| of the edges at each welded vertex.
  result.vertex_strain.assign(result.mesh.vertex_count(), 0.0);
  for (std::size_t k = 0; k < s.model.spring_a.size(); ++k) {
    if (!s.model.spring_is_edge[k]) continue;
    const int a = s.model.spring_a[k], b = s.model.spring_b[k];
    const double e = std::abs(norm(s.x[b] - s.x[a]) / s.model.spring_rest[k] - 1);
    double& sa = result.vertex_strain[result.vertex_map[a]];
    double& sb = result.vertex_strain[result.vertex_map[b]];
    sa = std::max(sa, e);
    sb = std::max(sb, e);
  }
  const double cone = s.settings.self_cone_angle_degrees * kPi / 180;
  if (s.body) {
    const IntersectionCounts c = count_intersections(s.body->tree(), result.mesh, cone, *s.ex);
    r.vertices_inside_body = c.vertices_inside_body;
    r.body_crossing_pairs = c.body_crossing_pairs;
    r.self_crossing_pairs = c.self_crossing_pairs;
  } else if (result.mesh.face_count()) {
    const TriangleMeshBvh tree(result.mesh, BvhBuildOptions{}, *s.ex);
    r.self_crossing_pairs = tree.self_intersecting_pairs(cone).size();
  }
  r.times.measure += seconds_since(t0);
  r.equilibrium = equilibrium;
  r.stop_reason = equilibrium ? "equilibrium" : (stalled ? "stalled_seams" : "frame_limit");
  r.moving_fraction = moving_fraction;
  r.times.total = seconds_since(t_run);
  result.report = r;
  if (!groups_at_stop.empty()) {
    s.x = std::move(x_at_stop);
    s.corner_group = groups_at_stop;
    if (s.self) s.self->set_exempt_groups(s.corner_group);
  }
  return result;
}

}  // namespace drape

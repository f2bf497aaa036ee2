// Forces, the integrators and the XPBD solver: one step of ClothSimulation.
#include <algorithm>
#include <cmath>

#include "drape/cloth/seam_sewing.h"
#include "simulation_impl.h"
#include "stage_clock.h"

namespace drape {

void ClothSimulation::Impl::spring_forces(bool with_damping) {
  const std::vector<Vec3>& x = st.x;
  const std::vector<Vec3>& v = st.v;
  ex->for_each(
      0, model.spring_a.size(),
      [&](std::size_t s) {
        const int a = model.spring_a[s], b = model.spring_b[s];
        const Vec3 d = x[b] - x[a];
        const double L = norm(d);
        if (!(L > 1e-15)) {
          spring_force[s] = {};
          return;
        }
        const Vec3 u = d / L;
        const SpringSegment g = spring_segment(s, L);
        double mag = g.stiffness * (L - g.rest);
        if (with_damping) mag += model.spring_damping[s] * dot(v[b] - v[a], u);
        spring_force[s] = u * mag;  // force on a; b gets the opposite
      },
      1024);
}

// Bridson, Marino, Fedkiw 2003 bending force with flat rest angle.
void ClothSimulation::Impl::hinge_forces() {
  const std::vector<Vec3>& x = st.x;
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

// Total force per vertex, gathered over the per-spring/per-hinge buffers.
// include_springs = false for XPBD (springs and seams are constraints there).
void ClothSimulation::Impl::gather_forces(bool include_springs) {
  const Vec3 g = settings.gravity * st.gravity_scale;
  const bool sewn = st.gravity_scale > 0 && all_joined();
  const double air = sewn && settings.rest_air_damping >= 0 ? settings.rest_air_damping
                     : settings.air_damping >= 0            ? settings.air_damping
                                                            : fabric.air_damping;
  const std::vector<Vec3>& v = st.v;
  ex->for_each(
      0, model.vertex_count,
      [&](std::size_t i) {
        Vec3 f = g * model.mass[i] - v[i] * (air * model.mass[i]);
        if (!settings.vertex_loads.empty()) f += settings.vertex_loads[i];
        if (include_springs) {
          for (int k = model.vertex_spring_offsets[i]; k < model.vertex_spring_offsets[i + 1]; ++k) {
            const int s = model.vertex_springs[k];
            f += model.spring_a[s] == static_cast<int>(i) ? spring_force[s] : -spring_force[s];
          }
          for (int k = model.vertex_seam_offsets[i]; k < model.vertex_seam_offsets[i + 1]; ++k) {
            const int s = model.vertex_seams[k];
            const Vec3 fs = sewing_force(model, fabric, st.x, s);
            f += model.seam_a[s] == static_cast<int>(i) ? fs : -fs;
          }
        }
        for (int k = model.vertex_hinge_offsets[i]; k < model.vertex_hinge_offsets[i + 1]; ++k)
          f += hinge_force[model.vertex_hinge_slots[k]];
        force[i] = f;
      },
      512);
}

// XPBD distance constraints, colour by colour (no two springs of a colour share a vertex).
void ClothSimulation::Impl::project_springs(double dt2) {
  std::vector<Vec3>& x = st.x;
  for (std::size_t c = 0; c + 1 < model.colour_offsets.size(); ++c) {
    ex->for_each(
        model.colour_offsets[c], model.colour_offsets[c + 1],
        [&](std::size_t k) {
          const int s = model.colour_springs[k];
          // Under the triangle stretch model the faces carry stretch and shear;
          // the stretch and shear springs only measure.
          if (model.stretch_triangles && model.spring_family[s] != SpringFamily::bend) return;
          const int a = model.spring_a[s], b = model.spring_b[s];
          const double wa = model.inv_mass[a], wb = model.inv_mass[b];
          if (wa + wb == 0) return;
          const Vec3 d = x[b] - x[a];
          const double L = norm(d);
          if (!(L > 1e-15)) return;
          // The compliance and the rest length follow the current length: a
          // stretch edge that is compressed answers with its buckling
          // stiffness, one past a knee of its tensile curve with that
          // segment's (re-decided every iteration as Gauss-Seidel moves it;
          // the tension is continuous, so lambda stays the spring's force).
          const SpringSegment g = spring_segment(s, L);
          const double alpha = 1 / (g.stiffness * dt2);
          const double C = L - g.rest;
          const double dl = (-C - alpha * lambda_spring[s]) / (wa + wb + alpha);
          lambda_spring[s] += dl;
          const Vec3 corr = d * (dl / L);
          x[a] -= corr * wa;
          x[b] += corr * wb;
        },
        512);
  }
}

// XPBD isometric bending (BendingModel::isometric): per interior edge the
// linear vector constraint C = sum K_i x_i with energy k |C|^2 / 2, so a
// Gauss-Seidel update is exact for the constraint it solves.
void ClothSimulation::Impl::project_bending(double dt2) {
  std::vector<Vec3>& x = st.x;
  for (std::size_t c = 0; c + 1 < model.bend_colour_offsets.size(); ++c) {
    ex->for_each(
        model.bend_colour_offsets[c], model.bend_colour_offsets[c + 1],
        [&](std::size_t k) {
          const int q = model.bend_colour_quads[k];
          const std::array<int, 4>& v = model.bend_quads[q];
          const std::array<double, 4>& K = model.bend_weights[q];
          Vec3 C{};
          double w = 0;
          for (int i = 0; i < 4; ++i) {
            C += x[v[i]] * K[i];
            w += model.inv_mass[v[i]] * K[i] * K[i];
          }
          if (w == 0) return;
          const double alpha = 1 / (model.bend_stiffness[q] * dt2);
          const Vec3 dl = (C * -1.0 - lambda_bend[q] * alpha) / (w + alpha);
          lambda_bend[q] += dl;
          for (int i = 0; i < 4; ++i) x[v[i]] += dl * (model.inv_mass[v[i]] * K[i]);
        },
        512);
  }
}

// XPBD triangle stretch (StretchModel::triangle): per face, with w_u and w_v
// the deformed warp and weft (linear in the positions), the stretch
// conditions |w_u| - 1 and |w_v| - 1 (their stiffness times
// compression_stiffness while shorter than at rest, as a stretch spring
// buckles) and the shear condition w_u . w_v, one after the other.
void ClothSimulation::Impl::project_triangles(double dt2) {
  if (!model.stretch_triangles) return;
  std::vector<Vec3>& x = st.x;
  const double compression = settings.compression_stiffness;
  for (std::size_t c = 0; c + 1 < model.tri_colour_offsets.size(); ++c) {
    ex->for_each(
        model.tri_colour_offsets[c], model.tri_colour_offsets[c + 1],
        [&](std::size_t k) {
          const int f = model.tri_colour_faces[k];
          const Triangle& t = model.faces[f];
          const std::array<double, 6>& b = model.tri_weights[f];
          const std::array<double, 3>& stiffness = model.tri_stiffness[f];
          std::array<double, 3>& lambda = lambda_triangle[f];
          const double w[3] = {model.inv_mass[t[0]], model.inv_mass[t[1]], model.inv_mass[t[2]]};
          if (w[0] + w[1] + w[2] == 0) return;
          auto warp_weft = [&](int o) { return x[t[0]] * b[o] + x[t[1]] * b[o + 1] + x[t[2]] * b[o + 2]; };
          // The two stretch conditions: the gradient at vertex i is b_i n.
          for (int d = 0; d < 2; ++d) {
            const int o = 3 * d;
            const Vec3 wd = warp_weft(o);
            const double len = norm(wd);
            if (!(len > 1e-12)) continue;
            const double C = len - 1;
            const double kd = C < 0 ? stiffness[d] * compression : stiffness[d];
            if (!(kd > 0)) continue;
            const double alpha = 1 / (kd * dt2);
            const double den = w[0] * b[o] * b[o] + w[1] * b[o + 1] * b[o + 1] + w[2] * b[o + 2] * b[o + 2];
            const double dl = (-C - alpha * lambda[d]) / (den + alpha);
            lambda[d] += dl;
            const Vec3 n = wd * (dl / len);
            for (int i = 0; i < 3; ++i) x[t[i]] += n * (w[i] * b[o + i]);
          }
          // The shear condition: the gradient at vertex i is b_ui w_v + b_vi w_u.
          const Vec3 wu = warp_weft(0), wv = warp_weft(3);
          const double C = dot(wu, wv);
          Vec3 grad[3];
          double den = 0;
          for (int i = 0; i < 3; ++i) {
            grad[i] = wv * b[i] + wu * b[3 + i];
            den += w[i] * squared_norm(grad[i]);
          }
          if (!(den > 0)) return;
          const double alpha = 1 / (stiffness[2] * dt2);
          const double dl = (-C - alpha * lambda[2]) / (den + alpha);
          lambda[2] += dl;
          for (int i = 0; i < 3; ++i) x[t[i]] += grad[i] * (w[i] * dl);
        },
        512);
  }
}

// One step of h seconds: forces, the integrator (XPBD projects springs and
// seams), collisions, the weld of joined seam pairs, and velocities from the
// positions where something moved them (all of them under XPBD).
void ClothSimulation::Impl::step(double h) {
  std::vector<Vec3>& x = st.x;
  std::vector<Vec3>& v = st.v;
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
    std::fill(lambda_bend.begin(), lambda_bend.end(), Vec3{});
    std::fill(lambda_triangle.begin(), lambda_triangle.end(), std::array<double, 3>{});
    const double h2 = h * h;
    // A softer cloth while the seams close in zero gravity lets panels stretch
    // towards their partners; full stiffness once gravity is on; more
    // iterations (nearer the fabric's own stiffness) once a garment's seams
    // are all joined (a cloth without seams keeps solver_iterations).
    const bool closed = !model.seam_a.empty() && all_joined();
    const int iterations = st.gravity_on_frame < 0 ? settings.sewing_solver_iterations
                           : closed                ? settings.closed_solver_iterations
                                                   : settings.solver_iterations;
    for (int it = 0; it < iterations; ++it) {
      project_springs(h2);
      project_triangles(h2);
      project_bending(h2);
      project_seam_constraints(model, fabric, st.seam_joined, st.seam_cap_scale, h2, lambda_seam, x, *ex);
    }
    if (strain_limit_acts()) limit_strain();
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

  if (collisions) collide();
  t0 = Clock::now();
  weld_joined_pairs(model, st.seam_joined, x, moved, *ex);
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
  ++st.steps;
}

}  // namespace drape

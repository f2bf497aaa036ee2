// Measures of ClothSimulation: energies, seam gaps, strain, intersection
// counts, and the welded result of a run.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/cloth/percentile.h"
#include "drape/cloth/seam_weld.h"
#include "drape/collision/intersection_count.h"
#include "simulation_impl.h"
#include "stage_clock.h"

namespace drape {

double ClothSimulation::Impl::kinetic() const {
  double e = 0;
  for (std::size_t i = 0; i < model.vertex_count; ++i) e += 0.5 * model.mass[i] * squared_norm(st.v[i]);
  return e;
}

double ClothSimulation::Impl::seam_gap() const {
  double g = 0;
  for (std::size_t s = 0; s < model.seam_a.size(); ++s)
    g = std::max(g, norm(st.x[model.seam_a[s]] - st.x[model.seam_b[s]]));
  return g;
}

double ClothSimulation::Impl::potential() const {
  const std::vector<Vec3>& x = st.x;
  double e = 0;
  for (std::size_t k = 0; k < model.spring_a.size(); ++k) {
    if (model.stretch_triangles && model.spring_family[k] != SpringFamily::bend) continue;  // measures only
    const double L = norm(x[model.spring_b[k]] - x[model.spring_a[k]]);
    e += spring_energy_at(model, k, L, settings.compression_stiffness);
  }
  // The triangle stretch model: k C^2 / 2 per condition (compression softer).
  for (std::size_t f = 0; f < model.tri_weights.size(); ++f) {
    const Triangle& t = model.faces[f];
    const std::array<double, 6>& b = model.tri_weights[f];
    const Vec3 wu = x[t[0]] * b[0] + x[t[1]] * b[1] + x[t[2]] * b[2];
    const Vec3 wv = x[t[0]] * b[3] + x[t[1]] * b[4] + x[t[2]] * b[5];
    const double cu = norm(wu) - 1, cv = norm(wv) - 1, cs = dot(wu, wv);
    const double c = settings.compression_stiffness;
    e += 0.5 * model.tri_stiffness[f][0] * (cu < 0 ? c : 1.0) * cu * cu;
    e += 0.5 * model.tri_stiffness[f][1] * (cv < 0 ? c : 1.0) * cv * cv;
    e += 0.5 * model.tri_stiffness[f][2] * cs * cs;
  }
  for (std::size_t k = 0; k < model.seam_a.size(); ++k)
    e += 0.5 * fabric.sewing_stiffness * squared_norm(x[model.seam_b[k]] - x[model.seam_a[k]]);
  const Vec3 g = settings.gravity * st.gravity_scale;
  for (std::size_t i = 0; i < model.vertex_count; ++i) e -= model.mass[i] * dot(g, x[i]);
  return e;
}

DrapeReport ClothSimulation::Impl::measure() const {
  const auto t0 = Clock::now();
  const std::vector<Vec3>& x = st.x;
  DrapeReport r = report;
  r.steps = st.steps;
  r.step_halvings = st.step_halvings;
  r.self_searches = self ? self->searches() : 0;
  r.frames = st.frame;
  r.substeps = st.substeps;
  r.dt = st.dt;
  r.kinetic_energy = kinetic();
  r.max_seam_gap = seam_gap();
  r.seam_pairs_joined = static_cast<std::size_t>(std::count(st.seam_joined.begin(), st.seam_joined.end(), 1));
  for (std::size_t k = 0; k < st.seam_joined.size(); ++k) {
    if (st.seam_joined[k]) continue;
    const int seam = model.seam_stitch[k];
    auto it = std::find_if(r.open_seams.begin(), r.open_seams.end(),
                           [&](const DrapeReport::OpenSeam& o) { return o.seam == seam; });
    if (it == r.open_seams.end()) it = r.open_seams.insert(r.open_seams.end(), {seam, 0, 0.0, {}});
    ++it->open_pairs;
    const Vec3 a = x[model.seam_a[k]], b = x[model.seam_b[k]];
    if (norm(b - a) > it->max_gap) {
      it->max_gap = norm(b - a);
      it->widest_at = (a + b) * 0.5;
    }
  }
  std::sort(r.open_seams.begin(), r.open_seams.end(),
            [](const DrapeReport::OpenSeam& a, const DrapeReport::OpenSeam& b) { return a.seam < b.seam; });
  // Edge strain over the edge springs, split by sign: tension max(L/L0 - 1, 0)
  // (the strain: a compressed edge has none) and compression
  // max(1 - L/L0, 0) (a gathered or buckled edge; in-plane, since the mesh is
  // coarser than the wrinkles). Percentiles by rank over all edge springs.
  std::vector<double> tension, compression;
  for (std::size_t k = 0; k < model.spring_a.size(); ++k) {
    if (!model.spring_is_edge[k]) continue;
    const Vec3 a = x[model.spring_a[k]], b = x[model.spring_b[k]];
    const double e = norm(b - a) / model.spring_rest[k] - 1;
    if (tension.empty() || e > r.strain_max) {
      r.strain_max = std::max(e, 0.0);
      r.strain_max_at = (a + b) * 0.5;
    }
    tension.push_back(std::max(e, 0.0));
    compression.push_back(std::max(-e, 0.0));
  }
  if (!tension.empty()) {
    r.strain_mean = std::accumulate(tension.begin(), tension.end(), 0.0) / tension.size();
    std::sort(tension.begin(), tension.end());
    r.strain_p95 = percentile(tension, 0.95);
    r.strain_p99 = percentile(tension, 0.99);
    std::sort(compression.begin(), compression.end());
    r.compression_max = compression.back();
    r.compression_p99 = percentile(compression, 0.99);
  }
  r.times.measure = seconds_since(t0);
  return r;
}

// The result of a run. A corner still passing through itself when the run
// stops is untangled as it is for the result only: a later run (a pose, a
// resumed job) goes on from the state as it was.
DrapeResult ClothSimulation::Impl::result(bool equilibrium, bool stalled, double moving_fraction) {
  std::vector<Vec3> x_at_stop;
  const std::vector<int> groups_at_stop = st.corner_group;
  if (!groups_at_stop.empty()) {
    x_at_stop = st.x;
    update_corner_groups(true);
  }
  const std::vector<Vec3>& x = st.x;
  DrapeResult result;
  DrapeReport r = measure();
  const auto t0 = Clock::now();
  result.mesh = weld_joined_seams(model, x, st.seam_joined, result.vertex_map, result.face_map);
  // Per welded vertex: the largest tension of the edges at it.
  result.vertex_strain.assign(result.mesh.vertex_count(), 0.0);
  for (std::size_t k = 0; k < model.spring_a.size(); ++k) {
    if (!model.spring_is_edge[k]) continue;
    const int a = model.spring_a[k], b = model.spring_b[k];
    const double e = std::max(norm(x[b] - x[a]) / model.spring_rest[k] - 1, 0.0);
    double& sa = result.vertex_strain[result.vertex_map[a]];
    double& sb = result.vertex_strain[result.vertex_map[b]];
    sa = std::max(sa, e);
    sb = std::max(sb, e);
  }
  const double cone = self_cone_angle;
  if (body) {
    const IntersectionCounts c = count_intersections(body->tree(), result.mesh, cone, *ex);
    r.vertices_inside_body = c.vertices_inside_body;
    r.body_crossing_pairs = c.body_crossing_pairs;
    r.self_crossing_pairs = c.self_crossing_pairs;
  } else if (result.mesh.face_count()) {
    const TriangleMeshBvh tree(result.mesh, BvhBuildOptions{}, *ex);
    r.self_crossing_pairs = tree.self_intersecting_pairs(cone).size();
  }
  r.times.measure += seconds_since(t0);
  r.equilibrium = equilibrium;
  r.stop_reason = equilibrium ? "equilibrium" : (stalled ? "stalled_seams" : "frame_limit");
  r.moving_fraction = moving_fraction;
  result.report = r;
  if (!groups_at_stop.empty()) {
    st.x = std::move(x_at_stop);
    st.corner_group = groups_at_stop;
    if (self) self->set_exempt_groups(st.corner_group);
  }
  return result;
}

}  // namespace drape

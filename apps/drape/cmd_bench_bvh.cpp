// `drape bench bvh`: builds the paper's midpoint tree and the binned-SAH tree
// (and Embree 3's scene when built with it) over a mesh, casts seeded random
// rays and closest-point queries, prints build time and queries per second,
// and with --verify compares every answer with brute force.

#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "command_registry.h"
#include "default_paths.h"
#include "drape/bvh/query_workloads.h"
#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/core/exceptions.h"
#include "drape/io/mesh_io.h"

#ifdef DRAPE_HAVE_EMBREE
#include "../../bench/embree_peer.h"
#endif

namespace drape::cli {
namespace {

struct BenchBvhOptions {
  std::string mesh = default_body_path();
  std::string group = "body";
  int rays = 100000;
  unsigned seed = 1;
  bool verify = false;
  bool json = false;
};

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Brute-force answers (no tree).
struct Truth {
  std::vector<std::optional<double>> t;
  std::vector<double> distance;
};
Truth brute_force(const TriangleMesh& m, const std::vector<Ray>& rays, const std::vector<Vec3>& pts) {
  Truth tr;
  tr.t.resize(rays.size());
  tr.distance.resize(pts.size());
  Executor::global().for_each(
      0, rays.size(),
      [&](std::size_t i) {
        const WatertightRay wr(rays[i]);
        std::optional<double> best;
        for (const Triangle& f : m.faces) {
          double t, u, v;
          if (intersect_ray_triangle(wr, m.positions[f[0]], m.positions[f[1]], m.positions[f[2]], t, u, v) &&
              (!best || t < *best))
            best = t;
        }
        tr.t[i] = best;
      },
      16);
  Executor::global().for_each(
      0, pts.size(),
      [&](std::size_t i) {
        double best = INFINITY;
        for (const Triangle& f : m.faces)
          best = std::min(best, norm(closest_point_on_triangle(pts[i], m.positions[f[0]], m.positions[f[1]],
                                                               m.positions[f[2]])
                                         .point -
                                     pts[i]));
        tr.distance[i] = best;
      },
      16);
  return tr;
}

struct Result {
  double build_ms = 0, rays_per_s = 0, closest_per_s = 0, batched_rays_per_s = 0;
  long long mismatches = -1;
  int nodes = 0, depth = 0;
};

// Mismatch rules: our trees must equal brute force exactly (same primitive);
// Embree works in float, so hits must agree and t / distances within 1e-4 relative.
template <class IntersectF, class ClosestF>
Result measure(const std::vector<Ray>& rays, const std::vector<Vec3>& pts, IntersectF&& intersect,
               ClosestF&& closest, const Truth* truth, double tolerance) {
  Result r;
  std::vector<std::optional<double>> ts(rays.size());
  auto t0 = Clock::now();
  for (std::size_t i = 0; i < rays.size(); ++i) ts[i] = intersect(rays[i]);
  r.rays_per_s = rays.size() / seconds_since(t0);
  std::vector<double> ds(pts.size());
  t0 = Clock::now();
  for (std::size_t i = 0; i < pts.size(); ++i) ds[i] = closest(pts[i]);
  r.closest_per_s = pts.size() / seconds_since(t0);
  if (truth) {
    r.mismatches = 0;
    for (std::size_t i = 0; i < rays.size(); ++i) {
      const auto& e = truth->t[i];
      if (e.has_value() != ts[i].has_value() ||
          (e && std::abs(*e - *ts[i]) > tolerance * std::max(1.0, std::abs(*e))))
        ++r.mismatches;
    }
    for (std::size_t i = 0; i < pts.size(); ++i)
      if (std::abs(truth->distance[i] - ds[i]) > tolerance * std::max(1.0, truth->distance[i]))
        ++r.mismatches;
  }
  return r;
}

nlohmann::ordered_json to_json(const Result& r) {
  nlohmann::ordered_json j;
  j["build_ms"] = r.build_ms;
  j["rays_per_s"] = r.rays_per_s;
  j["closest_per_s"] = r.closest_per_s;
  if (r.batched_rays_per_s > 0) j["batched_rays_per_s"] = r.batched_rays_per_s;
  if (r.mismatches >= 0) j["mismatches"] = r.mismatches;
  if (r.nodes > 0) {
    j["nodes"] = r.nodes;
    j["depth"] = r.depth;
  }
  return j;
}

int run_bench_bvh(const BenchBvhOptions& o) {
  if (o.rays < 1) throw InvalidInput("--rays must be at least 1, got " + std::to_string(o.rays));
  MeshReadOptions ro;
  ro.group = o.group;
  ro.group_optional = o.group == "body";  // the default: `body` when the file has it, else all faces
  const TriangleMesh mesh = read_mesh(o.mesh, ro).mesh;
  const Aabb box = mesh.bounds();
  const auto rays = random_rays_into_box(box, o.rays, o.seed);
  const auto pts = random_points_in_box(box, o.rays, o.seed + 7919);
  std::unique_ptr<Truth> truth;
  if (o.verify) truth = std::make_unique<Truth>(brute_force(mesh, rays, pts));

  nlohmann::ordered_json j;
  j["mesh"] = o.mesh;
  j["group"] = o.group;
  j["triangles"] = mesh.face_count();
  j["rays"] = o.rays;
  j["closest_points"] = o.rays;
  j["seed"] = o.seed;
  j["threads"] = Executor::global().thread_count();
  j["note"] = "rays_per_s and closest_per_s are single-thread; batched_rays_per_s uses --threads";

  const struct {
    const char* name;
    BvhBuildOptions options;
  } builders[] = {{"midpoint", {BvhBuilder::midpoint, 1}}, {"binned_sah", {BvhBuilder::binned_sah, 4}}};
  for (const auto& b : builders) {
    auto t0 = Clock::now();
    const TriangleMeshBvh tree(mesh, b.options);
    tree.prepare_queries();  // the 4-wide query tree: part of the build here
    const double build_ms = 1e3 * seconds_since(t0);
    Result r = measure(
        rays, pts,
        [&](const Ray& ray) -> std::optional<double> {
          const auto h = tree.intersect(ray);
          return h ? std::optional<double>(h->t) : std::nullopt;
        },
        [&](const Vec3& p) { return tree.closest_point(p).distance; }, truth.get(), 1e-12);
    r.build_ms = build_ms;
    r.nodes = tree.tree().node_count();
    r.depth = tree.tree().depth();
    std::vector<std::optional<RayHit>> hits(rays.size());
    t0 = Clock::now();
    tree.intersect(rays, hits);
    r.batched_rays_per_s = rays.size() / seconds_since(t0);
    j[b.name] = to_json(r);
    j[b.name]["max_leaf_size"] = b.options.max_leaf_size;
  }
#ifdef DRAPE_HAVE_EMBREE
  {
    auto t0 = Clock::now();
    const peer::EmbreeScene scene(mesh, Executor::global().thread_count());
    const double build_ms = 1e3 * seconds_since(t0);
    Result r = measure(
        rays, pts,
        [&](const Ray& ray) -> std::optional<double> {
          const auto h = scene.intersect(ray);
          return h ? std::optional<double>(h->t) : std::nullopt;
        },
        [&](const Vec3& p) { return scene.closest_point(p).distance; }, truth.get(), 1e-4);
    r.build_ms = build_ms;
    j["embree"] = to_json(r);
    j["embree"]["version"] = "3 (float, rtcIntersect1 / rtcPointQuery)";
    for (const char* b : {"midpoint", "binned_sah"}) {
      j["ratio_vs_embree"][b]["rays"] = j[b]["rays_per_s"].get<double>() / r.rays_per_s;
      j["ratio_vs_embree"][b]["closest"] = j[b]["closest_per_s"].get<double>() / r.closest_per_s;
    }
  }
#endif

  if (o.json) {
    std::cout << j.dump(2) << "\n";
    return kOk;
  }
  std::cout << "mesh " << o.mesh << " (" << mesh.face_count() << " triangles), " << o.rays
            << " rays and closest-point queries, seed " << o.seed << "\n";
  std::cout << std::left << std::setw(12) << "tree" << std::right << std::setw(12) << "build ms"
            << std::setw(14) << "rays/s" << std::setw(14) << "closest/s" << std::setw(14) << "rays/s (MT)"
            << std::setw(12) << "mismatches"
            << "\n";
  for (const char* b : {"midpoint", "binned_sah", "embree"}) {
    if (!j.contains(b)) continue;
    const auto& r = j[b];
    std::cout << std::left << std::setw(12) << b << std::right << std::fixed << std::setprecision(2)
              << std::setw(12) << r["build_ms"].get<double>() << std::setprecision(0) << std::setw(14)
              << r["rays_per_s"].get<double>() << std::setw(14) << r["closest_per_s"].get<double>()
              << std::setw(14)
              << (r.contains("batched_rays_per_s") ? r["batched_rays_per_s"].get<double>() : 0.0)
              << std::setw(12)
              << (r.contains("mismatches") ? std::to_string(r["mismatches"].get<long long>()) : "-") << "\n";
  }
  if (j.contains("ratio_vs_embree"))
    for (const char* b : {"midpoint", "binned_sah"})
      std::cout << b << " vs embree: rays x" << std::setprecision(2)
                << j["ratio_vs_embree"][b]["rays"].get<double>() << ", closest point x"
                << j["ratio_vs_embree"][b]["closest"].get<double>() << "\n";
  return kOk;
}

const CommandRegistrar reg_bench_bvh{
    "bench bvh", "Benchmark the AABB trees (midpoint, binned SAH, Embree peer) on a mesh", [](CLI::App& app) {
      auto o = std::make_shared<BenchBvhOptions>();
      app.add_option("--mesh", o->mesh, "Mesh file (.obj, .gltf, .glb); default: the MakeHuman body");
      app.add_option("--group", o->group, "OBJ group to keep (empty = all); default: body");
      app.add_option("--rays", o->rays, "Number of rays and of closest-point queries (default 100000)");
      app.add_option("--seed", o->seed, "Random seed (default 1)");
      app.add_flag("--verify", o->verify,
                   "Compare every answer with brute force and count mismatches (slow)");
      app.add_flag("--json", o->json, "Print JSON");
      return [o] { return run_bench_bvh(*o); };
    }};

}  // namespace
}  // namespace drape::cli

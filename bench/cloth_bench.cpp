// Google Benchmark for the cloth step: an open cone (a flared skirt shape)
// around the MakeHuman body's hips, N vertices, one XPBD step per iteration
// (forces, constraint solve, self-collision, body collision). The CLI
// `drape bench cloth` gives the per-stage split; this one plugs into the
// project's benchmark runs.
//
//   build/bench/cloth_bench --benchmark_min_time=0.01

#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>

#include "drape/cloth/cloth_simulation.h"
#include "drape/core/executor.h"
#include "drape/io/mesh_io.h"

namespace {

constexpr double kPi = 3.14159265358979323846;

const drape::TriangleMesh& body() {
  static const drape::TriangleMesh mesh =
      drape::read_obj(std::string(DRAPE_DATA_DIR) + "/bodies/makehuman/base.obj",
                      {.group = "body", .unit = {}})
          .mesh;
  return mesh;
}

// Same cone as `drape bench cloth`: top ring just below the hips.
drape::GarmentMesh cone(int target) {
  const drape::Aabb b = body().bounds();
  const double height = b.extent().y;
  const double cx = b.center().x, cz = b.center().z + 0.01 * height;
  const double y0 = b.min.y + 0.48 * height, y1 = b.min.y + 0.20 * height;
  const double r0 = 0.118 * height, r1 = 0.18 * height;
  const double area = kPi * (r0 + r1) * std::hypot(r1 - r0, y0 - y1);
  const double h = std::sqrt(area / target);
  const int around = std::max(8, static_cast<int>(std::lround(kPi * (r0 + r1) / h)));
  const int rows = std::max(2, (target + around - 1) / around);
  drape::GarmentMesh g;
  g.panel_names = {"skirt"};
  g.panel_regions = {drape::body_region::all};
  for (int j = 0; j < rows; ++j) {
    const double t = static_cast<double>(j) / (rows - 1);
    const double r = r0 + (r1 - r0) * t, y = y0 + (y1 - y0) * t;
    for (int i = 0; i < around; ++i) {
      const double a = 2 * kPi * i / around;
      g.mesh.positions.push_back({cx + r * std::cos(a), y, cz - r * std::sin(a)});
      g.panel_of_vertex.push_back(0);
    }
  }
  auto id = [&](int i, int j) { return j * around + (i % around); };
  for (int j = 0; j + 1 < rows; ++j)
    for (int i = 0; i < around; ++i) {
      g.mesh.faces.push_back({id(i, j), id(i + 1, j + 1), id(i + 1, j)});
      g.mesh.faces.push_back({id(i, j), id(i, j + 1), id(i + 1, j + 1)});
    }
  return g;
}

void BM_ClothStep(benchmark::State& state) {
  drape::ClothSettings s;
  s.self_collision = state.range(1) != 0;
  s.executor = &drape::Executor::global();
  drape::ClothSimulation sim(cone(static_cast<int>(state.range(0))), body(), {},
                             drape::fabric_preset("cotton"), s);
  const double dt = sim.step_size();
  for (auto _ : state) sim.step(dt);
  state.SetItemsProcessed(state.iterations() * static_cast<long long>(sim.positions().size()));
  state.counters["vertices"] = static_cast<double>(sim.positions().size());
}
BENCHMARK(BM_ClothStep)
    ->ArgsProduct({{2000, 8000, 20000}, {0, 1}})
    ->ArgNames({"vertices", "self"})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

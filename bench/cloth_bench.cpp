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
#include "drape/cloth/cone_garment.h"
#include "drape/core/executor.h"
#include "drape/io/mesh_io.h"

namespace {


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
  return drape::open_cone_garment(target, r0, r1, y0, y1, cx, cz);
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

// AABB tree benchmarks with Embree 3 and FCL as peers in the same run:
// closest-hit rays and closest points on the MakeHuman body, refit of a
// 20k-triangle cloth, and a 20k-triangle cloth sheet against the body.
//
//   build/bench/bvh_bench --benchmark_min_time=0.2
//
// Single-threaded throughout (one query after another on the calling thread).

#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>

#include "drape/bvh/query_workloads.h"
#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/io/mesh_io.h"

#ifdef DRAPE_HAVE_EMBREE
#include "embree_peer.h"
#endif
#ifdef DRAPE_HAVE_FCL
#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/collision_object.h>
#endif

using namespace drape;

namespace {

const TriangleMesh& body() {
  static const TriangleMesh m = [] {
    MeshReadOptions o;
    o.group = "body";
    return read_obj(std::string(DRAPE_DATA_DIR) + "/bodies/makehuman/base.obj", o).mesh;
  }();
  return m;
}

// A 100 x 100 quad (20,000 triangle) sheet, tilted, cutting through the torso and arms.
const TriangleMesh& cloth() {
  static const TriangleMesh m = [] {
    const Aabb b = body().bounds();
    const int n = 100;
    const Vec3 o{b.min.x - 0.05, b.center().y - 0.1, b.min.z - 0.05};
    const Vec3 ea{b.extent().x + 0.1, 0.25, 0}, eb{0, 0.05, b.extent().z + 0.1};
    TriangleMesh s;
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i) s.positions.push_back(o + ea * (double(i) / n) + eb * (double(j) / n));
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const int v = j * (n + 1) + i;
        s.faces.push_back({v, v + 1, v + n + 2});
        s.faces.push_back({v, v + n + 2, v + n + 1});
      }
    return s;
  }();
  return m;
}

// The workloads of `drape bench bvh` (drape/bvh/query_workloads.h).
const std::vector<Ray>& rays() {
  static const std::vector<Ray> r = random_rays_into_box(body().bounds(), 8192, 1);
  return r;
}

const std::vector<Vec3>& points() {
  static const std::vector<Vec3> p = random_points_in_box(body().bounds(), 8192, 2);
  return p;
}

BvhBuildOptions builder(int which) {
  return which == 0 ? BvhBuildOptions{BvhBuilder::midpoint, 1} : BvhBuildOptions{BvhBuilder::binned_sah, 4};
}
const char* builder_name(int which) { return which == 0 ? "midpoint/1" : "sah/4"; }

void BM_DrapeRay(benchmark::State& st) {
  const TriangleMeshBvh tree(body(), builder(static_cast<int>(st.range(0))));
  std::size_t i = 0, hits = 0;
  for (auto _ : st) {
    const auto h = tree.intersect(rays()[i++ & 8191]);
    hits += h.has_value();
    benchmark::DoNotOptimize(h);
  }
  st.SetItemsProcessed(st.iterations());
  st.SetLabel(builder_name(static_cast<int>(st.range(0))));
}
BENCHMARK(BM_DrapeRay)->Arg(0)->Arg(1);

void BM_DrapeClosestPoint(benchmark::State& st) {
  const TriangleMeshBvh tree(body(), builder(static_cast<int>(st.range(0))));
  std::size_t i = 0;
  for (auto _ : st) benchmark::DoNotOptimize(tree.closest_point(points()[i++ & 8191]));
  st.SetItemsProcessed(st.iterations());
  st.SetLabel(builder_name(static_cast<int>(st.range(0))));
}
BENCHMARK(BM_DrapeClosestPoint)->Arg(0)->Arg(1);

void BM_DrapeBuildBody(benchmark::State& st) {
  const Executor one(1);
  for (auto _ : st) {
    const TriangleMeshBvh tree(body(), builder(static_cast<int>(st.range(0))), one);
    benchmark::DoNotOptimize(tree.tree().node_count());
  }
  st.SetLabel(builder_name(static_cast<int>(st.range(0))));
}
BENCHMARK(BM_DrapeBuildBody)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_DrapeRefitCloth20k(benchmark::State& st) {
  TriangleMesh m = cloth();
  TriangleMeshBvh tree(m, builder(static_cast<int>(st.range(0))));
  for (auto _ : st) {
    m.positions[0].y += 1e-9;  // a deformation step between refits
    tree.refit();
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations() * static_cast<long long>(m.face_count()));
  st.SetLabel(builder_name(static_cast<int>(st.range(0))));
}
BENCHMARK(BM_DrapeRefitCloth20k)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_DrapeClothVsBody(benchmark::State& st) {
  const TriangleMeshBvh tb(body(), builder(static_cast<int>(st.range(0))));
  const TriangleMeshBvh tc(cloth(), builder(static_cast<int>(st.range(0))));
  std::size_t pairs = 0;
  for (auto _ : st) pairs = tc.intersecting_pairs(tb).size();
  st.counters["pairs"] = static_cast<double>(pairs);
  st.SetLabel(builder_name(static_cast<int>(st.range(0))));
}
BENCHMARK(BM_DrapeClothVsBody)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

#ifdef DRAPE_HAVE_EMBREE
void BM_EmbreeRay(benchmark::State& st) {
  const peer::EmbreeScene scene(body(), 1);
  std::size_t i = 0;
  for (auto _ : st) benchmark::DoNotOptimize(scene.intersect(rays()[i++ & 8191]));
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_EmbreeRay);

void BM_EmbreeClosestPoint(benchmark::State& st) {
  const peer::EmbreeScene scene(body(), 1);
  std::size_t i = 0;
  for (auto _ : st) benchmark::DoNotOptimize(scene.closest_point(points()[i++ & 8191]));
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_EmbreeClosestPoint);

void BM_EmbreeBuildBody(benchmark::State& st) {
  for (auto _ : st) {
    const peer::EmbreeScene scene(body(), 1);
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_EmbreeBuildBody)->Unit(benchmark::kMillisecond);
#endif

#ifdef DRAPE_HAVE_FCL
using FclModel = fcl::BVHModel<fcl::AABBd>;
std::shared_ptr<FclModel> fcl_model(const TriangleMesh& m) {
  auto model = std::make_shared<FclModel>();
  std::vector<fcl::Vector3d> pts;
  for (const Vec3& p : m.positions) pts.emplace_back(p.x, p.y, p.z);
  std::vector<fcl::Triangle> tris;
  for (const Triangle& t : m.faces) tris.emplace_back(t[0], t[1], t[2]);
  model->beginModel();
  model->addSubModel(pts, tris);
  model->endModel();
  return model;
}

void BM_FclClothVsBody(benchmark::State& st) {
  const fcl::CollisionObjectd b(fcl_model(body()), fcl::Transform3d::Identity());
  const fcl::CollisionObjectd c(fcl_model(cloth()), fcl::Transform3d::Identity());
  fcl::CollisionRequestd req(std::numeric_limits<std::size_t>::max(), false);
  std::size_t pairs = 0;
  for (auto _ : st) {
    fcl::CollisionResultd res;
    fcl::collide(&c, &b, req, res);
    pairs = res.numContacts();
  }
  st.counters["pairs"] = static_cast<double>(pairs);
}
BENCHMARK(BM_FclClothVsBody)->Unit(benchmark::kMillisecond);

void BM_FclRefitCloth20k(benchmark::State& st) {
  auto model = fcl_model(cloth());
  std::vector<fcl::Vector3d> pts;
  for (const Vec3& p : cloth().positions) pts.emplace_back(p.x, p.y, p.z);
  for (auto _ : st) {
    pts[0].y() += 1e-9;
    model->beginUpdateModel();
    model->updateSubModel(pts);
    model->endUpdateModel(true, true);
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations() * static_cast<long long>(cloth().face_count()));
}
BENCHMARK(BM_FclRefitCloth20k)->Unit(benchmark::kMicrosecond);
#endif

}  // namespace

BENCHMARK_MAIN();

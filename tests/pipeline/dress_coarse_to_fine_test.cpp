// Coarse-to-fine draping end to end (DressJob::coarse_distance): the skirt is
// sewn and draped at twice the particle distance, carried to the fine mesh
// and settled there; the result must be the fine garment, every seam closed,
// with no crossing found by a brute-force test of every triangle pair.

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/geometry/triangle_queries.h"
#include "drape/pattern/mesher.h"
#include "drape/pattern/pattern_io.h"
#include "drape/pipeline/dress_job.h"
#include "test_temp_dir.h"

using namespace drape;
namespace fs = std::filesystem;

namespace {

const fs::path kData = DRAPE_DATA_DIR;

bool boxes_meet(const TriangleMesh& a, std::size_t fa, const TriangleMesh& b, std::size_t fb) {
  const Aabb p = a.face_bounds(fa), q = b.face_bounds(fb);
  return p.min.x <= q.max.x && q.min.x <= p.max.x && p.min.y <= q.max.y && q.min.y <= p.max.y &&
         p.min.z <= q.max.z && q.min.z <= p.max.z;
}

bool crosses(const TriangleMesh& a, std::size_t fa, const TriangleMesh& b, std::size_t fb) {
  const Triangle& s = a.faces[fa];
  const Triangle& t = b.faces[fb];
  return boxes_meet(a, fa, b, fb) &&
         triangles_intersect(a.positions[s[0]], a.positions[s[1]], a.positions[s[2]], b.positions[t[0]],
                             b.positions[t[1]], b.positions[t[2]]);
}

// Every pair of triangles that share no vertex, tested exactly.
int self_crossings(const TriangleMesh& m) {
  int n = 0;
  for (std::size_t f = 0; f < m.face_count(); ++f)
    for (std::size_t g = f + 1; g < m.face_count(); ++g) {
      bool shared = false;
      for (int i : m.faces[f])
        for (int j : m.faces[g]) shared = shared || i == j;
      n += !shared && crosses(m, f, m, g);
    }
  return n;
}

// Every garment triangle against every body triangle.
int body_crossings(const TriangleMesh& garment, const TriangleMesh& body) {
  int n = 0;
  for (std::size_t f = 0; f < garment.face_count(); ++f)
    for (std::size_t g = 0; g < body.face_count(); ++g) n += crosses(garment, f, body, g);
  return n;
}

}  // namespace

TEST(DressCoarseToFine, SkirtSettlesSewnAndUncrossedFromTheCoarseDrape) {
  DressJob job;
  job.body_path = kData / "bodies/makehuman/base.obj";
  job.pattern_path = kData / "patterns/gpg/skirt_2_panels.json";
  job.particle_distance = 0.025;
  job.coarse_distance = 0.05;
  job.cloth.max_frames =
      300;  // the fine settle took 213 frames once the garment hung from its top (placement)
  job.out_dir = drape::test::test_temp_dir() / "drape_pipeline_coarse_to_fine";
  fs::remove_all(job.out_dir);
  job.write_render = false;
  const DressResult r = job.Run();

  // The coarse drape ran, on the coarse mesh, and was carried.
  const nlohmann::json report = nlohmann::json::parse(r.report_json);
  ASSERT_TRUE(report.contains("coarse_to_fine"));
  const nlohmann::json& c2f = report["coarse_to_fine"];
  EXPECT_TRUE(c2f["carried"].get<bool>());
  const PatternMesh fine = mesh_pattern(load_pattern(job.pattern_path), {.particle_distance = 0.025});
  const PatternMesh coarse = mesh_pattern(load_pattern(job.pattern_path), {.particle_distance = 0.05});
  EXPECT_EQ(c2f["coarse_vertices"].get<std::size_t>(), coarse.garment.mesh.vertex_count());
  EXPECT_EQ(c2f["coarse"]["vertices"].get<std::size_t>(), coarse.garment.mesh.vertex_count());
  EXPECT_EQ(c2f["coarse"]["seams"]["joined"], c2f["coarse"]["seams"]["pairs"]);

  // The result is the fine garment at rest, every seam pair one vertex.
  const DrapeReport& d = r.drape.report;
  EXPECT_EQ(d.stop_reason, "equilibrium");
  ASSERT_EQ(r.drape.vertex_map.size(), fine.garment.mesh.vertex_count());
  for (const SeamVertexPair& sp : fine.garment.seam_pairs)
    EXPECT_EQ(r.drape.vertex_map[sp.a], r.drape.vertex_map[sp.b]) << "stitch " << sp.seam;
  EXPECT_EQ(d.seam_pairs_joined, d.seam_pairs);
  EXPECT_EQ(d.vertices_inside_body, 0u);

  // No crossing, by brute force over every pair.
  EXPECT_EQ(self_crossings(r.drape.mesh), 0);
  EXPECT_EQ(body_crossings(r.drape.mesh, r.body), 0);
}

// Interrupted in the fine settle (after the coarse rest drape and pose), the
// job resumes from its checkpoint to the same garment as a run that was never
// interrupted.
TEST(DressCoarseToFine, InterruptedInTheFineSettleResumesToTheSameGarment) {
  const fs::path full = drape::test::test_temp_dir() / "drape_pipeline_c2f_full";
  const fs::path cut = drape::test::test_temp_dir() / "drape_pipeline_c2f_cut";
  fs::remove_all(full);
  fs::remove_all(cut);
  DressJob job;
  job.body_path = kData / "bodies/makehuman/base.obj";
  job.pattern_path = kData / "patterns/garmentcode/flare_skirt_specification.json";
  job.particle_distance = 0.04;
  job.coarse_distance = 0.06;
  job.cloth.max_frames = 40;
  job.write_render = false;
  job.motion_path = kData / "motion/cmu_jumping_jacks.bvh";
  job.motion_frame = 40;
  job.skeleton_candidates = {kData / "bodies/makehuman/default.mhskel",
                             kData / "bodies/makehuman/cmu_mb.mhskel"};
  job.pose_transition_frames = 10;
  job.checkpoint_every = 3;
  job.out_dir = full;
  job.Run();

  // Runs: the coarse rest drape, the coarse pose, the fine settle; each counts frames from 1.
  std::atomic<bool> stop{false};
  int runs = 0, last = 0;
  job.out_dir = cut;
  job.stop_requested = &stop;
  job.progress = [&](const DressProgress& p) {
    if (p.frame <= 0) return;
    if (p.frame < last) ++runs;
    last = p.frame;
    if (runs == 2 && p.frame == 4) stop = true;
  };
  EXPECT_THROW(job.Run(), Interrupted);
  EXPECT_EQ(runs, 2);
  ASSERT_TRUE(fs::exists(cut / "checkpoint" / "checkpoint.bin"));
  job.stop_requested = nullptr;
  job.progress = {};
  job.resume_from = cut;
  job.Run();
  EXPECT_EQ(read_file(cut / "garment.obj"), read_file(full / "garment.obj"));
  const auto j = nlohmann::json::parse(read_file(cut / "report.json"));
  EXPECT_EQ(j["resumed"]["phase"], "settle");
  EXPECT_EQ(j["result"]["frames"],
            nlohmann::json::parse(read_file(full / "report.json"))["result"]["frames"]);
}

// A coarse drape that ends with seams open (here: a frame limit inside the
// zero-gravity sewing) is not carried: the fine mesh is draped from the start,
// giving exactly the garment of a job without a coarse distance.
TEST(DressCoarseToFine, OpenCoarseSeamsFallBackToTheFineDrapeFromTheStart) {
  const fs::path with = drape::test::test_temp_dir() / "drape_pipeline_c2f_open";
  const fs::path without = drape::test::test_temp_dir() / "drape_pipeline_c2f_off";
  fs::remove_all(with);
  fs::remove_all(without);
  DressJob job;
  job.body_path = kData / "bodies/makehuman/base.obj";
  job.pattern_path = kData / "patterns/gpg/skirt_2_panels.json";
  job.particle_distance = 0.03;
  job.coarse_distance = 0.06;
  job.cloth.max_frames = 3;
  job.write_render = false;
  job.out_dir = with;
  const DressResult r = job.Run();
  const nlohmann::json report = nlohmann::json::parse(r.report_json);
  ASSERT_TRUE(report.contains("coarse_to_fine"));
  EXPECT_FALSE(report["coarse_to_fine"]["carried"].get<bool>());
  EXPECT_LT(report["coarse_to_fine"]["coarse"]["seams"]["joined"].get<int>(),
            report["coarse_to_fine"]["coarse"]["seams"]["pairs"].get<int>());

  job.coarse_distance = 0;
  job.out_dir = without;
  const DressResult plain = job.Run();
  EXPECT_FALSE(nlohmann::json::parse(plain.report_json).contains("coarse_to_fine"));
  EXPECT_EQ(read_file(with / "garment.obj"), read_file(without / "garment.obj"));
  EXPECT_EQ(r.drape.report.frames, plain.drape.report.frames);
}

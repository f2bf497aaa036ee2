// `drape dress --pose`: the garment is draped on the rest body, the body moves
// into a BVH frame and the garment follows and settles; scene.glb is skinned.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/io/mesh_io.h"
#include "drape/landmarks/body_frame.h"
#include "drape/pipeline/dress_job.h"
#include "drape/rig/gltf_skin.h"
#include "test_temp_dir.h"

using namespace drape;
namespace fs = std::filesystem;

namespace {

const fs::path kData = DRAPE_DATA_DIR;

fs::path fresh_dir(const std::string& name) {
  const fs::path p = drape::test::test_temp_dir() / ("drape_pose_" + name);
  fs::remove_all(p);
  return p;
}

DressJob posed_skirt(const fs::path& out) {
  DressJob job;
  job.body_path = kData / "bodies/makehuman/base.obj";
  job.pattern_path = kData / "patterns/garmentcode/flare_skirt_specification.json";
  job.particle_distance = 0.04;
  job.cloth.max_frames = 60;
  job.out_dir = out;
  job.write_render = false;
  job.motion_path = kData / "motion/cmu_jumping_jacks.bvh";
  job.motion_frame = 40;  // arms out, legs apart
  job.skeleton_candidates = {kData / "bodies/makehuman/default.mhskel",
                             kData / "bodies/makehuman/cmu_mb.mhskel"};
  job.pose_transition_frames = 20;
  return job;
}

}  // namespace

TEST(DressPose, SkirtFollowsTheBodyIntoAJumpingJackFrame) {
  const fs::path out = fresh_dir("skirt");
  const DressResult r = posed_skirt(out).Run();
  ASSERT_TRUE(r.rigged);
  // The CMU motion drives the CMU skeleton: that candidate is chosen.
  const auto j = nlohmann::json::parse(read_file(out / "report.json"));
  EXPECT_NE(j["rig"]["skeleton"].get<std::string>().find("cmu_mb.mhskel"), std::string::npos);
  EXPECT_EQ(j["rig"]["motion"]["frame"], 40);
  EXPECT_EQ(j["rig"]["motion"]["mapped_bones"].get<std::size_t>(), r.skeleton.size());
  EXPECT_TRUE(j["rig"].contains("rest_drape"));

  // The body in the results is the posed one: the arms moved far from rest.
  const LoadedMesh rest = read_obj(kData / "bodies/makehuman/base.obj", {.group = "body"});
  ASSERT_EQ(rest.mesh.vertex_count(), r.body.vertex_count());
  double moved = 0;
  for (std::size_t v = 0; v < rest.mesh.vertex_count(); ++v)
    moved = std::max(moved, norm(r.body.positions[v] - rest.mesh.positions[v]));
  EXPECT_GT(moved, 0.2);

  // The garment is clean on the posed body (counted again here, independently
  // of the report: ray parity on a fresh tree of the posed body).
  const TriangleMeshBvh tree(r.body);
  std::size_t inside = 0;
  for (const Vec3& p : r.drape.mesh.positions) inside += tree.contains(p);
  EXPECT_EQ(inside, 0u);
  EXPECT_EQ(r.drape.report.vertices_inside_body, 0u);
  EXPECT_EQ(r.drape.report.seam_pairs_joined, r.drape.report.seam_pairs);
  EXPECT_LE(r.drape.report.body_crossing_pairs, 20u);  // known gap at the hips, see docs/CLOTH.md

  // It followed the body: its top is above the posed knees (the knee joints
  // of the posed skeleton: cmu_mb's LeftLeg/RightLeg heads) and below the
  // shoulders, and it is centred on the body. (This skirt's waistband, 84 cm,
  // is wider than the posed hips, 81-85 cm under LBS, so it may slide from the
  // hips to the thighs; with the legs together, frame 0, it falls off, as
  // cloth would: docs/RIG.md.)
  const BodyFrame posed = analyse_body(r.body);
  const Aabb g = r.drape.mesh.bounds();
  double knee_y = -1e9;
  for (std::size_t b = 0; b < r.skeleton.size(); ++b)
    if (r.skeleton.bones[b].name == "LeftLeg" || r.skeleton.bones[b].name == "RightLeg")
      knee_y = std::max(knee_y, r.pose.head(r.skeleton, static_cast<int>(b)).y);
  ASSERT_GT(knee_y, posed.floor_y);
  EXPECT_GT(g.max.y, knee_y + 0.1);
  EXPECT_LT(g.max.y, posed.shoulder_y);
  const Aabb hips = r.body.bounds();
  EXPECT_NEAR(0.5 * (g.min.x + g.max.x), 0.5 * (hips.min.x + hips.max.x), 0.1);

  // scene.glb is skinned to the skeleton, bound in the pose: its joints sit at
  // the posed bone heads (file in decimetres, like the body).
  const RiggedMesh skin = read_gltf_skin(out / "scene.glb");
  ASSERT_EQ(skin.skeleton.size(), r.skeleton.size());
  // Both meshes are skinned: the skin's mesh is the body, then the garment.
  ASSERT_EQ(skin.weights.size(), r.body.vertex_count() + r.drape.mesh.vertex_count());
  for (std::size_t b = 0; b < r.skeleton.size(); ++b)
    EXPECT_LT(norm(skin.skeleton.bones[b].head * 0.1 - r.pose.head(r.skeleton, static_cast<int>(b))), 1e-5)
        << r.skeleton.bones[b].name;
  EXPECT_EQ(r.garment_weights.size(), r.drape.mesh.vertex_count());
  EXPECT_EQ(r.garment_weights.unweighted_count(), 0u);
}

TEST(DressPose, BadPoseInputsFailBeforeAnyOutput) {
  const fs::path out = fresh_dir("bad");
  DressJob job = posed_skirt(out);
  job.motion_frame = 125;  // the file has frames 0..124
  try {
    job.Run();
    FAIL() << "no error";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("cmu_jumping_jacks.bvh"), std::string::npos) << e.what();
  }
  job = posed_skirt(out);
  job.skeleton_candidates.clear();
  EXPECT_THROW(job.Run(), InvalidInput);  // a pose needs a skeleton
  job = posed_skirt(out);
  job.skeleton_path = kData / "nope.mhskel";
  EXPECT_THROW(job.Run(), InvalidInput);
  EXPECT_FALSE(fs::exists(out));
}

// An interrupted job saves a checkpoint and writes no result; resuming it
// finishes with the same garment as a run that was never interrupted, in the
// rest drape and in the pose phase.
TEST(DressCheckpoint, InterruptedJobResumesToTheSameGarment) {
  for (const std::string stage : {"draping", "posing"}) {
    const fs::path full = fresh_dir("full_" + stage), cut = fresh_dir("cut_" + stage);
    DressJob job = posed_skirt(full);
    job.cloth.max_frames = 40;
    job.pose_transition_frames = 10;
    job.checkpoint_every = 7;
    job.Run();
    EXPECT_FALSE(fs::exists(full / "checkpoint"));  // removed once the job completed

    std::atomic<bool> stop{false};
    job.out_dir = cut;
    job.stop_requested = &stop;
    job.progress = [&](const DressProgress& p) {
      if (p.stage == stage && p.frame == (stage == "posing" ? 5 : 15)) stop = true;
    };
    EXPECT_THROW(job.Run(), Interrupted);
    EXPECT_TRUE(fs::exists(cut / "checkpoint" / "checkpoint.bin"));
    EXPECT_FALSE(fs::exists(cut / "garment.obj"));

    job.stop_requested = nullptr;
    job.progress = {};
    job.resume_from = cut;
    const DressResult r = job.Run();
    EXPECT_EQ(read_file(cut / "garment.obj"), read_file(full / "garment.obj")) << stage;
    EXPECT_FALSE(fs::exists(cut / "checkpoint"));
    const auto j = nlohmann::json::parse(read_file(cut / "report.json"));
    EXPECT_TRUE(j.contains("resumed"));
    EXPECT_EQ(r.drape.report.frames,
              nlohmann::json::parse(read_file(full / "report.json"))["result"]["frames"]);
  }
  // A checkpoint of another job (other settings) is refused.
  const fs::path cut = fresh_dir("cut_other");
  DressJob job = posed_skirt(cut);
  job.cloth.max_frames = 40;
  std::atomic<bool> stop{true};
  job.stop_requested = &stop;
  EXPECT_THROW(job.Run(), Interrupted);
  job.stop_requested = nullptr;
  job.resume_from = cut;
  job.particle_distance = 0.05;
  EXPECT_THROW(job.Run(), InvalidInput);
}

namespace {

DressJob coarse_jacket(const fs::path& out) {
  DressJob job;
  job.body_path = kData / "bodies/makehuman/base.obj";
  job.pattern_path = kData / "patterns/gpg/jacket.json";  // sleeves drawn for a T-pose
  job.particle_distance = 0.03;
  job.out_dir = out;
  job.write_render = false;
  job.skeleton_candidates = {kData / "bodies/makehuman/default.mhskel"};
  return job;
}

}  // namespace

TEST(DressPose, TheGarmentIsSewnWithTheArmsRaisedThenWornInTheBodysPose) {
  // A few frames each way: the plumbing (the quality run is below).
  DressJob job = coarse_jacket(fresh_dir("jacket_arms_plumbing"));
  job.dressing_arm_angle = 0;
  job.cloth.max_frames = 4;
  job.pose_transition_frames = 3;
  const DressResult r = job.Run();
  EXPECT_FALSE(r.rigged);  // rigged to be sewn, but the outputs are not skinned
  const auto j = nlohmann::json::parse(read_file(job.out_dir / "report.json"));
  EXPECT_EQ(j["rig"]["dressing"]["arm_angle_below_horizontal_deg"], 0.0);
  EXPECT_EQ(j["rig"]["rest_drape"]["frames"], 4);
  MeshReadOptions body_options;
  body_options.group = "body";
  const LoadedMesh body = read_obj(job.body_path, body_options);
  // The body is back in its own pose, exactly: the result's body is the file's.
  ASSERT_EQ(r.body.positions.size(), body.mesh.positions.size());
  double moved = 0;
  for (std::size_t i = 0; i < body.mesh.positions.size(); ++i)
    moved = std::max(moved, norm(r.body.positions[i] - body.mesh.positions[i]));
  EXPECT_LT(moved, 1e-9);
  // Asked for no raise, the job rigs nothing.
  job.dressing_arm_angle.reset();
  job.out_dir = fresh_dir("jacket_arms_as_they_stand");
  job.Run();
  EXPECT_FALSE(nlohmann::json::parse(read_file(job.out_dir / "report.json")).contains("rig"));
  // GarmentCode's T-pose body is rigged too (the landmark finder follows
  // raised arms): no warning says it could not be.
  job.dressing_arm_angle = 0;
  job.body_path = kData / "bodies/garmentcode/mean_all_tpose.obj";
  job.out_dir = fresh_dir("jacket_tpose_body");
  const DressResult t = job.Run();
  const auto tj = nlohmann::json::parse(read_file(job.out_dir / "report.json"));
  ASSERT_TRUE(tj.contains("rig"));
  EXPECT_EQ(tj["rig"]["dressing"]["arm_angle_below_horizontal_deg"], 0.0);
  EXPECT_FALSE(std::any_of(t.warnings.begin(), t.warnings.end(), [](const std::string& w) {
    return w.find("could not be rigged") != std::string::npos;
  }));
}

TEST(DressPose, SleevesSewnWithTheArmsRaisedCloseWithoutCrossingTheArmpits) {
  // Sewn on the A-pose body, the sleeves' underarm seams and the side seams'
  // tops start astride the armpit and close through it. Sewn with the arms
  // raised to a T-pose and then lowered, every seam closes round the arm.
  DressJob job = coarse_jacket(fresh_dir("jacket_arms_raised"));
  job.dressing_arm_angle = 0;
  // At 20 mm: at 30 mm the 4-panel armpit corner (back, front, both sleeve
  // halves) is too coarse to hold the body out (8 cloth-body pairs there
  // since the step cap came before the first self pass and the arms were
  // raised head to elbow, 2026-12-05; before, two of its pairs stalled 1.2
  // mm apart).
  job.particle_distance = 0.02;
  const DressResult r = job.Run();
  const DrapeReport& d = r.drape.report;
  // Every seam closed round the arm, at rest: a few shoulder vertices cycle
  // in place for good here, and without ClothSettings::equilibrium_jitter the
  // run goes to its frame limit (779 frames).
  EXPECT_EQ(d.stop_reason, "equilibrium");
  EXPECT_EQ(d.seam_pairs_joined, d.seam_pairs);
  EXPECT_LT(d.max_seam_gap, 0.001);
  EXPECT_EQ(d.vertices_inside_body, 0u);
  EXPECT_EQ(d.body_crossing_pairs, 0u);
  EXPECT_EQ(d.self_crossing_pairs, 0u);

  // Sewn as the body stands: the armpits are crossed. (With the whole
  // garment untangled once its corners are released, cloth/garment_untangle.cpp,
  // this jacket came out clean as it stands too, 2026-12-05; untangling, the
  // corners' and the whole garment's, is off here so that the raise is what
  // is tested.)
  job.dressing_arm_angle.reset();
  job.particle_distance = 0.03;
  job.cloth.untangle_iterations = 0;
  job.out_dir = fresh_dir("jacket_as_it_stands");
  const DressResult as_is = job.Run();
  const DrapeReport& a = as_is.drape.report;
  EXPECT_GT(a.body_crossing_pairs + a.self_crossing_pairs + (a.seam_pairs - a.seam_pairs_joined), 0u);
  // Lowered with the arms, the garment hangs as it does on the body as it
  // stands: its farthest vertex from the body within 2 cm of that one's.
  const TriangleMeshBvh tree(r.body);
  auto farthest = [&tree](const TriangleMesh& m) {
    double f = 0;
    for (const Vec3& p : m.positions) f = std::max(f, tree.closest_point(p).distance);
    return f;
  };
  EXPECT_NEAR(farthest(r.drape.mesh), farthest(as_is.drape.mesh), 0.02);
}

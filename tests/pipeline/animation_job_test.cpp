// `drape animate` as a library call: a coarse skirt through a few frames of the
// CMU jumping jacks. The caches are read back with a PC2 reader written here
// from the format (not drape's writer), and the body cache is checked against
// skinning the body directly.

#include "drape/pipeline/animation_job.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "drape/body/body_loader.h"
#include "drape/core/atomic_file.h"
#include "drape/core/exceptions.h"
#include "drape/pipeline/body_rigging.h"
#include "drape/rig/retarget.h"
#include "drape/rig/skinning.h"
#include "test_temp_dir.h"

using namespace drape;
namespace fs = std::filesystem;

namespace {

const fs::path kData = DRAPE_DATA_DIR;
const fs::path kMotion = kData / "motion/cmu_jumping_jacks.bvh";
constexpr long kFirst = 40, kLast = 43;

// An independent PC2 reader: the 32-byte little-endian header, then floats.
struct Pc2 {
  std::string magic;
  std::int32_t version = 0, points = 0, samples = 0;
  float start = 0, sampling = 0;
  std::vector<std::vector<Vec3>> frames;
  std::size_t bytes = 0;
};

Pc2 read_pc2_bytes(const fs::path& path) {
  const std::string b = read_file(path);
  Pc2 p;
  p.bytes = b.size();
  if (b.size() < 32) return p;
  p.magic.assign(b.data(), 12);
  auto i32 = [&](std::size_t at) {
    const auto* u = reinterpret_cast<const unsigned char*>(b.data() + at);
    return static_cast<std::int32_t>(u[0] | (u[1] << 8) | (u[2] << 16) |
                                     (static_cast<std::uint32_t>(u[3]) << 24));
  };
  auto f32 = [&](std::size_t at) {
    const std::uint32_t u = static_cast<std::uint32_t>(i32(at));
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  };
  p.version = i32(12);
  p.points = i32(16);
  p.start = f32(20);
  p.sampling = f32(24);
  p.samples = i32(28);
  std::size_t at = 32;
  for (int s = 0; s < p.samples && at + 12 * static_cast<std::size_t>(p.points) <= b.size(); ++s) {
    std::vector<Vec3> f(p.points);
    for (auto& v : f) {
      v = {f32(at), f32(at + 4), f32(at + 8)};
      at += 12;
    }
    p.frames.push_back(std::move(f));
  }
  return p;
}

// The `v x y z` lines of an OBJ, in file order.
std::vector<Vec3> obj_vertices(const fs::path& path) {
  std::istringstream in(read_file(path));
  std::vector<Vec3> v;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("v ", 0) == 0) {
      std::istringstream ls(line.substr(2));
      Vec3 p;
      ls >> p.x >> p.y >> p.z;
      v.push_back(p);
    }
  return v;
}

double max_distance(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, norm(a[i] - b[i]));
  return d;
}

AnimationJob skirt_job(const fs::path& out) {
  AnimationJob job;
  job.dress.body_path = kData / "bodies/makehuman/base.obj";
  job.dress.pattern_path = kData / "patterns/garmentcode/flare_skirt_specification.json";
  job.dress.particle_distance = 0.04;
  job.dress.cloth.max_frames = 60;
  job.dress.skeleton_candidates = {kData / "bodies/makehuman/default.mhskel",
                                   kData / "bodies/makehuman/cmu_mb.mhskel"};
  job.motion_path = kMotion;
  job.first_frame = kFirst;
  job.last_frame = kLast;
  job.blend_frames = 10;
  job.settle_frames = 2;
  job.sheet_frames = 2;
  job.out_dir = out;
  return job;
}

void check_files(const fs::path& out) {
  for (const char* f : {"garment.obj", "garment.pc2", "body.obj", "body.pc2", "animation.glb",
                        "contact_sheet.png", "report.json"})
    EXPECT_TRUE(fs::exists(out / f)) << f;
  for (const auto& e : fs::directory_iterator(out.parent_path()))
    EXPECT_EQ(e.path().filename().string().find(".partial-"), std::string::npos) << e.path();
}

void check_garment_cache(const fs::path& out) {
  const Pc2 p = read_pc2_bytes(out / "garment.pc2");
  const std::vector<Vec3> obj = obj_vertices(out / "garment.obj");
  EXPECT_EQ(p.magic, std::string("POINTCACHE2\0", 12));
  EXPECT_EQ(p.version, 1);
  EXPECT_EQ(p.points, static_cast<std::int32_t>(obj.size()));
  EXPECT_EQ(p.start, static_cast<float>(kFirst));
  EXPECT_EQ(p.sampling, 1.0f);
  EXPECT_EQ(p.samples, kLast - kFirst + 1);
  EXPECT_EQ(p.bytes, 32 + 12 * static_cast<std::size_t>(p.points) * p.samples);
  ASSERT_EQ(p.frames.size(), static_cast<std::size_t>(p.samples));
  // The OBJ is in the body file's unit (dm): float precision of a few 1e-6 dm.
  EXPECT_LT(max_distance(p.frames.front(), obj), 1e-4);
  // The garment moves over the frames (the body jumps and spreads its legs).
  EXPECT_GT(max_distance(p.frames.front(), p.frames.back()), 0.05);  // > 5 mm
}

void check_body_cache(const fs::path& out) {
  const Pc2 p = read_pc2_bytes(out / "body.pc2");
  const std::vector<Vec3> obj = obj_vertices(out / "body.obj");
  ASSERT_EQ(p.points, static_cast<std::int32_t>(obj.size()));
  ASSERT_EQ(p.samples, kLast - kFirst + 1);
  EXPECT_LT(max_distance(p.frames.front(), obj), 1e-4);
  // Independently: rig the body with the skeleton the motion drives, retarget
  // each frame and skin; base.obj is decimetres with canonical axes.
  const Body body = load_body(kData / "bodies/makehuman/base.obj");
  const TemplateRig tr = load_template_rig(kData / "bodies/makehuman/cmu_mb.mhskel");
  const RiggedBody rb = rig_body(tr, body.mesh, body.all_vertices);
  const BvhMotion motion = read_bvh(kMotion);
  const JointNameMap map = guess_joint_map(rb.skeleton, motion);
  for (long f : {kFirst, kLast}) {
    const Pose pose = retarget_bvh_frame(rb.skeleton, motion, static_cast<std::size_t>(f), map).pose;
    std::vector<Vec3> skinned =
        skin_points(body.mesh.positions, {}, rb.weights, pose, SkinningMethod::linear_blend).positions;
    for (Vec3& v : skinned) v = v * 10.0;  // m -> dm
    EXPECT_LT(max_distance(p.frames[f - kFirst], skinned), 1e-4) << "frame " << f;
  }
  // The body really moves between the two frames.
  EXPECT_GT(max_distance(p.frames.front(), p.frames.back()), 0.1);
}

void check_report(const fs::path& out, const AnimationResult& result) {
  const auto j = nlohmann::json::parse(read_file(out / "report.json"));
  ASSERT_EQ(j["frames"].size(), static_cast<std::size_t>(kLast - kFirst + 1));
  for (std::size_t k = 0; k < j["frames"].size(); ++k) {
    const auto& f = j["frames"][k];
    EXPECT_EQ(f["motion_frame"].get<long>(), kFirst + static_cast<long>(k));
    EXPECT_GE(f["steps"].get<int>(), 20);  // at least the rest drape's step: 10 per 1/60 s
    EXPECT_EQ(f["body_crossing_pairs"].get<std::size_t>(), result.frames[k].body_crossing_pairs);
  }
  EXPECT_EQ(j["summary"]["cache_frames"], kLast - kFirst + 1);
  EXPECT_TRUE(j["summary"].contains("worst_frame"));
}

void check_glb(const fs::path& out) {
  const std::string b = read_file(out / "animation.glb");
  ASSERT_GT(b.size(), 20u);
  ASSERT_EQ(b.substr(0, 4), "glTF");
  std::uint32_t json_len;
  std::memcpy(&json_len, b.data() + 12, 4);
  const auto j = nlohmann::json::parse(b.substr(20, json_len));
  ASSERT_EQ(j["animations"].size(), 1u);
  EXPECT_EQ(j["animations"][0]["channels"].size(), 2u);  // body and garment weights
  for (const auto& s : j["animations"][0]["samplers"]) EXPECT_EQ(s["interpolation"], "STEP");
  for (const auto& m : j["meshes"])
    EXPECT_EQ(m["primitives"][0]["targets"].size(), static_cast<std::size_t>(kLast - kFirst + 1));
}

bool have_program(const char* name) {
  return std::system((std::string("command -v ") + name + " > /dev/null 2>&1").c_str()) == 0;
}

// preview.mp4 when Debian's ffmpeg is installed: an MP4 (ftyp box) whose video
// stream ffprobe counts one frame per cache frame; else a note in report.json.
void check_preview(const fs::path& out) {
  const auto j = nlohmann::json::parse(read_file(out / "report.json"));
  if (!have_program("ffmpeg") || !have_program("ffprobe")) {
    EXPECT_FALSE(fs::exists(out / "preview.mp4"));
    EXPECT_NE(j["preview_mp4"].get<std::string>().find("skipped"), std::string::npos);
    GTEST_SKIP() << "ffmpeg not installed: preview.mp4 not checked";
  }
  EXPECT_EQ(j["preview_mp4"], "preview.mp4");
  const std::string b = read_file(out / "preview.mp4");
  ASSERT_GT(b.size(), 12u);
  EXPECT_EQ(b.substr(4, 4), "ftyp");
  const fs::path count = out.parent_path() / "frames.txt";
  const std::string cmd =
      "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
      "stream=nb_read_frames,width,height -of csv=p=0 '" +
      (out / "preview.mp4").string() + "' > '" + count.string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  // width,height,frames
  EXPECT_EQ(read_file(count), "360,600," + std::to_string(kLast - kFirst + 1) + "\n");
}

}  // namespace

// One run (about 4 s), checked from every side: a process per TEST would repeat it.
TEST(AnimationJob, SkirtThroughFourJumpingJackFramesWritesCachesThatReadBack) {
  const fs::path out = drape::test::test_temp_dir() / "anim_skirt";
  const AnimationResult result = skirt_job(out).Run();
  {
    SCOPED_TRACE("files");
    check_files(out);
  }
  {
    SCOPED_TRACE("garment.pc2");
    check_garment_cache(out);
  }
  {
    SCOPED_TRACE("body.pc2");
    check_body_cache(out);
  }
  {
    SCOPED_TRACE("report.json");
    check_report(out, result);
  }
  {
    SCOPED_TRACE("animation.glb");
    check_glb(out);
  }
  {
    SCOPED_TRACE("preview.mp4");
    check_preview(out);
  }
}

TEST(AnimationJob, AMotionThatCannotBeMappedNamesItsJointsAndWritesNothing) {
  const fs::path out = drape::test::test_temp_dir() / "anim_unmapped";
  AnimationJob job = skirt_job(out);
  job.motion_path = DRAPE_TEST_DATA_DIR "/bad/animbvh_unmapped_joints.bvh";
  job.first_frame = 0;
  job.last_frame = -1;
  try {
    job.Run();
    FAIL() << "expected InvalidInput";
  } catch (const InvalidInput& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("animbvh_unmapped_joints.bvh"), std::string::npos) << what;
    EXPECT_NE(what.find("Bone_hips"), std::string::npos) << what;
    EXPECT_NE(what.find("Bone_leftknee"), std::string::npos) << what;
  }
  EXPECT_FALSE(fs::exists(out));
}

TEST(AnimationJob, ALimbClearanceOutOfRangeIsRefusedNamingTheFlagAndWritesNothing) {
  const fs::path out = drape::test::test_temp_dir() / "anim_bad_clearance";
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const auto& [flag, value] : {std::pair{"--arm-clearance", -0.001}, std::pair{"--arm-clearance", 0.25},
                                    std::pair{"--arm-clearance", nan}, std::pair{"--leg-clearance", -0.001},
                                    std::pair{"--leg-clearance", 0.25}, std::pair{"--leg-clearance", nan}}) {
    SCOPED_TRACE(std::string(flag) + " " + std::to_string(value));
    AnimationJob job = skirt_job(out);
    (std::string(flag) == "--arm-clearance" ? job.arm_clearance : job.leg_clearance) = value;
    try {
      job.Run();
      ADD_FAILURE() << "expected InvalidInput";
    } catch (const InvalidInput& e) {
      EXPECT_NE(std::string(e.what()).find(flag), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(out));
  }
}

TEST(AnimationJob, MapsTheCmuMotionOntoTheCmuSkeletonPlacingEveryJoint) {
  // cmu_mb is MakeHuman's skeleton for the CMU joint set: all 31 (ROOT + 30 JOINTs) map.
  const Skeleton s = load_template_rig(kData / "bodies/makehuman/cmu_mb.mhskel").skeleton;
  const MotionMapping m = map_motion(s, read_bvh(kMotion), kMotion);
  EXPECT_EQ(m.rotating_joints, 31u);
  EXPECT_TRUE(m.unplaced.empty());
  // On MakeHuman's default skeleton the CMU names do not match: the joints are
  // placed by their anatomical roles (joint_roles.h), all but the toes, the
  // wrists (the one-bone hand takes the palm joint, lhand) and the fingers.
  const Skeleton d = load_template_rig(kData / "bodies/makehuman/default.mhskel").skeleton;
  const MotionMapping md = map_motion(d, read_bvh(kMotion), kMotion);
  EXPECT_EQ(md.map.at("upperarm01.L"), "LeftShoulder");  // CMU's shoulder joint turns the upper arm
  EXPECT_EQ(md.map.at("lowerleg01.R"), "RightKnee");
  std::vector<std::string> unplaced = md.unplaced;
  std::sort(unplaced.begin(), unplaced.end());
  EXPECT_EQ(unplaced, (std::vector<std::string>{"LFingers", "LThumb", "LeftToe", "LeftWrist", "RFingers",
                                                "RThumb", "RightToe", "RightWrist"}));
}

// Ctrl-C at frame granularity: a run stopped in the blend into the first
// frame, resumed, stopped again after two cache frames and resumed once more
// writes the same caches, byte for byte, as the run that was never stopped.
TEST(AnimationJob, AnInterruptedAndResumedAnimationWritesTheSameCaches) {
  const fs::path tmp = drape::test::test_temp_dir();
  skirt_job(tmp / "whole").Run();

  const fs::path out = tmp / "stopped";
  std::atomic<bool> stop{false};
  auto stopping_at = [&](const std::string& stage, int frame) {
    AnimationJob job = skirt_job(out);
    job.stop_requested = &stop;
    job.progress = [&stop, stage, frame](const DressProgress& p) {
      if (p.stage == stage && p.frame == frame) stop = true;
    };
    return job;
  };
  EXPECT_THROW(stopping_at("blending", 3).Run(), Interrupted);
  EXPECT_TRUE(fs::exists(out / "checkpoint/animation.bin"));
  EXPECT_FALSE(fs::exists(out / "garment.pc2"));
  stop = false;
  AnimationJob second = stopping_at("animating", 2);
  second.resume_from = out;
  EXPECT_THROW(second.Run(), Interrupted);
  EXPECT_FALSE(fs::exists(out / "garment.pc2"));
  stop = false;
  AnimationJob last = skirt_job(out);
  last.resume_from = out / "checkpoint";
  last.ffmpeg =
      (tmp / "no_such_ffmpeg").string();  // the preview is skipped with a note, nothing else changes
  const AnimationResult r = last.Run();
  EXPECT_FALSE(fs::exists(out / "preview.mp4"));
  EXPECT_NE(nlohmann::json::parse(read_file(out / "report.json"))["preview_mp4"].get<std::string>().find(
                "skipped: " + last.ffmpeg + " not found"),
            std::string::npos);
  EXPECT_EQ(r.frames.size(), static_cast<std::size_t>(kLast - kFirst + 1));
  // report.json says the run was resumed, and from where: the 10 blend
  // frames, the first settle frame and the first two cache frames (the last
  // settle frame is cache frame 0) had been simulated.
  const auto rep = nlohmann::json::parse(read_file(out / "report.json"));
  EXPECT_EQ(rep["resumed"]["simulation_frames"], 10 + 1 + 2);
  for (const char* f : {"garment.pc2", "body.pc2", "garment.obj", "body.obj"})
    EXPECT_EQ(read_file(out / f), read_file(tmp / "whole" / f)) << f;
  EXPECT_FALSE(fs::exists(out / "checkpoint")) << "a completed job removes its checkpoint";
}

TEST(AnimationJob, ResumingWithOtherSettingsIsRefusedNamingTheCheckpoint) {
  const fs::path out = drape::test::test_temp_dir() / "other";
  std::atomic<bool> stop{false};  // stops after the first blend frame
  // The rest drape is cut short: only the checkpoint's settings matter here.
  AnimationJob job = skirt_job(out);
  job.dress.cloth.max_frames = 10;
  job.stop_requested = &stop;
  job.progress = [&stop](const DressProgress& p) {
    if (p.stage == "blending") stop = true;
  };
  EXPECT_THROW(job.Run(), Interrupted);
  ASSERT_TRUE(fs::exists(out / "checkpoint/animation.bin"));
  AnimationJob other = skirt_job(out);
  other.dress.cloth.max_frames = 10;
  other.blend_frames = 11;
  other.resume_from = out;
  try {
    other.Run();
    FAIL() << "expected InvalidInput";
  } catch (const InvalidInput& e) {
    EXPECT_NE(std::string(e.what()).find("animation.bin"), std::string::npos) << e.what();
  }
}

// The shirt on a rigged glTF character, end to end (issue 16: the shared
// shirt drapes cleanly on the glTF characters): GarmentCode's shirt on the
// Godot male base mesh (904 vertices, sharp ridges at the armpits), sewn
// with the arms raised and lowered back into the file's pose. As the arms
// came down, the cloth pinched at the armpit lay across a 96-degree ridge of
// the arm and the ridge stayed through it (8 cloth-body pairs) until the
// body's push on cloth triangles answered in rounds (body_collider.cpp,
// push_cloth_triangles). The crossings are counted on the result mesh by
// `drape check`'s count (intersection_count.h), independent of the
// simulation's collision answers.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "drape/pipeline/dress_job.h"

namespace drape {
namespace {

namespace fs = std::filesystem;
const std::string kCharacterData = DRAPE_DATA_DIR;

TEST(DressGltfCharacter, TheShirtOnTheGodotManEndsClean) {
  DressJob job;
  job.body_path = kCharacterData + "/bodies/godot_male_base_mesh/male_base_mesh.glb";
  job.pattern_path = kCharacterData + "/patterns/garmentcode/shirt_mean_specification.json";
  job.grade = true;
  job.cloth.max_frames = 500;  // as `drape sweep --max-frames 500`
  job.skeleton_candidates = {fs::path(kCharacterData) / "bodies/makehuman/default.mhskel",
                             fs::path(kCharacterData) / "bodies/makehuman/cmu_mb.mhskel"};  // as the CLI's
  const DressResult r = job.Run();
  const auto j = nlohmann::json::parse(r.report_json);
  ASSERT_TRUE(j["rig"].contains("rest_drape")) << "sewn with the arms raised";
  ASSERT_TRUE(j["settings"]["pose_continuous_collision"].get<bool>());
  const auto& result = j["result"];
  EXPECT_EQ(result["stop_reason"], "equilibrium");
  EXPECT_EQ(result["seams"]["joined"], result["seams"]["pairs"]);
  EXPECT_EQ(result["intersections"]["vertices_inside_body"], 0);
  EXPECT_EQ(result["intersections"]["body_crossing_pairs"], 0);
  EXPECT_EQ(result["intersections"]["self_crossing_pairs"], 0);
}

}  // namespace
}  // namespace drape

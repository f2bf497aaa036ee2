// The shirt on a rigged glTF character, end to end (issue 16: the shared
// shirt drapes cleanly on the glTF characters): GarmentCode's shirt on the
// Godot male base mesh (904 vertices, sharp ridges at the armpits), sewn
// with the arms raised and lowered back into the file's pose. As the arms
// come down, cloth pinched at an armpit can end up across a ridge there:
// - read under its parent node (facing -Z, before 2026-12-06), the cloth lay
//   across a 96-degree ridge of the arm and the ridge stayed through it (8
//   cloth-body pairs) until the body's push on cloth triangles answered in
//   rounds (body_collider.cpp, push_cloth_triangles);
// - read where its joints place it (facing +X, as Blender imports it), the
//   front fold of the left armpit went through five triangles of a fold in
//   the 30th descent frame and stayed (10 pairs) until crossings held for
//   30 frames were untangled from the body (src/cloth/body_untangle.cpp).
// The crossings are counted on the result mesh by `drape check`'s count
// (intersection_count.h), independent of the simulation's collision answers.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sweep_row_job.h"

namespace drape {
namespace {

TEST(DressGltfCharacter, TheShirtOnTheGodotManEndsClean) {
  const DressJob job = test::sweep_row_job("bodies/godot_male_base_mesh/male_base_mesh.glb",
                                           "patterns/garmentcode/shirt_mean_specification.json");
  const DressResult r = job.Run();
  const auto j = nlohmann::json::parse(r.report_json);
  ASSERT_TRUE(j["rig"].contains("rest_drape")) << "sewn with the arms raised";
  ASSERT_TRUE(j["settings"]["pose_continuous_collision"].get<bool>());
  test::expect_clean(j["result"]);
}

}  // namespace
}  // namespace drape

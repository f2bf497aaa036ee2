// A rigged glTF character's own skin as the template (`drape pose --body
// G.glb --skeleton G.glb`): the skin's mesh and joints are turned into the
// canonical frame with the body, so fitting the skin to its own body must
// leave every joint where the file's inverse bind matrices put it. Before,
// the Godot man's skin (facing +X in its file) reached the landmark finder
// unturned and the command failed ("no gap between the legs").

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "drape/body/body_loader.h"
#include "drape/geometry/aabb.h"
#include "drape/pipeline/body_rigging.h"

using namespace drape;
namespace fs = std::filesystem;

TEST(SkinTemplate, AGltfCharactersOwnSkinFitsItsBodyWithItsJointsInPlace) {
  const fs::path file = fs::path(DRAPE_DATA_DIR) / "bodies/godot_male_base_mesh/male_base_mesh.glb";
  const Body body = load_body(file);
  ASSERT_FALSE(body.axes.is_canonical()) << "the case under test: a file that faces along x";
  const TemplateRig rig = load_template_rig(file);
  // The template's mesh is the body, turned the same way.
  EXPECT_LT(std::abs(rig.body.bounds().min.y - body.mesh.bounds().min.y), 1e-6);  // float data, read two ways
  EXPECT_LT(norm(rig.body.bounds().extent() - body.mesh.bounds().extent()),
            1e-6);  // float data, read two ways
  // The joints turned with it: the left thigh and hand on the body's left
  // (+x), the hands at the body's reach, the spine's root inside its box.
  const Aabb box = body.mesh.bounds();
  const auto head = [&](const char* name) { return rig.skeleton.bones[rig.skeleton.find(name)].head; };
  EXPECT_GT(head("thigh.L").x, 0.05);
  EXPECT_LT(head("thigh.R").x, -0.05);
  EXPECT_GT(head("hand.L").x, 0.5 * box.max.x);
  EXPECT_TRUE(box.contains(head("spine")));
  // Fitted (M2) to its own body, the skin's joints stay in place.
  const RiggedBody fitted = rig_body(rig, body.mesh, body.all_vertices, /*force_fit=*/true);
  ASSERT_EQ(fitted.skeleton.size(), rig.skeleton.size());
  double worst = 0;
  for (std::size_t b = 0; b < fitted.skeleton.size(); ++b)
    worst = std::max(worst, norm(fitted.skeleton.bones[b].head - rig.skeleton.bones[b].head));
  RecordProperty("worst_joint_m", std::to_string(worst));
  EXPECT_LT(worst, 0.002) << "metres";
  // Not forced, the body that is the skin's own mesh keeps the skin as it is.
  const RiggedBody own = rig_body(rig, body.mesh, body.all_vertices);
  EXPECT_EQ(own.method, "the body's own skin");
  for (std::size_t b = 0; b < own.skeleton.size(); ++b)
    EXPECT_EQ(norm(own.skeleton.bones[b].head - rig.skeleton.bones[b].head), 0.0)
        << own.skeleton.bones[b].name;
  EXPECT_EQ(own.weights.size(), body.mesh.vertex_count());
}

// The user's --up / --front (here a front the detector would not pick: the
// man turned round) turn the body's own skin with the body, so the body is
// still rigged by its own skin, exactly. Before, the skin was turned by its
// own detected axes, missed the body by 180 degrees and the skeleton was
// fitted (M2) instead.
TEST(SkinTemplate, TheUsersAxesTurnTheBodysOwnSkinWithTheBody) {
  const fs::path file = fs::path(DRAPE_DATA_DIR) / "bodies/godot_male_base_mesh/male_base_mesh.glb";
  BodyLoadOptions options;
  options.up = parse_signed_axis("+y", "--up");
  options.front = parse_signed_axis("-x", "--front");
  const Body body = load_body(file, options);
  ASSERT_NE(body.axes.front, load_body(file).axes.front) << "the case under test: not the detected front";
  RigFiles files;
  files.add_dressed_body(file, body);
  fs::path chosen;
  const TemplateRig rig = default_template_rig(file, {}, nullptr, {}, {}, chosen, &files);
  EXPECT_EQ(chosen, file);
  const RiggedBody own = rig_body(rig, body.mesh, body.all_vertices);
  EXPECT_EQ(own.method, "the body's own skin");
  // Turned round, the man's anatomical left is on the canonical right (-x).
  const auto head = [&](const char* name) { return own.skeleton.bones[own.skeleton.find(name)].head; };
  EXPECT_LT(head("thigh.L").x, -0.05);
  EXPECT_TRUE(body.mesh.bounds().contains(head("spine")));
}

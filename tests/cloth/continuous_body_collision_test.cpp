// Continuous collision with the body (ClothSettings::continuous_collision,
// docs/CLOTH.md "No tunnelling"): cloth moving several thicknesses per step
// onto a plate thinner than one step's move, and a bar moving several cm per
// step through a hanging strip. Each test first runs the same scene with the
// setting off and the step cap raised (the cap is what keeps drape from
// tunnelling today) and checks that the cloth does pass through there: the
// scene is one continuous collision must answer.

#include <gtest/gtest.h>

#include <algorithm>

#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/cloth/cloth_simulation.h"
#include "drape/collision/intersection_count.h"
#include "test_shapes.h"

using namespace drape;
using namespace drape::test;

namespace {

// A 0.4 m square plate 2 mm thick, its top at y = 1 mm: thinner than the
// thickness and than one step's move below.
constexpr double kPlateTop = 0.001;
TriangleMesh thin_plate() { return box({-0.2, -kPlateTop, -0.2}, {0.2, kPlateTop, 0.2}); }

// The plate with a 2 m post 1 m to its side: a body tall enough that a sheet
// falling 36 cm onto the plate has not "fallen off" it (the run's stop rule
// measures the drop against the body's height).
TriangleMesh thin_plate_and_post() {
  TriangleMesh m = thin_plate();
  const TriangleMesh post = box({1.0, -1.0, -0.05}, {1.1, 1.0, 0.05});
  const int offset = static_cast<int>(m.positions.size());
  m.positions.insert(m.positions.end(), post.positions.begin(), post.positions.end());
  for (const Triangle& f : post.faces) m.faces.push_back({f[0] + offset, f[1] + offset, f[2] + offset});
  return m;
}

// A 0.28 m square sheet `height` above the plate (default 1 cm) thrown down at
// 20 m/s: 33 mm per step at 600 steps/s, eleven thicknesses. Body collision
// only. `motion_ccd`: the plate is given a one-frame BodyMotion that keeps it
// where it is and asks for continuous collision (what `drape dress` does when
// it lowers the arms).
DrapeResult throw_sheet_onto_plate(bool continuous, double height = 0.01, bool motion_ccd = false) {
  ClothSettings s;
  s.threads = 1;
  s.self_collision = false;
  s.max_frames = 20;
  s.max_step_fraction = 20;  // the cap raised: 60 mm per step
  s.continuous_collision = continuous;
  s.continuous_max_step_fraction = 20;
  const TriangleMesh body = height > 0.05 ? thin_plate_and_post() : thin_plate();
  ClothSimulation sim(horizontal_square(15, 0.02, kPlateTop + height), body, {}, fabric_preset("cotton"), s);
  if (motion_ccd) {
    BodyMotion m;
    m.frames = 1;
    m.continuous_collision = true;
    m.body_at = [p = body.positions](int) { return p; };
    sim.set_body_motion(m);
  }
  sim.set_velocities(std::vector<Vec3>(sim.positions().size(), Vec3{0, -20, 0}));
  return sim.run();
}

}  // namespace

TEST(ContinuousBodyCollision, FastSheetStaysOnThinPlate) {
  const TriangleMesh plate = thin_plate();
  const TriangleMeshBvh tree(plate);
  // Without continuous collision the sheet passes through the plate in one step.
  const DrapeResult passed = throw_sheet_onto_plate(false);
  double lowest = 1e9;
  for (const Vec3& p : passed.mesh.positions) lowest = std::min(lowest, p.y);
  ASSERT_LT(lowest, -0.05) << "the scene no longer tunnels without continuous collision";
  // With it, every vertex stays on the near side, about a thickness above the top.
  const DrapeResult r = throw_sheet_onto_plate(true);
  int off = 0;  // vertices not lying about a thickness above the plate
  for (const Vec3& p : r.mesh.positions) {
    ASSERT_TRUE(is_finite(p));
    off += !(p.y > kPlateTop + 0.0015 && p.y < kPlateTop + 0.006);
  }
  EXPECT_EQ(off, 0);
  const IntersectionCounts c = count_intersections(tree, r.mesh);
  EXPECT_EQ(c.vertices_inside_body, 0u);
  EXPECT_EQ(c.body_crossing_pairs, 0u);
}

namespace {

// A bar along x (radius 3 cm, longer than the strip is wide) at a third of
// the height of a hanging strip (1 cm mesh), 5 cm in front of it, crossing it
// along +z by 16 cm in one frame of 4 steps: 4 cm per step.
constexpr double kBarRadius = 0.03, kBarStartZ = -0.05, kBarTravel = 0.16, kBarY = 0.12;

// `continuous` sets ClothSettings::continuous_collision, `in_motion`
// BodyMotion::continuous_collision (the motion's frames only).
DrapeResult bar_through_strip(bool continuous, std::vector<Vec3>* bar_end, bool in_motion = false) {
  GarmentMesh strip;
  add_grid_panel(strip, 21, 31, 0.01, {-0.1, 0.0, 0}, {1, 0, 0}, {0, 1, 0});  // x -0.1..0.1, y 0..0.3, z = 0
  ClothSettings s;
  s.threads = 1;
  s.substeps = 4;
  s.max_frames = 3;
  s.min_frames = 3;
  s.zero_gravity_frames = 0;
  for (int i = 0; i < 21; ++i) s.pinned.push_back(30 * 21 + i);  // the top row
  s.continuous_collision = continuous;
  const TriangleMesh bar = x_cylinder(kBarRadius, 0.4, {0, kBarY, kBarStartZ});
  ClothSimulation sim(strip, bar, {}, fabric_preset("cotton"), s);
  BodyMotion m;
  m.frames = 1;
  m.continuous_collision = in_motion;
  m.body_at = [p = bar.positions](int) {
    std::vector<Vec3> q = p;
    for (Vec3& v : q) v.z += kBarTravel;
    return q;
  };
  sim.set_body_motion(m);
  if (bar_end) *bar_end = m.body_at(1);
  return sim.run();
}

}  // namespace

TEST(ContinuousBodyCollision, FastBarCarriesHangingStrip) {
  const double bar_z = kBarStartZ + kBarTravel;
  // Without continuous collision the bar passes through: the strip's middle stays behind it.
  const DrapeResult passed = bar_through_strip(false, nullptr);
  int behind = 0;
  for (const Vec3& p : passed.mesh.positions)
    if (std::abs(p.y - kBarY) < 0.01 && p.z < bar_z - kBarRadius) ++behind;
  ASSERT_GT(behind, 0) << "the scene no longer tunnels without continuous collision";
  // With it, the strip is carried in front of the bar: no vertex at the
  // bar's height is behind it, the middle lies at its front, nothing inside.
  std::vector<Vec3> bar_end;
  const DrapeResult r = bar_through_strip(true, &bar_end);
  int carried = 0, left_behind = 0;
  for (const Vec3& p : r.mesh.positions) {
    ASSERT_TRUE(is_finite(p));
    if (std::abs(p.y - kBarY) < 0.01 && std::abs(p.x) < 0.05) (p.z > bar_z ? carried : left_behind)++;
  }
  EXPECT_GT(carried, 0);
  EXPECT_EQ(left_behind, 0) << "vertices behind the bar's axis";
  TriangleMesh bar = x_cylinder(kBarRadius, 0.4, {0, kBarY, kBarStartZ});
  bar.positions = bar_end;
  const IntersectionCounts c = count_intersections(TriangleMeshBvh(bar), r.mesh);
  EXPECT_EQ(c.vertices_inside_body, 0u);
  EXPECT_EQ(c.body_crossing_pairs, 0u);
}

// Continuous collision asked for by the motion alone (what `drape dress` does
// while the arms come down) answers the moving bar as the setting does.
TEST(ContinuousBodyCollision, AskedByTheMotionActsAsTheSettingWhileTheBodyMoves) {
  const DrapeResult setting = bar_through_strip(true, nullptr);
  const DrapeResult motion = bar_through_strip(false, nullptr, true);
  const DrapeResult off = bar_through_strip(false, nullptr);
  ASSERT_EQ(setting.mesh.positions.size(), motion.mesh.positions.size());
  double differs = 0, from_off = 0;
  for (std::size_t i = 0; i < setting.mesh.positions.size(); ++i) {
    differs = std::max(differs, norm(setting.mesh.positions[i] - motion.mesh.positions[i]));
    from_off = std::max(from_off, norm(off.mesh.positions[i] - motion.mesh.positions[i]));
  }
  EXPECT_LT(differs, 1e-12);
  EXPECT_GT(from_off, 0.05) << "the motion's sweep changed nothing";
}

// ... and keeps sweeping once the body has stopped, for the rest of the run:
// cloth caught between an arm just lowered and the torso jittered under the
// discrete response (docs/CLOTH.md "While the body moves into the pose").
// The plate's one-frame motion keeps it still; the sheet, 36 cm up at
// 20 m/s, reaches it in the second frame, after the motion.
TEST(ContinuousBodyCollision, AskedByTheMotionStaysOnAfterTheBodyStops) {
  const double height = 0.36;  // 33 cm fallen in the motion's frame, 2.7 cm left
  const DrapeResult passed = throw_sheet_onto_plate(false, height);
  double lowest = 1e9;
  for (const Vec3& p : passed.mesh.positions) lowest = std::min(lowest, p.y);
  ASSERT_LT(lowest, -0.05) << "the scene no longer tunnels without continuous collision";
  const DrapeResult r = throw_sheet_onto_plate(false, height, true);
  int below = 0;
  for (const Vec3& p : r.mesh.positions) {
    ASSERT_TRUE(is_finite(p));
    below += p.y < kPlateTop;
  }
  EXPECT_EQ(below, 0) << "vertices through the plate after the motion";
  const IntersectionCounts c = count_intersections(TriangleMeshBvh(thin_plate_and_post()), r.mesh);
  EXPECT_EQ(c.body_crossing_pairs, 0u);
}

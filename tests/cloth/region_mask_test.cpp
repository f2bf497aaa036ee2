// A torso piece's collisions reach the legs (docs/CLOTH.md "A torso piece's
// hem on the thighs"): each panel collides only with the body faces its
// alias allows (M1 step 16), and a torso piece's hem can hang below the
// crotch, where label_body_regions calls the faces legs. On the heavy short
// macro woman the GPG jackets' hems rested 10-12 mm inside the thighs with
// no body answer at all: the nearest face their region tree held was 20-35 mm
// away, above the crotch.
//
// The scene: the MakeHuman body labelled by its own landmarks, and a small
// sheet with a torso panel's mask, its top row held 1 cm in front of the
// right thigh below the crotch, blown onto the thigh by gravity pointing
// into the body (the pull of the cloth above a hem pressing it there). The answers are
// counted by the test itself: the winding number over every body face
// (inside), every cloth x body triangle pair (crossings) and the sheet's
// place against the thigh's front.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "brute_force_geometry.h"
#include "drape/cloth/cloth_simulation.h"
#include "drape/io/mesh_io.h"
#include "drape/landmarks/body_frame.h"
#include "drape/pattern/alias.h"
#include "test_shapes.h"

using namespace drape;
using namespace drape::test;

namespace drape::region_mask_test {

TEST(RegionMask, ATorsoPiecePressedOntoTheThighBelowTheCrotchStaysOnIt) {
  const LoadedMesh loaded =
      read_obj(std::string(DRAPE_DATA_DIR) + "/bodies/makehuman/base.obj", {.group = "body"});
  const TriangleMesh& body = loaded.mesh;
  const BodyFrame frame = analyse_body(body);
  const std::vector<std::uint32_t> regions = label_body_regions(body, frame);
  // The right thigh's front (-x side) 5-10 cm below the crotch: every face
  // there is a leg face.
  const double y_lo = frame.crotch_y - 0.10, y_hi = frame.crotch_y - 0.05;
  double front_z = -1e9, sum_x = 0;
  int count = 0;
  for (const Vec3& p : body.positions)
    if (p.y > y_lo && p.y < y_hi && p.x < frame.centre_x - 0.03) {
      front_z = std::max(front_z, p.z);
      sum_x += p.x, ++count;
    }
  ASSERT_GT(count, 10);
  const double thigh_x = sum_x / count;
  // The premise: the body faces the sheet can meet are leg faces, which the
  // torso piece's mask once left out.
  int thigh_faces = 0;
  for (std::size_t f = 0; f < body.face_count(); ++f) {
    const Vec3 c = body.face_centroid(f);
    if (c.y < y_lo || c.y > y_hi || std::abs(c.x - thigh_x) > 0.04 || c.z < front_z - 0.03) continue;
    ++thigh_faces;
    EXPECT_EQ(regions[f] & body_region::right_leg, body_region::right_leg);
  }
  ASSERT_GT(thigh_faces, 5);
  // An 8 x 4 cm sheet (1 cm spacing) facing +z, 1 cm in front of the thigh.
  constexpr double kSpacing = 0.01;
  const int nx = 9, ny = 5;
  GarmentMesh g;
  add_grid_panel(g, nx, ny, kSpacing, {thigh_x - 0.04, y_lo + 0.005, front_z + 0.01}, {1, 0, 0}, {0, 1, 0},
                 false, alias_body_regions("front"));
  ClothSettings s;
  s.threads = 1;
  for (int i = 0; i < nx; ++i)
    s.pinned.push_back((ny - 1) * nx + i);  // its top row held, as a hem by the cloth above
  s.gravity = {0, 0, -9.81};                // into the body: the sheet is pressed onto the thigh
  s.max_frames = 60;
  s.min_frames = 61;  // every frame, whatever comes to rest or falls
  ClothSimulation sim(g, body, regions, fabric_preset("cotton"), s);
  const DrapeResult r = sim.run();
  for (const Vec3& p : r.mesh.positions) {
    ASSERT_TRUE(is_finite(p));
    EXPECT_LT(winding_number(body, p), 0.5) << "a cloth vertex inside the thigh";
  }
  EXPECT_EQ(brute_pairs(r.mesh, body).size(), 0u);
  // It rests on the thigh's front: its middle within 2 cm behind the front
  // point found above (the thigh is round; the sheet wraps onto it) and not
  // in front of where it started. Without the legs in the mask the sheet
  // hung from its top row through the thigh (vertices inside, crossings).
  const Vec3 middle = r.mesh.positions[r.vertex_map[(ny / 2) * nx + nx / 2]];
  EXPECT_GT(middle.z, front_z - 0.02);
  EXPECT_LT(middle.z, front_z + 0.01);
}

}  // namespace drape::region_mask_test

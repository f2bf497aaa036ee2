// The crotch that the body frame and the skeleton fit share
// (find_crotch_height), on boxes with a known gap between the legs and on
// MakeHuman's body.

#include "drape/landmarks/body_landmarks.h"

#include <gtest/gtest.h>

#include <string>

#include "drape/io/mesh_io.h"
#include "drape/landmarks/body_frame.h"
#include "drape/landmarks/mesh_section.h"

using namespace drape;

namespace {

// A closed axis-aligned box [lo, hi], 12 triangles facing out.
void add_box(TriangleMesh& m, const Vec3& lo, const Vec3& hi) {
  const int b = static_cast<int>(m.positions.size());
  for (int i = 0; i < 8; ++i)
    m.positions.push_back({i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z});
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& q : quads) {
    m.faces.push_back({b + q[0], b + q[1], b + q[2]});
    m.faces.push_back({b + q[0], b + q[2], b + q[3]});
  }
}

// Two legs 5 cm apart up to 0.8 m, a torso on them up to 1.6 m, and a block
// between the knees (0.55-0.70 m) closing the gap there: the crotch is the
// torso's underside, 0.8 m, not the knees' block.
TriangleMesh legs_torso_and_knees() {
  TriangleMesh m;
  add_box(m, {-0.175, 0, -0.1}, {-0.025, 0.8, 0.1});
  add_box(m, {0.025, 0, -0.1}, {0.175, 0.8, 0.1});
  add_box(m, {-0.03, 0.55, -0.05}, {0.03, 0.70, 0.05});
  add_box(m, {-0.2, 0.8, -0.12}, {0.2, 1.6, 0.12});
  return m;
}

}  // namespace

TEST(CrotchHeight, IsTheTopOfTheGapBetweenTheLegsNotAClosedKnee) {
  const TriangleMesh m = legs_torso_and_knees();
  const std::optional<double> y = find_crotch_height(HorizontalSections(m), m.bounds());
  ASSERT_TRUE(y.has_value());
  EXPECT_NEAR(*y, 0.8, 1e-9);
  // The box frame reads the same crotch.
  EXPECT_EQ(analyse_body(m).crotch_y, *y);
}

TEST(CrotchHeight, NoneWhenTheLegsAreNeverApart) {
  TriangleMesh m;
  add_box(m, {-0.2, 0, -0.1}, {0.2, 1.6, 0.1});
  EXPECT_FALSE(find_crotch_height(HorizontalSections(m), m.bounds()).has_value());
}

// One finder: the frame that places the garment and the landmarks the
// skeleton is fitted to put the crotch at the same height.
TEST(CrotchHeight, TheFrameAndTheSkeletonFitShareItOnMakeHuman) {
  const TriangleMesh body =
      read_obj(std::string(DRAPE_DATA_DIR) + "/bodies/makehuman/base.obj", {.group = "body"}).mesh;
  const std::vector<Landmark> marks = find_body_landmarks(body);
  const auto crotch =
      std::find_if(marks.begin(), marks.end(), [](const Landmark& l) { return l.name == "crotch"; });
  ASSERT_NE(crotch, marks.end());
  EXPECT_EQ(analyse_body(body).crotch_y, crotch->position.y);
  // Between the knees and the navel of a 1.7 m body.
  EXPECT_GT(crotch->position.y - body.bounds().min.y, 0.40 * body.bounds().extent().y);
  EXPECT_LT(crotch->position.y - body.bounds().min.y, 0.55 * body.bounds().extent().y);
}

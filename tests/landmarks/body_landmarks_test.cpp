// The body frame (placement's levels) and the named landmarks (the skeleton
// fit) read the same sections: on shipped bodies their crotches agree to the
// frame's grid, and placement's reference fractions are the frame's own.

#include "drape/landmarks/body_landmarks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "drape/io/mesh_io.h"
#include "drape/landmarks/body_frame.h"

using namespace drape;

namespace {

TriangleMesh shipped_body(const std::string& name, const std::string& group) {
  return read_obj(std::string(DRAPE_DATA_DIR) + "/bodies/" + name, {.group = group}).mesh;
}

}  // namespace

// The frame's crotch is the first level of its 0.5 %-of-the-height grid, going
// up, where the legs have joined (pieces within 0.2 % merged); the rig's is
// the exact level where the mid-plane closes. Both come from the same
// sections, so the frame's lies at most one grid step above the rig's.
TEST(CrotchHeight, TheFrameAndTheSkeletonFitAgreeToTheFramesGrid) {
  for (const auto& [name, group] : {std::pair{"makehuman/base.obj", "body"},
                                    {"garmentcode/mean_all_tpose.obj", ""},
                                    {"garmentcode/mean_female.obj", ""}}) {
    SCOPED_TRACE(name);
    const TriangleMesh body = shipped_body(name, group);
    const std::vector<Landmark> marks = find_body_landmarks(body);
    const auto crotch =
        std::find_if(marks.begin(), marks.end(), [](const Landmark& l) { return l.name == "crotch"; });
    ASSERT_NE(crotch, marks.end());
    const BodyFrame f = analyse_body(body);
    EXPECT_GE(f.crotch_y, crotch->position.y - 1e-9);
    EXPECT_LE(f.crotch_y, crotch->position.y + 0.005 * f.height);
    // Between the knees and the navel.
    EXPECT_GT(f.crotch_y - f.floor_y, 0.40 * f.height);
    EXPECT_LT(f.crotch_y - f.floor_y, 0.55 * f.height);
  }
}

// Placement maps a pattern file's 3D heights through the crotch, waist and
// shoulder levels of the body GarmentCode placed it for, read by analyse_body
// on that body (src/pattern/placement.cpp, ReferenceBody): a change of the
// finder's rules must update those fractions, or every garment moves.
TEST(CrotchHeight, PlacementsReferenceFractionsAreTheFramesOnGarmentCodesBody) {
  const TriangleMesh body = shipped_body("garmentcode/mean_all_tpose.obj", "");
  const BodyFrame f = analyse_body(body);
  const auto fraction = [&](double y) { return (y - f.floor_y) / f.height; };
  EXPECT_NEAR(fraction(f.crotch_y), 0.4275, 5e-5);
  EXPECT_NEAR(fraction(f.waist_y), 0.6475, 5e-5);
  EXPECT_NEAR(fraction(f.shoulder_y), 0.8325, 5e-5);
}

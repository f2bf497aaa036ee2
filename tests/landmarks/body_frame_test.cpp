// Landmarks (analyse_body) of bodies drape was not tuned on, read through the
// body loader, against the bodies' own geometry.

#include "drape/landmarks/body_frame.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "drape/body/body_loader.h"

using namespace drape;

namespace {
const std::string kData = DRAPE_DATA_DIR;

double angle_deg(const Vec3& a, const Vec3& b) {
  return std::acos(std::clamp(dot(normalized(a), normalized(b)), -1.0, 1.0)) * 180 / std::numbers::pi;
}
}  // namespace

// The GDQuest mannequin stands in a T-pose with its legs apart. Each arm must
// point from its shoulder towards the body's farthest vertex on that side (the
// fingertips of a T-pose), not down a thigh (the thighs were once taken for
// the left arm: 84 degrees below the horizontal).
TEST(BodyLandmarks, TPoseArmsPointAtTheFingertips) {
  const Body b = load_body(kData + "/bodies/gdquest_mannequin/mannequiny-0.3.0.glb");
  const BodyFrame f = analyse_body(b.mesh);
  for (int side = 0; side < 2; ++side) {
    const double sgn = side == 0 ? 1.0 : -1.0;
    Vec3 tip = b.mesh.positions[0];
    for (const Vec3& p : b.mesh.positions)
      if (p.x * sgn > tip.x * sgn) tip = p;
    EXPECT_LT(angle_deg(f.arm_direction[side], tip - f.shoulder[side]), 10.0) << "side " << side;
    EXPECT_LT(std::abs(f.arm_angle_deg[side]), 10.0) << "side " << side;
  }
}

// The arms raised on a fitted rig (pipeline/body_rigging.h, rig/arm_raise.h)
// against the body's own symmetry: GarmentCode's mean_female is
// mirror-symmetric within about 1 cm (mirrored vertices 4 mm apart on
// average), so its two arms raised to the horizontal must end up at the same
// height. With the arm measured along MakeHuman's first upper-arm bone
// alone, the fit's interior joint made that bone 33.5 degrees below the
// horizontal on the left and 54.3 on the right (the arms are at 44 and 44):
// the raised left arm hung 10 degrees low, the right stood 10 degrees high,
// and GPG's sleeves sewn on it stood up off the left shoulder.

#include <gtest/gtest.h>

#include <filesystem>

#include "drape/body/body_loader.h"
#include "drape/pipeline/body_rigging.h"
#include "drape/rig/arm_raise.h"
#include "drape/rig/skinning.h"

using namespace drape;
namespace fs = std::filesystem;

namespace {

const fs::path kData = DRAPE_DATA_DIR;

struct ArmBand {
  double mean_y = 0;
  int count = 0;
};

// Mean height of the vertices in a band of distances from the body's middle
// (x), one side: beyond the torso, from the upper arm to the forearm.
ArmBand band(const TriangleMesh& m, double centre_x, double side, double x0, double x1) {
  ArmBand b;
  for (const Vec3& p : m.positions) {
    const double d = (p.x - centre_x) * side;
    if (d > x0 && d < x1) {
      b.mean_y += p.y;
      ++b.count;
    }
  }
  if (b.count > 0) b.mean_y /= b.count;
  return b;
}

TEST(ArmRaiseOnBody, ASymmetricBodysArmsRaisedEndAtTheSameHeight) {
  const Body body = load_body(kData / "bodies/garmentcode/mean_female.obj");
  const TemplateRig tr = load_template_rig(kData / "bodies/makehuman/default.mhskel");
  const RiggedBody rb = rig_body(tr, body.mesh, body.all_vertices);
  const UpperArms arms = find_upper_arms(rb.skeleton);
  ASSERT_GE(arms.left, 0);
  ASSERT_GE(arms.right, 0);
  // The rest arms, measured on the mesh alike, are within 1 cm of each other.
  const Aabb box = body.mesh.bounds();
  const double cx = box.center().x, h = box.extent().y;
  const double x0 = 0.19 * h, x1 = 0.30 * h;  // elbow region: past the shoulder, short of the hand
  const ArmBand rest_l = band(body.mesh, cx, 1, x0, x1), rest_r = band(body.mesh, cx, -1, x0, x1);
  ASSERT_GT(rest_l.count, 50);
  ASSERT_GT(rest_r.count, 50);
  ASSERT_NEAR(rest_l.mean_y, rest_r.mean_y, 0.01);
  // Raised to the horizontal: both arms stand beside the shoulders, at one height.
  const std::optional<Pose> pose = arms_raised_pose(rb.skeleton, 0);
  ASSERT_TRUE(pose);
  const TriangleMesh raised = skin_mesh(body.mesh, rb.weights, *pose);
  const ArmBand up_l = band(raised, cx, 1, x0, x1), up_r = band(raised, cx, -1, x0, x1);
  ASSERT_GT(up_l.count, 50);
  ASSERT_GT(up_r.count, 50);
  EXPECT_NEAR(up_l.mean_y, up_r.mean_y, 0.02);
  // And about as high as each other's raise: the arm angles the raise turns by agree.
  EXPECT_NEAR(arm_angle_below_horizontal(rb.skeleton, arms.left),
              arm_angle_below_horizontal(rb.skeleton, arms.right), 6.0);
}

}  // namespace

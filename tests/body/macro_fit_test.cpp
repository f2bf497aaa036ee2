// --fit: measures of a body made from known macro values are asked back
// from the default body; parsing of the measure string.

#include "drape/body/macro_fit.h"

#include <gtest/gtest.h>

#include "drape/core/exceptions.h"

namespace fs = std::filesystem;
using namespace drape;

TEST(BodyParseMeasureGoal, CentimetresAndErrors) {
  const MeasureGoal g = parse_measure_goal("height=170, waist = 72.5");
  ASSERT_TRUE(g.height && g.waist);
  EXPECT_DOUBLE_EQ(*g.height, 1.70);
  EXPECT_DOUBLE_EQ(*g.waist, 0.725);
  EXPECT_FALSE(g.bust || g.hip);
  for (const char* bad : {"", "height", "height=", "height=abc", "height=-3", "chest=90", "hip=90,hip=91",
                          "height=170,", "waist=70cm"})
    EXPECT_THROW(parse_measure_goal(bad), InvalidInput) << bad;
}

TEST(BodyMacroFit, ReachableMeasuresAreMetWithinOneCentimetre) {
  const MorphableBody mb = load_morphable_body(fs::path(DRAPE_DATA_DIR) / "bodies/makehuman/base.obj");
  MacroTargets t(fs::path(DRAPE_DATA_DIR) / "bodies/makehuman/targets", mb.base.size(), 0.1);
  MacroValues truth;
  truth.gender = 0.25;
  truth.muscle = 0.6;
  truth.weight = 0.75;
  truth.height = 0.35;
  truth.proportions = 0.5;
  const BodyMeasurements want = measure_macro_body(t, mb, truth);
  const MeasureGoal goal{want.height, want.bust, want.waist, want.hip};
  const MacroFitResult r = fit_macro_values(t, mb, goal);
  EXPECT_TRUE(r.reached);
  // The solution's body, built again and measured: every asked measure within 1 cm.
  const BodyMeasurements got = measure_macro_body(t, mb, r.values);
  EXPECT_NEAR(got.height, want.height, 0.01);
  EXPECT_NEAR(got.bust, want.bust, 0.01);
  EXPECT_NEAR(got.waist, want.waist, 0.01);
  EXPECT_NEAR(got.hip, want.hip, 0.01);
  for (const std::string& n : macro_value_names()) {
    EXPECT_GE(macro_value(r.values, n), 0.0);
    EXPECT_LE(macro_value(r.values, n), 1.0);
  }
}

TEST(BodyMacroFit, UnreachableMeasuresAreReportedNotReached) {
  const MorphableBody mb = load_morphable_body(fs::path(DRAPE_DATA_DIR) / "bodies/makehuman/base.obj");
  MacroTargets t(fs::path(DRAPE_DATA_DIR) / "bodies/makehuman/targets", mb.base.size(), 0.1);
  MeasureGoal goal;
  goal.height = 3.0;  // beyond MakeHuman's tallest (2.45 m)
  const MacroFitResult r = fit_macro_values(t, mb, goal);
  EXPECT_FALSE(r.reached);
  EXPECT_GT(r.max_residual, 0.4);
  EXPECT_NEAR(r.values.height, 1.0, 1e-9);
}

#include "drape/geometry/units.h"

#include <gtest/gtest.h>

using namespace drape;

TEST(Units, DetectsHumanHeights) {
  EXPECT_EQ(detect_unit_from_height(1.72), LengthUnit::metre);
  EXPECT_EQ(detect_unit_from_height(17.2), LengthUnit::decimetre);
  EXPECT_EQ(detect_unit_from_height(172.0), LengthUnit::centimetre);
  EXPECT_EQ(detect_unit_from_height(1720.0), LengthUnit::millimetre);
}

TEST(Units, ParseAndScale) {
  EXPECT_EQ(parse_unit("cm"), LengthUnit::centimetre);
  EXPECT_EQ(parse_unit("Inch"), LengthUnit::inch);
  EXPECT_FALSE(parse_unit("furlong"));
  EXPECT_DOUBLE_EQ(metres_per_unit(LengthUnit::decimetre), 0.1);
}

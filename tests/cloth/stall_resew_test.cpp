// The rule that picks the garment a stall resew ends with (stall_resew.h):
// never more crossings, then fewer open pairs, then a narrower widest gap.
#include "drape/cloth/stall_resew.h"

#include <gtest/gtest.h>

namespace drape {
namespace {

DrapeReport garment(std::size_t open_pairs, double widest, std::size_t inside, std::size_t body,
                    std::size_t self, const char* stop = "stalled_seams") {
  DrapeReport r;
  r.stop_reason = stop;
  r.seam_pairs = 100;
  r.seam_pairs_joined = 100 - open_pairs;
  r.max_seam_gap = widest;
  r.vertices_inside_body = inside;
  r.body_crossing_pairs = body;
  r.self_crossing_pairs = self;
  return r;
}

TEST(StallResew, ClosedSeamsWithoutNewCrossingsAreBetter) {
  const DrapeReport stalled = garment(3, 0.05, 0, 0, 0);
  EXPECT_TRUE(resewn_is_better(garment(0, 0.0, 0, 0, 0, "equilibrium"), stalled));
  EXPECT_TRUE(resewn_is_better(garment(1, 0.09, 0, 0, 0), stalled));  // fewer pairs, though wider
  EXPECT_TRUE(resewn_is_better(garment(3, 0.01, 0, 0, 0), stalled));  // as many, narrower
  EXPECT_FALSE(resewn_is_better(garment(3, 0.05, 0, 0, 0), stalled));
  EXPECT_FALSE(resewn_is_better(garment(3, 0.046, 0, 0, 0), stalled));  // drifted, not closer
  EXPECT_FALSE(resewn_is_better(garment(4, 0.001, 0, 0, 0), stalled));
}

TEST(StallResew, NeverTradesACrossingForASeam) {
  const DrapeReport stalled = garment(1, 0.004, 0, 0, 0);
  // Every seam closed, but an armhole edge cut by the body: the stalled one stays.
  EXPECT_FALSE(resewn_is_better(garment(0, 0.0, 0, 8, 0, "equilibrium"), stalled));
  EXPECT_FALSE(resewn_is_better(garment(0, 0.0, 1, 0, 0, "equilibrium"), stalled));
  EXPECT_FALSE(resewn_is_better(garment(0, 0.0, 0, 0, 2, "equilibrium"), stalled));
  // Crossings are summed: a garment with some already may trade one kind for another.
  EXPECT_TRUE(resewn_is_better(garment(0, 0.0, 0, 2, 0), garment(1, 0.004, 0, 1, 1)));
  EXPECT_TRUE(resewn_is_better(garment(0, 0.0, 0, 0, 0), garment(1, 0.004, 0, 3, 0)));
}

TEST(StallResew, AGarmentThatFellOffIsNeverBetter) {
  EXPECT_FALSE(resewn_is_better(garment(0, 0.0, 0, 0, 0, "fell_off_body"), garment(5, 0.1, 0, 0, 0)));
}

}  // namespace
}  // namespace drape

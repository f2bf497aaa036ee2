// Sewing again after a stall (include/drape/cloth/stall_resew.h), end to end:
// GPG's jacket graded onto GarmentCode's mean female body. Sewn on the body
// with its arms raised, the graded jacket lies tight on the bust and
// shoulders; once gravity is on, friction held a shoulder seam 3 mm open and
// the drape ended "stalled_seams" (docs/SWEEP.md, tenth session). The drape
// on the raised body still stalls; it is not resewn there (the pose's run has
// the resews: docs/CLOTH.md "Sewing again after a stall", "Not before a
// pose"); the jacket ends clean once the arms are down, and the job's report
// says what happened.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sweep_row_job.h"

namespace drape {
namespace {

TEST(DressStallResew, TheGradedJacketOnTheMeanFemaleBodyGoesOnIntoThePoseAndEndsClean) {
  DressJob job = test::sweep_row_job("bodies/garmentcode/mean_female.obj", "patterns/gpg/jacket.json");
  ASSERT_EQ(job.cloth.stall_resews, 3) << "the default";
  const DressResult r = job.Run();
  const auto j = nlohmann::json::parse(r.report_json);
  ASSERT_TRUE(j["rig"].contains("rest_drape"));
  const auto& rest = j["rig"]["rest_drape"];
  EXPECT_EQ(rest["stop_reason"], "stalled_seams");
  EXPECT_EQ(rest["resews"].get<int>(), 0) << "resewn on the raised body";
  EXPECT_LT(rest["seams"]["joined"].get<int>(), rest["seams"]["pairs"].get<int>());
  EXPECT_EQ(j["result"]["seams"]["joined"].get<int>(), j["result"]["seams"]["pairs"].get<int>())
      << "the pose closed what the rest drape left open";
  test::expect_clean(j["result"]);
}

}  // namespace
}  // namespace drape

// Sewing again after a stall (include/drape/cloth/stall_resew.h), end to end:
// GPG's jacket graded onto GarmentCode's mean female body. Sewn on the body
// with its arms raised, the graded jacket lies tight on the bust and
// shoulders; once gravity is on, friction held a shoulder seam 3 mm open and
// the drape ended "stalled_seams" (docs/SWEEP.md, tenth session). The drape
// on the raised body still stalls and is resewn (zero gravity, no body
// friction); whether the resewn garment is kept is the rule's to say
// (StallResew.*: since the corner and stitch-end joins of the twelfth session
// the first stall's garment is as good here and is kept); the jacket ends
// clean once the arms are down, and the job's report says what happened.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "drape/pipeline/dress_job.h"

namespace drape {
namespace {

namespace fs = std::filesystem;
const std::string kResewData = DRAPE_DATA_DIR;

TEST(DressStallResew, TheGradedJacketOnTheMeanFemaleBodyIsResewnAndEndsClean) {
  DressJob job;
  job.body_path = kResewData + "/bodies/garmentcode/mean_female.obj";
  job.pattern_path = kResewData + "/patterns/gpg/jacket.json";
  job.grade = true;
  job.cloth.max_frames = 500;  // as `drape sweep --max-frames 500`
  job.skeleton_candidates = {fs::path(kResewData) / "bodies/makehuman/default.mhskel",
                             fs::path(kResewData) / "bodies/makehuman/cmu_mb.mhskel"};  // as the CLI's
  ASSERT_EQ(job.cloth.stall_resews, 3) << "the default";
  const DressResult r = job.Run();
  const auto j = nlohmann::json::parse(r.report_json);
  ASSERT_TRUE(j["rig"].contains("rest_drape"));
  const auto& rest = j["rig"]["rest_drape"];
  EXPECT_EQ(rest["stop_reason"], "stalled_seams");
  EXPECT_GE(rest["resews"].get<int>(), 1) << "the drape on the raised body stalled and was resewn";
  ASSERT_TRUE(rest.contains("resew_kept"));
  const auto& result = j["result"];
  EXPECT_EQ(result["stop_reason"], "equilibrium");
  EXPECT_EQ(result["seams"]["joined"], result["seams"]["pairs"]);
  EXPECT_EQ(result["intersections"]["vertices_inside_body"], 0);
  EXPECT_EQ(result["intersections"]["body_crossing_pairs"], 0);
  EXPECT_EQ(result["intersections"]["self_crossing_pairs"], 0);
}

}  // namespace
}  // namespace drape

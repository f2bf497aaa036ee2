// One row of `drape sweep --grade --max-frames 500` as a DressJob, and the
// sweep's "clean" read from the job's report, for end-to-end tests of a
// pattern on a body.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "drape/pipeline/dress_job.h"

namespace drape::test {

/// The job `drape sweep --grade --max-frames 500` runs for one pattern on one
/// body. \param body, pattern paths relative to the repository's data/ folder.
inline DressJob sweep_row_job(const std::string& body, const std::string& pattern) {
  const std::filesystem::path data = DRAPE_DATA_DIR;
  DressJob job;
  job.body_path = data / body;
  job.pattern_path = data / pattern;
  job.grade = true;
  job.cloth.max_frames = 500;
  job.skeleton_candidates = {data / "bodies/makehuman/default.mhskel",
                             data / "bodies/makehuman/cmu_mb.mhskel"};  // as the CLI's
  return job;
}

/// Expects the sweep's "clean" of a report's `result`: an equilibrium, every
/// seam pair joined, no vertex inside the body, no cloth-body or self
/// crossing pair (counted on the result mesh, intersection_count.h).
inline void expect_clean(const nlohmann::json& result) {
  EXPECT_EQ(result["stop_reason"], "equilibrium");
  EXPECT_EQ(result["seams"]["joined"], result["seams"]["pairs"]);
  EXPECT_EQ(result["intersections"]["vertices_inside_body"], 0);
  EXPECT_EQ(result["intersections"]["body_crossing_pairs"], 0);
  EXPECT_EQ(result["intersections"]["self_crossing_pairs"], 0);
}

}  // namespace drape::test

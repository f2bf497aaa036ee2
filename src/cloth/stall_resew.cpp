#include "drape/cloth/stall_resew.h"

namespace drape {

namespace {

// With as many pairs open, the widest must be this much narrower: cloth that
// only drifted while it was resewn is not better.
constexpr double kNarrower = 0.9;

std::size_t crossings(const DrapeReport& r) {
  return r.vertices_inside_body + r.body_crossing_pairs + r.self_crossing_pairs;
}

}  // namespace

bool resewn_is_better(const DrapeReport& resewn, const DrapeReport& stalled) {
  if (resewn.stop_reason == "fell_off_body") return false;
  if (crossings(resewn) > crossings(stalled)) return false;
  const std::size_t open_resewn = resewn.seam_pairs - resewn.seam_pairs_joined;
  const std::size_t open_stalled = stalled.seam_pairs - stalled.seam_pairs_joined;
  if (open_resewn != open_stalled) return open_resewn < open_stalled;
  return resewn.max_seam_gap < kNarrower * stalled.max_seam_gap;
}

}  // namespace drape

#pragma once
// Internal: self-intersection test of a closed polyline (a sampled outline).

#include <utility>
#include <vector>

#include "drape/core/vec.h"

namespace drape::detail {

/// Finds two non-adjacent segments of the closed polyline `loop` (segment i
/// runs from loop[i] to loop[i+1]) that cross or touch; returns their indices,
/// or {-1, -1} when the polyline is simple. Uniform-grid bucketing: about
/// linear for well-spaced samples.
std::pair<int, int> find_self_intersection(const std::vector<Vec2>& loop);

}  // namespace drape::detail

#pragma once
// Order statistics of a drape's measures (edge strain p95, p99).

#include <span>

namespace drape {

/// The q-quantile of `values` by rank: the value at 0-based position
/// min(n - 1, floor(q * n)) of the values sorted ascending (the convention of
/// the strain p95 in report.json: p99 of 1000 values is the 991st smallest).
/// O(n) (nth_element on a copy); `values` is not changed and need not be sorted.
/// \param values any finite numbers (NaN has no rank).
/// \param q fraction in [0, 1]: 0 = the minimum, 1 = the maximum.
/// \return 0 for no values.
/// \throw InvalidInput when q is outside [0, 1] or NaN.
double percentile(std::span<const double> values, double q);

}  // namespace drape

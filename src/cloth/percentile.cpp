#include "drape/cloth/percentile.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "drape/core/exceptions.h"

namespace drape {

double percentile(std::span<const double> values, double q) {
  if (!(q >= 0 && q <= 1)) throw InvalidInput("percentile: q must be in [0, 1], got " + std::to_string(q));
  if (values.empty()) return 0;
  const std::size_t n = values.size();
  const std::size_t k = std::min(n - 1, static_cast<std::size_t>(std::floor(q * static_cast<double>(n))));
  std::vector<double> v(values.begin(), values.end());
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace drape

#pragma once
// Wall-clock timing of job stages (report.json "times_s" and progress estimates).

#include <chrono>

namespace drape {

/// Seconds elapsed since `t0` on the steady clock.
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace drape

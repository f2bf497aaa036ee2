#pragma once
// Wall-clock timing of the simulation's stages (DrapeReport::times).
#include <chrono>

namespace drape {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace drape

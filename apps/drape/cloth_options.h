#pragma once
// Cloth options that `drape dress` and `drape animate` share, written once.

#include <CLI/CLI.hpp>

#include "drape/cloth/cloth_simulation.h"

namespace drape::cli {

/// --continuous-collision and --continuous-max-step on `cloth`.
inline void add_continuous_collision_options(CLI::App& app, ClothSettings& cloth) {
  app.add_flag(
      "--continuous-collision", cloth.continuous_collision,
      "Continuous collision detection (CCD) against the body: each cloth point's path over a step is "
      "swept against the body, moving or not, so nothing passes through it at any speed");
  app.add_option("--continuous-max-step", cloth.continuous_max_step_fraction,
                 "With --continuous-collision: most a cloth point moves in one step where only the body "
                 "needs a limit, in thicknesses (self-collision keeps its own limit)")
      ->capture_default_str();
}

}  // namespace drape::cli

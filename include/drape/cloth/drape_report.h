#pragma once
// What a drape reports: how it ended, intersection counts, seams, strain,
// energy and time per stage.

#include <cstddef>
#include <string>
#include <vector>

#include "drape/core/vec.h"

namespace drape {

/// Wall time per stage, seconds (summed over the run).
struct StageTimes {
  double forces = 0;          ///< external/internal forces and prediction
  double solve = 0;           ///< constraint projection (XPBD) / integration update
  double refit = 0;           ///< cloth tree refits
  double body_collision = 0;  ///< body queries and response
  double self_collision = 0;  ///< self-collision queries and response
  double measure = 0;         ///< final measures
  double total = 0;
};

struct DrapeReport {
  /// "equilibrium", "stalled_seams" (seams open and no longer closing), "fell_off_body"
  /// (its top dropped by over a quarter of the body's height: it cannot be worn) or "frame_limit".
  std::string stop_reason;
  bool equilibrium = false;
  std::string integrator;
  int frames = 0;
  long long steps = 0;    ///< integration steps taken
  int substeps = 0;       ///< steps per frame at the end (after halvings)
  int step_halvings = 0;  ///< divergence roll-backs
  /// Stall resews the run went through (ClothSettings::stall_resews), and
  /// whether the garment reported is the resewn one (false: the garment at
  /// the first stall, kept because resewing did not make it better).
  int resews = 0;
  bool resew_kept = false;
  /// Self-collision candidate searches (whole or partial) over the
  /// simulation's life, a resumed one's since it was loaded (a cost, not state).
  std::size_t self_searches = 0;
  double dt = 0;  ///< final step size, s
  std::size_t vertices = 0, triangles = 0;
  // Intersections (same counting as `drape check`).
  std::size_t vertices_inside_body = 0;
  std::size_t body_crossing_pairs = 0;  ///< cloth-body triangle pairs that intersect
  std::size_t self_crossing_pairs = 0;  ///< non-adjacent cloth-cloth pairs that intersect
  // Seams.
  std::size_t seam_pairs = 0;
  std::size_t seam_pairs_joined = 0;
  double max_seam_gap = 0;  ///< m
  /// The seams (stitches) that still have open pairs, by seam index: where a drape did not close.
  struct OpenSeam {
    int seam = 0;
    std::size_t open_pairs = 0;
    double max_gap = 0;  ///< m
    Vec3 widest_at;      ///< midpoint of the widest open pair, m (simulation frame)
  };
  std::vector<OpenSeam> open_seams;
  // Edge strain in tension, max(L / L0 - 1, 0), over the edge springs (a
  // compressed edge counts 0); p95/p99 by rank (percentile()).
  double strain_max = 0, strain_mean = 0, strain_p95 = 0, strain_p99 = 0;
  Vec3 strain_max_at;  ///< midpoint of the most stretched edge, m (simulation frame)
  /// Edge compression max(1 - L / L0, 0) over the same edges: gathered or
  /// buckled cloth (ClothSettings::compression_stiffness).
  double compression_max = 0, compression_p99 = 0;
  double kinetic_energy = 0;   ///< J
  double moving_fraction = 0;  ///< fraction of vertices above the equilibrium distance in the last frame
  StageTimes times;
};

}  // namespace drape

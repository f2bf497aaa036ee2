#pragma once
// The whole mutable state of a ClothSimulation between two frames: what a
// checkpoint saves and loads, and what a diverged frame is rolled back to.
//
// Both go through this one struct, so they cannot drift apart: the rollback
// is a copy of the struct, the checkpoint bytes are its fields() in order.
// Everything else a simulation holds is either fixed at construction (model,
// fabric, settings, colliders' topology) or scratch rebuilt inside a step or
// frame (previous positions, constraint multipliers, collision candidates,
// the current body-motion frame's target and carry).
//
// Invariant: fields() lists every data member. The static_assert below fails
// the build when a member is added to the struct and not to fields(); a field
// in fields() is serialised, compared and round-trip tested automatically
// (tests/cloth/simulation_state_test.cpp).

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "drape/core/vec.h"

namespace drape {

struct SimulationState {
  // ---- per cloth vertex ----
  std::vector<Vec3> x;  ///< positions, m
  std::vector<Vec3> v;  ///< velocities, m/s
  // ---- per seam pair ----
  /// 1 once the pair is joined (a stiff zero-length constraint, welded every step).
  std::vector<unsigned char> seam_joined;
  /// Factor on the pair's sewing stiffness and force cap, >= 1; grows while the
  /// pair stalls open after the zero-gravity phase (see seam_sewing.h).
  std::vector<double> seam_cap_scale;
  /// The pair's gap at the end of the previous frame (m; infinity before the
  /// first frame with gravity), for telling a stalled pair.
  std::vector<double> seam_gap_prev;
  /// Per cloth vertex its seam-corner group while that corner passes through
  /// itself, -1 otherwise; empty once no corner does (see seam_corners.h).
  std::vector<int> corner_group;
  // ---- the body ----
  /// Body vertex positions at the end of the last frame (m); empty without a body.
  std::vector<Vec3> body;
  // ---- the rest rule's window ----
  /// Per cloth vertex the box of its end-of-frame positions over the frames
  /// of the current window (empty before the first frame): a vertex that
  /// cycles in place stays in a small box while moving every frame.
  std::vector<Vec3> window_lo, window_hi;
  // ---- counters ----
  std::int64_t steps = 0;  ///< integration steps taken (all runs)
  /// Frame at whose end the open seams last made progress (a pair joined, or
  /// their summed gap shrank by the stall rule's fraction; see ClothSettings::
  /// stalled_seam_frames); counted only once gravity is on.
  std::int64_t gap_progress_frame = 0;
  /// The fall-off rule's body vertex: the one nearest the cloth's top when the
  /// body motion started (-1 = none); its drop since then is not the cloth's.
  std::int64_t fall_off_anchor = -1;
  std::int64_t window_frames = 0;  ///< frames in the rest rule's window so far
  /// Open seam pairs when the last stall resew began (-1 = none yet): a
  /// resew is tried again only when the one before left fewer open.
  std::int64_t resew_open_pairs = -1;
  /// Frames in a row that ended with a body feature through a cloth triangle
  /// whose corners are all outside the body (0 = the last did not): such a
  /// crossing held this long is untangled from the body (body_untangle.cpp).
  std::int64_t body_crossing_frames = 0;
  double dt = 0;             ///< step size of the next frame, s
  double gravity_scale = 1;  ///< 0 while the seams close in zero gravity, then 1
  /// Kinetic energy at the end of the previous frame (J), -1 before the first.
  double ke_prev = -1;
  /// Summed gap of the open seam pairs at gap_progress_frame (m), -1 before the first frame with gravity.
  double open_gap_ref = -1;
  double fall_off_anchor_y = 0;        ///< fall_off_anchor's height when the motion started, m
  std::int32_t frame = 0;              ///< frames completed
  std::int32_t gravity_on_frame = -1;  ///< frame at which gravity came on, -1 = not yet
  std::int32_t substeps = 10;          ///< steps per frame (doubled by each step halving)
  std::int32_t ke_growth = 0;          ///< frames in a row with tenfold kinetic energy growth
  std::int32_t run_first_frame = 0;    ///< first frame of the current run (frame limits count from it)
  std::int32_t motion_done = 0;        ///< frames done of the current body motion
  std::int32_t step_halvings = 0;      ///< divergence rollbacks so far
  std::int32_t last_join_frame = 0;    ///< frame at whose end a seam pair last joined
  std::int32_t resews = 0;            ///< stall resews begun in the current run (ClothSettings::stall_resews)
  std::int32_t resew_end_frame = -1;  ///< frame at which the last resew ends (-1 = none yet)

  /// Every member, in checkpoint order (the order of the DRPSTAT9 format).
  auto fields() {
    return std::tie(frame, gravity_on_frame, substeps, ke_growth, run_first_frame, motion_done, step_halvings,
                    last_join_frame, steps, gap_progress_frame, dt, gravity_scale, ke_prev, open_gap_ref, x,
                    v, seam_joined, seam_cap_scale, seam_gap_prev, corner_group, body, fall_off_anchor,
                    fall_off_anchor_y, window_lo, window_hi, window_frames, resews, resew_end_frame,
                    resew_open_pairs, body_crossing_frames);
  }
  /// The same, read-only (one list: built from the one above).
  auto fields() const {
    return std::apply(
        [](auto&... f) { return std::tuple<const std::remove_reference_t<decltype(f)>&...>(f...); },
        const_cast<SimulationState*>(this)->fields());
  }

  bool operator==(const SimulationState&) const = default;
};

namespace detail {
template <class... T>
constexpr std::size_t summed_size(const std::tuple<T&...>*) {
  return (sizeof(T) + ... + 0);
}
}  // namespace detail

// sizeof(struct) >= the sum of its members' sizes, with equality when there is
// no padding (members ordered by alignment above). So a member missing from
// fields() makes the struct larger than the sum over fields(): add it there.
static_assert(
    sizeof(SimulationState) ==
        detail::summed_size(static_cast<decltype(std::declval<SimulationState&>().fields())*>(nullptr)),
    "SimulationState has a member that fields() does not list (or padding: order members by size)");

/// The sizes a state must have to belong to a given simulation.
struct SimulationStateShape {
  std::size_t vertices = 0;       ///< cloth vertices
  std::size_t seam_pairs = 0;     ///< seam pairs
  std::size_t body_vertices = 0;  ///< body vertices (0 without a body)
  int motion_frames = 0;          ///< frames of the body motion the simulation is in (0 = none)
};

/// Appends the state's bytes (fields() in order; vectors as a 64-bit count and
/// their elements; native byte order) to `out`.
void write_simulation_state(const SimulationState& state, std::string& out);

/// Reads a state written by write_simulation_state from `bytes` at `at`
/// (advanced past it) and checks it against `shape`: vector sizes (the corner
/// groups may be empty), counters that agree (0 <= run_first_frame <= frame,
/// last_join_frame <= frame, dt > 0, ...), corner group ids in range, finite
/// cloth positions and velocities.
/// \throw InvalidInput naming `source` for truncated or inconsistent bytes.
SimulationState read_simulation_state(const std::string& bytes, std::size_t& at,
                                      const SimulationStateShape& shape, const std::string& source);

}  // namespace drape

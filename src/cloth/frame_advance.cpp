// A frame of ClothSimulation and the run loop: body motion, the divergence
// guard and its rollback, the end-of-frame seam and corner passes, the
// gravity schedule, and the stop rules (equilibrium, stalled seams, frame limit).
#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "drape/cloth/seam_sewing.h"
#include "drape/cloth/stall_resew.h"
#include "drape/core/exceptions.h"
#include "simulation_impl.h"
#include "stage_clock.h"

namespace drape {

namespace {

// The rest rule's window (ClothSettings::equilibrium_jitter): it restarts
// every kRestWindowFrames frames and judges a vertex by its box from
// kRestWindowMinFrames frames on.
constexpr std::int64_t kRestWindowFrames = 10;
constexpr std::int64_t kRestWindowMinFrames = 6;

}  // namespace

// Sets the body to its place after `fraction` of the current motion frame.
void ClothSimulation::Impl::place_body(double fraction) {
  const std::size_t nb = body_from.size();
  body_now.resize(nb);
  ex->for_each(
      0, nb, [&](std::size_t i) { body_now[i] = body_from[i] + (body_to[i] - body_from[i]) * fraction; },
      4096);
  if (continuous()) {  // the step's start, for the sweep (collision_response.cpp)
    body_step_start = body->mesh().positions;
    double reach2 = 0;
    for (std::size_t i = 0; i < nb; ++i)
      reach2 = std::max(reach2, squared_norm(body_now[i] - body_step_start[i]));
    body_step_reach = std::sqrt(reach2);
  }
  body->move_vertices(body_now);
}

// Once per motion frame (a retried frame keeps its carry and its target): the
// body's start and end, and the cloth's kinematic carry, spread over the
// frame's steps like the body's motion (no velocity), so the cloth neither
// leads nor lags the body.
void ClothSimulation::Impl::prepare_motion_frame() {
  const std::vector<Vec3>& x = st.x;
  body_from = st.body;
  body_to = motion.body_at(st.motion_done + 1);
  if (body_to.size() != body_from.size())
    throw InvalidInput("body motion: frame " + std::to_string(st.motion_done + 1) + " has " +
                       std::to_string(body_to.size()) + " positions for " + std::to_string(body_from.size()) +
                       " body vertices");
  carry.assign(x.size(), Vec3{});
  if (motion.carry_cloth) {
    carried = x;
    motion.carry_cloth(st.motion_done + 1, carried);
    if (carried.size() != x.size()) throw InvalidInput("body motion: the carry changed the vertex count");
    for (std::size_t i = 0; i < x.size(); ++i)
      if (model.inv_mass[i] != 0) carry[i] = carried[i] - x[i];
  }
  motion_frame_ready = true;
}

// "" when healthy, else what went wrong. Updates the energy-growth counters.
std::string ClothSimulation::Impl::divergence() {
  double vmax2 = 0;
  for (std::size_t i = 0; i < model.vertex_count; ++i) {
    if (!is_finite(st.x[i]) || !is_finite(st.v[i]))
      return "non-finite position or velocity at vertex " + std::to_string(i);
    vmax2 = std::max(vmax2, squared_norm(st.v[i]));
  }
  if (vmax2 > settings.divergence_speed * settings.divergence_speed)
    return "speed " + std::to_string(std::sqrt(vmax2)) + " m/s above the limit " +
           std::to_string(settings.divergence_speed) + " m/s";
  const double ke = kinetic();
  // Energy growing without bound: 10x per frame for several frames in a row,
  // above the energy of the whole cloth moving at 1 cm/s.
  const double floor = 0.5 * model.total_mass * 1e-4;
  if (st.ke_prev >= 0 && ke > 10 * st.ke_prev && ke > floor)
    ++st.ke_growth;
  else
    st.ke_growth = 0;
  st.ke_prev = ke;
  if (st.ke_growth >= settings.divergence_growth_frames)
    return "kinetic energy grew tenfold per frame for " + std::to_string(st.ke_growth) + " frames";
  return "";
}

bool ClothSimulation::Impl::advance_frame() {
  const std::size_t n = model.vertex_count;
  if (moving() && !motion_frame_ready) prepare_motion_frame();
  snapshot = st;  // copy-assignment: reuses the snapshot's storage
  const bool move_body = moving();
  for (int s = 0; s < st.substeps; ++s) {
    if (move_body) {
      place_body(static_cast<double>(s + 1) / st.substeps);
      const double share = 1.0 / st.substeps;
      ex->for_each(
          0, n, [&](std::size_t i) { st.x[i] += carry[i] * share; }, 4096);
    }
    carry_share = move_body ? 1.0 / st.substeps : 0.0;
    step(st.dt);
  }
  body_step_start.clear();
  body_step_reach = 0;
  carry_share = 0;
  if (move_body) project_inside_vertices();
  last_divergence = divergence();
  if (!last_divergence.empty()) {
    if (move_body) place_body(0);
    body_step_start.clear();
    st = snapshot;
    return false;
  }
  ++st.frame;
  if (move_body) {
    ++st.motion_done;
    motion_frame_ready = false;
    st.body = body->mesh().positions;
  }
  end_frame_seams();
  update_corner_groups();
  if (move_body && self && motion_untangle_iterations > 0)
    untangler.untangle_everywhere(model, st.seam_joined, motion_untangle_iterations,
                                  0.25 * settings.thickness, st.x);
  else if (!move_body)
    untangle_released_garment();
  untangle_from_body();
  update_gravity();
  if (self) self->update_curvature(st.x, *ex);
  return true;
}

void ClothSimulation::Impl::end_frame_seams() {
  SeamJoinRules rules{settings.seam_join_distance, settings.stalled_seam_join_distance,
                      settings.seam_cap_growth, settings.seam_cap_max_scale};
  rules.corner_join_distance = 0.5 * settings.thickness;
  const TriangleMeshBvh* stall_body = st.gravity_on_frame >= 0 && body ? &body->tree() : nullptr;
  if (join_seam_pairs(model, st.x, rules, stall_body, near_seam_corner, st.corner_group, st.seam_joined,
                      st.seam_gap_prev, st.seam_cap_scale) > 0)
    st.last_join_frame = st.frame;
}

// A corner group that is closed, corner_pass_through_frames old, or still
// passing through itself when the run ends is untangled and handed back to
// self-collision (seam_corners.h).
void ClothSimulation::Impl::update_corner_groups(bool run_ends) {
  if (st.corner_group.empty() || !self) return;
  const bool release_all = st.frame >= settings.corner_pass_through_frames || run_ends;
  if (untangler.untangle_closed_groups(model, st.seam_joined, release_all, settings.untangle_iterations,
                                       0.25 * settings.thickness, st.x, st.corner_group))
    self->set_exempt_groups(st.corner_group);
}

bool ClothSimulation::Impl::all_joined() const {
  return std::all_of(st.seam_joined.begin(), st.seam_joined.end(), [](unsigned char b) { return b != 0; });
}

// Zero gravity while the seams close (GarmentCode's schedule): gravity comes on
// once every pair is joined or after zero_gravity_frames, and stays on.
void ClothSimulation::Impl::update_gravity() {
  if (st.gravity_on_frame >= 0) {
    // A stall resew has zero gravity until it ends or every pair is joined.
    if (resewing() && all_joined()) st.resew_end_frame = st.frame;
    st.gravity_scale = resewing() ? 0 : 1;
    return;
  }
  if (all_joined() || st.frame >= settings.zero_gravity_frames) {
    st.gravity_scale = 1;
    st.gravity_on_frame = st.frame;
  } else {
    st.gravity_scale = 0;
  }
}

// Seams open that stopped closing although the cloth still moves: a garment
// whose seams the body holds apart (sewn across it, or smaller than it) slides
// off or swings and never comes to rest, so the rule above never ends it and it
// ran to the frame limit (or a sweep's time limit). Progress is a pair joining
// or the open pairs' summed gap shrinking by kOpenGapProgress since the last
// progress; none for stalled_seam_frames frames after gravity came on ends the
// run as "stalled_seams", moving or not.
bool ClothSimulation::Impl::open_seams_stopped_closing(int first_frame) {
  constexpr double kOpenGapProgress = 0.05;
  if (st.gravity_on_frame < 0 || settings.stalled_seam_frames <= 0 || all_joined() || resewing())
    return false;
  if (moving()) {  // the body moves the cloth: no stall is told while it does
    st.open_gap_ref = -1;
    return false;
  }
  double gap = 0;
  for (std::size_t s = 0; s < model.seam_a.size(); ++s)
    if (!st.seam_joined[s]) gap += norm(st.x[model.seam_b[s]] - st.x[model.seam_a[s]]);
  if (st.open_gap_ref < 0 || gap < (1 - kOpenGapProgress) * st.open_gap_ref ||
      st.last_join_frame > st.gap_progress_frame) {
    st.open_gap_ref = gap;
    st.gap_progress_frame = st.frame;
    return false;
  }
  return st.frame - std::max<std::int64_t>(
                        {st.gap_progress_frame, st.gravity_on_frame, first_frame, st.resew_end_frame}) >=
         settings.stalled_seam_frames;
}

// A garment that cannot be worn (its seams sewn across the body, a twisted
// tube, a waist far wider than the body's) slides off the body once gravity is
// on, down to the feet, where it keeps crumpling and sewing itself into a heap:
// it never rests, its frames get slower as the heap's self-contacts grow, and it
// ran into the frame or time limit. Its top (cloth_top: the 90th percentile of
// the vertices' heights, so one flapping corner does not count) dropping by
// more than kFellOffFraction of the body's height below where it was placed,
// with its middle (the median height) dropping by at least half that, ends
// the run ("fell_off_body"). A garment that hangs keeps its top where it
// hangs from (waist, shoulders) while the rest drapes down; cloth larger than
// the body drapes over it with its top on it. A part placed high that comes
// down onto the rest (a hood lifted clear of the head, then lying on the
// back) lowers the top alone: the garment's middle stays. Once the body moves, the drop
// is counted net of the body's own at the point nearest the top when it
// started (a crouch lowers the hips and the skirt with them; lowered hands
// that push a loose skirt down to the feet do not lower the waist).
void ClothSimulation::Impl::anchor_fall_off() {
  st.fall_off_anchor = -1;
  if (!body || st.x.empty()) return;
  // The cloth vertex at the top's height now, then the body vertex nearest it.
  const double top = cloth_top(st.x);
  std::size_t at = 0;
  for (std::size_t i = 1; i < st.x.size(); ++i)
    if (std::abs(st.x[i].y - top) < std::abs(st.x[at].y - top)) at = i;
  const std::vector<Vec3>& b = body->mesh().positions;
  double best = std::numeric_limits<double>::infinity();
  std::int64_t anchor = -1;
  for (std::size_t j = 0; j < b.size(); ++j)
    if (const double d = squared_norm(b[j] - st.x[at]); d < best)
      best = d, anchor = static_cast<std::int64_t>(j);
  st.fall_off_anchor = anchor;
  if (anchor >= 0) st.fall_off_anchor_y = b[static_cast<std::size_t>(anchor)].y;
}

bool ClothSimulation::Impl::fell_off_body() const {
  constexpr double kFellOffFraction = 0.2;
  if (!body || st.gravity_on_frame < 0 || st.x.empty()) return false;
  if (!(rest_body_height > 0)) return false;
  const double body_drop =
      st.fall_off_anchor >= 0
          ? st.fall_off_anchor_y - body->mesh().positions[static_cast<std::size_t>(st.fall_off_anchor)].y
          : 0.0;
  const double scale = kFellOffFraction * rest_body_height;
  return start_top_y - cloth_top(st.x) - body_drop > scale &&
         start_middle_y - cloth_middle(st.x) - body_drop >= 0.5 * scale;
}

bool ClothSimulation::Impl::begin_resew() {
  if (st.resews >= settings.stall_resews) return false;
  const auto open = static_cast<std::int64_t>(std::count(st.seam_joined.begin(), st.seam_joined.end(), 0));
  if (st.resews > 0 && open >= st.resew_open_pairs) return false;  // the last one closed nothing
  st.resew_open_pairs = open;
  ++st.resews;
  st.resew_end_frame = st.frame + settings.resew_frames;
  st.gravity_scale = 0;
  st.open_gap_ref = -1;
  return true;
}

// x_prev is not restored: every step starts by setting it from st.x.
void ClothSimulation::Impl::keep_better_of_resew(SimulationState saved, double saved_moving_fraction,
                                                 DrapeResult& r) {
  const int resews = st.resews;
  SimulationState resewn = std::move(st);
  const auto restore = [&](SimulationState s) {
    st = std::move(s);
    if (self) {
      self->set_exempt_groups(st.corner_group);
      self->update_curvature(st.x, *ex);
    }
  };
  restore(std::move(saved));
  DrapeResult stalled_result = result(false, true, saved_moving_fraction);
  if (resewn_is_better(r.report, stalled_result.report)) {
    restore(std::move(resewn));
    r.report.resew_kept = true;
  } else {
    r = std::move(stalled_result);
    r.report.resew_kept = false;
  }
  r.report.resews = resews;
}

void ClothSimulation::Impl::advance_rest_window() {
  // The window restarts every kRestWindowFrames frames (and on the first),
  // from this frame's positions.
  if (st.window_lo.size() != st.x.size() || st.window_frames >= kRestWindowFrames) {
    st.window_lo = st.x;
    st.window_hi = st.x;
    st.window_frames = 1;
    return;
  }
  for (std::size_t i = 0; i < st.x.size(); ++i) {
    st.window_lo[i] = cwise_min(st.window_lo[i], st.x[i]);
    st.window_hi[i] = cwise_max(st.window_hi[i], st.x[i]);
  }
  ++st.window_frames;
}

DrapeResult ClothSimulation::Impl::run(const ClothProgressCallback& progress) {
  const auto t_run = Clock::now();
  const std::size_t n = model.vertex_count;
  bool equilibrium = false, stalled = false, fell_off = false;
  double moving_fraction = 1;
  const auto t_sps = Clock::now();
  const long long steps_at_start = st.steps;
  const int first_frame = resume_first_frame >= 0 ? resume_first_frame : st.frame;
  if (resume_first_frame < 0) {  // a new run: its own resews
    st.resews = 0;
    st.resew_end_frame = -1;
    st.resew_open_pairs = -1;
  }
  resume_first_frame = -1;
  // The garment at the run's first stall, kept aside while it is resewn (a
  // run resumed after its first resew has none: it ends with its resewn garment).
  std::optional<SimulationState> stalled_state;
  double stalled_moving_fraction = 1;
  st.run_first_frame = first_frame;
  const auto resew = [&](double moving) {
    if (st.resews == 0 && settings.stall_resews > 0) {
      stalled_state = st;
      stalled_moving_fraction = moving;
    }
    return begin_resew();
  };
  while (st.frame - first_frame <
         settings.max_frames + st.resews * (settings.resew_frames + settings.stalled_seam_frames)) {
    frame_start = st.x;
    if (!advance_frame()) {
      if (st.step_halvings >= settings.max_step_halvings) {
        std::ostringstream os;
        os << "cloth simulation diverged at frame " << st.frame << " (" << last_divergence << ") with "
           << integrator_name(settings.integrator) << " at dt = " << st.dt << " s after " << st.step_halvings
           << " step halvings; no result written";
        throw SolverError(os.str());
      }
      ++st.step_halvings;
      st.substeps *= 2;
      st.dt *= 0.5;
      continue;
    }
    advance_rest_window();
    std::size_t still_moving = 0;
    const double lim2 = settings.equilibrium_distance * settings.equilibrium_distance;
    // A vertex cycling in place (a seam junction whose contacts switch on and
    // off every few steps) moves every frame but goes nowhere: with enough
    // frames in the window, one whose end-of-frame positions stay in a box
    // under equilibrium_jitter is still. Six frames at least, so that cloth
    // drifting at equilibrium_distance per frame is never taken for it.
    const bool window_full = st.window_frames >= kRestWindowMinFrames && settings.equilibrium_jitter > 0;
    const double jitter2 = settings.equilibrium_jitter * settings.equilibrium_jitter;
    for (std::size_t i = 0; i < n; ++i)
      still_moving += squared_norm(st.x[i] - frame_start[i]) > lim2 &&
                      !(window_full && squared_norm(st.window_hi[i] - st.window_lo[i]) < jitter2);
    moving_fraction = n ? static_cast<double>(still_moving) / n : 0;
    if (progress) {
      ClothProgress p;
      p.stage = moving()                  ? "posing"
                : st.gravity_on_frame < 0 ? "sewing"
                : resewing()              ? "resewing"
                                          : "draping";
      p.frame = st.frame - first_frame;
      p.max_frames = settings.max_frames;
      p.steps_per_second = (st.steps - steps_at_start) / std::max(1e-9, seconds_since(t_sps));
      p.max_seam_gap = seam_gap();
      p.moving_fraction = moving_fraction;
      progress(p);
    }
    if (st.gravity_on_frame >= 0 && !resewing() &&
        st.frame - std::max({st.gravity_on_frame, first_frame, st.resew_end_frame}) >= settings.min_frames &&
        !moving() && 1 - moving_fraction >= settings.equilibrium_fraction) {
      if (all_joined()) {
        // At rest unless body crossings are held that the untangle is still
        // working on (body_untangle.cpp).
        if (!body_untangle_pending()) {
          equilibrium = true;
          break;
        }
      } else if (settings.stalled_seam_frames > 0 &&
                 st.frame - std::max(
                                {st.last_join_frame, st.gravity_on_frame, first_frame, st.resew_end_frame}) >=
                     settings.stalled_seam_frames) {
        // Still, but seams open that have not moved on for a while: more
        // frames would not close them (the report lists them).
        if (resew(moving_fraction)) continue;
        stalled = true;
        break;
      }
    }
    if (open_seams_stopped_closing(first_frame)) {
      if (resew(moving_fraction)) continue;
      stalled = true;
      break;
    }
    if (fell_off_body()) {
      fell_off = true;
      break;
    }
  }
  if (progress) {
    ClothProgress p;
    p.stage = "measuring";
    p.frame = st.frame - first_frame;
    p.max_frames = settings.max_frames;
    progress(p);
  }
  DrapeResult r = result(equilibrium, stalled, moving_fraction);
  if (fell_off) r.report.stop_reason = "fell_off_body";
  if (stalled_state)
    keep_better_of_resew(std::move(*stalled_state), stalled_moving_fraction, r);
  else
    r.report.resews = st.resews;
  r.report.times.total = seconds_since(t_run);
  return r;
}

}  // namespace drape

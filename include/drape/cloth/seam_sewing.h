#pragma once
// Sewing: the force that closes seam pairs, their joining, and what happens to
// a pair that stalls open.
//
// A seam pair (model.seam_a[s], model.seam_b[s]) is pulled together by the
// sewing force F = C_s |q - p| unit(q - p), capped at the fabric's
// sewing_force_max (M1 step 3; Blender's sewing spring). Under XPBD it is a
// zero-length constraint of compliance 1 / (C_s scale_s dt^2) whose
// multiplier is capped at sewing_force_max scale_s dt^2. Once the pair's gap
// drops below the join distance it is joined: a stiff constraint whose two
// sides are welded to their mass-weighted mean at the end of every step, and
// one vertex in the result mesh.
//
// After the zero-gravity phase a pair whose gap shrank by under 2 % in a frame
// is stalled. If the straight segment between its ends is clear of the body:
//  - it is joined when its gap is under the stalled join distance and the
//    sides are not held apart by cloth (no other cloth triangle crosses the
//    segment) and neither end is near a seam corner -- or the pair lies in a
//    corner passing through itself (seam_corners.h), whose cloth in between is
//    untangled once the corner is closed; near a corner, when its gap is
//    under the corner join distance and no cloth is between;
//  - it is joined, on the same conditions but for any gap under the seam's
//    edge there, when it is a pucker: its scale at the maximum and a joined
//    pair of its stitch on both sides of a short open run, or a shorter run
//    at the stitch's end with a joined pair on its other side (the last pair
//    of a shoulder seam held open by a tight neckline; bracketed_open_pairs);
//  - otherwise its scale (stiffness and cap) grows by the growth factor, up to
//    the maximum scale: a garment tighter than the body still closes. A
//    segment through the body keeps the cap, so that no seam drags cloth
//    through the body.
// Once the zero-gravity phase is over, the ends of every open pair slide on
// the body without friction (open_seam_ends): body friction is position-based
// and static below mu times the push into the body, so a pair lying on the
// body, pressed onto it by the garment's own tension, was held a few mm apart
// whatever its sewing force, and a pair astride a body crease (an armpit)
// could not slide round it. Sliding cannot drag cloth through the body (the
// body response still keeps every vertex outside), unlike a grown cap.

#include <vector>

#include "drape/cloth/cloth_model.h"
#include "drape/cloth/fabric.h"
#include "drape/core/executor.h"

namespace drape {

class TriangleMeshBvh;

/// The sewing force on seam_a[pair] (seam_b[pair] gets the opposite), N.
Vec3 sewing_force(const ClothModel& model, const Fabric& fabric, const std::vector<Vec3>& x, int pair);

/// One XPBD pass over the seam pairs, colour by colour (deterministic for a
/// vertex in several pairs). Joined pairs are stiff; open ones have the sewing
/// compliance and force cap, both scaled by cap_scale[pair].
/// \param lambda per pair its multiplier, accumulated over the step's iterations.
/// \param dt2 the step size squared, s^2.
void project_seam_constraints(const ClothModel& model, const Fabric& fabric,
                              const std::vector<unsigned char>& joined, const std::vector<double>& cap_scale,
                              double dt2, std::vector<double>& lambda, std::vector<Vec3>& x,
                              const Executor& ex);

/// Moves both sides of every joined pair to their mass-weighted mean (a pinned
/// side keeps its place) and marks them in `moved`, colour by colour.
void weld_joined_pairs(const ClothModel& model, const std::vector<unsigned char>& joined,
                       std::vector<Vec3>& x, std::vector<unsigned char>& moved, const Executor& ex);

/// True when the segment between cloth vertices a and b crosses a cloth
/// triangle that has neither of them (another layer lies between the two
/// sides). Brute force over the triangles.
bool cloth_between(const ClothModel& model, const std::vector<Vec3>& x, int a, int b);

/// Per vertex 1 when it is an end of an open pair: once gravity is on it
/// slides on the body without friction (see above). `ends` is resized to the
/// vertex count.
void open_seam_ends(const ClothModel& model, const std::vector<unsigned char>& joined,
                    std::vector<unsigned char>& ends);

struct SeamJoinRules {
  double join_distance = 0.001;          ///< any pair closer than this is joined, m
  double stalled_join_distance = 0.003;  ///< a stalled clear pair closer than this is joined, m (0 = off)
  double cap_growth = 1.1;               ///< per-frame factor on a stalled clear pair's scale
  double cap_max_scale = 30;             ///< the scale's limit
  /// A stalled clear pair whose cap is at its limit, in a run of at most this
  /// many open pairs of one stitch with a joined pair of that stitch on both
  /// sides, is joined when its gap is under the mean seam edge between those
  /// two (0 = off; bracketed_open_pairs in seam_sewing.cpp).
  int bracketed_run_max = 2;
  /// The same for a run of at most this many open pairs that reaches one end
  /// of its stitch, with a joined pair of the stitch on its other side (0 = off).
  int end_run_max = 1;
  /// A stalled clear pair within two rings of a seam corner is joined when its
  /// gap is under this, m, and no cloth lies between its ends: the two sides
  /// overlap within half the collision thickness, so the weld moves each by
  /// under a quarter of it, which cannot carry it through another layer that
  /// self-collision keeps a thickness away (0 = off; ClothSimulation: half
  /// ClothSettings::thickness).
  double corner_join_distance = 0.0015;
};

/// The seam's mean edge length (on the a side) over the run of open pairs of
/// pair s's stitch that holds s, with the joined pairs that bound it: when that
/// run is at most `run_max` pairs long and a joined pair of the same stitch
/// bounds it on both sides, or it is at most `end_run_max` long, reaches one
/// end of the stitch and a joined pair bounds its other side; else 0.
/// A stitch's pairs are consecutive and in order along the seam.
double bracketed_open_pairs(const ClothModel& model, const std::vector<Vec3>& x,
                            const std::vector<unsigned char>& joined, std::size_t s, int run_max,
                            int end_run_max = 0);

/// The end-of-frame seam pass (the rules above), in place on the per-pair
/// `joined`, `gap_prev` and `cap_scale`.
/// \param body the body's tree, or null: then only the join distance applies
///        (no stall handling: the zero-gravity phase, or no body).
/// \param near_corner per vertex 1 within two rings of a seam corner.
/// \param corner_group per vertex its passing-through corner group or -1; may be empty.
/// \return the number of pairs joined.
int join_seam_pairs(const ClothModel& model, const std::vector<Vec3>& x, const SeamJoinRules& rules,
                    const TriangleMeshBvh* body, const std::vector<unsigned char>& near_corner,
                    const std::vector<int>& corner_group, std::vector<unsigned char>& joined,
                    std::vector<double>& gap_prev, std::vector<double>& cap_scale);

}  // namespace drape

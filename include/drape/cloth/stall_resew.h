#pragma once
// Sewing again after a stall (docs/CLOTH.md "Sewing again after a stall").
//
// A run whose seams stop closing once gravity is on would end
// "stalled_seams". A tight garment lying on the body is the usual cause: its
// panels press on the body, position-based friction holds them where they
// hang, and the seam's capped sewing force cannot slide a whole panel up over
// a bust to close a shoulder seam. The same pairs close in the first frames,
// with no gravity and the panels not yet pressed on. So, up to
// ClothSettings::stall_resews times, the run sews again from where the cloth
// lies: ClothSettings::resew_frames frames of zero gravity in which no vertex
// has body friction (the body still keeps every vertex outside), ended early
// once every pair is joined; then gravity, friction and the stall rules
// start afresh.
//
// Sliding without friction can also carry an armhole edge into the crease
// between arm and torso, where the body's edges cut a cloth triangle. So the
// garment a run ends with is the resewn one only when resewn_is_better says
// so against the garment of the first stall, which the run keeps aside and
// goes back to otherwise: resewing never trades a crossing for a seam.

#include "drape/cloth/drape_report.h"

namespace drape {

/// True when `resewn` is a better garment than `stalled`: no more crossings
/// (vertices inside the body, body and self crossing pairs, summed), no more
/// open seam pairs, and fewer open pairs or, with as many, a widest gap under
/// 0.9 times the stalled one's. A resewn garment that fell off the body is
/// never better.
bool resewn_is_better(const DrapeReport& resewn, const DrapeReport& stalled);

}  // namespace drape

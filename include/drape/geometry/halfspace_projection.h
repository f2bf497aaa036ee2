#pragma once
// The point nearest a given point inside the intersection of a few
// half-spaces (a tiny quadratic programme, solved exactly).

#include <cstddef>

#include "drape/core/vec.h"

namespace drape {

/// One half-space {p : dot(normal, p) >= offset}; normal of unit length.
struct HalfSpace {
  Vec3 normal;
  double offset = 0;
};

/// The most half-spaces nearest_in_halfspaces() takes.
inline constexpr std::size_t kMaxHalfSpaces = 8;

/// The point of the intersection of hs[0..count) nearest p, into `out`;
/// false (out untouched) when the intersection is empty (within `tolerance`),
/// when count exceeds kMaxHalfSpaces, or when no exact answer is found
/// (degenerate sets). p itself when it lies in every half-space.
///
/// Exact: in 3D at most three constraints are active at the answer, so every
/// set of one to three half-spaces is tried as the active set (the point
/// nearest p on the intersection of their planes, with non-negative
/// multipliers), and the nearest of those lying in every half-space (within
/// `tolerance`) is the answer. At most 92 small solves for eight; the same
/// bits for the same input on any thread.
bool nearest_in_halfspaces(const Vec3& p, const HalfSpace* hs, std::size_t count, Vec3& out,
                           double tolerance = 1e-12);

}  // namespace drape

#pragma once
// The force law of a spring of the cloth model, the one place the solver,
// the energy and the fabric lab read it: linear with the spring's stiffness
// about its rest length, softer in compression for a stretch spring
// (buckling), and past each knee of a non-linear fabric's tensile curve a
// spring of the segment's stiffness and rest length (docs/FABRICS.md,
// "Non-linear stretch"). The tension is continuous in the length.

#include <cstddef>

#include "drape/cloth/cloth_model.h"

namespace drape {

/// The line a spring's tension follows at one length: T = stiffness (L - rest).
struct SpringSegment {
  double stiffness = 0;  ///< N/m
  double rest = 0;       ///< m
};

/// Spring s's segment at length L; `compression` is the fraction of its
/// stiffness a stretch spring keeps while shorter than its rest length
/// (ClothSettings::compression_stiffness).
inline SpringSegment spring_segment_at(const ClothModel& m, std::size_t s, double L, double compression) {
  const double k = m.spring_stiffness[s], rest = m.spring_rest[s];
  if (L < rest) return {m.spring_family[s] == SpringFamily::stretch ? k * compression : k, rest};
  if (!m.spring_knee_offsets.empty())
    for (int i = m.spring_knee_offsets[s + 1]; i-- > m.spring_knee_offsets[s];)
      if (L >= m.spring_knees[i].length) return {m.spring_knees[i].stiffness, m.spring_knees[i].rest};
  return {k, rest};
}

/// The tension of spring s at length L (negative in compression), N.
inline double spring_tension_at(const ClothModel& m, std::size_t s, double L, double compression) {
  const SpringSegment g = spring_segment_at(m, s, L, compression);
  return g.stiffness * (L - g.rest);
}

/// The energy stored in spring s at length L: the integral of its tension
/// from the rest length, J.
inline double spring_energy_at(const ClothModel& m, std::size_t s, double L, double compression) {
  const double rest = m.spring_rest[s], d = L - rest;
  if (L < rest || m.spring_knee_offsets.empty())
    return 0.5 * spring_segment_at(m, s, L, compression).stiffness * d * d;
  // Segment by segment: the first from the rest length, then each knee's.
  double e = 0, from = rest, k = m.spring_stiffness[s], r = rest;
  for (int i = m.spring_knee_offsets[s]; i < m.spring_knee_offsets[s + 1]; ++i) {
    const SpringKnee& knee = m.spring_knees[i];
    if (L < knee.length) break;
    e += 0.5 * k * ((knee.length - r) * (knee.length - r) - (from - r) * (from - r));
    from = knee.length;
    k = knee.stiffness;
    r = knee.rest;
  }
  return e + 0.5 * k * ((L - r) * (L - r) - (from - r) * (from - r));
}

}  // namespace drape

#pragma once
// Cubic edges for graded pattern outlines (pattern_grading.cpp): an edge of
// any kind as a cubic Hermite segment, and a cubic with given end points and
// tangent directions whose two handle lengths are fitted to sample points.

#include <vector>

#include "drape/pattern/pattern.h"

namespace drape {

/// An edge as a cubic Hermite segment: controls p0 + t0 / 3 and p1 - t1 / 3.
struct Hermite {
  Vec2 t0, t1;
};

/// The Hermite tangents of an edge: lines and quadratics raised exactly, an
/// arc as one cubic (handles 4/3 r tan(sweep / 4) along its tangents).
Hermite hermite_of(const EdgeGeometry& g);

/// The point at parameter t of the cubic Bezier (p0, c1, c2, p1).
Vec2 cubic_point(Vec2 p0, Vec2 c1, Vec2 c2, Vec2 p1, double t);

/// The parameter near `t` of the point of cubic (p0, c1, c2, p1) nearest q (Newton steps).
double nearest_parameter(Vec2 p0, Vec2 c1, Vec2 c2, Vec2 p1, Vec2 q, double t);

/// Handle lengths (a, b) of the cubic p0, p0 + a d0, p1 - b d1, p1 fitted by
/// least squares to points qs[i] at parameters ts[i]; false when the fit is
/// singular or a handle is not positive.
bool fit_handles(Vec2 p0, Vec2 d0, Vec2 d1, Vec2 p1, const std::vector<double>& ts,
                 const std::vector<Vec2>& qs, double& a, double& b);

}  // namespace drape

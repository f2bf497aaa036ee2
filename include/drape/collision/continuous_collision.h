#pragma once
// Continuous collision detection (CCD) of two primitives moving linearly over
// one step: a vertex against a triangle, and an edge against an edge. Each of
// the four points moves on a straight line from its position at the step's
// start (t = 0) to its position at the step's end (t = 1).
//
// Method: conservative advancement with a minimum separation (Mirtich 1996,
// "Impulse-based dynamic simulation of rigid body systems", ch. 4; in the form
// of Additive CCD, Li, Kaufman, Jiang, "Codimensional Incremental Potential
// Contact", ACM TOG 40(4), 2021, section 5, which works with a gap). The
// distance d(t) between the primitives is L-Lipschitz in t, where L is the
// largest relative displacement over the step of any point of one primitive
// against any point of the other (for linear motion, the largest difference of
// two corner displacements: a distance over barycentric weights is a minimum
// of convex functions whose slopes are bounded at the corners). From a time t
// with d(t) > gap, nothing can come within `gap` before t + (d(t) - gap) / L,
// so t advances by 0.9 of that (rounding never steps past the first contact)
// until either d(t) <= gap + tolerance (a hit at t), or the rest of the step
// cannot bring the primitives within the gap: d(t) - gap > L (1 - t) (no hit).
//
// Guarantees (for exact distances; the rounding of one distance evaluation is
// many orders below the 10 % step slack):
//  - no false negatives: when the primitives come within `gap` at some time in
//    [0, 1], a hit is reported;
//  - the reported time is at or before the first time they are within `gap`;
//  - at the reported time they are at most `gap + tolerance` apart, so a false
//    positive only reports a near miss within gap + tolerance;
//  - at most `kMaxCcdIterations` distance evaluations: after that the current
//    time is reported as a hit (still conservative; `capped` tells it).
// Each iteration advances t by at least 0.9 tolerance / L, so the count is
// bounded by about L / tolerance for motion grazing at just over the gap, and a
// few iterations for head-on approach (the gap shrinks tenfold per iteration).
// Zero relative motion (L = 0): a hit at 0 exactly when d(0) <= gap + tolerance.

#include "drape/core/vec.h"

namespace drape {

/// Most distance evaluations of one CCD query (see the header comment).
inline constexpr int kMaxCcdIterations = 4096;

/// The answer of a CCD query.
struct ContinuousContact {
  bool hit = false;     ///< the primitives come within gap + tolerance at `t`
  double t = 1;         ///< time of impact in [0, 1] (fraction of the step) when hit, else 1
  double distance = 0;  ///< distance between the primitives at `t`, m
  /// Unit direction from the second primitive (triangle, or edge b) towards the
  /// first (vertex, or edge a) between their closest points at `t`; zero when
  /// they touch (distance 0).
  Vec3 direction;
  /// Closest points at `t`: vertex-triangle: barycentrics (w0, w1, w2) of the
  /// triangle's corners; edge-edge: (s, u, 0) with the closest point of edge a
  /// at a0 + s (a1 - a0) and of edge b at b0 + u (b1 - b0).
  Vec3 weights;
  int iterations = 0;   ///< distance evaluations made
  bool capped = false;  ///< stopped at kMaxCcdIterations (a hit reported conservatively)
};

/// Earliest time at which vertex p comes within `gap` of triangle (a, b, c),
/// all four points moving linearly from their `*0` to their `*1` positions over
/// the step (t from 0 to 1). Positions in metres (any unit, used consistently).
/// \param gap minimum separation (>= 0), e.g. a tenth of the cloth thickness.
/// \param tolerance (> 0) how far above `gap` a reported contact may be: the
///        query stops once the distance is within gap + tolerance; smaller
///        costs more iterations for grazing motion.
/// Degenerate triangles (a segment or a point) are handled as such.
ContinuousContact vertex_triangle_ccd(const Vec3& p0, const Vec3& a0, const Vec3& b0, const Vec3& c0,
                                      const Vec3& p1, const Vec3& a1, const Vec3& b1, const Vec3& c1,
                                      double gap, double tolerance);

/// Earliest time at which edge a (from ea to eb) comes within `gap` of edge b
/// (from fa to fb), every endpoint moving linearly from its `*0` to its `*1`
/// position over the step.
/// Parallel and zero-length edges are handled. Units and arguments as for
/// vertex_triangle_ccd.
ContinuousContact edge_edge_ccd(const Vec3& ea0, const Vec3& eb0, const Vec3& fa0, const Vec3& fb0,
                                const Vec3& ea1, const Vec3& eb1, const Vec3& fa1, const Vec3& fb1,
                                double gap, double tolerance);

}  // namespace drape

#pragma once
// Splines whose vertices carry tangents and bone weights ("blines", after
// Synfig), deformed by bones (docs/METHODS.md "M3 Spline tangents under bones"), in 2D and 3D.
//
// A segment from vertex i to the next active vertex k is the cubic Bezier
//   P_i, P_i + T_out_i / 3, P_k - T_in_k / 3, P_k   (Hermite tangents).
// A vertex that is not split has T_in == T_out (the curve is C1 there).
//
// Tangent modes under bones:
// - Proposal 2 (default): T' = (V + T)' - V', with (.)' the vertex's own bone
//   blend. For a split vertex T_in and T_out are both transformed from their
//   original (rest) values, never one from the other's result.
// - Proposal 1 (2D, exactly as the method states it): V = Current -
//   (Next + Previous) / 2 with deformed positions, V0 the same with the rest
//   ("Link") positions; radius = Link.radius; angle = atan2(V.x, V.y) -
//   (atan2(V0.x, V0.y) - Link.angle); tangent = radius * (sin angle, cos angle)
//   (angles measured as atan2(x, y), from +y towards +x, so that the formula
//   and the tangent agree). Link.radius / Link.angle are the rest tangent's
//   length and angle (in and out separately for a split vertex). Neighbours
//   are the previous / next ACTIVE vertices (wrapping on a closed bline); an
//   open end uses its one neighbour (V = Current - Neighbour). Where V or V0
//   vanishes (three evenly spaced collinear points) the chord Next - Previous
//   replaces both. In 3D the angle difference becomes the shortest rotation
//   taking V0 to V.
// Inserting a vertex (insert_vertex) splits a segment by de Casteljau, so the
// rest curve is unchanged; under proposal 1 it changes its neighbours'
// Previous/Next and so how their tangents turn; under proposal 2 it changes
// nothing for the other vertices. A switched-off vertex (active = false) is
// skipped by the curve and by proposal 1's neighbour search; it still deforms.

#include <utility>
#include <vector>

#include "drape/core/mat3.h"
#include "drape/core/vec.h"

namespace drape {

struct Pose;

/// 2D affine map x -> m * x + t (a 2D bone's rest-to-posed transform).
struct Affine2 {
  double m[2][2] = {{1, 0}, {0, 1}};
  Vec2 t;
  Vec2 operator()(Vec2 p) const { return linear(p) + t; }
  Vec2 linear(Vec2 v) const { return {m[0][0] * v.x + m[0][1] * v.y, m[1][0] * v.x + m[1][1] * v.y}; }
};

/// A bone in the pattern plane: origin, direction angle (radians, standard
/// counter-clockwise from +x) and length (metres).
struct Bone2 {
  Vec2 origin;
  double angle = 0;
  double length = 1;
};

/// The transform taking points attached to `rest` to `posed`: rotation and
/// translation of the bone frame, scaled along the bone by posed.length /
/// rest.length and across it by `scale_across` (pattern grading).
Affine2 bone2_transform(const Bone2& rest, const Bone2& posed, double scale_across = 1);

template <class V>
struct BlineVertex {
  V point;
  V tangent_in;                                      ///< tangent arriving at the vertex
  V tangent_out;                                     ///< tangent leaving the vertex
  bool split = false;                                ///< false: tangent_in is tangent_out
  bool active = true;                                ///< false: switched off (skipped by the curve)
  std::vector<std::pair<int, double>> bone_weights;  ///< (bone, weight), sum 1; empty = fixed
};

template <class V>
struct Bline {
  std::vector<BlineVertex<V>> vertices;
  bool closed = false;

  /// Indices of active vertices in order.
  std::vector<int> active_indices() const;
  /// Samples the curve: `per_segment` points per segment (plus the last on an open bline).
  std::vector<V> sample(int per_segment) const;
  /// Inserts a vertex on the segment leaving active vertex `i` at Bezier
  /// parameter t in (0,1), exactly on the curve; the segment's end tangents
  /// are rescaled (and their vertices marked split when needed) so that the
  /// curve is unchanged. Bone weights are interpolated linearly. Returns the
  /// new vertex's index.
  /// \throw InvalidInput when i is not an active vertex with a next one, or t is outside (0,1).
  int insert_vertex(int i, double t);
};

using Bline2 = Bline<Vec2>;
using Bline3 = Bline<Vec3>;

enum class TangentMode {
  proposal2_global,      ///< default: T' = (V + T)' - V'
  proposal1_calculated,  ///< from deformed neighbours with Link radius and angle
};

/// Deforms a 2D bline by 2D bones (`bones[b]` is bone b's rest-to-posed map).
/// \throw InvalidInput when a weight names a missing bone.
Bline2 deform_bline(const Bline2& rest, const std::vector<Affine2>& bones,
                    TangentMode mode = TangentMode::proposal2_global);

/// Deforms a 3D bline by a skeleton pose (linear blend of the bones' rigid maps).
/// \throw InvalidInput when a weight names a missing bone.
Bline3 deform_bline(const Bline3& rest, const Pose& pose, TangentMode mode = TangentMode::proposal2_global);

/// Proposal 1's angle (2D) for one tangent, exactly as the method states it:
/// atan2(V.x, V.y) - (atan2(V0.x, V0.y) - link_angle).
double proposal1_angle(Vec2 v, Vec2 v0, double link_angle);
/// Link angle of a tangent in proposal 1's convention: atan2(t.x, t.y).
inline double link_angle_of(Vec2 t) { return std::atan2(t.x, t.y); }

/// Bone weights for 2D points: inverse distance^falloff to each bone segment,
/// the largest k kept, normalised.
std::vector<std::vector<std::pair<int, double>>> bone2_weights(const std::vector<Vec2>& points,
                                                               const std::vector<Bone2>& bones,
                                                               double falloff = 4, int k = 2);

}  // namespace drape

#pragma once
// Plane sections of a triangle mesh, split into their closed pieces (torso,
// arms, legs, ...), and the convex-hull perimeter of a piece: the girth a
// tape measure laid around it reads. The one way a body is cut: the landmark
// finders (body_frame.h, body_landmarks.h) and the body measurements read
// their levels, widths and girths from these sections.

#include <vector>

#include "drape/core/vec.h"
#include "drape/geometry/triangle_mesh.h"

namespace drape {

/// A cutting plane with an orthonormal 2D frame (u, v) in it.
/// Invariant: normal, u, v orthonormal.
struct SectionPlane {
  Vec3 origin;
  Vec3 normal{0, 1, 0};
  Vec3 u{1, 0, 0};  ///< 2D x axis of section coordinates
  Vec3 v{0, 0, 1};  ///< 2D y axis
  /// Section coordinates of a point (projected into the plane).
  Vec2 to_2d(const Vec3& p) const { return {dot(p - origin, u), dot(p - origin, v)}; }
};

/// The horizontal plane at height y (metres): section x = world x, section y = world z.
SectionPlane horizontal_plane(double y);
/// A plane through `origin` perpendicular to `normal` (any non-zero vector), with some u, v.
SectionPlane perpendicular_plane(const Vec3& origin, const Vec3& normal);

/// One connected piece of a section: the cut segments of the faces that meet
/// along shared edges (a closed loop for a closed mesh), in section coordinates.
struct SectionPiece {
  std::vector<Vec2> a, b;                     ///< segment i runs a[i] -> b[i]
  Vec2 lo{1e300, 1e300}, hi{-1e300, -1e300};  ///< 2D bounds
  /// True when p is inside the loop(s) (even-odd rule on the segments).
  bool contains(Vec2 p) const;
  /// Perimeter of the convex hull of the segment end points, metres.
  double hull_perimeter() const;
  Vec2 centre() const { return (lo + hi) * 0.5; }
};

/// Cuts every face of `mesh` crossing the plane. A vertex on the plane counts
/// as above it, so each face gives at most one segment. Pieces are joined by
/// shared mesh edges (not by proximity: an arm touching the torso stays its
/// own piece). Deterministic: pieces ordered by their first face.
std::vector<SectionPiece> section_pieces(const TriangleMesh& mesh, const SectionPlane& plane);
/// As above over the faces `faces` only (ids into mesh.faces, each at most once).
std::vector<SectionPiece> section_pieces(const TriangleMesh& mesh, const SectionPlane& plane,
                                         const std::vector<int>& faces);

/// The extent of one or more section pieces along the section's u axis (x for
/// a horizontal section) and along its v axis (z for a horizontal section).
struct SectionSpan {
  double lo = 0, hi = 0;      ///< along u
  double v_lo = 0, v_hi = 0;  ///< along v
  double middle() const { return 0.5 * (lo + hi); }
  bool covers(double u) const { return lo <= u && u <= hi; }
};

/// The spans a section covers along u, sorted by lo: pieces whose u-ranges
/// overlap, touch or come within `gap` (>= 0) of each other merge into one
/// span (an arm pressed against the torso is one span with the torso).
std::vector<SectionSpan> section_spans(const std::vector<SectionPiece>& pieces, double gap = 0);

/// Horizontal sections of one mesh at many heights: faces bucketed by their
/// y-range once, so each section visits only the faces near its plane.
/// Gives exactly section_pieces(mesh, horizontal_plane(y)). Keeps a reference to `mesh`.
class HorizontalSections {
 public:
  /// \param bucket bucket height, metres (> 0)
  explicit HorizontalSections(const TriangleMesh& mesh, double bucket = 0.004);
  std::vector<SectionPiece> at(double y) const;

 private:
  const TriangleMesh& mesh_;
  double y0_ = 0, bucket_ = 0.004;
  std::vector<std::vector<int>> faces_;  ///< per bucket, the faces whose y-range meets it
};

/// Perimeter of the convex hull of `points` (0 for fewer than 2 points; twice
/// the length for collinear points), by Andrew's monotone chain.
double convex_hull_perimeter(std::vector<Vec2> points);

}  // namespace drape

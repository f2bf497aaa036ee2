#pragma once
// Sewing patterns (docs/METHODS.md "Patterns and placement", step 12): panels bounded by closed loops of
// curved edges (lines, quadratic and cubic Beziers, circular arcs), each with a name, an alias deciding where
// it goes around the body (docs/METHODS.md "Patterns and placement", step 15), an optional 3D placement and a
// material; and stitches joining two edges (docs/METHODS.md "Meshing and springs", step 13).
//
// Everything is in metres. Panel coordinates are 2D with y up (the
// GarmentCode convention); the placed 3D point of a panel point (x, y) is
// R * (x, y, 0) + t with R = Rz * Ry * Rx from `rotation_deg`.

#include <cstdint>
#include <string>
#include <vector>

#include "drape/core/mat3.h"
#include "drape/core/vec.h"

namespace drape {

enum class EdgeCurve : std::uint8_t { line, quadratic, cubic, arc };

/// One directed edge of a panel outline, from vertex `start` to vertex `end`.
struct PanelEdge {
  int start = 0;  ///< index into Panel::vertices
  int end = 0;    ///< index into Panel::vertices
  EdgeCurve curve = EdgeCurve::line;
  /// Absolute control points in panel coordinates (metres): c1 for quadratic,
  /// c1 and c2 for cubic Beziers.
  Vec2 c1{}, c2{};
  /// Circular arc (SVG arc meaning): radius in metres; large_arc selects the
  /// arc longer than half the circle; right = the arc bulges to the right of
  /// the chord start->end (GarmentCode's `right` flag, its control point has v < 0).
  double radius = 0;
  bool large_arc = false;
  bool right = false;
  std::string label;  ///< free text kept for round trips (GarmentCode edge label)
};

/// Where a GarmentCode-like file's 3D placement was designed.
enum class SourceFrame : std::uint8_t {
  none,         ///< no 3D placement (e.g. SVG): alias placement only
  garmentcode,  ///< GarmentCode: 1.72 m body in A-pose, floor at y = 0, facing +Z, left at +X
  gpg,          ///< Garment-Pattern-Generator: SMPL-like T-pose body, floor at y = -1.121 m
};

std::string source_frame_name(SourceFrame f);

struct Panel {
  std::string name;
  std::vector<Vec2> vertices;    ///< metres, panel coordinates
  std::vector<PanelEdge> edges;  ///< closed loop, edge i ends where edge i+1 starts
  /// Placement in the file's 3D frame (metres); valid when has_placement.
  Vec3 translation{};
  Vec3 rotation_deg{};
  bool has_placement = false;
  /// Standard alias (see alias.h); empty = unknown. Inferred on load, user-overridable.
  std::string alias;
  bool alias_inferred = false;
  std::string label;     ///< GarmentCode panel label, kept for round trips
  std::string material;  ///< material name; empty = the garment's default
  /// Grain line (warp direction), degrees counter-clockwise from the panel's
  /// +y axis in its 2D frame; 0 = the pattern's vertical (neither GarmentCode
  /// nor GPG files carry a grain line; `drape dress --grain-angle` sets it).
  double grain_deg = 0;

  Mat3 rotation() const { return Mat3::from_euler_xyz_degrees(rotation_deg); }
  /// Placed 3D position (file frame) of a panel point.
  Vec3 to_3d(Vec2 p) const { return rotation() * Vec3{p.x, p.y, 0} + translation; }
};

/// One side of a stitch: edge `edge` of panel `panel` (indices into Pattern).
struct StitchSide {
  int panel = 0;
  int edge = 0;
};

/// Two edges sewn together. By default the END of side a meets the START of
/// side b (the edges run in opposite directions along the seam, as two
/// counter-clockwise panels do); with right_wrong the start meets the start.
struct Stitch {
  StitchSide a, b;
  bool right_wrong = false;
  /// Made by splitting a stitch in two (split_stitch): the seam goes on from
  /// another stitch at one end, and the vertex pair at that joint is sewn
  /// once (listed twice, both its vertices would count as seam corners). Not
  /// written to pattern files (GarmentCode has no such flag).
  bool continues_seam = false;
};

struct Pattern {
  std::string name;    ///< file stem
  std::string source;  ///< file it was read from (for messages)
  std::string sha256;  ///< of the file's bytes as read (hex; a seams sidecar not included)
  std::vector<Panel> panels;
  std::vector<Stitch> stitches;
  SourceFrame frame = SourceFrame::none;
  /// Units per metre of the file it was read from (GarmentCode units_in_meter).
  double units_in_meter = 100;
  /// Non-fatal findings made while loading (unknown alias, missing units, ...).
  std::vector<std::string> warnings;

  /// Index of the panel named `name`, or -1.
  int find_panel(const std::string& name) const;
};

// ---------------------------------------------------------------------------
// Edge geometry

/// Evaluable geometry of one edge (control points and arc centre resolved).
struct EdgeGeometry {
  EdgeCurve curve = EdgeCurve::line;
  Vec2 p0, p1;  ///< start, end
  Vec2 c1, c2;  ///< Bezier controls
  Vec2 centre;  ///< arc centre
  double radius = 0;
  double angle0 = 0;  ///< arc: angle of p0 about centre
  double sweep = 0;   ///< arc: signed swept angle (positive = counter-clockwise)

  /// Point at curve parameter t in [0, 1] (for arcs t is proportional to arc length).
  Vec2 point(double t) const;
  /// Derivative d point / dt.
  Vec2 derivative(double t) const;
  /// Exact arc length (arcs, lines) or Gauss-Legendre (Beziers, error < 1e-9 relative).
  double length() const;
  /// Exact value of (1/2) * integral of cross(p, dp) along the edge: summed
  /// over a closed loop, the signed enclosed area (Green's theorem).
  double area_integral() const;
  /// n + 1 points equally spaced in arc length, from p0 to p1 (exactly).
  std::vector<Vec2> sample_uniform(int n) const;
  /// Curve parameters of n + 1 points equally spaced in arc length.
  std::vector<double> uniform_parameters(int n) const;
  /// Largest distance between the curve and the chords of `n` equal-arc-length pieces.
  double chord_deviation(int n) const;
};

/// Geometry of edge e of panel p.
/// \throw InvalidInput when an arc's radius is not positive or the edge has zero length.
EdgeGeometry edge_geometry(const Panel& p, int e);

/// Exact signed area of a panel outline, m^2 (positive = counter-clockwise).
double panel_signed_area(const Panel& p);
/// Total length of a panel edge, metres.
double edge_length(const Panel& p, int e);

/// Checks a pattern: finite coordinates, closed outlines, indices in range,
/// no zero-length edges, no self-intersecting outline, stitches naming
/// existing panels and edges, arc radii.
/// \throw InvalidInput naming the source, the panel and the edge.
void validate_pattern(const Pattern& pattern);

}  // namespace drape

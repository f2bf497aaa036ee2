#pragma once
// Discretisation of a pattern into one triangle mesh (M1 steps 1-2, 13-14).
//
// Two methods:
//  - grid: the paper's regular quad grid clipped to the outline, each quad
//    split along its (i,j)-(i+1,j+1) diagonal, with the grid's structural,
//    shear and bend spring pairs; a thin band between the grid and the curved
//    outline is triangulated (constrained Delaunay) so the boundary follows
//    the curves exactly at the sample points.
//  - quality: near-equilateral triangles at the particle distance: the
//    outline sampled along its curves, a hexagonal lattice inside, a
//    constrained Delaunay triangulation and a few smoothing sweeps.
// Both sample every stitched edge pair at the same count (M1 step 13); a
// tiny seam step next to a plain seam point is absorbed (docs/PATTERNS.md).

#include <numeric>
#include <string>
#include <vector>

#include "drape/geometry/garment_mesh.h"
#include "drape/pattern/pattern.h"

namespace drape {

enum class MeshMethod { quality, grid };

struct MeshingOptions {
  MeshMethod method = MeshMethod::quality;
  /// Target distance between particles, metres (CLO: 10 mm final, 20 mm draft).
  double particle_distance = 0.01;
  /// The chords of the sampled outline stay within this fraction of the
  /// particle distance of the true curve (edges are refined until they do).
  double boundary_tolerance = 0.05;
  /// Warn when a seam's sides differ in length by more than this ratio.
  double seam_ratio_warning = 1.10;
  /// Laplacian smoothing sweeps of interior vertices (quality method only).
  int smoothing_iterations = 4;
};

/// Where a panel lies in the combined mesh.
struct PanelMeshRange {
  int first_vertex = 0, vertex_count = 0;
  /// The global ids of the panel's vertices, first_vertex onwards.
  std::vector<int> vertex_ids() const {
    std::vector<int> v(static_cast<std::size_t>(vertex_count));
    std::iota(v.begin(), v.end(), first_vertex);
    return v;
  }
  int first_face = 0, face_count = 0;
  /// Per panel edge: the global vertex ids along it from its start to its end.
  std::vector<std::vector<int>> edge_vertices;
  /// +1 when the outline runs counter-clockwise in panel coordinates, -1 when
  /// clockwise (rest positions are then mirrored in x, see GarmentMesh::rest).
  int orientation = 1;
  double area = 0;  ///< exact outline area, m^2
};

struct PatternMesh {
  /// The hand-over to the cloth. mesh.positions: the file's own 3D placement
  /// (metres, file frame) when every panel has one, else a flat layout;
  /// place_on_body() replaces them. mesh.uvs: pattern coordinates (metres).
  /// rest: an isometric copy of the pattern coordinates in which every
  /// triangle is counter-clockwise. Triangles are wound like the panel's
  /// outline, so face normals point to the panel's outside (GarmentCode's
  /// convention: the edge loop orientation defines the outward normal).
  GarmentMesh garment;
  std::vector<PanelMeshRange> panels;
  /// Per stitch: segments along each side (both sides have this many + 1
  /// vertices; seam_pairs holds one pair per vertex, except a vertex sewn to
  /// itself, e.g. a dart's tip). 0 for a tiny seam step absorbed into its
  /// neighbour (a stitched edge under half the particle distance next to a
  /// corner sewn to one other corner): one pair, its far corners.
  std::vector<int> seam_segments;
  std::vector<std::string> warnings;
};

/// Discretises every panel and matches the stitched edges.
/// \throw InvalidInput (from validate_pattern) for a malformed pattern, or
///        when particle_distance is not positive.
PatternMesh mesh_pattern(const Pattern& pattern, const MeshingOptions& options = {});

/// Lays the panels flat in the z = 0 plane (rest shape, left to right with
/// gaps), replacing mesh.positions: the "flat" mesh of `drape pattern mesh`.
void layout_flat(PatternMesh& mesh, double gap = 0.05);

}  // namespace drape

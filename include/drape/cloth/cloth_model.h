#pragma once
// The mass-spring model of a garment (M1 steps 1-2): point masses, springs
// (structural / shear / bend on the paper's grid, or edge + hinge springs on a
// general triangulation), dihedral hinges and seam pairs, stored as
// structure-of-arrays with per-vertex incidence lists for gathers.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "drape/cloth/fabric.h"
#include "drape/geometry/garment_mesh.h"

namespace drape {

/// How point masses are assigned (M1 step 1).
enum class MassModel : std::uint8_t {
  /// density * (area of incident rest triangles) / 3: exact for non-uniform meshes (default).
  area,
  /// The paper's: piece mass / point count, per panel (piece mass = density * panel area).
  uniform_per_panel,
};

/// How bending is modelled on a general triangulation.
enum class BendingModel : std::uint8_t {
  /// A spring between the two vertices opposite every interior edge (Provot-style).
  hinge_spring,
  /// Dihedral-angle bending force of Bridson et al. 2003, flat rest angle.
  dihedral,
  /// Quadratic (isometric) bending of Bergou et al. 2006 as an XPBD constraint
  /// per interior edge: linear in curvature, so the sheet's flexural rigidity is
  /// the fabric's B at every curvature and mesh size (docs/FABRICS.md). XPBD only.
  isometric,
  /// No bending.
  none,
};

/// How the fabric's stretch modulus Y maps to edge springs k = s Y A_e / L^2
/// on a general triangulation (A_e a third of the edge's incident rest area).
enum class StretchMapping : std::uint8_t {
  /// s = 1: a uniform dilation stores Y eps^2 / 2 per unit area (the first
  /// model). A strip pulled along one direction then answers with about Y / 3
  /// (equilateral mesh) to 0.4 Y (square grid), not Y (docs/FABRICS.md).
  dilation,
  /// s = 3: a strip of an equilateral mesh pulled along any direction answers
  /// with force per width Y eps, as a tensile test defines Y (Poisson's ratio 1/3).
  uniaxial,
};

/// How the in-plane stiffness (stretch and shear) reaches the solver
/// (docs/FABRICS.md, "Warp, weft and bias").
/// The default is `springs` for every fabric: `triangle` on the reference
/// garments moved their strain both ways (docs/FABRICS.md, "In the garments").
enum class StretchModel : std::uint8_t {
  /// Edge springs k = s Y(theta) A_e / L^2 by their angle to the grain: exact
  /// along the mesh's edge directions only (an isotropic fabric: the first model).
  springs,
  /// Per triangle, Baraff and Witkin's stretch conditions along warp and weft
  /// and their shear condition in the grain frame, as XPBD constraints with the
  /// warp, weft and shear moduli: the orthotropic Y(theta) on any mesh. XPBD
  /// only; a linear fabric only (stretch curves are refused).
  triangle,
};

/// "springs", "triangle".
const char* stretch_model_name(StretchModel model);
/// \throw InvalidInput for another name.
StretchModel parse_stretch_model(const std::string& name);

struct ClothModelOptions {
  MassModel mass = MassModel::area;
  StretchMapping stretch = StretchMapping::dilation;
  BendingModel bending = BendingModel::hinge_spring;
  /// Use the garment's grid_springs (structural/shear/bend) when present.
  bool use_grid_springs = true;
  StretchModel stretch_model = StretchModel::springs;
};

/// Spring family, stored per spring.
enum class SpringFamily : std::uint8_t { stretch, shear, bend };

/// A knee of a stretch spring's tensile curve (docs/FABRICS.md, "Non-linear
/// stretch"): from `length` on, the spring's tension is stiffness (L - rest).
struct SpringKnee {
  double length = 0;     ///< m: rest length (1 + the curve's knee strain)
  double stiffness = 0;  ///< N/m: the segment's slope over the first one's, times spring_stiffness
  double rest = 0;       ///< m: where the segment's line meets zero tension (continuity at the knee)
};

struct ClothModel {
  std::size_t vertex_count = 0;
  /// Triangles (as in the garment mesh).
  std::vector<Triangle> faces;
  std::vector<double> mass;      ///< kg per vertex
  std::vector<double> inv_mass;  ///< 1/mass, 0 for pinned vertices
  double total_mass = 0;

  // Springs (structure of arrays).
  std::vector<int> spring_a, spring_b;
  std::vector<double> spring_rest;       ///< rest length, m
  std::vector<double> spring_stiffness;  ///< Hooke constant k, N/m
  std::vector<double> spring_damping;    ///< damping coefficient, N s/m
  std::vector<SpringFamily> spring_family;
  /// Springs that measure edge strain (mesh edges / grid structural springs).
  std::vector<std::uint8_t> spring_is_edge;
  /// Non-linear stretch: spring s's knees are spring_knees[spring_knee_offsets[s]
  /// .. [s + 1]), by increasing length (CSR); both empty for a linear fabric.
  /// spring_law.h reads them.
  std::vector<int> spring_knee_offsets;
  std::vector<SpringKnee> spring_knees;

  /// CSR: the springs at vertex v are vertex_springs[vertex_spring_offsets[v] .. [v+1]).
  std::vector<int> vertex_spring_offsets, vertex_springs;

  /// Dihedral hinges: {opposite 1, opposite 2, edge a, edge b} (Bridson's x1, x2, x3, x4).
  std::vector<std::array<int, 4>> hinges;
  std::vector<double> hinge_stiffness;  ///< bending rigidity B * (rest |E|^2 / (|N1|+|N2|)) scale, N m
  /// CSR: hinge slots at vertex v: 4 * hinge + slot.
  std::vector<int> vertex_hinge_offsets, vertex_hinge_slots;

  /// Isometric bending (BendingModel::isometric): per interior edge the four
  /// vertices {edge a, edge b, opposite 1, opposite 2}, their cotangent weights K
  /// (sum K_i x_i is the edge's discrete curvature vector, zero on a flat rest)
  /// and the stiffness k: the energy is k |sum K_i x_i|^2 / 2.
  std::vector<std::array<int, 4>> bend_quads;
  std::vector<std::array<double, 4>> bend_weights;
  std::vector<double> bend_stiffness;  ///< N/m
  /// Colouring of bend_quads for parallel Gauss-Seidel (no two of a colour share a vertex).
  std::vector<int> bend_colour_offsets, bend_colour_quads;

  /// StretchModel::triangle (docs/FABRICS.md, "Warp, weft and bias"): the
  /// stretch (and grid shear) springs stay for the strain measures and the
  /// strain limit but the solver does not project them; instead every face f
  /// carries w_u = sum_i tri_weights[f][i] x_i and w_v = sum_i
  /// tri_weights[f][3 + i] x_i (the deformation gradient applied to the unit
  /// warp and weft of its flat rest, so both are unit vectors at rest) and the
  /// constraints |w_u| - 1, |w_v| - 1 and w_u . w_v with stiffness
  /// tri_stiffness[f] = (Y_warp A, Y_weft A, G A), A the rest area (N m).
  bool stretch_triangles = false;
  std::vector<std::array<double, 6>> tri_weights;
  std::vector<std::array<double, 3>> tri_stiffness;
  /// Colouring of the faces for parallel Gauss-Seidel (no two of a colour share a vertex).
  std::vector<int> tri_colour_offsets, tri_colour_faces;

  /// Seam pairs (zero rest length) and, per vertex, the pairs it takes part in (CSR).
  std::vector<int> seam_a, seam_b;
  /// Per seam pair: the garment's seam (stitch) it belongs to.
  std::vector<int> seam_stitch;
  std::vector<int> vertex_seam_offsets, vertex_seams;

  /// Per vertex: its panel's body-region mask.
  std::vector<std::uint32_t> vertex_regions;

  /// Colouring of the distance constraints (springs) for parallel Gauss-Seidel:
  /// springs of colour c are colour_springs[colour_offsets[c] .. [c+1]); no two share a vertex.
  std::vector<int> colour_offsets, colour_springs;
  /// Same for seam pairs.
  std::vector<int> seam_colour_offsets, seam_colour_pairs;
};

/// Checks that the stretch model `requested` can be built for this garment and
/// fabric under XPBD (`xpbd` false: another integrator) and returns it.
/// \throw InvalidInput when `triangle` is asked for and cannot be built: another
///        integrator, a fabric with stretch curves, a bias no orthotropic sheet
///        has, or a garment without a flat rest shape (no grain frame).
StretchModel resolve_stretch_model(const GarmentMesh& garment, const Fabric& fabric, StretchModel requested,
                                   bool xpbd);

/// Builds the model. Rest lengths and areas come from garment.rest (the flat
/// pattern) when present, else from the placed positions.
/// \throw InvalidInput when the garment is inconsistent (sizes, indices,
///        degenerate rest triangles, seam pairs out of range).
ClothModel build_cloth_model(const GarmentMesh& garment, const Fabric& fabric,
                             const ClothModelOptions& options = {});

/// Pins vertex v (infinite mass: inv_mass = 0).
void pin_vertex(ClothModel& model, int v);

}  // namespace drape

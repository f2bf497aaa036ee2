#pragma once
// The hand-over between the pattern module (which discretises and places
// panels) and the cloth module (which sews and drapes them): one triangle
// mesh holding every panel, with rest shape, seams and body regions.

#include <cstdint>
#include <string>
#include <vector>

#include "drape/geometry/triangle_mesh.h"

namespace drape {

/// Bits naming body regions (docs/METHODS.md "Patterns and placement", step 16: the body tree is restricted
/// by region).
namespace body_region {
constexpr std::uint32_t upper = 1u << 0;  ///< torso above the waist, neck
constexpr std::uint32_t lower = 1u << 1;  ///< hips and below the waist
constexpr std::uint32_t left = 1u << 2;   ///< the character's left (+X for MakeHuman)
constexpr std::uint32_t right = 1u << 3;
constexpr std::uint32_t front = 1u << 4;  ///< +Z for MakeHuman
constexpr std::uint32_t back = 1u << 5;
constexpr std::uint32_t left_arm = 1u << 6;
constexpr std::uint32_t right_arm = 1u << 7;
constexpr std::uint32_t left_leg = 1u << 8;
constexpr std::uint32_t right_leg = 1u << 9;
constexpr std::uint32_t head = 1u << 10;
constexpr std::uint32_t all = 0xffffffffu;
}  // namespace body_region

/// Kind of a spring pair emitted by the paper's grid discretisation (docs/METHODS.md "Meshing and springs",
/// step 2).
enum class SpringKind : std::uint8_t { structural, shear, bend };

struct SpringPair {
  int a, b;
  SpringKind kind;
};

/// Two vertices a seam pulls together (docs/METHODS.md "Forces and integration", step 3); rest length zero.
struct SeamVertexPair {
  int a, b;
  int seam = 0;  ///< index of the seam (stitch) this pair belongs to
};

struct GarmentMesh {
  /// Placed 3D positions (metres) and triangles of all panels. mesh.uvs may
  /// hold the pattern coordinates.
  TriangleMesh mesh;
  /// Rest (flat pattern) position of every vertex, metres, in its panel's plane.
  std::vector<Vec2> rest;
  /// Panel index of every vertex, into panel_names.
  std::vector<int> panel_of_vertex;
  std::vector<std::string> panel_names;
  /// Per panel: its grain line (the warp), radians counter-clockwise from the
  /// panel's +y axis in its rest (flat pattern) frame. Empty, or a panel past
  /// the end: +y (the pattern's vertical).
  std::vector<double> panel_grain;
  /// Per panel: the body regions it may touch (body_region bits; all = unrestricted).
  std::vector<std::uint32_t> panel_regions;
  /// Seam vertex pairs to sew.
  std::vector<SeamVertexPair> seam_pairs;
  /// Per seam: length ratio of its two sides (longer / shorter, >= 1; gathers > 1).
  std::vector<double> seam_length_ratio;
  /// Optional: the paper's explicit grid springs (structural, shear, bend).
  /// Empty for general triangulations: the cloth derives edge and bending springs.
  std::vector<SpringPair> grid_springs;
};

}  // namespace drape

#pragma once
// The strip tensile test (ISO 13934-1: a 50 mm strip, 200 mm between the
// clamps), under load: one clamp holds, the other carries the force per width
// the fabric's curve gives at each sample strain, and the strain the strip
// settles at is read between two sections in its middle, against the fabric's
// own curve (docs/FABRICS.md, "Tensile").

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "drape/cloth/cloth_model.h"
#include "drape/cloth/fabric.h"

namespace drape {

/// The direction the strip is cut in, relative to the fabric's grain.
enum class TensileDirection : std::uint8_t { warp, weft, bias };

/// "warp", "weft", "bias".
const char* tensile_direction_name(TensileDirection d);

struct TensileOptions {
  /// The strip's long axis runs along the warp, the weft or the bias (45
  /// degrees): the specimen's grain line is turned accordingly.
  TensileDirection direction = TensileDirection::warp;
  /// When set: the angle (radians) between the strip's long axis and the
  /// warp, in place of `direction` (the result's direction reads "angle").
  std::optional<double> grain_angle;
  /// The strip's mesh: false = equilateral triangles with an edge along its
  /// length (the per-edge springs are exact there); true = the same lattice
  /// turned 90 degrees, no edge along the length (edges at 30 and 90 degrees
  /// to it: the pull falls between the edge directions).
  bool across_edges = false;
  /// How the in-plane stiffness reaches the solver (ClothModelOptions).
  StretchModel stretch_model = StretchModel::springs;
  double particle_distance = 0.01;  ///< m
  double length = 0.2;              ///< between the clamps, m
  double width = 0.05;              ///< m
  /// Sample strains; empty = 0.5, 1, 2 and 3 % for a linear direction, and for
  /// a direction with a curve every point of it and every segment's middle.
  std::vector<double> strains;
  /// Steps per 1/60 s frame and XPBD iterations per step: a lab specimen is
  /// quasi-static, so the step is small enough that its stretch constraints
  /// are compliant (k dt^2 of the order of a vertex mass) and Gauss-Seidel
  /// converges to the elastic equilibrium (docs/FABRICS.md, "Solver").
  int substeps = 400;
  int iterations = 16;
  int max_frames = 300;
  double tolerance = 1e-8;  ///< settled: no vertex moves more than this in a frame, m
};

struct TensilePoint {
  double sample_strain = 0;           ///< the strain whose force on the fabric's curve the clamp carries
  double strain = 0;                  ///< simulated: the strip's strain in its middle under that load
  double force_per_width = 0;         ///< the load per width, N/m
  double fabric_force_per_width = 0;  ///< the fabric's curve in this direction at the simulated strain, N/m
  int frames = 0;                     ///< frames to settle (max_frames: it did not)
};

struct TensileResult {
  std::string fabric;
  std::string direction = "warp";  ///< warp, weft or bias; "angle" for TensileOptions::grain_angle
  /// The fabric's stretch modulus in this direction, N/m; at a grain_angle the
  /// model's Y(theta) (the springs' or the orthotropic sheet's).
  double modulus = 0;
  std::string stretch_model;  ///< "springs" or "triangle": the model the strip ran
  /// The fabric's curve in this direction (docs/FABRICS.md, "Non-linear
  /// stretch"): its points from (0, 0), N/m; empty for a linear direction.
  std::vector<StretchPoint> curve;
  std::vector<TensilePoint> points;
  double max_error = 0;  ///< largest |load / fabric's force at the simulated strain - 1|
};

/// \throw SolverError when the strip diverges.
TensileResult tensile_test(const Fabric& fabric, const TensileOptions& options = {});

}  // namespace drape

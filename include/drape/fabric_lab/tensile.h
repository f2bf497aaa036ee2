#pragma once
// The strip tensile test (ISO 13934-1: a 50 mm strip, 200 mm between the
// clamps): the clamps are drawn apart step by step and the force per width is
// read at the strip's middle, against the fabric's own curve.

#include <cstdint>
#include <string>
#include <vector>

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
  double particle_distance = 0.01;  ///< m
  double length = 0.2;              ///< between the clamps, m
  double width = 0.05;              ///< m
  std::vector<double> strains{0.005, 0.01, 0.02, 0.03};
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
  double strain = 0;                  ///< clamp separation / length - 1
  double force_per_width = 0;         ///< simulated, N/m
  double fabric_force_per_width = 0;  ///< the fabric's curve in this direction at this strain, N/m
};

struct TensileResult {
  std::string fabric;
  std::string direction = "warp";  ///< warp, weft or bias
  double modulus = 0;              ///< the fabric's stretch modulus in this direction, N/m
  std::vector<TensilePoint> points;
  double max_error = 0;  ///< largest |sim / fabric - 1|
};

/// \throw SolverError when the strip diverges.
TensileResult tensile_test(const Fabric& fabric, const TensileOptions& options = {});

}  // namespace drape

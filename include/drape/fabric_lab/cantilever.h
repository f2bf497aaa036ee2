#pragma once
// The cantilever bending test (ASTM D1388, Peirce 1930): a 25 mm strip held
// flat on a ledge is pushed over its edge until the chord from the edge to its
// tip makes 41.5 degrees with the horizontal; the bending length is half the
// overhang and the flexural rigidity G = w c^3.

#include <string>
#include <vector>

#include "drape/cloth/cloth_model.h"
#include "drape/cloth/fabric.h"
#include "drape/core/vec.h"

namespace drape {

struct CantileverOptions {
  double particle_distance = 0.01;  ///< m
  double width = 0.025;             ///< strip width, m (ASTM: 25 mm)
  /// XPBD iterations per step and steps per 1/60 s frame: small steps make
  /// the constraints compliant enough for Gauss-Seidel to reach the elastic
  /// equilibrium (docs/FABRICS.md, "Solver").
  int iterations = 4;
  int substeps = 400;
  int max_frames = 600;            ///< per overhang tried
  double tolerance = 1e-7;         ///< settled: no vertex moves more than this in a frame, m
  double angle_tolerance = 0.002;  ///< rad: the secant search stops this close to 41.5 degrees
  /// The bending model under test (the garments' hinge springs can be compared).
  BendingModel bending = BendingModel::isometric;
  /// The in-plane model of the strip (drape fabric test --stretch-model).
  StretchModel stretch_model = StretchModel::springs;
};

struct CantileverResult {
  std::string fabric;
  double weight = 0;                   ///< w = density g, N/m^2
  double flexural_rigidity = 0;        ///< the fabric's B, N m
  double bending_length_sim = 0;       ///< half the simulated overhang at 41.5 degrees, m
  double flexural_rigidity_sim = 0;    ///< w * (bending_length_sim * 2 / (L/c)_elastica)^3, N m
  double bending_length_peirce = 0;    ///< Peirce: c = (B / w)^(1/3), m
  double bending_length_elastica = 0;  ///< half the heavy elastica's overhang at 41.5 degrees, m
  double overhang_sim = 0;             ///< m
  double chord_angle_sim = 0;          ///< rad, at overhang_sim
  int overhangs_tried = 0;
  int frames = 0;  ///< frames simulated, all overhangs
  /// The settled strip at overhang_sim (x along the strip, y up), for the picture.
  std::vector<Vec3> centre_line;
};

/// Runs the test on `fabric`: the strip is clamped behind the ledge edge and
/// free beyond it (cantilever.cpp: where the edge is in the discrete strip);
/// overhangs are tried by the secant method until the tip's chord angle is
/// 41.5 degrees. centre_line is in the ledge's frame (edge at x = 0).
/// \throw SolverError when the strip diverges or the search does not converge.
CantileverResult cantilever_test(const Fabric& fabric, const CantileverOptions& options = {});

}  // namespace drape

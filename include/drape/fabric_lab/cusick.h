#pragma once
// The Cusick drape test (BS 5058, ISO 9073-9): a 30 cm circular specimen
// held between 18 cm discs drapes under its own weight; the drape coefficient
// is the share of the annulus the shadow covers,
//   DC = (A_shadow - A_disc) / (A_specimen - A_disc),
// and the node count the folds around its edge.

#include <string>
#include <vector>

#include "drape/cloth/cloth_model.h"
#include "drape/cloth/fabric.h"
#include "drape/geometry/triangle_mesh.h"
#include "drape/render/image.h"

namespace drape {

struct CusickOptions {
  double particle_distance = 0.01;  ///< m (ring spacing of the specimen mesh)
  double specimen_radius = 0.15;    ///< m
  double support_radius = 0.09;     ///< m
  /// Small steps, as for the strips: at 40 steps per frame cotton's
  /// coefficient came out 0.61, at 200-800 0.73-0.78 (docs/FABRICS.md).
  int substeps = 400;
  int iterations = 4;
  int max_frames = 600;
  double pixel = 0.0005;  ///< shadow raster, m
  /// The in-plane model of the specimen (drape fabric test --stretch-model).
  StretchModel stretch_model = StretchModel::springs;
};

struct CusickResult {
  std::string fabric;
  double drape_coefficient = 0;  ///< 0..1
  int nodes = 0;
  double shadow_area = 0;    ///< m^2
  double specimen_area = 0;  ///< m^2 (the mesh's rest area)
  double support_area = 0;   ///< m^2
  int frames = 0;
  int vertices = 0;
  /// The shadow seen from above: grey annulus shadow, dark support, specimen outline.
  Image shadow;
};

/// \throw SolverError when the specimen diverges.
CusickResult cusick_test(const Fabric& fabric, const CusickOptions& options = {});

/// Area of the union of the triangles' projections on the horizontal (x, z)
/// plane, by rasterising at `pixel` over [-extent, extent]^2; optionally the mask.
double projected_area(const std::vector<Vec3>& x, const std::vector<Triangle>& faces, double extent,
                      double pixel, std::vector<unsigned char>* mask = nullptr);

/// Folds around the edge: upward crossings of the mean by the edge radius r(angle),
/// with a hysteresis of a tenth of its range (a circle has none).
int count_nodes(const std::vector<double>& radius_by_angle);

}  // namespace drape

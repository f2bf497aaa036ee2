#include "drape/cloth/orthotropic.h"

namespace drape {

double orthotropic_shear_modulus(double warp, double weft, double bias) {
  const double inverse = 4 / bias - 1 / warp - 1 / weft;
  return inverse > 0 ? 1 / inverse : 0.0;
}

double fabric_orthotropic_shear_modulus(const Fabric& fabric) {
  return orthotropic_shear_modulus(fabric.stretch, fabric_stretch_weft(fabric), fabric_stretch_bias(fabric));
}

double orthotropic_stretch_at(double warp, double weft, double shear, double cos_squared) {
  const double c2 = cos_squared, s2 = 1 - cos_squared;
  return 1 / (c2 * c2 / warp + s2 * s2 / weft + c2 * s2 / shear);
}

}  // namespace drape

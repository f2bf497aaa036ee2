#pragma once
// The orthotropic sheet of the triangle stretch model (StretchModel::triangle,
// docs/FABRICS.md "Warp, weft and bias"): stretch moduli Y0 along the warp and
// Y90 along the weft, shear modulus G, no Poisson coupling (Baraff and
// Witkin's separate stretch and shear conditions). Its uniaxial modulus at the
// angle theta to the warp is
//     1 / Y(theta) = cos^4 / Y0 + sin^4 / Y90 + cos^2 sin^2 / G,
// so at 45 degrees 1 / Y45 = (1 / Y0 + 1 / Y90 + 1 / G) / 4: the bias modulus
// of a fabric file sets G.

#include "drape/cloth/fabric.h"

namespace drape {

/// G (N/m) from warp, weft and bias moduli: 1 / (4 / Y45 - 1 / Y0 - 1 / Y90);
/// 0 when no positive finite G gives that bias (Y45 >= 4 Y0 Y90 / (Y0 + Y90)).
double orthotropic_shear_modulus(double warp, double weft, double bias);

/// The fabric's G by its warp, weft and bias moduli (0: none).
double fabric_orthotropic_shear_modulus(const Fabric& fabric);

/// The sheet's uniaxial modulus Y(theta), theta from the warp given as
/// cos^2 theta (0..1), N/m.
double orthotropic_stretch_at(double warp, double weft, double shear, double cos_squared);

}  // namespace drape

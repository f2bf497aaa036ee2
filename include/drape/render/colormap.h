#pragma once
// The strain colour ramp shared by render.png's strain panel and the
// COLOR_0 attribute of scene.glb, so both show the same colours.

#include <span>

#include "drape/core/vec.h"

namespace drape {

/// Range of strain values mapped onto the ramp (values outside are clamped).
struct StrainRange {
  double min = 0.0;
  double max = 0.1;
};

/// Colour of `value` on the ramp blue -> cyan -> green -> yellow -> red over
/// `range` (components in [0,1]). A degenerate range maps everything to its
/// middle colour (green); NaN maps to grey.
Vec3 strain_color(double value, const StrainRange& range);

/// Converts a display (sRGB-encoded) colour to linear RGB. glTF's COLOR_0 and
/// baseColorFactor are linear: write srgb_to_linear(strain_color(...)) there so
/// viewers show the same colours as render.png.
Vec3 srgb_to_linear(const Vec3& srgb);

/// A range for displaying `strain` (dimensionless, e.g. 0.05 = 5 % stretch):
/// [min(0, 1st percentile), max(0, 99th percentile)], widened to at least
/// [0, 0.01] so a nearly unstrained garment does not show noise as full red.
/// Non-finite values are ignored. Deterministic (sorts a copy).
StrainRange auto_strain_range(std::span<const double> strain);

}  // namespace drape

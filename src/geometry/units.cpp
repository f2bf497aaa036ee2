#include "drape/geometry/units.h"

#include <algorithm>
#include <cctype>

#include "drape/core/strings.h"

namespace drape {

double metres_per_unit(LengthUnit unit) {
  switch (unit) {
    case LengthUnit::metre:
      return 1.0;
    case LengthUnit::decimetre:
      return 0.1;
    case LengthUnit::centimetre:
      return 0.01;
    case LengthUnit::millimetre:
      return 0.001;
    case LengthUnit::inch:
      return 0.0254;
  }
  return 1.0;
}

std::string unit_name(LengthUnit unit) {
  switch (unit) {
    case LengthUnit::metre:
      return "m";
    case LengthUnit::decimetre:
      return "dm";
    case LengthUnit::centimetre:
      return "cm";
    case LengthUnit::millimetre:
      return "mm";
    case LengthUnit::inch:
      return "in";
  }
  return "m";
}

std::optional<LengthUnit> parse_unit(const std::string& text) {
  const std::string t = to_lower(text);
  if (t == "m" || t == "metre" || t == "meter" || t == "metres" || t == "meters") return LengthUnit::metre;
  if (t == "dm" || t == "decimetre" || t == "decimeter") return LengthUnit::decimetre;
  if (t == "cm" || t == "centimetre" || t == "centimeter") return LengthUnit::centimetre;
  if (t == "mm" || t == "millimetre" || t == "millimeter") return LengthUnit::millimetre;
  if (t == "in" || t == "inch" || t == "inches") return LengthUnit::inch;
  return std::nullopt;
}

LengthUnit detect_unit_from_height(double h) {
  for (LengthUnit u :
       {LengthUnit::metre, LengthUnit::decimetre, LengthUnit::centimetre, LengthUnit::millimetre}) {
    const double m = h * metres_per_unit(u);
    if (m >= 0.3 && m <= 2.6) return u;
  }
  return LengthUnit::metre;
}

}  // namespace drape

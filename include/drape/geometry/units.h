#pragma once
// Length units. Everything inside drape is in metres; a unit is given or
// detected at input and applied again at output.

#include <optional>
#include <string>

namespace drape {

enum class LengthUnit { metre, decimetre, centimetre, millimetre, inch };

/// Metres per unit (e.g. centimetre -> 0.01).
double metres_per_unit(LengthUnit unit);
/// "m", "dm", "cm", "mm", "in".
std::string unit_name(LengthUnit unit);
/// Parses "m", "dm", "cm", "mm", "in" (and long names); nullopt when unknown.
std::optional<LengthUnit> parse_unit(const std::string& text);

/// Guesses the unit of a human-sized model from its height in file units:
/// the unit that makes it between 0.3 m and 2.6 m tall (metre first, then
/// decimetre, centimetre, millimetre, inch). MakeHuman's 17-unit body -> decimetre.
/// Returns metre when nothing fits (e.g. a small test shape).
LengthUnit detect_unit_from_height(double height_in_file_units);

}  // namespace drape

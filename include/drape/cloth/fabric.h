#pragma once
// Fabric parameters in physical units, presets for common cloths and a JSON
// file format for the user's own.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace drape {

/// A point of a tensile curve: strain (dimensionless) and force per width, N/m.
struct StretchPoint {
  double strain = 0;
  double force = 0;
  bool operator==(const StretchPoint&) const = default;
};

/// A homogeneous fabric. All values are SI.
struct Fabric {
  std::string name = "cotton";
  /// The fabric file it was read from (read_fabric_json), "" for a preset:
  /// errors found later (a stretch model that cannot take it) name the file.
  std::string source;
  /// Areal density, kg/m^2 (a fabric's "gsm" / 1000).
  double density = 0.14;
  /// In-plane stretch modulus Y, N/m (force per unit width per unit strain):
  /// along the warp (the grain line); the isotropic modulus when the two
  /// directions below are unset.
  double stretch = 12000;
  /// Stretch modulus along the weft (across the grain), N/m; unset = `stretch`.
  std::optional<double> stretch_weft;
  /// Stretch modulus on the bias (45 degrees to the grain), N/m; unset = the
  /// mean of warp and weft (docs/FABRICS.md, "Warp, weft and bias").
  std::optional<double> stretch_bias;
  /// Non-linear stretch (docs/FABRICS.md, "Non-linear stretch"): the tensile
  /// curve along the warp, the weft and the bias as points from (0, 0), strain
  /// and force strictly increasing, continued past the last point with the
  /// last segment's slope. Empty = linear with that direction's modulus; a
  /// bias without a curve or a modulus is the mean of the warp and weft
  /// curves. A direction with a curve has as modulus its first segment's
  /// slope (validate_fabric checks it).
  std::vector<StretchPoint> stretch_curve_warp, stretch_curve_weft, stretch_curve_bias;
  /// In-plane shear modulus G, N/m (used by the grid's shear springs).
  double shear = 50;
  /// Bending rigidity B, N*m (moment per unit width per unit curvature).
  double bending = 1.0e-5;
  /// Spring damping as a fraction of critical damping of one spring (0..1).
  double spring_damping = 0.02;
  /// Air damping, 1/s: F = -air_damping * m * v (a simulation parameter: a
  /// swinging hem settles within a few seconds at 1/s).
  double air_damping = 1.0;
  /// Coulomb friction coefficient against the body.
  double friction = 0.5;
  /// Sewing stiffness C_s of docs/METHODS.md "Forces and integration", step 3, N/m per seam pair (F = C_s |p
  /// - q|).
  double sewing_stiffness = 50;
  /// Largest sewing force per seam pair, N (like Blender's sewing_force_max).
  double sewing_force_max = 0.05;
};

/// The weft modulus (stretch_weft, else stretch), N/m.
double fabric_stretch_weft(const Fabric& fabric);
/// The bias modulus (stretch_bias, else the mean of warp and weft), N/m.
double fabric_stretch_bias(const Fabric& fabric);
/// True when warp, weft and bias moduli are all `stretch` and their curves
/// (if any) are the same: the fabric's in-plane stiffness does not depend on
/// the grain, and the cloth model takes the first (isotropic) path bit for bit.
bool fabric_stretch_isotropic(const Fabric& fabric);
/// True when no direction has a stretch curve: the fabric is linear and the
/// cloth model builds exactly the springs of the linear model.
bool fabric_stretch_linear(const Fabric& fabric);
/// The directional stretch modulus Y(theta) = a + b cos 2 theta + c cos 4 theta
/// through warp (theta = 0), bias (45 degrees) and weft (90 degrees), N/m, at
/// the angle theta from the grain given as cos^2 theta (0..1).
double fabric_stretch_at(const Fabric& fabric, double cos_squared);

/// Names of the built-in presets: "cotton", "poplin", "denim", "silk", "jersey" (alias "knit").
std::vector<std::string> fabric_preset_names();

/// A built-in preset by name.
/// \throw InvalidInput for an unknown name (the message lists the known ones).
Fabric fabric_preset(const std::string& name);

/// Reads a fabric from JSON: {"name": ..., "base": "cotton", "density": ..., ...}
/// with the field names of Fabric; missing fields come from `base` (default cotton).
/// \throw IoError when the file cannot be read.
/// \throw InvalidInput naming the file and the field for bad JSON, unknown fields,
///        non-numbers, and out-of-range values (e.g. density <= 0).
Fabric read_fabric_json(const std::filesystem::path& path);

/// Checks every value's range.
/// \throw InvalidInput naming `source` and the field.
void validate_fabric(const Fabric& fabric, const std::string& source);

}  // namespace drape

#pragma once
// MakeHuman's macro targets: sparse per-vertex offsets of base.obj that turn
// it into other bodies (female/male, age, muscle, weight, height,
// proportions), weighted by MakeHuman's rule (data/bodies/makehuman/targets/README.md):
// each macro value is split into category weights, a file's weight is the
// product of the weights of the categories in its name, and
// body = base + sum over files of weight * offsets (multilinear interpolation).

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "drape/core/vec.h"

namespace drape {

/// MakeHuman's macro sliders, each in 0..1, with MakeHuman's defaults.
/// Invariant (checked by validate_macro_values): all in 0..1, the three
/// ethnic shares sum to 1.
struct MacroValues {
  double gender = 0.5;       ///< 0 = female, 1 = male
  double age = 0.5;          ///< 0.5 = 25 years, 1 = 90 years (below 0.5 needs child/baby targets)
  double muscle = 0.5;       ///< 0 = min, 0.5 = average, 1 = max
  double weight = 0.5;       ///< 0 = min, 0.5 = average, 1 = max
  double height = 0.5;       ///< 0 = min, 0.5 = average, 1 = max
  double proportions = 0.5;  ///< 0 = uncommon, 0.5 = regular, 1 = ideal
  double african = 1.0 / 3, asian = 1.0 / 3, caucasian = 1.0 / 3;  ///< ethnic shares
};

/// The names accepted by macro_value(): gender, age, muscle, weight, height,
/// proportions, african, asian, caucasian.
const std::vector<std::string>& macro_value_names();

/// The value called `name` (see macro_value_names()).
/// \throw InvalidInput "unknown macro value 'x' (expected ...)" for any other name.
double& macro_value(MacroValues& values, std::string_view name);
double macro_value(const MacroValues& values, std::string_view name);

/// \throw InvalidInput naming `source` and the value when one is outside 0..1
///        or not finite, or the ethnic shares do not sum to 1 (within 1e-6).
void validate_macro_values(const MacroValues& values, const std::string& source = "macro values");

/// A target file and its weight.
struct TargetWeight {
  std::string file;  ///< relative to the targets folder, e.g.
                     ///< "macrodetails/universal-female-young-averagemuscle-maxweight.target"
  double weight = 0;
};

/// README step 1: a value x in 0..1 split into its (min, average, max) category weights:
/// min = max(0, 1 - 2x), max = max(0, 2x - 1), average = 1 - min - max.
struct CategorySplit {
  double min = 0, average = 1, max = 0;
};
CategorySplit split_macro_value(double x);

/// README steps 1 and 2: every target file with a non-zero weight, sorted by
/// file name. Ages below 0.5 give baby/child files (not bundled).
std::vector<TargetWeight> macro_target_weights(const MacroValues& values);

/// One sparse target as stored: offsets in the file's units (base.obj units, decimetres).
struct Target {
  std::vector<int> index;    ///< 0-based base.obj vertex ids
  std::vector<Vec3> offset;  ///< same size as index
};

/// Reads a .target file: `#` comments, data lines `index dx dy dz`; lines that
/// do not split into exactly four fields are skipped (as MakeHuman does).
/// \throw IoError when unreadable; InvalidInput "file:line: ..." for a
///        non-numeric field, a non-finite offset or an index outside 0..vertex_count-1.
Target read_target(const std::filesystem::path& path, std::size_t vertex_count);

/// A targets folder (data/bodies/makehuman/targets): files found directly or
/// through ALIASES.txt (identical files stored once), loaded on first use and kept.
class MacroTargets {
 public:
  /// \param dir the folder holding macrodetails/ (and ALIASES.txt when present)
  /// \param vertex_count base.obj's `v` count (19158), every index must be below it
  /// \param metres_per_unit metres per target unit (base.obj: decimetres, 0.1)
  /// \throw InvalidInput naming `dir` when it is not a folder with macrodetails/,
  ///        or ALIASES.txt is malformed.
  MacroTargets(std::filesystem::path dir, std::size_t vertex_count, double metres_per_unit = 0.1);

  /// The target called `file` (relative to the folder), resolved through the aliases.
  /// \throw InvalidInput naming the folder and the file when it is neither stored nor aliased;
  ///        as read_target otherwise.
  const Target& target(const std::string& file);

  /// base + sum of weight * offset over macro_target_weights(values), offsets
  /// converted to metres. `base` holds every base.obj vertex by file id, metres.
  /// \throw InvalidInput when base's size is not vertex_count, values are invalid
  ///        (validate_macro_values) or a needed file is missing.
  std::vector<Vec3> apply(const std::vector<Vec3>& base, const MacroValues& values);

  const std::filesystem::path& dir() const { return dir_; }
  std::size_t vertex_count() const { return vertex_count_; }

 private:
  std::filesystem::path dir_;
  std::size_t vertex_count_;
  double metres_per_unit_;
  std::map<std::string, std::string> aliases_;  ///< upstream name -> stored name
  std::map<std::string, Target> loaded_;
};

}  // namespace drape

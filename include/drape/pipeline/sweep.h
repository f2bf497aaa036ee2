#pragma once
// `drape sweep`: every pattern on every body, each pair the same job as
// `drape dress` (DressJob) in its own folder, summed up in a table
// (sweep.md, sweep.csv) and a contact sheet of the front views
// (contact_sheet.png), so a person sees at a glance what fails.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "drape/pipeline/dress_job.h"
#include "drape/render/contact_sheet.h"

namespace drape {

/// One pattern x body pair of a sweep.
struct SweepRow {
  std::string pattern, body;  ///< names: file stems (made unique within the sweep)
  std::filesystem::path pattern_path, body_path;
  std::filesystem::path dir;  ///< out_dir / "<pattern>__<body>"
  /// Empty when the dress job ran; else what it threw (bad input, divergence),
  /// one line. The measures below are then 0.
  std::string error;
  std::string stop_reason;  ///< equilibrium / stalled_seams / frame_limit (report.json)
  /// The fit check, one cell: "fits", "short: waist 6.9 cm, hip 4.6 cm",
  /// "graded" (or "graded, short: ..." when grading did not reach the body),
  /// "-" when the check could not run.
  std::string fit;
  std::size_t seams_joined = 0, seams_total = 0;
  double max_gap_m = 0;  ///< widest seam pair still open, metres
  /// `drape check` on the pair's garment.obj (pipeline/garment_check.h, no cone culling).
  std::size_t vertices_inside = 0, body_pairs = 0, self_pairs = 0;
  double strain_max = 0, strain_p99 = 0;  ///< edge tension max(L/L0 - 1, 0) (0.05 = 5 %)
  int frames = 0;
  double wall_s = 0;  ///< the dress job, the check and the thumbnail, seconds

  /// Equilibrium, every seam pair joined, 0 vertices inside, 0 crossing pairs.
  bool clean() const;
  /// The table's "stop" column: the stop reason, or "error: ..." .
  std::string status() const;
};

struct SweepResult {
  std::vector<SweepRow> rows;                  ///< patterns-major: (p0,b0), (p0,b1), ... (p1,b0) ...
  std::vector<std::filesystem::path> written;  ///< the sweep's own files (tables, sheet)
};

/// The pattern files named by command-line arguments: a file as it is; a
/// folder: every *.json directly inside it, sorted by name, except SVG seam
/// sidecars (*.seams.json). Order: arguments in order, duplicates dropped.
/// \throw InvalidInput naming an argument that does not exist, or a folder
///        without patterns; for no arguments.
std::vector<std::filesystem::path> expand_pattern_paths(std::span<const std::filesystem::path> args);

struct SweepJob {
  std::vector<std::filesystem::path> patterns;  ///< pattern files (see expand_pattern_paths)
  std::vector<std::filesystem::path> bodies;    ///< body meshes, anything `drape dress --body` reads
  std::filesystem::path out_dir;                ///< created when missing
  /// Settings every pair runs with (fabric, particle distance, cloth settings,
  /// executor ...); its body_path, pattern_path and out_dir are replaced per pair.
  DressJob dress;
  int jobs = 1;  ///< pairs run at once (each one runs on dress.cloth.executor)
  /// Wall-time limit per pair, seconds (0 = none): the pair's drape is stopped
  /// after the frame running when it passes and the row's error says
  /// "time limit"; loading and meshing are not cut short.
  double max_seconds = 0;
  /// Thumbnails: the front view of each pair, sized to the sheet's picture area.
  ContactSheetOptions sheet;
  /// Called after each pair (serialised), with the number done so far.
  std::function<void(const SweepRow&, std::size_t done, std::size_t total)> on_row;

  /// \throw InvalidInput for no patterns or bodies, a file that does not
  ///        exist, jobs < 1, max_seconds < 0, or no out_dir.
  void Validate() const;
  /// Runs every pair (each pair's folder is emptied first, so no file of an
  /// earlier sweep is taken for this one's); a pair that throws becomes a row with its error. The
  /// tables and the contact sheet are rewritten atomically after every pair
  /// (completed rows, in sweep order), so an interrupted sweep leaves them
  /// consistent with what finished.
  /// \throw InvalidInput as Validate; IoError when the sweep's files cannot be written.
  SweepResult Run() const;
};

/// The table as markdown: a header, one row per pair, then a legend line
/// (numbers refer to the contact sheet's cells).
std::string sweep_markdown(std::span<const SweepRow> rows);
/// The same columns as CSV (RFC 4180 quoting), a header line first.
std::string sweep_csv(std::span<const SweepRow> rows);

}  // namespace drape

#pragma once
// The whole job behind `drape dress` and `drape demo`: load the body and the
// pattern, place the panels by alias, mesh, sew and drape, optionally pose,
// measure, and write the results (garment.obj, scene.glb, render.png,
// report.json) into one folder.
//
// A plain job struct in the ozz-animation style: fill the inputs, call
// Validate(), then Run(); the outputs are in the returned DressResult.

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "drape/cloth/cloth_simulation.h"
#include "drape/geometry/units.h"

namespace drape {

/// One progress event for a terminal display.
struct DressProgress {
  std::string stage;  ///< "load", "mesh", "place", "sewing", "draping", "measure", "write"
  int frame = 0, max_frames = 0;
  double steps_per_second = 0;
  double seconds_left = -1;  ///< estimate, < 0 when unknown
};

/// What a dress run produced.
struct DressResult {
  TriangleMesh body;     ///< metres
  LengthUnit body_unit = LengthUnit::metre;  ///< the body file's unit (outputs use it)
  DrapeResult drape;     ///< garment mesh (metres), strain, report
  /// The full report (also written as report.json): inputs, hashes, settings,
  /// version, measures, times per stage. JSON text.
  std::string report_json;
  std::vector<std::string> warnings;
  std::vector<std::filesystem::path> written;  ///< files written, in order
};

struct DressJob {
  // --- inputs ---
  std::filesystem::path body_path;  ///< .obj/.gltf/.glb
  std::string body_group = "body";  ///< OBJ group ("" = all faces)
  std::optional<LengthUnit> body_unit;  ///< nullopt = detect
  std::filesystem::path pattern_path;   ///< GarmentCode .json or .svg (+ sidecar)
  std::map<std::string, std::string> aliases;  ///< panel -> alias overrides
  std::string fabric = "cotton";  ///< preset name or a fabric .json file
  double particle_distance = 0.02;  ///< m
  std::string mesh_method = "quality";  ///< "quality" or "grid" (the paper's)
  ClothSettings cloth;  ///< integrator, substeps, frame limit, thickness ...
  /// Fail (SolverError) when the run ends at the frame limit instead of equilibrium.
  bool strict = false;
  /// Where results go; created when missing. Empty = write nothing.
  std::filesystem::path out_dir;
  bool write_render = true;
  /// Optional progress display.
  std::function<void(const DressProgress&)> progress;

  /// Checks the inputs before any work.
  /// \throw InvalidInput naming the bad input.
  void Validate() const;

  /// Runs the job. Output files are written atomically, and only after the
  /// simulation succeeded.
  /// \throw InvalidInput / IoError for bad inputs, SolverError when the drape
  ///        diverged (or with `strict`, did not reach equilibrium).
  DressResult Run() const;
};

}  // namespace drape

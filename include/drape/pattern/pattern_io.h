#pragma once
// Reading and writing sewing patterns (docs/METHODS.md "Patterns and placement", step 12):
//  - GarmentCode / Garment-Pattern-Generator JSON specification (read and write),
//  - SVG paths as panels with a sidecar JSON for stitches and aliases (read),
//  - an SVG drawing of the flat panels with names, edge ids and seam labels.
// The formats are documented in docs/PATTERNS.md.

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "drape/pattern/pattern.h"

namespace drape {

struct PatternLoadOptions {
  /// SVG only: the sidecar JSON with stitches; empty = "<stem>.seams.json" beside
  /// the SVG when it exists (an SVG without one has no stitches).
  std::filesystem::path sidecar;
  /// Alias overrides: panel name -> alias (see alias.h).
  std::map<std::string, std::string> aliases;
  /// The 3D frame the file's placement was designed in; nullopt = detect
  /// (GPG when a panel reaches below y = -5 cm, else GarmentCode).
  std::optional<SourceFrame> frame;
};

/// Reads a pattern by extension: .json (GarmentCode) or .svg (+ sidecar),
/// validates it, infers aliases (warning for panels without one) and applies
/// the overrides.
/// \throw IoError when the file cannot be read; InvalidInput for malformed
///        content, naming the file, panel and edge.
Pattern load_pattern(const std::filesystem::path& path, const PatternLoadOptions& options = {});

/// Parses GarmentCode JSON text (comments allowed). `source` names it in messages.
/// Does not validate geometry (load_pattern does).
/// \throw InvalidInput for non-JSON text, wrong types, unknown curvature types,
///        stitches naming missing panels or edges.
Pattern parse_garmentcode(const std::string& text, const std::string& source);

/// GarmentCode JSON text of a pattern (units_in_meter 100, relative curvature).
std::string garmentcode_json(const Pattern& pattern);
/// Writes garmentcode_json atomically.
/// \throw IoError when it cannot be written.
void write_garmentcode(const std::filesystem::path& path, const Pattern& pattern);

/// Parses an SVG document's paths as panels (see docs/PATTERNS.md), with the
/// optional sidecar JSON text (empty = none).
/// \throw InvalidInput for malformed XML, path data or sidecar.
Pattern parse_svg_pattern(const std::string& svg_text, const std::string& sidecar_text,
                          const std::string& source);

/// An SVG drawing of the flat panels (names, edge ids, seam labels), for a person to read.
std::string pattern_drawing_svg(const Pattern& pattern);

/// Infers missing aliases (with a warning for panels left without one) and
/// applies `overrides` (panel name -> alias).
/// \throw InvalidInput when an override names a missing panel or an unknown alias.
void assign_aliases(Pattern& pattern, const std::map<std::string, std::string>& overrides);

}  // namespace drape

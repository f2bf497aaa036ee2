#pragma once
// A contact sheet: many small images in one grid, each cell with a label and a
// red/green status marker, so a person sees at a glance which ones failed
// (used by `drape sweep` for the front view of every pattern x body pair).

#include <span>
#include <string>

#include "drape/render/image.h"

namespace drape {

/// One cell of the sheet.
struct ContactCell {
  /// The picture; may be empty (e.g. a pair that failed before rendering): the
  /// cell then shows `empty_text` on the background, wrapped to the cell width.
  Image image;
  /// Up to a few lines ('\n'), drawn in the label strip under the picture;
  /// each line is cut with ".." to the cell width.
  std::string label;
  bool ok = false;  ///< marker colour: green when ok, red otherwise
  std::string empty_text = "no image";
};

struct ContactSheetOptions {
  /// Size of one cell in pixels, label strip included: the picture area is
  /// cell_width x (cell_height - label_height).
  int cell_width = 200;
  int cell_height = 360;
  int label_height = 40;
  /// Cells per row at most; the sheet has min(n, columns) columns and
  /// ceil(n / columns) rows, so it is exactly (columns x cell_width) by
  /// (rows x cell_height) pixels.
  int columns = 6;
  int marker_size = 14;  ///< side of the square status marker, top-left of the cell
};

/// Lays the cells out row by row in the given order. A picture of another size
/// than the picture area is centred and clipped (not scaled).
/// \throw InvalidInput for no cells or options out of range (sizes < 1, a
///        label strip as tall as the cell, a marker larger than the cell).
Image contact_sheet(std::span<const ContactCell> cells, const ContactSheetOptions& options = {});

}  // namespace drape

// contact_sheet(): the grid's size, where each picture lands and the marker
// colours, against positions worked out by hand from the documented layout.

#include "drape/render/contact_sheet.h"

#include <gtest/gtest.h>

#include <vector>

#include "drape/core/exceptions.h"

using drape::ContactCell;
using drape::ContactSheetOptions;
using drape::Image;
using drape::Rgb8;

TEST(ContactSheet, GridSizePicturesAndMarkers) {
  ContactSheetOptions o;
  o.cell_width = 50;
  o.cell_height = 80;
  o.label_height = 20;
  o.columns = 3;
  o.marker_size = 6;
  // 7 cells -> 3 columns, 3 rows. Cell i holds a 10 x 10 picture of grey level 10 i.
  std::vector<ContactCell> cells(7);
  for (int i = 0; i < 7; ++i) {
    const auto g = static_cast<std::uint8_t>(10 * i);
    cells[static_cast<std::size_t>(i)].image = Image(10, 10, Rgb8{g, g, g});
    cells[static_cast<std::size_t>(i)].ok = i % 2 == 0;
    cells[static_cast<std::size_t>(i)].label = std::to_string(i);
  }
  cells[5].image = Image();  // a failed pair: no picture
  const Image s = drape::contact_sheet(cells, o);
  EXPECT_EQ(s.width, 3 * 50);
  EXPECT_EQ(s.height, 3 * 80);
  for (int i = 0; i < 7; ++i) {
    const int x0 = (i % 3) * 50, y0 = (i / 3) * 80;
    // Picture area 50 x 60: a 10 x 10 picture is centred at (20..29, 25..34).
    const auto g = static_cast<std::uint8_t>(10 * i);
    if (i != 5) {
      EXPECT_EQ(s.at(x0 + 25, y0 + 30), (Rgb8{g, g, g})) << i;
    } else {
      EXPECT_EQ(s.at(x0 + 25, y0 + 45), (Rgb8{255, 255, 255})) << i;  // background, no picture
    }
    // Marker: 6 x 6 at (3, 3) of the cell.
    const Rgb8 m = s.at(x0 + 5, y0 + 5);
    if (i % 2 == 0) {
      EXPECT_GT(m.g, m.r) << i;
    } else {
      EXPECT_GT(m.r, m.g) << i;
    }
  }
  // The two cells after the last one (row 3, columns 2 and 3) stay background.
  EXPECT_EQ(s.at(1 * 50 + 25, 2 * 80 + 30), (Rgb8{255, 255, 255}));
  // Fewer cells than columns: the sheet is one row of them.
  const Image one = drape::contact_sheet(std::span(cells).first(2), o);
  EXPECT_EQ(one.width, 2 * 50);
  EXPECT_EQ(one.height, 80);
}

TEST(ContactSheet, RejectsNoCellsAndBadOptions) {
  EXPECT_THROW(drape::contact_sheet({}), drape::InvalidInput);
  std::vector<ContactCell> cells(1);
  ContactSheetOptions o;
  o.label_height = o.cell_height;
  EXPECT_THROW(drape::contact_sheet(cells, o), drape::InvalidInput);
  o = {};
  o.columns = 0;
  EXPECT_THROW(drape::contact_sheet(cells, o), drape::InvalidInput);
}

// sweep.md and sweep.csv: the same columns, one row per pattern x body pair.

#include <array>
#include <cstdio>
#include <string>

#include "drape/pipeline/sweep.h"

namespace drape {
namespace {

constexpr std::array<const char*, 15> kColumns{"#",
                                               "pattern",
                                               "body",
                                               "stop",
                                               "fit",
                                               "seams joined/total",
                                               "widest gap mm",
                                               "vertices inside",
                                               "body crossings",
                                               "self crossings",
                                               "strain max %",
                                               "strain p99 %",
                                               "frames",
                                               "wall s",
                                               "clean"};

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// The row's cells, in kColumns order; the measures are "-" for an error row.
std::array<std::string, kColumns.size()> cells(const SweepRow& r, std::size_t index) {
  const bool ran = r.error.empty();
  auto num = [&](std::string s) { return ran ? s : std::string("-"); };
  return {std::to_string(index + 1),
          r.pattern,
          r.body,
          r.status(),
          num(r.fit),
          num(std::to_string(r.seams_joined) + "/" + std::to_string(r.seams_total)),
          num(fixed(r.max_gap_m * 1000, 1)),
          num(std::to_string(r.vertices_inside)),
          num(std::to_string(r.body_pairs)),
          num(std::to_string(r.self_pairs)),
          num(fixed(r.strain_max * 100, 1)),
          num(fixed(r.strain_p99 * 100, 1)),
          num(std::to_string(r.frames)),
          fixed(r.wall_s, 1),
          r.clean() ? "yes" : "no"};
}

std::string markdown_cell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string sweep_markdown(std::span<const SweepRow> rows) {
  std::string out = "|";
  for (const char* c : kColumns) out += std::string(" ") + c + " |";
  out += "\n|";
  for (std::size_t k = 0; k < kColumns.size(); ++k) out += k < 4 ? "---|" : "---:|";
  out += "\n";
  std::size_t clean = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out += "|";
    for (const std::string& c : cells(rows[i], i)) out += " " + markdown_cell(c) + " |";
    out += "\n";
    clean += rows[i].clean() ? 1 : 0;
  }
  out += "\n" + std::to_string(clean) + " of " + std::to_string(rows.size()) +
         " pairs clean (equilibrium, every seam joined, 0 vertices inside, 0 cloth-body and 0 self crossing "
         "pairs by `drape check`). `#` is the cell of contact_sheet.png, row by row.\n";
  return out;
}

std::string sweep_csv(std::span<const SweepRow> rows) {
  std::string out;
  for (std::size_t k = 0; k < kColumns.size(); ++k) out += (k ? "," : "") + csv_cell(kColumns[k]);
  out += "\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto c = cells(rows[i], i);
    for (std::size_t k = 0; k < c.size(); ++k) out += (k ? "," : "") + csv_cell(c[k]);
    out += "\n";
  }
  return out;
}

}  // namespace drape

#pragma once
// The body options every command that reads a body shares: --group, --unit
// (or --body-unit), --up, --front; turned into drape::BodyLoadOptions.

#include <CLI/CLI.hpp>
#include <string>

#include "drape/body/body_loader.h"
#include "drape/core/exceptions.h"
#include "drape/geometry/units.h"

namespace drape::cli {

struct BodyCliOptions {
  std::string group, unit, up, front;
  CLI::Option* group_option = nullptr;
  std::string unit_flag = "--unit";

  /// Adds the options to `app`; `unit_flag` names the unit option (e.g.
  /// "--body-unit" where --unit means something else).
  void add_to(CLI::App& app, const std::string& unit_option = "--unit") {
    unit_flag = unit_option;
    group_option = app.add_option("--group", group,
                                  "OBJ group of the body (default: 'body' when the file has it, else all "
                                  "faces; '' = all faces)");
    app.add_option(unit_flag, unit, "Unit of the body file (m, dm, cm, mm, in; default: detect)");
    app.add_option("--up", up, "The body file's up axis (+x, -x, +y, -y, +z, -z; default: detect)");
    app.add_option("--front", front, "The axis the body faces in its file (default: detect)");
  }

  /// \throw InvalidInput naming the option for an unknown unit or axis.
  BodyLoadOptions load_options() const {
    BodyLoadOptions o;
    if (group_option && group_option->count() > 0) o.group = group;
    if (!unit.empty()) {
      o.unit = parse_unit(unit);
      if (!o.unit) throw InvalidInput(unit_flag + ": unknown unit '" + unit + "' (m, dm, cm, mm, in)");
    }
    if (!up.empty()) o.up = parse_signed_axis(up, "--up");
    if (!front.empty()) o.front = parse_signed_axis(front, "--front");
    return o;
  }
};

}  // namespace drape::cli

// drape.load_body and drape.load_pattern: the body loader and pattern reader
// every command uses, with their results as Python objects.

#include <pybind11/stl.h>

#include "bindings.h"
#include "drape/geometry/units.h"
#include "drape/pattern/pattern_io.h"

namespace drape::python {

void bind_body_pattern(py::module_& m) {
  py::class_<Body>(m, "Body",
                   "A body as drape reads it: in drape's canonical frame (metres, +Y up, facing +Z).\n"
                   "`unit` and `axes` say how the file itself is written.")
      .def_property_readonly(
          "vertices", [](const Body& b) { return points_array(b.mesh.positions); },
          "(n, 3) float64: vertex positions, metres, canonical frame (+Y up, facing +Z)")
      .def_property_readonly(
          "faces", [](const Body& b) { return faces_array(b.mesh); },
          "(m, 3) int32: triangles as vertex indices, counter-clockwise seen from outside")
      .def_property_readonly(
          "file_vertices",
          [](const Body& b) {
            return points_array(b.in_file_frame(b.mesh).positions, 1.0 / metres_per_unit(b.file_unit));
          },
          "(n, 3) float64: the same vertices in the file's own frame and unit")
      .def_property_readonly(
          "unit", [](const Body& b) { return unit_name(b.file_unit); },
          "the file's unit: m, dm, cm, mm or in")
      .def_readonly("unit_detected", &Body::unit_detected, "True when the unit was detected, not given")
      .def_property_readonly(
          "axes", [](const Body& b) { return b.axes.describe(); }, "the file's axes, e.g. '+y up, facing +z'")
      .def_property_readonly(
          "up", [](const Body& b) { return to_string(b.axes.up); }, "the file's up axis, e.g. '+y'")
      .def_property_readonly(
          "front", [](const Body& b) { return to_string(b.axes.front); },
          "the axis the body faces in the file")
      .def_readonly("axes_detected", &Body::axes_detected, "True when the axes were detected, not given")
      .def_readonly("group", &Body::group, "the OBJ group read ('' = every face)")
      .def_readonly("groups", &Body::groups, "the OBJ groups in the file")
      .def_readonly("sha256", &Body::sha256, "SHA-256 of the file's bytes (hex)")
      .def_property_readonly(
          "path", [](const Body& b) { return b.source.string(); }, "the file it was read from")
      .def("__repr__", [](const Body& b) {
        return "<drape.Body " + b.source.filename().string() + ": " + std::to_string(b.mesh.vertex_count()) +
               " vertices, " + std::to_string(b.mesh.face_count()) + " triangles, " + unit_name(b.file_unit) +
               ", " + b.axes.describe() + ">";
      });

  m.def(
      "load_body",
      [](const std::string& path, std::optional<std::string> group, std::optional<std::string> unit,
         std::optional<std::string> up, std::optional<std::string> front) {
        const BodyLoadOptions o = body_options(group, unit, up, front);
        py::gil_scoped_release release;
        return load_body(path, o);
      },
      py::arg("path"), py::arg("group") = py::none(), py::arg("unit") = py::none(),
      py::arg("up") = py::none(), py::arg("front") = py::none(),
      "Reads a body (.obj, .gltf, .glb) as every drape command does.\n\n"
      "path: the body file. group: OBJ group to read (None: 'body' when the file has it,\n"
      "else every face; '' = every face). unit: the file's unit ('m', 'dm', 'cm', 'mm', 'in';\n"
      "None = detect from the height). up, front: the file's up axis and the axis the body\n"
      "faces ('+y', '-z', ...; None = detect).\n"
      "Returns a Body. Raises OSError when the file cannot be read, ValueError for bad\n"
      "content or arguments (the message names the file and what is wrong).");

  py::class_<Pattern>(m, "Pattern",
                      "A sewing pattern: panels (metres, flat) and the stitches between their edges.")
      .def_readonly("name", &Pattern::name, "the file's stem")
      .def_property_readonly(
          "path", [](const Pattern& p) { return p.source; }, "the file it was read from")
      .def_property_readonly(
          "panel_names",
          [](const Pattern& p) {
            std::vector<std::string> n;
            for (const Panel& panel : p.panels) n.push_back(panel.name);
            return n;
          },
          "panel names, in file order")
      .def_property_readonly(
          "aliases",
          [](const Pattern& p) {
            std::map<std::string, std::string> a;
            for (const Panel& panel : p.panels) a[panel.name] = panel.alias;
            return a;
          },
          "panel name -> placement alias ('' = none)")
      .def_property_readonly(
          "stitches", [](const Pattern& p) { return p.stitches.size(); }, "number of stitches (seams)")
      .def_property_readonly(
          "stitch_list",
          [](const Pattern& p) {
            py::list l;
            for (const Stitch& s : p.stitches)
              l.append(py::make_tuple(p.panels[static_cast<std::size_t>(s.a.panel)].name, s.a.edge,
                                      p.panels[static_cast<std::size_t>(s.b.panel)].name, s.b.edge));
            return l;
          },
          "stitches as (panel_a, edge_a, panel_b, edge_b) tuples")
      .def_readonly("warnings", &Pattern::warnings, "non-fatal findings made while loading")
      .def_readonly("sha256", &Pattern::sha256, "SHA-256 of the file's bytes (hex)")
      .def("__repr__", [](const Pattern& p) {
        return "<drape.Pattern " + p.name + ": " + std::to_string(p.panels.size()) + " panels, " +
               std::to_string(p.stitches.size()) + " stitches>";
      });

  m.def(
      "load_pattern",
      [](const std::string& path) {
        py::gil_scoped_release release;
        return load_pattern(path);
      },
      py::arg("path"),
      "Reads a sewing pattern: GarmentCode JSON (.json) or SVG (.svg, stitches from the\n"
      "<stem>.seams.json sidecar beside it), validated, aliases inferred.\n"
      "Returns a Pattern. Raises OSError when the file cannot be read, ValueError for bad\n"
      "content (the message names the file, panel and edge).");
}

}  // namespace drape::python

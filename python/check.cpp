// drape.check: `drape check --json` as a call (pipeline/garment_check.h): a
// garment mesh's intersections with a body and with itself.

#include <pybind11/stl.h>

#include "bindings.h"
#include "drape/bvh/triangle_mesh_bvh.h"
#include "drape/core/exceptions.h"
#include "drape/geometry/mesh_adjacency.h"
#include "drape/pipeline/garment_check.h"

namespace drape::python {

void bind_check(py::module_& m) {
  m.def(
      "check",
      [](const std::string& garment_path, const std::string& body_path, const std::string& garment_group,
         std::optional<std::string> garment_unit, double cone_angle_degrees, std::optional<std::string> group,
         std::optional<std::string> unit, std::optional<std::string> up, std::optional<std::string> front) {
        const BodyLoadOptions bo = body_options(group, unit, up, front);
        std::optional<LengthUnit> gu;
        if (garment_unit) {
          gu = parse_unit(*garment_unit);
          if (!gu)
            throw InvalidInput("garment_unit: unknown unit '" + *garment_unit + "' (m, dm, cm, mm, in)");
        }
        std::optional<Body> loaded;
        std::optional<GarmentCheck> checked;
        bool closed = false;
        {
          py::gil_scoped_release release;
          loaded = load_body(body_path, bo);
          // The counts are taken in the body file's frame, which garment.obj overlays (as `drape check`).
          const TriangleMesh body_mesh = loaded->in_file_frame(loaded->mesh);
          closed = MeshAdjacency::build(body_mesh).is_closed();
          const TriangleMeshBvh tree(body_mesh);
          checked = check_garment_file(tree, loaded->file_unit, garment_path, garment_group, gu,
                                       cone_angle_degrees * 3.14159265358979323846 / 180);
        }
        const Body& body = *loaded;
        const GarmentCheck& c = *checked;
        py::dict d;
        d["body"] = body_path;
        d["body_group"] = body.group;
        d["body_axes"] = body.axes.describe();
        d["body_unit"] = unit_name(body.file_unit);
        d["body_closed"] = closed;
        d["garment"] = garment_path;
        d["garment_unit"] = unit_name(c.garment_unit);
        d["garment_vertices"] = c.garment.mesh.vertex_count();
        d["garment_triangles"] = c.garment.mesh.face_count();
        d["vertices_inside_body"] = c.counts.vertices_inside_body;
        d["body_crossing_pairs"] = c.counts.body_crossing_pairs;
        d["self_crossing_pairs"] = c.counts.self_crossing_pairs;
        d["clean"] = c.counts.vertices_inside_body == 0 && c.counts.body_crossing_pairs == 0 &&
                     c.counts.self_crossing_pairs == 0;
        return d;
      },
      py::arg("garment_path"), py::arg("body_path"), py::kw_only(), py::arg("garment_group") = "",
      py::arg("garment_unit") = py::none(), py::arg("cone_angle_degrees") = 0.0,
      py::arg("group") = py::none(), py::arg("unit") = py::none(), py::arg("up") = py::none(),
      py::arg("front") = py::none(),
      "Counts a garment mesh's intersections with a body and with itself, as\n"
      "`drape check --json` does: a dict with the same keys (body, body_group, body_axes,\n"
      "body_unit, body_closed, garment, garment_unit, garment_vertices, garment_triangles,\n"
      "vertices_inside_body, body_crossing_pairs, self_crossing_pairs, clean).\n\n"
      "garment_path: garment mesh (.obj, .gltf, .glb), in the body file's frame and unit\n"
      "unless garment_unit is given. body_path: the body; group, unit, up, front as in\n"
      "load_body. garment_group: OBJ group of the garment ('' = all faces).\n"
      "cone_angle_degrees: self test culling half-angle (0 = every pair).\n"
      "Raises OSError / ValueError naming the file for unreadable or bad inputs.");
}

}  // namespace drape::python

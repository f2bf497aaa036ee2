// drape.dress: the job behind `drape dress` (pipeline/dress_job.h) from
// Python. The same DressJob with the same settings, so the garment equals the
// CLI's bit for bit at the same thread count.

#include <pybind11/stl.h>

#include <cstdlib>
#include <map>
#include <memory>

#include "bindings.h"
#include "drape/core/exceptions.h"
#include "drape/core/executor.h"
#include "drape/geometry/units.h"
#include "drape/pipeline/dress_job.h"

namespace drape::python {
namespace {

/// What drape.dress returns; every array is a copy owned by Python.
struct PyDressResult {
  py::array_t<double> vertices;          // (n, 3), body file's frame and unit (as garment.obj)
  py::array_t<std::int32_t> faces;       // (m, 3)
  py::array_t<std::int32_t> face_panel;  // (m,) index into panel_names
  std::vector<std::string> panel_names;
  py::array_t<double> vertex_strain;  // (n,)
  py::array_t<double> body_vertices;  // (k, 3), body file's frame and unit (posed when posed)
  py::array_t<std::int32_t> body_faces;
  std::string unit;
  std::string axes;
  py::object report;  // dict
  std::vector<std::string> warnings;
  std::vector<std::string> written;
  std::string stop_reason;
};

PyDressResult to_python(const DressResult& r) {
  PyDressResult p;
  const double to_unit = 1.0 / metres_per_unit(r.body_unit);
  const Mat3 to_file = r.body_axes.to_canonical().transposed();
  // The garment and body as garment.obj / scene.glb write them: file frame, file unit.
  const TriangleMesh g = rotated(r.drape.mesh, to_file);
  p.vertices = points_array(g.positions, to_unit);
  p.faces = faces_array(g);
  const TriangleMesh b = rotated(r.body, to_file);
  p.body_vertices = points_array(b.positions, to_unit);
  p.body_faces = faces_array(b);
  // Panel of each welded face: its garment face's first vertex's panel (as garment.obj's groups).
  std::vector<std::int32_t> panel(g.face_count(), -1);
  for (std::size_t f = 0; f < panel.size() && f < r.drape.face_map.size(); ++f) {
    const int gf = r.drape.face_map[f];
    if (gf >= 0 && static_cast<std::size_t>(gf) < r.garment.mesh.faces.size()) {
      const int v = r.garment.mesh.faces[static_cast<std::size_t>(gf)][0];
      panel[f] = r.garment.panel_of_vertex[static_cast<std::size_t>(v)];
    }
  }
  p.face_panel = vector_array(panel);
  p.panel_names = r.garment.panel_names;
  p.vertex_strain = vector_array(r.drape.vertex_strain);
  p.unit = unit_name(r.body_unit);
  p.axes = r.body_axes.describe();
  p.report = json_loads(r.report_json);
  p.warnings = r.warnings;
  for (const auto& f : r.written) p.written.push_back(f.string());
  p.stop_reason = r.drape.report.stop_reason;
  return p;
}

constexpr const char* kDressDoc = R"(Sews and drapes a pattern on a body: the job of `drape dress`.

body_path: body mesh (.obj, .gltf, .glb); group, unit, up, front as in load_body.
pattern_path: GarmentCode .json or .svg (+ <stem>.seams.json).
out_dir: folder for garment.obj, scene.glb, render.png, report.json (written
    atomically, only after the simulation succeeded); None = write nothing.
fabric: preset (cotton, denim, silk, jersey) or a fabric .json file.
particle_distance_mm: target particle distance (10 final, 20 draft).
coarse_distance_mm: coarse to fine (as `drape dress --coarse-distance`): sew,
    drape and pose the garment meshed at this distance, then carry it to
    particle_distance_mm and let it settle there; 0 = off (used only when
    larger than particle_distance_mm).
threads: worker threads of the simulation (None = drape's process-wide count,
    see set_threads; `drape --threads N dress` equals set_threads(N) here).
max_frames: frame limit (None = the default, 600).
integrator: 'xpbd' (default), 'symplectic', 'paper', 'explicit'.
substeps, iterations, sewing_iterations, thickness (m): as the CLI options.
self_collision: False turns cloth-cloth collision off.
mesh_method: 'quality' (default) or 'grid'.
aliases: {panel name: alias} overrides.
strict: raise SimulationError when no equilibrium is reached or the garment is
    too small for the body. grade, ease: grade a too-small pattern to the body.
render: False skips render.png.
arms_raised: the garment is sewn with the body's arms raised to
    this many degrees below the horizontal, then worn in the body's pose
    (as `drape dress --arms-raised`, default 0: a T-pose); None sews it on the body as
    it stands.

Returns a DressResult: vertices/faces (numpy, the body file's frame and unit,
as garment.obj), face_panel/panel_names, vertex_strain, report (dict, as
report.json), warnings, written, stop_reason.
Raises OSError (unreadable file), ValueError (bad content or argument; the
message names the file and element), SimulationError (diverged, or strict).
The GIL is released while the job runs.)";

// The data folder of this build (or $DRAPE_DATA_DIR, as the CLI's).
std::string bundled_data_dir() {
  if (const char* env = std::getenv("DRAPE_DATA_DIR"); env && *env) return env;
  return DRAPE_DATA_DIR;
}

}  // namespace

void bind_dress(py::module_& m) {
  py::class_<PyDressResult>(m, "DressResult", "What drape.dress produced (see help(drape.dress)).")
      .def_readonly("vertices", &PyDressResult::vertices,
                    "(n, 3) float64: garment vertices, the body file's frame and unit (as garment.obj)")
      .def_readonly("faces", &PyDressResult::faces, "(m, 3) int32: garment triangles")
      .def_readonly("face_panel", &PyDressResult::face_panel,
                    "(m,) int32: each face's panel, into panel_names")
      .def_readonly("panel_names", &PyDressResult::panel_names, "the garment's panels")
      .def_readonly("vertex_strain", &PyDressResult::vertex_strain,
                    "(n,) float64: per vertex the largest |strain| of its edges")
      .def_readonly("body_vertices", &PyDressResult::body_vertices,
                    "(k, 3) float64: the body as draped on, file frame and unit")
      .def_readonly("body_faces", &PyDressResult::body_faces, "(j, 3) int32: the body's triangles")
      .def_readonly("unit", &PyDressResult::unit, "the body file's unit, which the outputs use")
      .def_readonly("axes", &PyDressResult::axes, "the body file's axes")
      .def_readonly("report", &PyDressResult::report, "the report (report.json) as a dict")
      .def_readonly("warnings", &PyDressResult::warnings, "warnings of the run")
      .def_readonly("written", &PyDressResult::written, "files written into out_dir, in order")
      .def_readonly("stop_reason", &PyDressResult::stop_reason,
                    "how the run ended: equilibrium, stalled_seams, fell_off_body or frame_limit")
      .def("__repr__", [](const PyDressResult& r) {
        return "<drape.DressResult " + r.stop_reason + ": " + std::to_string(r.vertices.shape(0)) +
               " vertices, " + std::to_string(r.faces.shape(0)) + " triangles>";
      });

  m.def(
      "dress",
      [](const std::string& body_path, const std::string& pattern_path, std::optional<std::string> out_dir,
         const std::string& fabric, double particle_distance_mm, std::optional<int> threads,
         std::optional<int> max_frames, const std::string& integrator, std::optional<int> substeps,
         std::optional<int> iterations, std::optional<int> sewing_iterations, std::optional<double> thickness,
         bool self_collision, const std::string& mesh_method, std::map<std::string, std::string> aliases,
         bool strict, bool grade, double ease, bool render, std::optional<std::string> group,
         std::optional<std::string> unit, std::optional<std::string> up, std::optional<std::string> front,
         std::optional<double> arms_raised, double coarse_distance_mm) {
        DressJob job;
        job.body_path = body_path;
        job.pattern_path = pattern_path;
        const BodyLoadOptions bo = body_options(group, unit, up, front);
        job.body_group = bo.group;
        job.body_unit = bo.unit;
        job.body_up = bo.up;
        job.body_front = bo.front;
        if (out_dir) job.out_dir = *out_dir;
        job.fabric = fabric;
        job.particle_distance = particle_distance_mm / 1000.0;
        job.coarse_distance = coarse_distance_mm / 1000.0;
        job.mesh_method = mesh_method;
        job.aliases = std::move(aliases);
        job.cloth.integrator = parse_integrator(integrator);
        if (max_frames) job.cloth.max_frames = *max_frames;
        if (substeps) job.cloth.substeps = *substeps;
        if (iterations) job.cloth.solver_iterations = *iterations;
        if (sewing_iterations) job.cloth.sewing_solver_iterations = *sewing_iterations;
        if (thickness) job.cloth.thickness = *thickness;
        job.cloth.self_collision = self_collision;
        job.strict = strict;
        job.grade = grade;
        job.grade_ease = ease;
        job.write_render = render;
        job.dressing_arm_angle = arms_raised;
        job.skeleton_candidates = {bundled_data_dir() + "/bodies/makehuman/default.mhskel"};
        job.keep_simulation = true;  // for the sewn panels (face_panel); dropped below
        std::unique_ptr<Executor> own;
        if (threads) {
          if (*threads < 0)
            throw InvalidInput("threads: must be 0 (all cores) or more, got " + std::to_string(*threads));
          own = std::make_unique<Executor>(*threads);
        }
        job.cloth.executor = own ? own.get() : &Executor::global();
        DressResult r;
        {
          py::gil_scoped_release release;
          try {
            r = job.Run();
          } catch (const SolverError& e) {
            // The solver's message says what failed; name the job's files too.
            throw SolverError(job.pattern_path.string() + " on " + job.body_path.string() + ": " + e.what());
          }
          r.simulation.reset();
        }
        return to_python(r);
      },
      py::arg("body_path"), py::arg("pattern_path"), py::kw_only(), py::arg("out_dir") = py::none(),
      py::arg("fabric") = "cotton", py::arg("particle_distance_mm") = 20.0, py::arg("threads") = py::none(),
      py::arg("max_frames") = py::none(), py::arg("integrator") = "xpbd", py::arg("substeps") = py::none(),
      py::arg("iterations") = py::none(), py::arg("sewing_iterations") = py::none(),
      py::arg("thickness") = py::none(), py::arg("self_collision") = true, py::arg("mesh_method") = "quality",
      py::arg("aliases") = std::map<std::string, std::string>{}, py::arg("strict") = false,
      py::arg("grade") = false, py::arg("ease") = 0.04, py::arg("render") = true,
      py::arg("group") = py::none(), py::arg("unit") = py::none(), py::arg("up") = py::none(),
      py::arg("front") = py::none(), py::arg("arms_raised") = DressJob{}.dressing_arm_angle,
      py::arg("coarse_distance_mm") = DressJob{}.coarse_distance * 1000, kDressDoc);
}

}  // namespace drape::python

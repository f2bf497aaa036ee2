// The Python module `drape`: load bodies and patterns, dress a body (the job
// behind `drape dress`), count a garment's intersections (`drape check`).
// C++ exceptions become Python ones: InvalidInput -> ValueError, IoError ->
// OSError, SolverError -> drape.SimulationError (a RuntimeError); the message
// is drape's, naming the file and the element.

#include <pybind11/stl.h>

#include "bindings.h"
#include "drape/core/exceptions.h"
#include "drape/core/executor.h"

namespace drape::python {

py::array_t<double> points_array(const std::vector<Vec3>& points, double scale) {
  py::array_t<double> a({static_cast<py::ssize_t>(points.size()), py::ssize_t{3}});
  double* d = a.mutable_data();
  for (std::size_t i = 0; i < points.size(); ++i) {
    d[3 * i + 0] = points[i].x * scale;
    d[3 * i + 1] = points[i].y * scale;
    d[3 * i + 2] = points[i].z * scale;
  }
  return a;
}

py::array_t<std::int32_t> faces_array(const TriangleMesh& mesh) {
  py::array_t<std::int32_t> a({static_cast<py::ssize_t>(mesh.faces.size()), py::ssize_t{3}});
  std::int32_t* d = a.mutable_data();
  for (std::size_t f = 0; f < mesh.faces.size(); ++f)
    for (int k = 0; k < 3; ++k) d[3 * f + k] = mesh.faces[f][k];
  return a;
}

BodyLoadOptions body_options(const std::optional<std::string>& group, const std::optional<std::string>& unit,
                             const std::optional<std::string>& up, const std::optional<std::string>& front) {
  BodyLoadOptions o;
  o.group = group;
  if (unit) {
    o.unit = parse_unit(*unit);
    if (!o.unit) throw InvalidInput("unit: unknown unit '" + *unit + "' (m, dm, cm, mm, in)");
  }
  if (up) o.up = parse_signed_axis(*up, "up");
  if (front) o.front = parse_signed_axis(*front, "front");
  return o;
}

py::object json_loads(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

}  // namespace drape::python

PYBIND11_MODULE(_drape, m) {
  namespace py = pybind11;
  using namespace drape::python;
  m.doc() =
      "drape: sew 2D sewing patterns and drape them on 3D bodies.\n\n"
      "load_body(path) and load_pattern(path) read inputs; dress(body_path, pattern_path, ...)\n"
      "runs the job of `drape dress` and returns a DressResult (numpy arrays, the report);\n"
      "check(garment_path, body_path) counts intersections as `drape check --json`.\n"
      "Bad input raises ValueError (malformed content) or OSError (unreadable file),\n"
      "a failed simulation drape.SimulationError; messages name the file.";

  static py::exception<drape::SolverError> simulation_error(m, "SimulationError", PyExc_RuntimeError);
  simulation_error.doc() =
      "The simulation failed: diverged, or with strict=True no equilibrium / garment too small.";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const drape::InvalidInput& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const drape::IoError& e) {
      PyErr_SetString(PyExc_OSError, e.what());
    } catch (const drape::SolverError& e) {
      simulation_error(e.what());
    }
  });

  m.def(
      "set_threads", [](int threads) { drape::Executor::set_global_threads(threads); }, py::arg("threads"),
      "Sets drape's process-wide worker threads, as `drape --threads N` does (0 = all cores,\n"
      "1 = sequential). Results are deterministic for a given thread count. Call it before\n"
      "starting work, never while a dress() or check() runs in another Python thread.");
  m.def(
      "threads", [] { return drape::Executor::global().thread_count(); },
      "drape's process-wide worker thread count.");

  bind_body_pattern(m);
  bind_dress(m);
  bind_check(m);
}

#pragma once
// Shared pieces of the Python module `drape` (python/module.cpp): numpy
// conversions and the per-topic binding functions. Arrays handed to Python are
// copies (the C++ results they come from do not outlive the call).

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "drape/body/body_loader.h"
#include "drape/core/vec.h"
#include "drape/geometry/triangle_mesh.h"

namespace drape::python {

namespace py = pybind11;

/// (n, 3) float64 array of `points` multiplied by `scale`.
py::array_t<double> points_array(const std::vector<Vec3>& points, double scale = 1.0);
/// (m, 3) int32 array of a mesh's triangles (vertex indices).
py::array_t<std::int32_t> faces_array(const TriangleMesh& mesh);
/// 1-D array of `values`.
template <class T>
py::array_t<T> vector_array(const std::vector<T>& values) {
  py::array_t<T> a(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), a.mutable_data());
  return a;
}

/// Body load options from the Python arguments (None = detect / default).
/// \throw InvalidInput naming the argument for an unknown unit or axis.
BodyLoadOptions body_options(const std::optional<std::string>& group, const std::optional<std::string>& unit,
                             const std::optional<std::string>& up, const std::optional<std::string>& front);

/// Parsed JSON text as Python objects (through the json module).
py::object json_loads(const std::string& text);

void bind_body_pattern(py::module_& m);  // body_pattern.cpp
void bind_dress(py::module_& m);         // dress.cpp
void bind_check(py::module_& m);         // check.cpp

}  // namespace drape::python

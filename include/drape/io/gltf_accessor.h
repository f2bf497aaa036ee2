#pragma once
// One reader for the accessors of a glTF model loaded by tinygltf: the body
// reader (read_gltf) and the skin reader (read_gltf_skin) both read their
// positions, indices, joints, weights and inverse bind matrices through it.
// tinygltf's types are only declared here: include <tiny_gltf.h> to build
// the model (drape::io and drape::rig link tinygltf privately).

#include <cstddef>
#include <string>

namespace tinygltf {
class Model;
struct Accessor;
}  // namespace tinygltf

namespace drape {

/// A checked view of one accessor: element i, component c as a double.
///
/// The constructor refuses, with InvalidInput naming `source`, the accessor
/// (its index and `what` it is read for) and what is wrong:
///  - an accessor index not in the model;
///  - a sparse accessor (its substituted values would be silently missed);
///  - no valid buffer view, or a view naming a missing buffer or lying
///    past the end of its buffer;
///  - an unknown element type, a component type other than float, double,
///    (unsigned) byte, (unsigned) short or unsigned int, or a component count
///    other than `components` (when given);
///  - a byte stride the component size does not divide;
///  - no elements (count 0), or elements reaching past the end of the buffer
///    (overflow-safe: a huge claimed count does not wrap the arithmetic).
/// After that every get(i, c) with i < count() and c < components() reads
/// inside the buffer. Normalised (unsigned) bytes and shorts read as [0, 1]
/// ([-1, 1] when signed), as the glTF specification says.
///
/// The reader keeps references to `model` and `source`: both must outlive it.
class GltfAccessor {
 public:
  /// `model`: the loaded file; `index`: the accessor's index in model.accessors
  /// (as a mesh attribute, `indices` or a skin names it); `source`: the file
  /// name the errors give; `what`: what the accessor is read for, for the
  /// errors ("POSITION", "indices", "inverse bind matrices", "JOINTS_0" ...);
  /// `components`: the components per element required (1 SCALAR, 3 VEC3,
  /// 4 VEC4, 16 MAT4), 0 for any.
  /// \throw InvalidInput as listed above.
  GltfAccessor(const tinygltf::Model& model, int index, const std::string& source, std::string what,
               int components = 0);

  /// The accessor `index` of `model`, only checked to exist (for a size
  /// limit checked before anything is read or allocated).
  /// \throw InvalidInput naming `source`, the index and `what` when it does not exist.
  static const tinygltf::Accessor& find(const tinygltf::Model& model, int index, const std::string& source,
                                        const std::string& what);

  std::size_t count() const { return count_; }    ///< elements (at least 1)
  int components() const { return components_; }  ///< per element (1 to 16)
  int index_in_model() const { return index_; }   ///< the accessor's index in model.accessors

  /// Element `i`, component `c` (unchecked: i < count(), c < components()).
  /// Integers are converted exactly; normalised ones scaled as above.
  double get(std::size_t i, int c) const;

  /// Element `i` of a MAT4 accessor read as the matrix glTF stores column by
  /// column: the entry at `row`, `column` (0..3; unchecked, as get()).
  double matrix_entry(std::size_t i, int row, int column) const { return get(i, column * 4 + row); }

  /// Element `i`, component `c` as an index into `limit` things named `of`
  /// ("vertices", "joints"): refused unless the value is finite, whole and in
  /// [0, limit), tested on the double before any integer cast (a float of
  /// 2.3e9 or NaN cast to int is undefined).
  /// \throw InvalidInput naming `source`, the accessor, the element, the value and the limit.
  int index(std::size_t i, int c, std::size_t limit, const char* of) const;

  /// "glTF <what> accessor <index>", the start of this reader's errors.
  std::string name() const;

 private:
  const std::string& source_;
  std::string what_;
  int index_ = -1;
  const unsigned char* base_ = nullptr;  // the first element's first byte
  std::size_t stride_ = 0;               // bytes from one element to the next
  std::size_t component_bytes_ = 0;
  std::size_t count_ = 0;
  int components_ = 0;
  int component_type_ = 0;  // TINYGLTF_COMPONENT_TYPE_*
  bool normalized_ = false;
};

}  // namespace drape
